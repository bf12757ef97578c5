"""``it.next()`` of Keras 2's image iterators → ``next(it)``.

Keras 2's ``ImageDataGenerator.flow`` / ``flow_from_directory`` / ``flow_from_dataframe``
returned iterators with a ``next()`` method (keras_preprocessing's ``Iterator``, kept for
Python 2), which training loops call for one batch: ``x_batch, y_batch = generator.next()``
(CapsNet's shifted-MNIST generator, U-Net and GAN loops that draw augmented batches).
Keras 3's copies of these iterators (``tf.keras.preprocessing.image``) have only Python 3's
``__next__``, so the call stops with ``AttributeError``; ``next(it)`` is the same batch on both.
Rewritten where the object is such a call (``datagen.flow(x, y).next()``), or a name every
assignment of the file binds to one.
"""

from __future__ import annotations

import ast
import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._triage import text_search

__all__ = ["KerasIteratorNextCommand"]

_FLOWS = frozenset({"flow", "flow_from_directory", "flow_from_dataframe"})
_NEXT = re.compile(r"\.next\(\s*\)")
_wanted = text_search(_NEXT, ".next(")


def _relevant(text: str) -> bool:
    return _NEXT.search(text) is not None


def _is_flow(node: cst.BaseExpression) -> bool:
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value in _FLOWS
    )


def _iterators(source: str) -> set[str]:
    """Names whose every binding in the file is a plain assignment of a ``.flow*(...)`` call
    (read with :mod:`ast` from the whole text: LibCST may be given only some statements)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:  # a notebook's IPython lines: only the direct .flow(...).next()
        return set()
    from_flow = {
        id(target)
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Attribute)
        and node.value.func.attr in _FLOWS
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    flows: set[str] = set()
    others: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            (flows if id(node) in from_flow else others).add(node.id)
        elif isinstance(node, ast.arg):
            others.add(node.arg)
    return flows - others


class KerasIteratorNextCommand(MigrationCommand):
    DESCRIPTION = (
        "it.next() of Keras 2's image iterators (ImageDataGenerator.flow / flow_from_directory) "
        "to next(it), which Keras 3's iterators take."
    )
    PRECHECK = Precheck(_wanted, _relevant)
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        self._iterators = _iterators(self.source_text())

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if updated_node.args or not isinstance(func, cst.Attribute) or func.attr.value != "next":
            return updated_node
        owner = func.value
        iterator = _is_flow(owner) or (
            isinstance(owner, cst.Name) and owner.value in self._iterators
        )
        if not iterator:
            return updated_node
        return cst.Call(func=cst.Name("next"), args=[cst.Arg(value=owner)])
