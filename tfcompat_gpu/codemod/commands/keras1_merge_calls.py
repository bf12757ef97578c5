"""Keras 1's ``merge([a, b], mode='mul')`` → the Keras 2 / Keras 3 merge function of the mode.

Keras 1's ``merge()`` (keras/engine/topology.py of Keras 1.2, exported by ``keras.layers``)
made a ``Merge`` layer of a named mode or of a function; Keras 2 dropped it for one function
per mode (``add``, ``multiply``, ``concatenate``, ``dot``, ...) and Keras 3 has no ``merge``
at all, so ``from keras.layers import merge`` stops the script.  Each call becomes what its
mode meant, as ``run`` builds it under tf_keras (``dropin/_keras2_paths.py``): a named mode its
function (``concat_axis`` → ``axis``, ``dot_axes`` → ``axes``, ``'cos'`` → ``dot(...,
normalize=True)``; ``output_shape``, which Keras 1 read only for a function, goes), and a
function (``mode=lambda x: ...``) ``Lambda(mode, output_shape=...)`` called on the list.  The
import of ``merge`` goes when every read of it was such a call.  A call whose mode is not
known where it is written (a variable), or that uses ``output_mask``, ``node_indices`` or
``tensor_indices``, is left alone with a warning.
"""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._imports import lines_still_reading, need_import, without_aliases
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import dotted, imports_keras
from tfcompat_gpu.tfapi.keras1_names import MERGE_FUNCTIONS, MERGE_MODES

__all__ = ["Keras1MergeCallsCommand"]

_MERGE_CALL = re.compile(r"\bmerge\s*\(")
# Keras 1.2's merge(inputs, mode, concat_axis, dot_axes, output_shape, output_mask, arguments,
# node_indices, tensor_indices, name), in that order
_PARAMETERS = (
    "inputs",
    "mode",
    "concat_axis",
    "dot_axes",
    "output_shape",
    "output_mask",
    "arguments",
    "node_indices",
    "tensor_indices",
    "name",
)
_UNSUPPORTED = ("output_mask", "node_indices", "tensor_indices")
_TAG = "[merge() removed]"


def _wanted(text: str, tree: object = None) -> bool:
    return "keras" in text and _MERGE_CALL.search(text) is not None


def _relevant(text: str) -> bool:
    return re.search(r"\bmerge\b", text) is not None


def _bound(call: cst.Call) -> dict[str, cst.Arg] | None:
    """The arguments of a ``merge()`` call by parameter name; None for ``*args``, ``**kw``
    or a name Keras 1 did not take."""
    bound: dict[str, cst.Arg] = {}
    for at, arg in enumerate(call.args):
        if arg.star:
            return None
        if arg.keyword is None:
            if at >= len(_PARAMETERS):
                return None
            bound[_PARAMETERS[at]] = arg
        elif arg.keyword.value in _PARAMETERS:
            bound[arg.keyword.value] = arg
        else:
            return None
    return bound if "inputs" in bound else None


def _keyword(name: str, value: cst.BaseExpression) -> cst.Arg:
    return cst.Arg(
        keyword=cst.Name(name),
        value=value,
        equal=cst.AssignEqual(
            whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
        ),
    )


def _joined(args: list[cst.Arg]) -> list[cst.Arg]:
    comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    return [
        arg.with_changes(comma=comma if at < len(args) - 1 else cst.MaybeSentinel.DEFAULT)
        for at, arg in enumerate(args)
    ]


class Keras1MergeCallsCommand(MigrationCommand):
    DESCRIPTION = (
        "Keras 1 merge([a, b], mode='mul') calls to the merge function of the mode "
        "(multiply, concatenate(axis=...), dot(axes=...), ...) or a Lambda for a function mode."
    )
    PRECHECK = Precheck(_wanted, _relevant)
    UPGRADE = True
    # a `from keras.layers import merge` only these calls read goes with them
    REPLACES_READS = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        self._keras: str | None = "keras" if imports_keras(node) else None

    def _is_merge(self, func: cst.BaseExpression) -> bool:
        return bool(self.names_of(func) & MERGE_FUNCTIONS)

    def _plan(self, call: cst.Call) -> tuple[str, list[cst.Arg]] | str:
        """The Keras 2 function (``multiply``) or ``Lambda`` and its arguments for a
        ``merge()`` call, or why it is left alone."""
        bound = _bound(call)
        if bound is None:
            return "its arguments are not Keras 1's merge() arguments as written"
        for unsupported in _UNSUPPORTED:
            arg = bound.get(unsupported)
            if arg is not None and not (
                isinstance(arg.value, cst.Name) and arg.value.value == "None"
            ):
                return f"{unsupported}= has no Keras 2 form"
        inputs = bound["inputs"].with_changes(keyword=None, equal=cst.MaybeSentinel.DEFAULT)
        name = bound.get("name")
        named = [] if name is None else [_keyword("name", name.value)]
        mode = bound.get("mode")
        if mode is None:
            spelled = "sum"
        elif isinstance(mode.value, cst.SimpleString):
            value = mode.value.evaluated_value
            if not isinstance(value, str) or value not in MERGE_MODES:
                return f"mode {mode.value.value} is not a Keras 1 merge mode"
            spelled = value
        elif isinstance(mode.value, cst.Lambda):
            extra = [
                _keyword(key, bound[key].value)
                for key in ("output_shape", "arguments")
                if key in bound
            ]
            layer = cst.Call(
                func=cst.parse_expression(f"{self._keras_name()}.layers.Lambda"),
                args=_joined([cst.Arg(value=mode.value), *extra, *named]),
            )
            return "", [cst.Arg(value=layer), inputs]
        else:
            return "its mode is not written at the call (a string or a lambda)"
        function, axis = MERGE_MODES[spelled]
        args = [inputs]
        if axis == "axis" and "concat_axis" in bound:
            args.append(_keyword("axis", bound["concat_axis"].value))
        elif axis == "axes":  # Keras 2's dot() has no default axes; Keras 1's was -1
            given = bound.get("dot_axes")
            args.append(_keyword("axes", given.value if given else cst.parse_expression("-1")))
            if spelled == "cos":
                args.append(_keyword("normalize", cst.Name("True")))
        return function, args + named

    def _keras_name(self) -> str:
        if self._keras is None:
            need_import(self.context, "keras")
            self._keras = "keras"
        return self._keras

    def replaces_read(self, node: cst.CSTNode) -> bool:
        call = self.parent(node)
        if not isinstance(call, cst.Call) or call.func is not node:
            return False
        return self._is_merge(node) and not isinstance(self._plan(call), str)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not self._is_merge(original_node.func):
            return updated_node
        plan = self._plan(updated_node)
        if isinstance(plan, str):
            if not self.silenced(original_node):
                self.warn_at(
                    original_node,
                    f"merge() left unchanged: {plan}; use keras.layers.concatenate, add, "
                    f"multiply, average, maximum or dot {_TAG}",
                )
            return updated_node
        function, args = plan
        if not function:  # Lambda(mode, ...)(inputs)
            layer, inputs = args
            return updated_node.with_changes(
                func=layer.value, args=[inputs.with_changes(comma=cst.MaybeSentinel.DEFAULT)]
            )
        return updated_node.with_changes(
            func=cst.parse_expression(f"{self._keras_name()}.layers.{function}"),
            args=_joined(args),
        )

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.ImportFrom | cst.RemovalSentinel:
        names = updated_node.names
        if isinstance(names, cst.ImportStar) or original_node.relative:
            return updated_node
        module = dotted(original_node.module) if original_node.module is not None else None
        drop: set[int] = set()
        for at, alias in enumerate(names):
            if f"{module}.{dotted(alias.name)}" not in MERGE_FUNCTIONS:
                continue
            bound = alias.asname.name if alias.asname is not None else alias.name
            if not isinstance(bound, cst.Name):
                continue
            scope = self.scope_of(original_node)
            if scope is not None and not lines_still_reading(self, scope, bound.value, (), {}):
                drop.add(at)
        if not drop:
            return updated_node
        result = without_aliases(updated_node, drop)
        assert not isinstance(result, cst.Import)
        return result
