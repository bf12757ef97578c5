"""ConfigProto fields read from enums or outside the options table: successors and defaults.

The options table (:mod:`tfcompat_gpu.settings.options`) holds the GPU and thread fields, and
two graph options whose code is an enum (``global_jit_level = tf.OptimizerOptions.ON_1``,
``rewrite_options.auto_mixed_precision = RewriterConfig.ON``): they become the ``jit`` and
``auto_mixed_precision`` options with ``True`` / ``False``.  A legacy config often sets more:
the other grappler rewrites, or a field at the value TensorFlow uses anyway
(``gpu_options.allocator_type = "BFC"``).  This module says, for such a field and a value read
from the code, whether it is TensorFlow's default (the setting changes nothing and is dropped),
what option or TF2 call carries it (:class:`Successor`), or why nothing does
(:class:`CannotFollow`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Union

from tfcompat_gpu.codemod._dataflow import CannotFollow
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import dotted

__all__ = [
    "DEFAULT",
    "GRAPH_OPTIONS",
    "JIT_PATH",
    "OPTIMIZER_PREFIX",
    "REWRITE_PREFIX",
    "Successor",
    "classify",
    "is_graph_option",
    "optimizer_code",
]

JIT_PATH = "graph_options.optimizer_options.global_jit_level"
REWRITE_PREFIX = "graph_options.rewrite_options."
# Settings keys of the planned code for the rewrites no option holds: "optimizer.remapping", ...
OPTIMIZER_PREFIX = "optimizer."
# The options of the table that are graph options, carried by tf.config.optimizer calls in TF2.
GRAPH_OPTIONS = ("jit", "auto_mixed_precision")


def is_graph_option(key: str) -> bool:
    """A planned setting is a graph option (XLA, a grappler rewrite), not a GPU or thread one."""
    return key in GRAPH_OPTIONS or key.startswith(OPTIMIZER_PREFIX)


# The rewrites TF2 sets from tf.config.optimizer.set_experimental_options: the toggles and
# booleans tensorflow/python/eager/context.py (Context.config, rewriter_toggle / rewriter_bool)
# copies into ConfigProto.graph_options.rewrite_options.
_TOGGLES = frozenset(
    {
        "layout_optimizer",
        "constant_folding",
        "shape_optimization",
        "remapping",
        "arithmetic_optimization",
        "dependency_optimization",
        "loop_optimization",
        "function_optimization",
        "debug_stripper",
        "scoped_allocator_optimization",
        "pin_to_host_optimization",
        "implementation_selector",
        "auto_mixed_precision",
        "use_plugin_optimizers",
        "auto_mixed_precision_onednn_bfloat16",
        "auto_mixed_precision_mkl",
    }
)
_BOOLS = frozenset({"disable_model_pruning", "disable_meta_optimizer"})
# tensorflow/core/protobuf/rewriter_config.proto, enum RewriterConfig.Toggle
_TOGGLE = {
    "DEFAULT": 0,
    "ON": 1,
    "OFF": 2,
    "AGGRESSIVE": 3,
    "EXPERIMENTAL_MLIR": 4,
    "EXPERIMENTAL_BOTH": 5,
}
# tensorflow/core/protobuf/config.proto, enum OptimizerOptions.GlobalJitLevel
_JIT = {"DEFAULT": 0, "OFF": -1, "ON_1": 1, "ON_2": 2}

# Fields whose value here is what TensorFlow uses when the field is unset
# (tensorflow/core/protobuf/config.proto): an empty allocator_type means "BFC", the only GPU
# allocator TensorFlow ships (GPUOptions.allocator_type); the others are proto3 zero values
# that the comments of config.proto give as "off" / "no limit".
_DEFAULTS: Mapping[str, tuple[object, ...]] = {
    "gpu_options.allocator_type": ("", "BFC"),
    "gpu_options.force_gpu_compatible": (False,),
    "gpu_options.deferred_deletion_bytes": (0,),
    "gpu_options.polling_active_delay_usecs": (0,),
    "gpu_options.polling_inactive_delay_msecs": (0,),
    "isolate_session_state": (False,),
    "operation_timeout_in_ms": (0,),
    "use_per_session_threads": (False,),
    "share_cluster_devices_in_session": (False,),
    "graph_options.enable_bfloat16_sendrecv": (False,),
}


class _Default:
    """The value is TensorFlow's default: the setting changes nothing."""


DEFAULT = _Default()


@dataclass(frozen=True)
class Successor:
    """The TF2 optimizer setting that carries a field: ``key`` of the planned settings and the
    value's code."""

    key: str
    value: str


_Literal = Union[bool, int, str, None]


def _literal(value: cst.BaseExpression, enum: Mapping[str, int], enum_class: str) -> _Literal:
    """A literal's value; an enum member (``tf.OptimizerOptions.ON_1``) as its number."""
    if isinstance(value, cst.Name) and value.value in ("True", "False"):
        return value.value == "True"
    if isinstance(value, cst.Integer):
        return int(value.value, 0)
    if (
        isinstance(value, cst.UnaryOperation)
        and isinstance(value.operator, cst.Minus)
        and isinstance(value.expression, cst.Integer)
    ):
        return -int(value.expression.value, 0)
    if isinstance(value, cst.SimpleString):
        text = value.evaluated_value
        return text if isinstance(text, str) else None
    if isinstance(value, cst.Attribute) and value.attr.value in enum:
        # OptimizerOptions.ON_1, config_pb2.OptimizerOptions.ON_1, RewriterConfig.ON, ...
        owner = dotted(value.value)
        if owner is not None and owner.split(".")[-1] in (enum_class, "Toggle", "GlobalJitLevel"):
            return enum[value.attr.value]
    return None


def classify(path: str, value: cst.BaseExpression) -> _Default | Successor:
    """What a field outside the options table becomes; CannotFollow when nothing exact."""
    if path in _DEFAULTS:
        if _literal(value, {}, "") in _DEFAULTS[path] and _literal(value, {}, "") is not None:
            return DEFAULT
        raise CannotFollow(
            f"{path} is set to a value other than TensorFlow's default, and TF2 has no call for it",
            path,
        )
    if path == JIT_PATH:
        level = _literal(value, _JIT, "OptimizerOptions")
        if level == 0 or level is False:
            return DEFAULT
        if level == 1 or level is True:
            # context.py Context.config: optimizer_jit True is ON_1
            return Successor("jit", "True")
        if level == -1:
            return Successor("jit", "False")
        if level == 2:
            raise CannotFollow(
                f"{path} is ON_2, and tf.config.optimizer.set_jit() only sets ON_1",
                f"{path} ON_2",
            )
        raise CannotFollow(f"{path} is set from a value the migration cannot read", path)
    if path.startswith(REWRITE_PREFIX):
        key = path[len(REWRITE_PREFIX) :]
        if key in _TOGGLES:
            toggle = _literal(value, _TOGGLE, "RewriterConfig")
            if toggle == 0:
                return DEFAULT
            if toggle in (1, 2) and not isinstance(toggle, bool):
                option = key if key in GRAPH_OPTIONS else OPTIMIZER_PREFIX + key
                return Successor(option, "True" if toggle == 1 else "False")
            raise CannotFollow(
                f"{path} is not ON, OFF or DEFAULT as a literal, and "
                "tf.config.optimizer.set_experimental_options() only takes on or off",
                path,
            )
        if key in _BOOLS:
            flag = _literal(value, {}, "")
            if flag is False:
                return DEFAULT
            if flag is True:
                return Successor(OPTIMIZER_PREFIX + key, "True")
            raise CannotFollow(f"{path} is not a literal True or False", path)
        if key == "min_graph_nodes":
            nodes = _literal(value, {}, "")
            if nodes == 0 and not isinstance(nodes, bool):
                return DEFAULT
            if isinstance(nodes, int) and not isinstance(nodes, bool):
                return Successor(OPTIMIZER_PREFIX + key, str(nodes))
            raise CannotFollow(f"{path} is not a literal integer", path)
    raise CannotFollow(f"{path} has no tfcompat_gpu.configure() equivalent", path)


def optimizer_code(tf: str, settings: Mapping[str, str]) -> str:
    """``tf.config.optimizer`` calls for the graph settings (key -> value code): ``jit``, then
    one ``set_experimental_options`` with ``auto_mixed_precision`` and the ``optimizer.*`` ones."""
    code = ""
    if "jit" in settings:
        # tensorflow/python/framework/config.py, set_optimizer_jit: True is a deprecated alias
        jit = '"autoclustering"' if settings["jit"] == "True" else settings["jit"]
        code += f"{tf}config.optimizer.set_jit({jit})\n"
    rewrites = [
        f'"{key.removeprefix(OPTIMIZER_PREFIX)}": {value}'
        for key, value in settings.items()
        if key != "jit"
    ]
    if rewrites:
        code += f"{tf}config.optimizer.set_experimental_options({{{', '.join(rewrites)}}})\n"
    return code
