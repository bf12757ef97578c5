"""``x.get_shape().as_list()`` → ``list(x.shape)`` in Keras code: Keras 3's tensors have no
``get_shape``.

Keras 2 built its models from TensorFlow tensors, so the multi-GPU helpers of its time (the
``make_parallel`` that slices each of ``model.inputs`` for a tower: ``input_shape =
tuple(x.get_shape().as_list())[1:]``) read a symbolic input's static shape the TensorFlow way.
Keras 3's symbolic tensors (``KerasTensor``, keras/src/backend/common/keras_tensor.py) keep the
shape as a tuple in ``shape`` and have no ``get_shape``: the script stops with "'KerasTensor'
object has no attribute 'get_shape'".  ``list(x.shape)`` is the same list for both kinds: a
``TensorShape`` of TensorFlow 2 iterates its dimensions as ints or None, as ``as_list()`` gives
them.

The same helpers read one dimension as TensorFlow 1's ``Dimension`` (``TIME_STEPS =
inputs.shape[1].value`` in the ``attention_3d_block`` of many Keras 2 attention scripts, or
``x.get_shape()[1].value``): Keras 3's shapes hold ints (and None), which have no ``value``, so
``x.shape[1].value`` becomes ``x.shape[1]``, the int or None ``Dimension.value`` was.

Only in files that use Keras and leave TensorFlow 2's behaviour on, for Keras 3 (``migrate
--keras 2`` leaves them): under ``disable_v2_behavior()`` a ``TensorShape`` iterates
``Dimension`` objects, and Keras 3 does not run there anyway.
"""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst

__all__ = ["KerasTensorShapesCommand"]

_AS_LIST = re.compile(
    r"\.\s*get_shape\s*\(\s*\)\s*\.\s*as_list\s*\(\s*\)"
    r"|\.\s*(?:shape|get_shape\s*\(\s*\))\s*\[[^\]\n]*\]\s*\.\s*value\b"
)
_KERAS = re.compile(r"\bkeras\b")
# TensorFlow 1 shapes (``Dimension`` items) for the whole process
_V1_SHAPES = re.compile(r"\b(?:disable_v2_behavior|disable_v2_tensorshape)\b")


def _wanted(text: str, tree: object = None) -> bool:
    return (
        _AS_LIST.search(text) is not None
        and _KERAS.search(text) is not None
        and _V1_SHAPES.search(text) is None
    )


def _relevant(text: str) -> bool:
    return _AS_LIST.search(text) is not None


def _tensor_of(call: cst.Call) -> cst.BaseExpression | None:
    """``x`` of ``x.get_shape().as_list()`` (``call`` being the whole call), else None."""
    func = call.func
    if call.args or not isinstance(func, cst.Attribute) or func.attr.value != "as_list":
        return None
    inner = func.value
    if not isinstance(inner, cst.Call) or inner.args:
        return None
    getter = inner.func
    if not isinstance(getter, cst.Attribute) or getter.attr.value != "get_shape":
        return None
    return getter.value


def _dimension_of(node: cst.Attribute) -> cst.Subscript | None:
    """``x.shape[1]`` for ``x.shape[1].value`` or ``x.get_shape()[1].value``, else None."""
    if node.attr.value != "value" or not isinstance(node.value, cst.Subscript):
        return None
    item = node.value
    shape = item.value
    if isinstance(shape, cst.Call) and not shape.args:
        shape = shape.func
        if not isinstance(shape, cst.Attribute) or shape.attr.value != "get_shape":
            return None
    elif not isinstance(shape, cst.Attribute) or shape.attr.value != "shape":
        return None
    return item.with_changes(
        value=cst.Attribute(value=shape.value, attr=cst.Name("shape")),
        lpar=node.lpar,
        rpar=node.rpar,
    )


class KerasTensorShapesCommand(MigrationCommand):
    DESCRIPTION = (
        "Static shapes read the TensorFlow way in Keras code (x.get_shape().as_list(), "
        "x.shape[1].value) to list(x.shape) and x.shape[1], which Keras 3's tensors serve."
    )
    PRECHECK = Precheck(_wanted, _relevant)
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        if self.keras_major() < 3:
            return updated_node
        dimension = _dimension_of(updated_node)
        return updated_node if dimension is None else dimension

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if self.keras_major() < 3:
            return updated_node
        tensor = _tensor_of(updated_node)
        if tensor is None:
            return updated_node
        return cst.Call(
            func=cst.Name("list"),
            args=[cst.Arg(value=cst.Attribute(value=tensor, attr=cst.Name("shape")))],
            lpar=updated_node.lpar,
            rpar=updated_node.rpar,
        )
