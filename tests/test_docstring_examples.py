"""The ``>>>`` examples in the package's docstrings run, and show what the code returns."""

from __future__ import annotations

import doctest
import importlib

import pytest

from tests._child import ROOT

PACKAGE = ROOT / "tfcompat_gpu"


def _modules_with_examples() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if ">>> " in path.read_text(encoding="utf-8"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


MODULES = _modules_with_examples()


def test_examples_are_found():
    assert "tfcompat_gpu.settings.options" in MODULES
    assert "tfcompat_gpu.settings.kinds" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
