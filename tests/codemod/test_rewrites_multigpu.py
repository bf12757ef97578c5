"""The multi-GPU migrations as before/after pairs, their warnings, and idempotence."""

from __future__ import annotations

import pytest

pytest.importorskip("libcst")

from _support import assert_warnings
from cases_multigpu import CASES

from tfcompat_gpu.codemod.api import migrate_source


@pytest.mark.parametrize(
    ("before", "after", "warnings"), [pytest.param(b, a, w, id=i) for i, b, a, w in CASES]
)
def test_rewrite(before: str, after: str, warnings: list[tuple[int, str]]) -> None:
    result = migrate_source(before)
    assert result.code == after
    assert_warnings(result.warnings, warnings)
    compile(result.code, "<migrated>", "exec")


@pytest.mark.parametrize("before", [pytest.param(b, id=i) for i, b, _, _ in CASES])
def test_second_run_changes_nothing(before: str) -> None:
    once = migrate_source(before).code
    assert migrate_source(once).code == once


def test_session_soft_placement_is_for_the_facade() -> None:
    # tf.config.set_soft_device_placement does not reach a v1 session: the tf2 target leaves it
    before = next(b for i, b, _, _ in CASES if i == "session-soft-placement-towers")
    code = migrate_source(before, target="tf2").code
    assert "with tf.Session() as sess:" in code
    assert "GPUConfig" not in code
