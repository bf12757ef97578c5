"""The README's options table is generated from the options table, and every row is documented."""

from __future__ import annotations

import pytest

from tests._child import ROOT
from tfcompat_gpu.settings.options import OPTIONS, fill_readme

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_options_table_is_up_to_date():
    assert fill_readme(README) == README, "run: python -m tfcompat_gpu.settings.options README.md"


@pytest.mark.parametrize("option", OPTIONS, ids=[o.name for o in OPTIONS])
def test_every_option_is_documented(option):
    assert f"`{option.proto_path}` | `{option.name}`" in README
    if option.env:
        assert f"`{option.env}`" in README


@pytest.mark.parametrize("option", OPTIONS, ids=[o.name for o in OPTIONS])
def test_table_rows_are_consistent(option):
    # Per-session options never conflict; process-wide ones have a severity.
    assert (option.conflict == "never") == (not option.process_wide)
    # Options TensorFlow accepts after start are exactly the per-session switches: placement,
    # XLA auto-clustering and grappler's mixed precision.
    assert option.after_start == (
        option.name
        in ("allow_soft_placement", "log_device_placement", "jit", "auto_mixed_precision")
    )
