"""``metrics=['accuracy']`` → ``metrics=['acc']`` where the file reads the ``'acc'`` keys.

Keras 2.0-2.2 logged ``metrics=['accuracy']`` as ``acc`` / ``val_acc``; Keras 2.3 and later,
tf.keras 2 and Keras 3 log it as ``accuracy`` / ``val_accuracy``, so an old script's
``history.history['acc']`` raises ``KeyError`` and ``ModelCheckpoint(monitor='val_acc')`` or a
file name ``'{val_acc:.2f}'`` is skipped with a warning.  Keras 3 still names a metric given as
``'acc'`` ``acc`` (keras/src/trainers/compile_utils.py keeps the string a metric was given as
its name), so asking for ``'acc'`` brings the old keys back and nothing else changes.  Done only
in a file that reads ``acc``/``val_acc`` and never ``accuracy``/``val_accuracy`` as a key; a
``metrics=`` that is not a literal list, tuple or dict there is left with a warning.
"""

from __future__ import annotations

import ast
import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.tfapi.keras_names import NEW_ACCURACY_KEYS, OLD_ACCURACY_KEYS, accuracy_keys

__all__ = ["KerasAccuracyKeysCommand"]

_OLD_KEYS = OLD_ACCURACY_KEYS
_NEW_KEYS = NEW_ACCURACY_KEYS
_KERAS = re.compile(r"\bkeras\b")


def _wanted(text: str, tree: object = None) -> bool:
    return "accuracy" in text and (
        "acc'" in text or 'acc"' in text or "acc:" in text or "acc}" in text
    )


def _relevant(text: str) -> bool:
    # compile() calls, and every statement that may read a key: the walk holds only the
    # statements a command finds relevant
    return "compile" in text or "acc" in text


def _keys(source: str) -> set[str]:
    """The accuracy keys a module reads (:func:`~tfcompat_gpu.tfapi.keras_names.accuracy_keys`),
    from the file's text."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
    return accuracy_keys(tree)


class KerasAccuracyKeysCommand(MigrationCommand):
    DESCRIPTION = "metrics=['accuracy'] to ['acc'] where the file reads Keras 2.0-2.2's 'acc' keys."
    PRECHECK = Precheck(_wanted, _relevant)
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        text = self.source_text()
        keys = _keys(text)
        self._wanted = _KERAS.search(text) is not None and bool(keys & _OLD_KEYS)
        if self._wanted and keys & _NEW_KEYS:
            self._wanted = False
            self.warn(
                "1: metrics=['accuracy'] left unchanged: the file reads both Keras 2.0-2.2's "
                "'acc' keys and the 'accuracy' keys later Keras logs; with Keras 3 only "
                "'accuracy' / 'val_accuracy' exist for metrics=['accuracy'] [both accuracy keys]"
            )

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if not self._wanted or not isinstance(func, cst.Attribute) or func.attr.value != "compile":
            return updated_node
        args = list(updated_node.args)
        for index, arg in enumerate(args):
            if arg.keyword is None or arg.keyword.value != "metrics":
                continue
            value = _renamed(arg.value)
            if value is None:
                if "accuracy" in self.module.code_for_node(arg.value):
                    continue  # a literal this command reads and that needs nothing
                self.warn_at(
                    original_node,
                    "metrics= left unchanged: it is not a literal list, tuple or dict, and the "
                    "file reads the 'acc' keys Keras 2.0-2.2 logged for metrics=['accuracy']; "
                    "ask for 'acc' to get them with Keras 3 [metrics not a literal]",
                )
                continue
            args[index] = arg.with_changes(value=value)
            return updated_node.with_changes(args=args)
        return updated_node


def _renamed(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """``node`` with each ``'accuracy'`` item made ``'acc'``; None when not a literal."""
    if isinstance(node, (cst.List, cst.Tuple)):
        elements = [
            element.with_changes(value=_acc(element.value))
            if isinstance(element, cst.Element)
            else element
            for element in node.elements
        ]
        return node.with_changes(elements=elements)
    if isinstance(node, cst.Dict):  # {'output_a': ['accuracy'], ...}
        items = []
        for element in node.elements:
            if isinstance(element, cst.DictElement):
                inner = _renamed(element.value)
                element = element.with_changes(value=inner if inner is not None else element.value)
            items.append(element)
        return node.with_changes(elements=items)
    if isinstance(node, cst.SimpleString):
        return _acc(node)
    return None


def _acc(node: cst.BaseExpression) -> cst.BaseExpression:
    if isinstance(node, cst.SimpleString) and node.evaluated_value == "accuracy":
        return node.with_changes(value=f"{node.prefix}{node.quote}acc{node.quote}")
    return node
