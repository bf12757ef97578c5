"""What the lint knows of TensorFlow's API: canonical names, and what each call does to the runtime.

The walk asks :func:`call_kind` for every resolved call: whether it makes TensorFlow enumerate
the GPUs (CUDA reads ``CUDA_VISIBLE_DEVICES`` then), start its runtime (process-wide setters are
frozen then), run an eager op, or turn eager execution off.  New TensorFlow entry points that
change the runtime go in these tables.
"""

from __future__ import annotations

import re

from tfcompat_gpu.settings.options import OPTIONS
from tfcompat_gpu.tfapi.names import canonical

__all__ = [
    "CONFIG_FIELDS",
    "DISABLES",
    "ENUMERATES",
    "NOTHING",
    "OP",
    "SESSIONS",
    "STARTS",
    "TRACKED_ROOTS",
    "call_kind",
    "canonical",
    "display",
    "for_target",
]

# Attributes that rules check on any object (``cfg.gpu_options.allow_growth = ...``): the
# process-wide fields of the option table, plus the allocator type it does not model.
CONFIG_FIELDS = frozenset(
    option.proto_path.rpartition(".")[2]
    for option in OPTIONS
    if option.process_wide and option.name != "memory_limit_mb"
) | {"allocator_type"}

# Only these import roots can matter to a rule; ignoring numpy & co. keeps reference
# callbacks off the hot path.
TRACKED_ROOTS = frozenset(
    {"tensorflow", "keras", "tf_keras", "os", "subprocess", "tfcompat_gpu", "horovod"}
)


def display(name: str) -> str:
    """How users write a qualified name: ``tensorflow.config.x`` -> ``tf.config.x``."""
    if name == "tensorflow" or name.startswith("tensorflow."):
        return "tf" + name[len("tensorflow") :]
    return name


# What makes TensorFlow enumerate the GPUs (CUDA reads CUDA_VISIBLE_DEVICES then) and what
# starts the runtime (process-wide setters are frozen then).  Canonical names.
_GPU_INIT = frozenset(
    f"tensorflow.config.{name}"
    for name in (
        "list_physical_devices",
        "experimental.list_physical_devices",
        "get_visible_devices",
        "experimental.get_visible_devices",
        "set_visible_devices",
        "experimental.set_visible_devices",
        "experimental.set_memory_growth",
        "experimental.get_memory_growth",
        "set_logical_device_configuration",
        "experimental.set_virtual_device_configuration",
        "get_logical_device_configuration",
        "experimental.get_virtual_device_configuration",
        "experimental.get_device_details",
    )
)
_STARTS_RUNTIME = frozenset(
    {
        "tensorflow.config.list_logical_devices",
        "tensorflow.config.experimental.list_logical_devices",
        "tensorflow.config.experimental.get_memory_info",
        "tensorflow.config.experimental.get_memory_usage",
        "keras.backend.tensorflow_backend._get_available_gpus",
        "tensorflow.keras.backend._get_available_gpus",
        "tensorflow.test.is_gpu_available",
        "tensorflow.test.gpu_device_name",
        "tensorflow.python.client.device_lib.list_local_devices",
        "tensorflow.distribute.MirroredStrategy",
        "tensorflow.distribute.MultiWorkerMirroredStrategy",
        "tensorflow.distribute.experimental.MultiWorkerMirroredStrategy",
        "tensorflow.distribute.experimental.CentralStorageStrategy",
    }
)
SESSIONS = frozenset(
    {
        "tensorflow.Session",
        "tensorflow.InteractiveSession",
        "tensorflow.train.MonitoredTrainingSession",
        "tensorflow.train.SingularMonitoredSession",
    }
)
# Eager ops start the runtime; graph building (after disable_eager_execution) does not.
_OP_MODULES = frozenset(
    {"random", "math", "linalg", "nn", "image", "signal", "strings", "sparse", "bitwise", "data"}
)
_NOT_OPS = frozenset(
    {
        "tensorflow.random.set_seed",
        "tensorflow.random.set_random_seed",
        "tensorflow.set_random_seed",
        "tensorflow.data.experimental.enable_debug_mode",
    }
)
_OPS = frozenset(
    [
        "constant",
        "Variable",
        "zeros",
        "ones",
        "fill",
        "range",
        "matmul",
        "add",
        "add_n",
        "subtract",
        "multiply",
        "divide",
        "reduce_sum",
        "reduce_mean",
        "reduce_max",
        "reduce_min",
        "convert_to_tensor",
        "cast",
        "reshape",
        "concat",
        "stack",
        "ones_like",
        "zeros_like",
        "eye",
        "linspace",
        "square",
        "sqrt",
        "exp",
        "identity",
        "transpose",
        "einsum",
        "tile",
        "gather",
        "where",
        "argmax",
        "argmin",
        "one_hot",
        "abs",
        "maximum",
        "minimum",
        "pow",
        "tensordot",
    ]
)
_DISABLE_EAGER = frozenset({"tensorflow.disable_eager_execution", "tensorflow.disable_v2_behavior"})


NOTHING, DISABLES, STARTS, OP, ENUMERATES = range(5)
"""What a call does to the runtime: see :func:`call_kind`."""
_CALL_KIND: dict[str, int] = {}


def call_kind(name: str) -> int:
    """Whether calling ``name`` (canonical) starts the runtime, enumerates GPUs, runs an op..."""
    kind = _CALL_KIND.get(name)
    if kind is not None:
        return kind
    kind = NOTHING
    if name in _DISABLE_EAGER:
        kind = DISABLES
    elif name in _STARTS_RUNTIME or name in SESSIONS:
        kind = STARTS
    elif name in _GPU_INIT:
        kind = ENUMERATES
    elif name.startswith("tensorflow."):
        parts = name.split(".")
        if len(parts) == 2:
            kind = OP if parts[1] in _OPS else NOTHING
        elif parts[1] in _OP_MODULES and name not in _NOT_OPS:
            kind = OP
    _CALL_KIND[name] = kind
    return kind


# tf.config names that appeared in TensorFlow 2.1; older releases (1.14, 1.15, 2.0) have only
# the experimental spelling, so a fix for them must name that one.
_NEWER_NAMES = {
    "tf.config." + new: "tf.config.experimental." + old
    for new, old in (
        ("set_logical_device_configuration", "set_virtual_device_configuration"),
        ("get_logical_device_configuration", "get_virtual_device_configuration"),
        ("LogicalDeviceConfiguration", "VirtualDeviceConfiguration"),
        ("list_physical_devices", "list_physical_devices"),
        ("list_logical_devices", "list_logical_devices"),
        ("set_visible_devices", "set_visible_devices"),
        ("get_visible_devices", "get_visible_devices"),
    )
}
_NEWER = re.compile(r"\btf\.config\.(?:" + "|".join(n[10:] for n in _NEWER_NAMES) + r")\b")


def for_target(text: str, target: tuple[int, int] | None) -> str:
    """``text`` with the tf.config names of TensorFlow >= 2.1 spelled as ``target`` has them."""
    if target is None or target >= (2, 1) or "tf.config." not in text:
        return text
    return _NEWER.sub(lambda m: _NEWER_NAMES[m.group(0)], text)
