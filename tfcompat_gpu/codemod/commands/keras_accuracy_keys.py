"""``metrics=['accuracy']`` → ``['acc']``, ``['mae']`` → ``['mean_absolute_error']`` where the
file reads the keys Keras 2.0-2.2 logged those metrics under.

Keras 2.0-2.2 logged ``metrics=['accuracy']`` as ``acc`` / ``val_acc`` and an abbreviated
string such as ``'mae'`` under its function's full name (``mean_absolute_error`` /
``val_mean_absolute_error``); Keras 2.3 and later, tf.keras 2 and Keras 3 log the string itself
(``accuracy``, ``mae``), so an old script's ``history.history['acc']`` raises ``KeyError`` and
``ModelCheckpoint(monitor='val_mean_squared_error')`` or a file name ``'{val_acc:.2f}'`` is
skipped with a warning.  Keras 3 names a metric given as a string by that string
(keras/src/trainers/compile_utils.py), so asking for ``'acc'`` or ``'mean_absolute_error'``
brings the old keys back and nothing else changes.  The table is
:data:`~tfcompat_gpu.tfapi.keras_names.KERAS2_METRIC_KEYS`.  Done only in a file that reads a
metric's old keys and never its later ones (a file that reads both is left with a warning); a
``metrics=`` that is not a literal list, tuple or dict there is left with a warning, and so is a
metric whose old key Keras 3 takes no metric by (``'cosine'``, logged as ``cosine_proximity``).
"""

from __future__ import annotations

import ast
import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.tfapi.keras_names import (
    KERAS2_METRIC_KEYS,
    KERAS3_UNKNOWN_METRICS,
    metric_keys,
    metric_renames,
    reads_new_metric_key,
    reads_old_metric_key,
)

__all__ = ["KerasAccuracyKeysCommand"]

_KERAS = re.compile(r"\bkeras\b")
_OLD = frozenset(KERAS2_METRIC_KEYS.values())
_NAMES = tuple(sorted(_OLD | {given.lower() for given in KERAS2_METRIC_KEYS}))


def _wanted(text: str, tree: object = None) -> bool:
    return any(f"'{given}'" in text or f'"{given}"' in text for given in KERAS2_METRIC_KEYS) and (
        any(old + end in text for old in _OLD for end in ("'", '"', ":", "}"))
    )


def _relevant(text: str) -> bool:
    # compile() calls, and every statement that may read a key: the walk holds only the
    # statements a command finds relevant
    return "compile" in text or any(name in text.lower() for name in _NAMES)


def _read(source: str) -> tuple[set[str], set[str]]:
    """The metric keys a module reads (:func:`~tfcompat_gpu.tfapi.keras_names.metric_keys`)
    and the metric strings of the table it holds, from the file's text."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set(), set()
    given = {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        if node.value in KERAS2_METRIC_KEYS
    }
    return metric_keys(tree), given


def _both(given: str) -> str:
    old = KERAS2_METRIC_KEYS[given]
    if given == "accuracy":
        return (
            "1: metrics=['accuracy'] left unchanged: the file reads both Keras 2.0-2.2's "
            "'acc' keys and the 'accuracy' keys later Keras logs; with Keras 3 only "
            "'accuracy' / 'val_accuracy' exist for metrics=['accuracy'] [both accuracy keys]"
        )
    return (
        f"1: metrics=['{given}'] left unchanged: the file reads both '{old}', the key Keras "
        f"2.0-2.2 logged it under, and '{given}', the key later Keras logs; with Keras 3 only "
        f"'{given}' / 'val_{given}' exist for metrics=['{given}'] [both metric keys]"
    )


class KerasAccuracyKeysCommand(MigrationCommand):
    DESCRIPTION = (
        "metrics=['accuracy'] to ['acc'], ['mae'] to ['mean_absolute_error'] (and mse, mape, "
        "msle) where the file reads the keys Keras 2.0-2.2 logged them under."
    )
    PRECHECK = Precheck(_wanted, _relevant)
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        text = self.source_text()
        keys, given = _read(text)
        self._renames: dict[str, str] = {}
        self._unknown: set[str] = set()
        if _KERAS.search(text) is None:
            return
        self._renames = metric_renames(keys)
        for name in sorted(given):
            if not reads_old_metric_key(keys, name):
                continue
            if reads_new_metric_key(keys, name):
                self.warn(_both(name))
            elif KERAS2_METRIC_KEYS[name] in KERAS3_UNKNOWN_METRICS:
                self._unknown.add(name)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if (
            not (self._renames or self._unknown)
            or not isinstance(func, cst.Attribute)
            or func.attr.value != "compile"
        ):
            return updated_node
        args = list(updated_node.args)
        for index, arg in enumerate(args):
            if arg.keyword is None or arg.keyword.value != "metrics":
                continue
            value = _renamed(arg.value, self._renames)
            if value is None:
                code = self.module.code_for_node(arg.value)
                if not self._renames or any(given in code for given in self._renames):
                    continue  # a literal this command reads and that needs nothing
                asked = ", ".join(f"'{old}' for '{given}'" for given, old in self._renames.items())
                self.warn_at(
                    original_node,
                    "metrics= left unchanged: it is not a literal list, tuple or dict, and the "
                    "file reads the keys Keras 2.0-2.2 logged its metrics under; ask for "
                    f"{asked} to get them with Keras 3 [metrics not a literal]",
                )
                continue
            for name in sorted(self._unknown & _strings(arg.value)):
                old = KERAS2_METRIC_KEYS[name]
                self.warn_at(
                    original_node,
                    f"metrics=['{name}'] left unchanged: the file reads '{old}', the key Keras "
                    f"2.0-2.2 logged it under, and Keras 3 takes no metric named '{old}'; give "
                    f"a metric object that name (name='{old}') to log that key "
                    "[old metric key not in Keras 3]",
                )
            args[index] = arg.with_changes(value=value)
            return updated_node.with_changes(args=args)
        return updated_node


def _strings(node: cst.BaseExpression) -> set[str]:
    """The strings of a literal ``metrics=`` (list, tuple, dict of them)."""
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return {value} if isinstance(value, str) else set()
    if isinstance(node, (cst.List, cst.Tuple)):
        return {
            found
            for element in node.elements
            if isinstance(element, cst.Element)
            for found in _strings(element.value)
        }
    if isinstance(node, cst.Dict):
        return {
            found
            for element in node.elements
            if isinstance(element, cst.DictElement)
            for found in _strings(element.value)
        }
    return set()


def _renamed(node: cst.BaseExpression, renames: dict[str, str]) -> cst.BaseExpression | None:
    """``node`` with each metric string of ``renames`` made its old key; None when not a
    literal."""
    if isinstance(node, (cst.List, cst.Tuple)):
        elements = [
            element.with_changes(value=_string(element.value, renames))
            if isinstance(element, cst.Element)
            else element
            for element in node.elements
        ]
        return node.with_changes(elements=elements)
    if isinstance(node, cst.Dict):  # {'output_a': ['accuracy'], ...}
        items = []
        for element in node.elements:
            if isinstance(element, cst.DictElement):
                inner = _renamed(element.value, renames)
                element = element.with_changes(value=inner if inner is not None else element.value)
            items.append(element)
        return node.with_changes(elements=items)
    if isinstance(node, cst.SimpleString):
        return _string(node, renames)
    return None


def _string(node: cst.BaseExpression, renames: dict[str, str]) -> cst.BaseExpression:
    if isinstance(node, cst.SimpleString):
        old = renames.get(node.evaluated_value)  # type: ignore[arg-type]
        if old is not None:
            return node.with_changes(value=f"{node.prefix}{node.quote}{old}{node.quote}")
    return node
