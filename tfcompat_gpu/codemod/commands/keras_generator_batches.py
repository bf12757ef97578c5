"""Batches a Python generator hands to ``fit()`` as lists → tuples.

Keras 2 took a generator's batch as ``(inputs, targets)`` with either part a list of arrays for
a model of several inputs or outputs (``yield [x1, x2], y``; CapsNet-Keras' ``yield ([x_batch,
y_batch], [y_batch, x_batch])``, siamese pairs, encoder-decoder inputs).  Keras 3 on TensorFlow
builds a ``tf.data`` pipeline from the first batch, and ``tf.data`` takes tuples, not lists, as
structure: ``fit()`` stops with "`output_signature` must contain objects that are subclass of
`tf.TypeSpec` but found <class 'list'>".  A model reads a tuple of inputs as it reads the list,
so in a generator function that the file hands to ``fit`` / ``evaluate`` / ``predict`` (or their
Keras 2 ``_generator`` forms, ``validation_data=`` included), a list display yielded, or one
inside the yielded tuple, becomes a tuple display.  Lists built elsewhere and yielded by name
are left as they are.
"""

from __future__ import annotations

import ast
import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._triage import text_search

__all__ = ["KerasGeneratorBatchesCommand"]

_TRAINING = frozenset(
    {
        "fit",
        "evaluate",
        "predict",
        "fit_generator",
        "evaluate_generator",
        "predict_generator",
    }
)
_GIVEN = frozenset({"x", "generator", "validation_data"})
_YIELD_LIST = re.compile(r"\byield\b[^\n]*\[")
_wanted = text_search(_YIELD_LIST, "yield")


def _relevant(text: str) -> bool:
    return _YIELD_LIST.search(text) is not None


def _generators(source: str) -> set[str]:
    """Names of the functions whose calls the file hands to a training method."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    found: set[str] = set()
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _TRAINING
        ):
            continue
        given = node.args[:1] + [k.value for k in node.keywords if k.arg in _GIVEN]
        for value in given:
            if isinstance(value, ast.Call):
                func = value.func
                if isinstance(func, ast.Name):
                    found.add(func.id)
                elif isinstance(func, ast.Attribute):
                    found.add(func.attr)
    return found


def _tupled(node: cst.BaseExpression) -> cst.BaseExpression:
    if isinstance(node, cst.List):
        return cst.Tuple(
            elements=node.elements,
            lpar=[cst.LeftParen()] if not node.lpar else node.lpar,
            rpar=[cst.RightParen()] if not node.rpar else node.rpar,
        )
    return node


class KerasGeneratorBatchesCommand(MigrationCommand):
    DESCRIPTION = (
        "Lists in the batches a generator hands to fit() (yield [x1, x2], y) to tuples, which "
        "Keras 3's tf.data pipeline takes."
    )
    PRECHECK = Precheck(_wanted, _relevant)
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        self._generators = _generators(self.source_text())
        self._functions: list[str] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._functions.append(node.name.value)

    def leave_FunctionDef(
        self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef
    ) -> cst.FunctionDef:
        self._functions.pop()
        return updated_node

    def leave_Yield(self, original_node: cst.Yield, updated_node: cst.Yield) -> cst.Yield:
        value = updated_node.value
        if (
            not self._functions
            or self._functions[-1] not in self._generators
            or not isinstance(value, (cst.List, cst.Tuple))
        ):
            return updated_node
        if isinstance(value, cst.List):
            return updated_node.with_changes(value=_tupled(value))
        elements = [e.with_changes(value=_tupled(e.value)) for e in value.elements]
        return updated_node.with_changes(value=value.with_changes(elements=elements))
