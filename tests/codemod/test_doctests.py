"""The examples in the codemod's docstrings are what the code does."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

pytest.importorskip("libcst")

import tfcompat_gpu.codemod

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(tfcompat_gpu.codemod.__path__, "tfcompat_gpu.codemod.")
)


def test_some_module_has_examples() -> None:
    found = doctest.DocTestFinder().find(importlib.import_module("tfcompat_gpu.codemod.api"))
    assert any(test.examples for test in found)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failed, _ = doctest.testmod(module, verbose=False, report=True)
    assert failed == 0, name
