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

A bare ``x.get_shape()`` indexed (``w.get_shape()[0]``), or bound to a name that the function
binds once and reads only indexed (``shape = layer.weights[0].get_shape()`` before the
``shape[3]`` of a loop that exports a kernel), becomes ``x.shape``: Keras 3's variables have no
``get_shape`` either, and a ``TensorShape`` indexed by an int gives the int (or None) the tuple
gives.  Anything else made of it (``.ndims``, slices, the shape handed on) is left.

Only in files that use Keras and leave TensorFlow 2's behaviour on, for Keras 3 (``migrate
--keras 2`` leaves them): under ``disable_v2_behavior()`` a ``TensorShape`` iterates
``Dimension`` objects, and Keras 3 does not run there anyway.
"""

from __future__ import annotations

import ast
import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst

__all__ = ["KerasTensorShapesCommand"]

# ``x.get_shape()`` in any use, and TensorFlow 1's ``Dimension`` read (``x.shape[1].value``)
_GET_SHAPE = re.compile(
    r"\.\s*get_shape\s*\(\s*\)|\.\s*shape\s*\[[^\]\n]*\]\s*\.\s*value\b"
)
_KERAS = re.compile(r"\bkeras\b")
# TensorFlow 1 shapes (``Dimension`` items) for the whole process
_V1_SHAPES = re.compile(r"\b(?:disable_v2_behavior|disable_v2_tensorshape)\b")


def _wanted(text: str, tree: object = None) -> bool:
    return (
        _GET_SHAPE.search(text) is not None
        and _KERAS.search(text) is not None
        and _V1_SHAPES.search(text) is None
    )


def _relevant(text: str) -> bool:
    return _GET_SHAPE.search(text) is not None


def _get_shape_of(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """``x`` of ``x.get_shape()``, else None."""
    if not isinstance(node, cst.Call) or node.args:
        return None
    getter = node.func
    if not isinstance(getter, cst.Attribute) or getter.attr.value != "get_shape":
        return None
    return getter.value


def _an_index(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Name) or (
        isinstance(node, ast.Constant) and type(node.value) is int
    )


def _indexed_shapes(source: str) -> set[int]:
    """Lines of ``name = x.get_shape()`` in a function that binds ``name`` once and reads it
    only indexed (``name[3]``, ``name[-1]``, ``name[i]``)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return set()
    found: set[int] = set()
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        binds: dict[str, list[ast.Assign]] = {}
        stores: dict[str, int] = {}
        indexed: dict[str, int] = {}
        loads: dict[str, int] = {}
        for node in ast.walk(function):
            if isinstance(node, ast.Name):
                counts = stores if isinstance(node.ctx, ast.Store) else loads
                counts[node.id] = counts.get(node.id, 0) + 1
            elif (
                isinstance(node, ast.Subscript)
                and isinstance(node.value, ast.Name)
                and _an_index(node.slice)
            ):
                indexed[node.value.id] = indexed.get(node.value.id, 0) + 1
            elif (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Call)
                and not node.value.args
                and not node.value.keywords
                and isinstance(node.value.func, ast.Attribute)
                and node.value.func.attr == "get_shape"
            ):
                binds.setdefault(node.targets[0].id, []).append(node)
        for name, assigns in binds.items():
            if (
                len(assigns) == 1
                and stores.get(name) == 1
                and loads.get(name, 0) > 0
                and indexed.get(name, 0) == loads.get(name)
            ):
                found.add(assigns[0].lineno)
    return found


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

    def visit_Module(self, node: cst.Module) -> None:
        self._indexed: set[int] | None = None

    def leave_Subscript(
        self, original_node: cst.Subscript, updated_node: cst.Subscript
    ) -> cst.BaseExpression:
        # ``w.get_shape()[0]``
        tensor = _get_shape_of(updated_node.value)
        if self.keras_major() < 3 or tensor is None or len(updated_node.slice) != 1:
            return updated_node
        index = updated_node.slice[0].slice
        if not isinstance(index, cst.Index) or not _an_index(
            ast.parse(self.code_of(index.value), mode="eval").body
        ):
            return updated_node
        return updated_node.with_changes(value=cst.Attribute(value=tensor, attr=cst.Name("shape")))

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> cst.Assign:
        tensor = _get_shape_of(updated_node.value)
        if self.keras_major() < 3 or tensor is None:
            return updated_node
        if self._indexed is None:
            self._indexed = _indexed_shapes(self.source_text())
        if self.line_of(original_node) not in self._indexed:
            return updated_node
        return updated_node.with_changes(value=cst.Attribute(value=tensor, attr=cst.Name("shape")))

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
