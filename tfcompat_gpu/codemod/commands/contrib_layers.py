"""``tf.contrib.layers.flatten`` / ``fully_connected`` / ``conv2d`` / ``max_pool2d`` /
``avg_pool2d`` / ``dropout`` → ``tf.compat.v1.layers.flatten`` / ``dense`` / ``conv2d`` /
``max_pooling2d`` / ``average_pooling2d`` / ``dropout``.

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
  ``biases_initializer=None`` (no bias) becomes ``use_bias=False``; ``scope`` becomes ``name``;
- ``conv2d`` (``convolution2d``: ``inputs, num_outputs, kernel_size, stride=1, padding='SAME',
  data_format=None, rate=1``, then ``fully_connected``'s) builds a ``Conv2D`` layer the same way:
  ``tf.compat.v1.layers.conv2d(inputs, num_outputs, kernel_size=..., strides=...,
  dilation_rate=..., activation=tf.nn.relu, padding="same")``, the relu and ``SAME`` defaults
  written out (``conv2d``'s are none and ``valid``), ``data_format='NHWC'`` / ``'NCHW'`` as
  ``channels_last`` / ``channels_first``;
- ``max_pool2d`` / ``avg_pool2d(inputs, kernel_size, stride=2, padding='VALID',
  data_format='NHWC', outputs_collections=None, scope=None)`` are ``MaxPooling2D`` /
  ``AveragePooling2D`` layers: ``tf.compat.v1.layers.max_pooling2d(inputs, pool_size=...,
  strides=2)``, contrib's stride of 2 written out (the v1 function has no default);
- ``dropout(inputs, keep_prob=0.5, noise_shape=None, is_training=True, outputs_collections=None,
  scope=None, seed=None)`` applies ``core_layers.Dropout(rate=1 - keep_prob, ...)`` with
  ``training=is_training``: ``tf.compat.v1.layers.dropout(inputs, rate=1 - keep_prob,
  training=True)``, the keep probability turned into the rate and contrib's training default
  written out (``dropout``'s is ``False``, which would drop nothing).

A call is rewritten only when each argument has such a home, and none in a file that uses
``arg_scope`` (whose defaults a call then takes): ``normalizer_fn``,
``normalizer_params``, ``variables_collections``, ``outputs_collections`` and ``*args`` /
``**kwargs`` leave it (and the ``tf.contrib.layers`` warning ``tf1_compat`` gives).  The variables
are named as ``dense`` names them (``dense/kernel``, not contrib's ``fully_connected/weights``;
``conv2d/kernel``, not ``Conv/weights``):
a checkpoint written by the TF1 script does not restore into the migrated one by name.

``tf.contrib.slim``'s layer functions are these same functions (slim imported them from
``tf.contrib.layers``): ``import tensorflow.contrib.slim as slim`` and ``from tensorflow.contrib
import slim`` go the same way as ``from tensorflow.contrib import layers``.

The names imported are rewritten too: ``from tensorflow.contrib import layers`` with
``layers.fully_connected(...)``, and ``from tensorflow.contrib.layers import fully_connected,
flatten`` with ``fully_connected(...)``, through the module-level ``import tensorflow as tf`` of
the file; the import goes.  An import is rewritten only when every read of what it binds is such
a call with a home for each argument (an import nothing reads goes as well): else the import
and its reads are left, with the ``tf.contrib removed`` warning.

``tf.compat.v1.layers`` is served by tf_keras only from TensorFlow 2.16 on: the names written
are handed to ``tf1_legacy_keras`` (:data:`~.tf1_legacy_keras.LEGACY_KERAS_NAMES`).
"""

from __future__ import annotations

import ast
import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._imports import without_aliases
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import dotted, prefix_for, tf_root_alias, top_level_imports
from tfcompat_gpu.codemod.commands.tf1_legacy_keras import LEGACY_KERAS_NAMES
from tfcompat_gpu.codemod.commands.tf_private_imports import (
    contrib_successor,
    layers_import,
    slim_import,
)

__all__ = ["CONTRIB_LAYERS_DONE", "ContribLayersCommand"]

CONTRIB_LAYERS_DONE = "tfcompat_gpu.contrib_layers_done"
"""Scratch key: the ``tf.contrib.X`` nodes of the calls rewritten (``tf1_compat`` does not
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
# TF 1.15's convolution2d and its pooling layers; their defaults that differ from
# tf.compat.v1.layers' (relu, SAME padding, a pooling stride of 2) are written out
_CONV2D: tuple[tuple[str, str | None], ...] = (
    ("inputs", "inputs"),
    ("num_outputs", "filters"),
    ("kernel_size", "kernel_size"),
    ("stride", "strides"),
    ("padding", "padding"),
    ("data_format", "data_format"),
    ("rate", "dilation_rate"),
    *_FULLY_CONNECTED[2:],
)
_POOL2D: tuple[tuple[str, str | None], ...] = (
    ("inputs", "inputs"),
    ("kernel_size", "pool_size"),
    ("stride", "strides"),
    ("padding", "padding"),
    ("data_format", "data_format"),
    ("outputs_collections", None),
    ("scope", "name"),
)
# TF 1.15's dropout: a core_layers.Dropout(rate=1 - keep_prob) applied with training=is_training
_DROPOUT: tuple[tuple[str, str | None], ...] = (
    ("inputs", "inputs"),
    ("keep_prob", "rate"),
    ("noise_shape", "noise_shape"),
    ("is_training", "training"),
    ("outputs_collections", None),
    ("scope", "name"),
    ("seed", "seed"),
)
_FUNCTIONS = {
    "flatten": ("flatten", _FLATTEN),
    "dropout": ("dropout", _DROPOUT),
    "fully_connected": ("dense", _FULLY_CONNECTED),
    "conv2d": ("conv2d", _CONV2D),
    "convolution2d": ("conv2d", _CONV2D),
    "max_pool2d": ("max_pooling2d", _POOL2D),
    "avg_pool2d": ("average_pooling2d", _POOL2D),
}
_DATA_FORMATS = {"NHWC": "channels_last", "NCHW": "channels_first"}
_CALL = re.compile(
    r"\bcontrib\b[\s\S]*?\blayers\b[\s\S]*?"
    r"\b(?:flatten|fully_connected|conv2d|convolution2d|max_pool2d|avg_pool2d|dropout)\b"
)
_IMPORT = re.compile(
    r"\bfrom\s+tensorflow\s*\.\s*contrib\b[\s\S]*?\b(?:layers|slim)\b"
    r"|\bimport\s+tensorflow\s*\.\s*contrib\s*\.\s*slim\b"
)
# a call of one of the functions through an imported module (``slim.conv2d(``, ``layers.flatten(``)
_ATTRIBUTE_CALL = re.compile(
    r"\.\s*(?:flatten|fully_connected|conv2d|convolution2d|max_pool2d|avg_pool2d|dropout)\s*\("
)
_PACKAGE = "tensorflow.contrib.layers"


def _wanted(text: str, tree: ast.Module | None = None) -> bool:
    return "contrib" in text and (_CALL.search(text) or _IMPORT.search(text)) is not None


class ContribLayersCommand(MigrationCommand):
    DESCRIPTION = (
        "tf.contrib.layers.flatten, fully_connected, conv2d, max_pool2d, avg_pool2d and dropout "
        "to tf.compat.v1.layers.flatten, dense, conv2d, max_pooling2d, average_pooling2d and "
        "dropout (contrib's defaults that differ written out: relu, SAME, a pooling stride of 2, "
        "training=True; keep_prob as rate=1 - keep_prob)."
    )
    PRECHECK = Precheck(
        _wanted,
        lambda statement: (
            (_CALL.search(statement) or _ATTRIBUTE_CALL.search(statement)) is not None
        ),
    )
    UPGRADE = True

    def declared_changes(self) -> list[cst.CSTNode]:
        # a call of a name imported may sit in a statement PRECHECK finds irrelevant (an alias)
        return [*self._of_imports, *self._drop]

    def visit_Module(self, node: cst.Module) -> None:
        self._arg_scope = "arg_scope" in self.source_text()
        self._calls: dict[cst.Call, tuple[str, list[cst.Arg]]] = {}  # call -> new func, args
        self._done: set[cst.CSTNode] = self.context.scratch.setdefault(CONTRIB_LAYERS_DONE, set())
        self._of_imports: list[cst.Call] = []
        self._drop: set[cst.Import | cst.ImportFrom] = set()
        root = tf_root_alias(node)
        for _, small in top_level_imports(node):
            if isinstance(small, cst.ImportFrom) and layers_import(small):
                self._plan_import(small, root)
            elif slim_import(small):
                self._plan_slim(small, root)

    def _plan_import(self, node: cst.ImportFrom, root: str | None) -> None:
        """Each call of the names ``node`` binds and its new code; the import left (and said)
        if one has no home or the file has no ``tensorflow`` name to write it through."""
        assert node.module is not None
        assert not isinstance(node.names, cst.ImportStar)
        module = dotted(node.module)
        calls: dict[cst.Call, tuple[str, list[cst.Arg]]] = {}
        left: list[str] = []
        for alias in node.names:
            bound = alias.evaluated_alias or alias.evaluated_name
            whole = module != _PACKAGE  # from tensorflow.contrib import layers
            if not whole and alias.evaluated_name not in _FUNCTIONS:
                left.append(alias.evaluated_name)
                continue
            self._plan_reads(node, bound, alias.evaluated_name, whole, root, calls, left)
        self._settle(node, f"from {module} import ...", "layers", calls, left, root)

    def _plan_slim(self, node: cst.Import | cst.ImportFrom, root: str | None) -> None:
        """``import tensorflow.contrib.slim as slim`` / ``from tensorflow.contrib import slim``:
        slim's layer functions are tf.contrib.layers' own, so their calls go the same way."""
        assert not isinstance(node.names, cst.ImportStar)
        alias = node.names[0]
        bound = alias.evaluated_alias or alias.evaluated_name
        calls: dict[cst.Call, tuple[str, list[cst.Arg]]] = {}
        left: list[str] = []
        self._plan_reads(node, bound, "slim", True, root, calls, left)
        shown = (
            f"import {alias.evaluated_name}"
            if isinstance(node, cst.Import)
            else "from tensorflow.contrib import ..."
        )
        self._settle(node, shown, "slim", calls, left, root)

    def _plan_reads(
        self,
        node: cst.Import | cst.ImportFrom,
        bound: str,
        imported: str,
        whole: bool,
        root: str | None,
        calls: dict[cst.Call, tuple[str, list[cst.Arg]]],
        left: list[str],
    ) -> None:
        """Each read of ``bound`` as a call with its new code in ``calls``, else in ``left``."""
        scope = self.scope_of(node)
        reads = (
            [access.node for a in scope.assignments[bound] for access in a.references]
            if scope is not None
            else []
        )
        for read in reads:
            func: cst.CSTNode | None = read
            name = imported
            if whole:
                func = self.parent(read)
                if not isinstance(func, cst.Attribute) or func.value is not read:
                    left.append(bound)
                    continue
                name = func.attr.value
            call = self.parent(func) if func is not None else None
            planned = (
                self._planned(call, name, root)
                if isinstance(call, cst.Call) and call.func is func and root is not None
                else None
            )
            if planned is None:
                left.append(f"{bound}.{name}" if whole else bound)
                continue
            assert isinstance(call, cst.Call)
            calls[call] = planned

    def _settle(
        self,
        node: cst.Import | cst.ImportFrom,
        shown: str,
        contrib: str,
        calls: dict[cst.Call, tuple[str, list[cst.Arg]]],
        left: list[str],
        root: str | None,
    ) -> None:
        """The import dropped and its calls planned, or all left with the warning."""
        if left or root is None:
            why = (
                f"{', '.join(sorted(set(left)))}: no call with a TF2 home for each argument"
                if left
                else "the file has no module-level `import tensorflow as tf` to write the v1 "
                "names through"
            )
            self.warn_at(
                node,
                f"{shown} left unchanged: TensorFlow 2.0 removed "
                f"tensorflow.contrib, so the import raises ModuleNotFoundError; {why}: "
                f"{contrib_successor(contrib)} [tf.contrib removed]",
            )
            return
        self._calls.update(calls)
        self._of_imports.extend(calls)
        self._drop.add(node)
        found = self.context.scratch.setdefault(LEGACY_KERAS_NAMES, [])
        for call, (func_code, _) in calls.items():
            found.append((self.line_of(call), "tf.layers." + func_code.rpartition(".")[2]))

    def _planned(
        self, node: cst.Call, function: str, prefix: str
    ) -> tuple[str, list[cst.Arg]] | None:
        """The new function and arguments of a call of contrib's ``function``, or None when
        it has no home."""
        if function not in _FUNCTIONS or self._arg_scope:
            return None  # under an arg_scope a call's defaults are the scope's
        new_name, parameters = _FUNCTIONS[function]
        args = _arguments(node, parameters)
        if args is None:
            return None
        given = {a.keyword.value for a in args if a.keyword}
        relu = cst.parse_expression(prefix + "nn.relu")
        if new_name == "dense" and "activation" not in given:
            args.insert(2, cst.Arg(value=relu, keyword=cst.Name("activation"), equal=_equal()))
        if new_name == "conv2d" and "activation" not in given:
            args.append(_keyword("activation", relu))
        if new_name == "conv2d" and "padding" not in given:
            args.append(_keyword("padding", cst.SimpleString('"same"')))
        if new_name.endswith("pooling2d") and "strides" not in given:
            args.append(_keyword("strides", cst.Integer("2")))
        if new_name == "dropout" and "training" not in given:
            args.append(_keyword("training", cst.Name("True")))
        v1 = prefix if prefix.endswith("compat.v1.") else prefix + "compat.v1."
        return f"{v1}layers.{new_name}", args

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.RemovalSentinel:
        if original_node not in self._drop or isinstance(updated_node.names, cst.ImportStar):
            return updated_node
        return without_aliases(updated_node, set(range(len(updated_node.names))))

    def leave_Import(
        self, original_node: cst.Import, updated_node: cst.Import
    ) -> cst.Import | cst.RemovalSentinel:
        if original_node not in self._drop:
            return updated_node
        return cst.RemoveFromParent()

    def visit_Call(self, node: cst.Call) -> bool:
        func = node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in _FUNCTIONS:
            return True
        name = _MODULE + func.attr.value
        if name not in self.names_of(func):
            return True
        prefix = prefix_for(func, name)
        if prefix is None:
            return True  # layers.X of an import: planned (or warned) with it
        planned = self._planned(node, func.attr.value, prefix)
        if planned is None:
            return True
        self._calls[node] = planned
        self._done.add(func.value)
        found = self.context.scratch.setdefault(LEGACY_KERAS_NAMES, [])
        found.append((self.line_of(node), "tf.layers." + planned[0].rpartition(".")[2]))
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
        if old == "data_format":
            fmt = arg.value
            if not isinstance(fmt, cst.SimpleString) or fmt.evaluated_value not in _DATA_FORMATS:
                return None  # tf.compat.v1.layers takes channels_last / channels_first only
            out.append(
                _keyword(new, cst.SimpleString(f'"{_DATA_FORMATS[str(fmt.evaluated_value)]}"'))
            )
            continue
        if old == "keep_prob":
            out.append(_keyword(new, _one_minus(arg.value)))
            continue
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


def _one_minus(value: cst.BaseExpression) -> cst.BaseExpression:
    """``1 - value``, the value in parentheses unless it is a name, an attribute, a number or a
    call (a keep probability as the drop rate the core layer takes)."""
    simple = isinstance(value, (cst.Name, cst.Attribute, cst.Integer, cst.Float, cst.Call))
    right = (
        value
        if simple or value.lpar
        else value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    )
    return cst.BinaryOperation(
        left=cst.Integer("1"),
        operator=cst.Subtract(
            whitespace_before=cst.SimpleWhitespace(" "),
            whitespace_after=cst.SimpleWhitespace(" "),
        ),
        right=right,
    )


def _keyword(name: str, value: cst.BaseExpression) -> cst.Arg:
    return cst.Arg(value=value, keyword=cst.Name(name), equal=_equal())


def _equal() -> cst.AssignEqual:
    return cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
    )
