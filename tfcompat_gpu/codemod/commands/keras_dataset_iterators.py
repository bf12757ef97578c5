"""A one-shot iterator of a dataset handed to Keras' ``fit`` / ``evaluate`` / ``predict`` → the
dataset.

tf.keras of TF 1.9-1.15 trained on ``model.fit(dataset.make_one_shot_iterator(),
steps_per_epoch=...)`` (or ``tf.data.make_one_shot_iterator(dataset)``, TF 1.13's spelling),
drawing each epoch's steps where the last epoch stopped.  TensorFlow 2's datasets have no
``make_one_shot_iterator`` method, and Keras 3 (like tf_keras) refuses an iterator: "accept
tf.data Datasets as input but not iterators".  Keras 3 given the dataset and ``steps_per_epoch``
also goes on from where the last epoch stopped (its epoch iterator is kept until the data run
out), so the iterator's dataset is what the call gets.  Only an iterator made in the argument
itself changes (``x``, the first argument, or ``validation_data``); one bound to a name first,
or one whose ``get_next()`` is taken, is left.
"""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._triage import text_search

__all__ = ["KerasDatasetIteratorsCommand"]

_METHODS = frozenset({"fit", "evaluate", "predict"})
_ARGUMENTS = frozenset({"x", "validation_data"})
_TEXT = re.compile(r"make_one_shot_iterator\s*\(")
_wanted = text_search(_TEXT, "make_one_shot_iterator")
_FUNCTIONS = (
    "tensorflow.data.make_one_shot_iterator",
    "tensorflow.compat.v1.data.make_one_shot_iterator",
)


def _relevant(statement: str) -> bool:
    return _TEXT.search(statement) is not None


class KerasDatasetIteratorsCommand(MigrationCommand):
    DESCRIPTION = (
        "dataset.make_one_shot_iterator() handed to Keras' fit / evaluate / predict to the "
        "dataset (Keras takes no iterator)."
    )
    PRECHECK = Precheck(_wanted, _relevant)
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not self._handed_to_keras(original_node):
            return updated_node
        func = updated_node.func
        if (
            isinstance(func, cst.Attribute)
            and func.attr.value == "make_one_shot_iterator"
            and not updated_node.args
        ):
            return func.value.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
        if (
            any(name in _FUNCTIONS for name in self.names_of(original_node.func))
            and len(updated_node.args) == 1
            and updated_node.args[0].keyword is None
            and not updated_node.args[0].star
        ):
            return updated_node.args[0].value
        return updated_node

    def _handed_to_keras(self, node: cst.Call) -> bool:
        """``node`` is the ``x`` (first) or ``validation_data`` argument of ``.fit(...)``,
        ``.evaluate(...)`` or ``.predict(...)``."""
        arg = self.parent(node)
        call = self.parent(arg) if isinstance(arg, cst.Arg) else None
        if not isinstance(arg, cst.Arg) or not isinstance(call, cst.Call):
            return False
        func = call.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in _METHODS:
            return False
        if arg.keyword is not None:
            return arg.keyword.value in _ARGUMENTS
        return arg is call.args[0] and not arg.star
