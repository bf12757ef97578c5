"""``tf.contrib.layers.flatten`` / ``fully_connected`` → ``tf.compat.v1.layers.flatten`` / ``dense``.

TF 1.x's contrib functions were thin wrappers of the core layers
(tensorflow/contrib/layers/python/layers/layers.py):

- ``flatten(inputs, outputs_collections=None, scope=None)`` is ``core_layers.flatten(inputs)``
  in a ``name_scope(scope, 'Flatten')``: ``tf.compat.v1.layers.flatten(inputs, name=scope)``;
- ``fully_connected(inputs, num_outputs, activation_fn=nn.relu, normalizer_fn=None, ...)``
  builds a ``core_layers.Dense(units=num_outputs, activation=None, use_bias=not normalizer_fn
  and biases_initializer, kernel_initializer=weights_initializer, bias_initializer=
  biases_initializer, kernel_regularizer=..., bias_regularizer=..., trainable=trainable)``
  and applies ``activation_fn`` after it: ``tf.compat.v1.layers.dense(inputs, num_outputs,
  activation=...)``, with ``activation=tf.nn.relu`` written out where the call left
  ``activation_fn`` to its default (``dense``'s default is no activation).  The default
  ``weights_initializer=xavier_initializer()`` is the Glorot uniform initializer, which is what
  ``tf.compat.v1.get_variable`` gives ``dense``'s kernel by default
  (tensorflow/python/ops/variable_scope.py, ``_get_default_initializer``);
  ``biases_initializer=None`` (no bias) becomes ``use_bias=False``; ``scope`` becomes ``name``.

A call is rewritten only when each argument has such a home: ``normalizer_fn``,
``normalizer_params``, ``variables_collections``, ``outputs_collections`` and ``*args`` /
``**kwargs`` leave it (and the ``tf.contrib.layers`` warning ``tf1_compat`` gives).  The variables
are named as ``dense`` names them (``dense/kernel``, not contrib's ``fully_connected/weights``):
a checkpoint written by the TF1 script does not restore into the migrated one by name.

``tf.compat.v1.layers`` is served by tf_keras only from TensorFlow 2.16 on: the names written
are handed to ``tf1_legacy_keras`` (:data:`~.tf1_legacy_keras.LEGACY_KERAS_NAMES`).
"""

from __future__ import annotations

import ast
import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import prefix_for
from tfcompat_gpu.codemod.commands.tf1_legacy_keras import LEGACY_KERAS_NAMES

__all__ = ["CONTRIB_LAYERS_DONE", "ContribLayersCommand"]

CONTRIB_LAYERS_DONE = "tfcompat_gpu.contrib_layers_done"
"""Scratch key: the ``tf.contrib.layers`` nodes of the calls rewritten (``tf1_compat`` does not
warn about them)."""

_MODULE = "tensorflow.contrib.layers."
# contrib's parameters, in order, and dense's name for each (None: no home, the call is left)
_FLATTEN: tuple[tuple[str, str | None], ...] = (
    ("inputs", "inputs"),
    ("outputs_collections", None),
    ("scope", "name"),
)
_FULLY_CONNECTED: tuple[tuple[str, str | None], ...] = (
    ("inputs", "inputs"),
    ("num_outputs", "units"),
    ("activation_fn", "activation"),
    ("normalizer_fn", None),
    ("normalizer_params", None),
    ("weights_initializer", "kernel_initializer"),
    ("weights_regularizer", "kernel_regularizer"),
    ("biases_initializer", "bias_initializer"),
    ("biases_regularizer", "bias_regularizer"),
    ("reuse", "reuse"),
    ("variables_collections", None),
    ("outputs_collections", None),
    ("trainable", "trainable"),
    ("scope", "name"),
)
_FUNCTIONS = {"flatten": ("flatten", _FLATTEN), "fully_connected": ("dense", _FULLY_CONNECTED)}
_CALL = re.compile(r"\bcontrib\b[\s\S]*?\blayers\b[\s\S]*?\b(?:flatten|fully_connected)\b")


def _wanted(text: str, tree: ast.Module | None = None) -> bool:
    return "contrib" in text and _CALL.search(text) is not None


class ContribLayersCommand(MigrationCommand):
    DESCRIPTION = (
        "tf.contrib.layers.flatten and fully_connected to tf.compat.v1.layers.flatten and "
        "dense (fully_connected's relu default written out)."
    )
    PRECHECK = Precheck(_wanted, lambda statement: _CALL.search(statement) is not None)
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every call it changes is in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        self._calls: dict[cst.Call, tuple[str, list[cst.Arg]]] = {}  # call -> new func, args
        self._done: set[cst.CSTNode] = self.context.scratch.setdefault(CONTRIB_LAYERS_DONE, set())

    def visit_Call(self, node: cst.Call) -> bool:
        func = node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in _FUNCTIONS:
            return True
        name = _MODULE + func.attr.value
        if name not in self.names_of(func):
            return True
        prefix = prefix_for(func, name)
        if prefix is None:
            return True
        new_name, parameters = _FUNCTIONS[func.attr.value]
        args = _arguments(node, parameters)
        if args is None:
            return True
        if new_name == "dense" and not any(
            a.keyword and a.keyword.value == "activation" for a in args
        ):
            relu = cst.parse_expression(prefix + "nn.relu")
            args.insert(2, cst.Arg(value=relu, keyword=cst.Name("activation"), equal=_equal()))
        v1 = prefix if prefix.endswith("compat.v1.") else prefix + "compat.v1."
        self._calls[node] = (f"{v1}layers.{new_name}", args)
        self._done.add(func.value)
        found = self.context.scratch.setdefault(LEGACY_KERAS_NAMES, [])
        found.append((self.line_of(node), f"tf.layers.{new_name}"))
        return True

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        planned = self._calls.get(original_node)
        if planned is None:
            return updated_node
        func, args = planned
        # the arguments as the later nodes left them (renames inside them), with their commas
        where = {id(arg.value): index for index, arg in enumerate(original_node.args)}
        new_args = []
        for arg in args:
            index = where.get(id(arg.value))
            if index is None:  # written here: LibCST puts its comma
                new_args.append(arg.with_changes(comma=cst.MaybeSentinel.DEFAULT))
                continue
            now = updated_node.args[index]
            new_args.append(arg.with_changes(value=now.value, comma=now.comma))
        return updated_node.with_changes(func=cst.parse_expression(func), args=new_args)


def _arguments(
    node: cst.Call, parameters: tuple[tuple[str, str | None], ...]
) -> list[cst.Arg] | None:
    """The call's arguments under their new names, or None when one has no home."""
    homes = dict(parameters)
    out: list[cst.Arg] = []
    for index, arg in enumerate(node.args):
        if arg.star:
            return None
        if arg.keyword is None:
            if index >= len(parameters):
                return None
            old, new = parameters[index]
        else:
            old = arg.keyword.value
            if old not in homes:
                return None
            new = homes[old]
        if new is None:
            return None
        if (
            old == "biases_initializer"
            and isinstance(arg.value, cst.Name)
            and arg.value.value == "None"
        ):
            out.append(
                cst.Arg(value=cst.Name("False"), keyword=cst.Name("use_bias"), equal=_equal())
            )
            continue
        keep_position = arg.keyword is None and old in ("inputs", "num_outputs")
        out.append(
            arg.with_changes(keyword=cst.Name(new), equal=_equal()) if not keep_position else arg
        )
    return out


def _equal() -> cst.AssignEqual:
    return cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
    )
