"""Batches a Python generator hands to ``fit()`` as lists → tuples.

Keras 2 took a generator's batch as ``(inputs, targets)`` with either part a list of arrays for
a model of several inputs or outputs (``yield [x1, x2], y``; CapsNet-Keras' ``yield ([x_batch,
y_batch], [y_batch, x_batch])``, siamese pairs, encoder-decoder inputs).  Keras 3 on TensorFlow
builds a ``tf.data`` pipeline from the first batch, and ``tf.data`` takes tuples, not lists, as
structure: ``fit()`` stops with "`output_signature` must contain objects that are subclass of
`tf.TypeSpec` but found <class 'list'>".  A model reads a tuple of inputs as it reads the list,
so in a generator function that the file hands to ``fit`` / ``evaluate`` / ``predict`` (or their
Keras 2 ``_generator`` forms, ``validation_data=`` included), directly or through a function
that returns its call (``data_generator_wrapper(...)`` returning ``data_generator(...)``), a
list display yielded, or one inside the yielded tuple, becomes a tuple display.  Lists built elsewhere and yielded by name
are left as they are.

A data class of Keras' own (a subclass of ``keras.utils.Sequence`` or of
``keras.preprocessing.image.Iterator``, which Keras 3 reads as a ``PyDataset`` through the
same ``tf.data`` pipeline) hands its batches back from ``__getitem__``,
``_get_batches_of_transformed_samples`` or ``next``: a list display returned there (``return
batch_x, [batch_steer, batch_coll]``, a drone-navigation model's two outputs) becomes a tuple,
and so does the list display bound to a name that the method reads only in its return
(``batch_y = [batch_steer, batch_coll]`` before ``return batch_x, batch_y``).
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
_DATA_CLASS = re.compile(r"\b(?:Sequence|Iterator)\b[^\n]*\)\s*:")
_WANTED = re.compile(_YIELD_LIST.pattern + "|" + _DATA_CLASS.pattern)
# a data class's batch methods, and in them the returns and the list displays bound to a name
_IN_METHOD = re.compile(
    r"^\s*(?:return\b|\w+\s*=\s*\[|def\s+(?:__getitem__|_get_batches_of_transformed_samples"
    r"|next)\s*\()",
    re.MULTILINE,
)
_wanted = text_search(_WANTED, "yield", "Sequence", "Iterator")
_BATCH_METHODS = frozenset({"__getitem__", "_get_batches_of_transformed_samples", "next"})
_DATA_BASES = frozenset({"Sequence", "PyDataset", "Iterator", "DirectoryIterator"})
_KERAS = ("keras.", "tensorflow.keras.", "tensorflow.python.keras.", "keras_preprocessing.")


def _relevant(text: str) -> bool:
    return (
        _YIELD_LIST.search(text) is not None
        or _DATA_CLASS.search(text) is not None
        or _IN_METHOD.search(text) is not None
    )


def _returned_once(function: cst.FunctionDef) -> set[str]:
    """Names the function binds once, to a list display, and reads only in a ``return``."""
    bound: dict[str, int] = {}
    lists: set[str] = set()
    reads: dict[str, int] = {}
    returned: dict[str, int] = {}

    class Names(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    name = target.target.value
                    bound[name] = bound.get(name, 0) + 1
                    if isinstance(node.value, cst.List) and len(node.targets) == 1:
                        lists.add(name)

        def visit_Return(self, node: cst.Return) -> None:
            value = node.value
            parts = value.elements if isinstance(value, cst.Tuple) else ()
            for part in parts:
                if isinstance(part.value, cst.Name):
                    returned[part.value.value] = returned.get(part.value.value, 0) + 1

        def visit_Name(self, node: cst.Name) -> None:
            reads[node.value] = reads.get(node.value, 0) + 1

    function.body.visit(Names())
    return {
        name
        for name in lists
        if bound.get(name) == 1 and returned.get(name) == 1 and reads.get(name) == 2
    }


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
    # a wrapper that returns the generator function's call (keras-yolo3's
    # ``data_generator_wrapper``, which returns ``None`` for no lines, else ``data_generator(...)``)
    returns: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            called = returns.setdefault(node.name, set())
            for inner in ast.walk(node):
                if isinstance(inner, ast.Return) and isinstance(inner.value, ast.Call):
                    func = inner.value.func
                    if isinstance(func, ast.Name):
                        called.add(func.id)
                    elif isinstance(func, ast.Attribute):
                        called.add(func.attr)
    todo = list(found)
    while todo:
        for name in returns.get(todo.pop(), ()):
            if name not in found:
                found.add(name)
                todo.append(name)
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
        self._scopes: list[bool | None] = []  # per class: a data class?; per function: None
        self._batches: list[set[str] | None] = []  # per function: its batch names, if a method

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._scopes.append(
            any(
                name.startswith(_KERAS) and name.rpartition(".")[2] in _DATA_BASES
                for base in node.bases
                for name in self.names_of(base.value)
            )
        )

    def leave_ClassDef(
        self, original_node: cst.ClassDef, updated_node: cst.ClassDef
    ) -> cst.ClassDef:
        self._scopes.pop()
        return updated_node

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        method = bool(self._scopes and self._scopes[-1]) and node.name.value in _BATCH_METHODS
        self._batches.append(_returned_once(node) if method else None)
        self._functions.append(node.name.value)
        self._scopes.append(None)

    def leave_FunctionDef(
        self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef
    ) -> cst.FunctionDef:
        self._functions.pop()
        self._batches.pop()
        self._scopes.pop()
        return updated_node

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> cst.Assign:
        names = self._batches[-1] if self._batches else None
        target = updated_node.targets[0].target
        if not names or not isinstance(target, cst.Name) or target.value not in names:
            return updated_node
        return updated_node.with_changes(value=_tupled(updated_node.value))

    def leave_Return(self, original_node: cst.Return, updated_node: cst.Return) -> cst.Return:
        value = updated_node.value
        if not self._batches or self._batches[-1] is None:
            return updated_node
        if isinstance(value, cst.List):
            return updated_node.with_changes(value=_tupled(value))
        if not isinstance(value, cst.Tuple):
            return updated_node
        elements = [e.with_changes(value=_tupled(e.value)) for e in value.elements]
        return updated_node.with_changes(value=value.with_changes(elements=elements))

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
