"""LibCST for the modules the pre-checks import: loaded on the first use of a name in it.

A command is one module that holds both its text pre-check and its rewrite, and deciding that
a file needs no command imports every command.  Importing LibCST costs about 0.3 s, so the
commands and the helpers they import (``_base``, ``_names``, ``_imports``, ``_dataflow``, the
emitters) take ``cst`` and ``meta`` from here instead of importing LibCST: nothing is loaded
until a rewrite runs.  A module of that set evaluates no LibCST name when it is imported
(annotations are strings, type aliases sit under ``TYPE_CHECKING``, a visitor that subclasses
LibCST's is defined in the function that uses it); ``tests/codemod/test_focus.py`` checks it.

After the first use each proxy holds the real module's names and is a plain module, so
``cst.Name`` costs what it does on the real module.
"""

from __future__ import annotations

import functools
import importlib
import types
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

__all__ = ["cst", "meta", "visit_with"]


class _OnFirstUse(types.ModuleType):
    """A stand-in for a module that imports it when one of its names is first asked for."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)  # copy, pickle and inspect probe these: no load
        module = importlib.import_module(self.__name__)
        self.__dict__.update(module.__dict__)
        # a plain module from now on: a class with __getattr__ routes every lookup through
        # it (7 times the cost of a module attribute, on the walk's hot paths)
        self.__class__ = types.ModuleType  # type: ignore[assignment]
        return getattr(module, name)


if TYPE_CHECKING:
    import libcst as cst
    import libcst.metadata as meta
else:
    cst = _OnFirstUse("libcst")
    meta = _OnFirstUse("libcst.metadata")


def visit_with(node: cst.CSTNode, visitor: object) -> None:
    """Walk ``node`` with a plain object's ``visit_<Node>`` / ``leave_<Node>`` methods.

    As LibCST's ``CSTVisitor`` calls them (a ``visit_`` that returns False skips the node's
    children): a visitor of a module that must load without LibCST cannot subclass it.
    """
    node.visit(_adapter()(visitor))


@functools.cache
def _adapter() -> Callable[[object], cst.CSTVisitor]:
    class Adapter(cst.CSTVisitor):
        def __init__(self, visitor: object) -> None:
            super().__init__()
            self._visitor = visitor

        def on_visit(self, node: cst.CSTNode) -> bool:
            visit = getattr(self._visitor, f"visit_{type(node).__name__}", None)
            return visit is None or visit(node) is not False

        def on_leave(self, original_node: cst.CSTNode) -> None:
            leave = getattr(self._visitor, f"leave_{type(original_node).__name__}", None)
            if leave is not None:
                leave(original_node)

    return Adapter
