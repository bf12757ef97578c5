"""The one module that imports TensorFlow, lazily, and every use of its private state.

TF2 has no public call for ``per_process_gpu_memory_fraction`` (nor for the allocator fields of
``GPUOptions``), but the eager context hands its base ``ConfigProto`` (``Context._config``) to the
runtime and to ``Session(config=None)``.  Writing there before the runtime starts is how those
fields reach TensorFlow's GPU allocator.  That, the snapshot used to roll back a failed
``configure()``, and the few other private attributes read here are guarded by the TF version
and by a check that the attributes exist, so a future TensorFlow that changes them produces a
clear :class:`GPUConfigError` instead of a wrong result.
"""

from __future__ import annotations

import copy
import importlib
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from packaging.version import Version

from tfcompat_gpu._errors import GPUConfigError

if TYPE_CHECKING:
    from tfcompat_gpu.config import GPUConfig

__all__ = [
    "ContextSnapshot",
    "abandon_session",
    "config_proto_class",
    "context",
    "context_if_created",
    "copy_scalar_fields",
    "default_graph",
    "fields_from_proto",
    "is_imported",
    "merge_serialized",
    "parse_config_proto",
    "pin_graph_device",
    "private_api_available",
    "proto_from_config",
    "runtime_started",
    "session_module",
    "set_fields",
    "set_op_device",
    "tf",
    "version",
]

# TF releases whose eager Context was read for the private attributes below.
_TESTED = (Version("2.12"), Version("2.22"))
_CONTEXT_ATTRS = (
    "_config",
    "_context_handle",
    "_visible_device_list",
    "_memory_growth_map",
    "_virtual_device_map",
    "_soft_device_placement",
    "_log_device_placement",
    "_intra_op_parallelism_threads",
    "_inter_op_parallelism_threads",
)


def tf() -> ModuleType:
    """The ``tensorflow`` module, imported on first use."""
    module = sys.modules.get("tensorflow")
    if module is not None and hasattr(module, "config"):
        return module
    try:
        return importlib.import_module("tensorflow")
    except ImportError as exc:
        raise ImportError(
            "tfcompat_gpu needs TensorFlow for this: install it with "
            "'pip install \"tfcompat-gpu[tf]\"' (or [tf-cpu]), or bring your own build."
        ) from exc


def is_imported() -> bool:
    """True once the user (or we) imported TensorFlow in this process."""
    return "tensorflow" in sys.modules


def version() -> Version:
    return Version(tf().__version__.split("+")[0])


def _context_module() -> Any:
    tf()
    return importlib.import_module("tensorflow.python.eager.context")


_SESSION_CLASS: list[Any] = []


def session_class() -> Any:
    """``tf.compat.v1.Session`` (looked up once: its lazy module attributes are slow)."""
    if not _SESSION_CLASS:
        _SESSION_CLASS.append(tf().compat.v1.Session)
    return _SESSION_CLASS[0]


def context() -> Any:
    """The eager context object; creating it does not start the runtime."""
    return _context_module().context()


def context_if_created() -> Any:
    """The eager context if TensorFlow is imported and one exists, without creating it."""
    if not is_imported():
        return None
    module = sys.modules.get("tensorflow.python.eager.context")
    return None if module is None else module.context_safe()


def runtime_started() -> bool:
    """True once the eager runtime is up (device settings are then frozen)."""
    ctx = context_if_created()
    return ctx is not None and getattr(ctx, "_context_handle", None) is not None


def graph_mode() -> bool:
    """True when eager execution was disabled for the process."""
    module = _context_module()
    return bool(module.default_execution_mode == module.GRAPH_MODE)


def private_api_available() -> bool:
    """Whether this TensorFlow's eager Context has the private state this module relies on."""
    low, high = _TESTED
    if not low <= version() < high:
        return False
    ctx = context()
    return all(hasattr(ctx, name) for name in _CONTEXT_ATTRS)


def require_private_api(field: str, value: object) -> None:
    if not private_api_available():
        raise GPUConfigError(
            f"{field}={value!r} cannot be applied on TensorFlow {version()}: TF2 has no public "
            "call for it, and this TensorFlow's internals are not the ones tfcompat_gpu was "
            f"tested with (TensorFlow >= {_TESTED[0]}, < {_TESTED[1]}). Use memory_limit_mb "
            "for an absolute cap instead."
        )


# -- protos ---------------------------------------------------------------------------------


def config_pb2() -> Any:
    tf()
    return importlib.import_module("tensorflow.core.protobuf.config_pb2")


def config_proto_class() -> Any:
    return config_pb2().ConfigProto


def parse_config_proto(data: bytes) -> Any:
    proto = config_proto_class()()
    proto.ParseFromString(data)
    return proto


def merge_serialized(base: bytes, update: bytes) -> bytes:
    proto = parse_config_proto(base)
    proto.MergeFrom(parse_config_proto(update))
    return bytes(proto.SerializeToString(deterministic=True))


def _repeated(descriptor: Any) -> bool:
    if hasattr(descriptor, "is_repeated"):  # protobuf >= 5.29
        return bool(descriptor.is_repeated)
    return bool(descriptor.label == descriptor.LABEL_REPEATED)


def set_fields(proto: Any, prefix: str = "") -> dict[str, Any]:
    """Dotted paths of every field set in ``proto`` with their values (messages recursed)."""
    out: dict[str, Any] = {}
    for descriptor, value in proto.ListFields():
        path = prefix + descriptor.name
        if _repeated(descriptor):
            if (
                descriptor.message_type is not None
                and descriptor.message_type.GetOptions().map_entry
            ):
                out[path] = dict(value)
            else:
                out[path] = list(value)
        elif descriptor.type == descriptor.TYPE_MESSAGE:
            out.update(set_fields(value, path + "."))
        else:
            out[path] = value
    return out


def _as_proto(proto: Any) -> Any:
    cls = config_proto_class()
    if isinstance(proto, (bytes, bytearray)):
        return parse_config_proto(bytes(proto))
    if isinstance(proto, cls):
        return proto
    raise GPUConfigError(
        "from_config_proto: expected a tf.compat.v1.ConfigProto or its serialized bytes. "
        f"Received: {type(proto).__name__} {proto!r}."
    )


def fields_from_proto(proto: Any) -> dict[str, Any]:
    """GPUConfig keyword arguments for a ConfigProto; defaults (False, 0, "") read as None."""
    source = _as_proto(proto)
    rest = config_proto_class()()
    rest.CopyFrom(source)
    gpu = rest.gpu_options
    fields: dict[str, Any] = {}
    if gpu.allow_growth:
        fields["allow_growth"] = True
    if gpu.per_process_gpu_memory_fraction:
        fields["per_process_gpu_memory_fraction"] = gpu.per_process_gpu_memory_fraction
    if gpu.visible_device_list:
        fields["visible_device_list"] = gpu.visible_device_list
    virtual = list(gpu.experimental.virtual_devices)
    modelled_virtual = virtual and not any(v.priority or v.device_ordinal for v in virtual)
    if modelled_virtual:
        ids: list[int]
        try:
            ids = (
                [int(i) for i in gpu.visible_device_list.split(",")]
                if gpu.visible_device_list
                else []
            )
        except ValueError:
            ids = []
        if len(ids) != len(virtual):
            ids = list(range(len(virtual)))
        # The proto stores MB as floats; TF2's LogicalDeviceConfiguration takes whole MB.
        per_gpu = {
            i: [round(mb) for mb in v.memory_limit_mb]
            for i, v in zip(ids, virtual)
            if v.memory_limit_mb
        }
        limits = list(per_gpu.values())
        if len(per_gpu) == len(virtual) and all(limit == limits[0] for limit in limits):
            fields["memory_limit_mb"] = limits[0][0] if len(limits[0]) == 1 else limits[0]
        elif per_gpu:
            fields["memory_limit_mb"] = per_gpu
        gpu.experimental.ClearField("virtual_devices")
    for name in ("allow_growth", "per_process_gpu_memory_fraction", "visible_device_list"):
        gpu.ClearField(name)
    if not gpu.experimental.ListFields():
        gpu.ClearField("experimental")
    if not gpu.ListFields():
        rest.ClearField("gpu_options")
    for name in (
        "allow_soft_placement",
        "log_device_placement",
        "intra_op_parallelism_threads",
        "inter_op_parallelism_threads",
    ):
        value = getattr(rest, name)
        if value:
            fields[name] = value
        rest.ClearField(name)
    if rest.device_count:
        fields["device_count"] = dict(rest.device_count)
    rest.ClearField("device_count")
    if rest.ListFields():
        fields["extra_proto"] = bytes(rest.SerializeToString(deterministic=True))
    return fields


def proto_from_config(cfg: GPUConfig, num_gpus: int | None = None) -> Any:
    """A ConfigProto with every set field of ``cfg`` plus its kept extras.

    Virtual devices need one entry per visible GPU: with no ``visible_device_list`` the count
    comes from ``num_gpus`` or TensorFlow's physical GPU list (which does not start the runtime).
    """
    proto = parse_config_proto(cfg.extra_proto) if cfg.extra_proto else config_proto_class()()
    gpu = proto.gpu_options
    if cfg.allow_growth is not None:
        gpu.allow_growth = cfg.allow_growth
    if cfg.per_process_gpu_memory_fraction is not None:
        gpu.per_process_gpu_memory_fraction = cfg.per_process_gpu_memory_fraction
    if cfg.visible_device_list is not None:
        gpu.visible_device_list = str(cfg.visible_device_list)
    limits = cfg.memory_limit_mb
    if limits is not None:
        ids = cfg.visible_ids
        if ids is None:
            count = num_gpus if num_gpus is not None else len(physical_gpus())
            if isinstance(limits, Mapping):
                count = max(count, max(limits.keys()) + 1)
            ids = tuple(range(max(count, 1)))
        del gpu.experimental.virtual_devices[:]
        for gpu_id in ids:
            entry = gpu.experimental.virtual_devices.add()
            entry.memory_limit_mb.extend(memory_limits_for(cfg, gpu_id))
    copy_scalar_fields(
        proto,
        cfg,
        (
            "allow_soft_placement",
            "log_device_placement",
            "intra_op_parallelism_threads",
            "inter_op_parallelism_threads",
        ),
    )
    return proto


def copy_scalar_fields(proto: Any, cfg: GPUConfig, names: tuple[str, ...]) -> None:
    """Write the top-level fields ``names`` and ``device_count`` that ``cfg`` sets into ``proto``.

    Explicit ``False`` / ``0`` values are written too (a proto merge would skip them).
    """
    for name in names:
        value = getattr(cfg, name)
        if value is not None:
            setattr(proto, name, value)
    if cfg.device_count is not None:
        for kind, count in cfg.device_count.items():
            proto.device_count[kind] = count


def memory_limits_for(cfg: GPUConfig, gpu_id: int) -> list[int]:
    """The MB limits of the logical devices ``cfg`` asks for on physical GPU ``gpu_id``."""
    limits = cfg.memory_limit_mb
    if limits is None:
        return []
    if isinstance(limits, int):
        return [limits]
    if isinstance(limits, Mapping):
        return list(limits.get(gpu_id, ()))
    return list(limits)


# -- devices and the eager context ----------------------------------------------------------


def physical_gpus() -> list[Any]:
    """Physical GPUs as TensorFlow lists them (no runtime start)."""
    return list(tf().config.list_physical_devices("GPU"))


def physical_cpus() -> list[Any]:
    return list(tf().config.list_physical_devices("CPU"))


@dataclass
class ContextSnapshot:
    """The context's device/thread settings, to put back if applying fails half-way."""

    values: dict[str, Any]
    function_call_options: Any

    @classmethod
    def take(cls) -> ContextSnapshot:
        ctx = context()
        ctx.list_physical_devices()  # initialize the lists we copy
        values = {name: copy.copy(getattr(ctx, name)) for name in _CONTEXT_ATTRS[2:]}
        values["_config"] = _copy_proto(ctx._config)
        return cls(values, ctx._thread_local_data.function_call_options)

    def restore(self) -> None:
        ctx = context()
        for name, value in self.values.items():
            setattr(ctx, name, value)
        ctx._thread_local_data.function_call_options = self.function_call_options


def _copy_proto(proto: Any) -> Any:
    if proto is None:
        return None
    duplicate = config_proto_class()()
    duplicate.CopyFrom(proto)
    return duplicate


def base_config() -> Any:
    """A copy of the context's base ConfigProto (what TF2 starts from before its setters)."""
    ctx = context()
    return _copy_proto(ctx._config) or config_proto_class()()


def merge_into_base_config(update: Any) -> None:
    """Merge ``update`` into the context's base ConfigProto (before the runtime starts)."""
    ctx = context()
    ctx.list_physical_devices()  # so TF imports nothing from the base config later
    merged = _copy_proto(ctx._config) or config_proto_class()()
    merged.MergeFrom(update)
    ctx._config = merged
    ctx._thread_local_data.function_call_options = None


def effective_proto() -> Any:
    """The ConfigProto the runtime gets / ``Session(config=None)`` uses (no runtime start)."""
    return context().config


def watch_runtime_start(record: Any) -> None:
    """Call ``record()`` from the frame that starts the eager runtime, once.

    Shadows ``ensure_initialized`` on the context instance until the first call, then removes
    itself, so nothing of it stays on the op path.
    """
    ctx = context()
    if ctx._context_handle is not None or "ensure_initialized" in vars(ctx):
        return
    original = type(ctx).ensure_initialized

    def ensure_initialized() -> None:
        if ctx._context_handle is None:
            record()
        vars(ctx).pop("ensure_initialized", None)
        original(ctx)

    ctx.ensure_initialized = ensure_initialized


# -- graphs and sessions (the drop-in) ------------------------------------------------------


def session_module() -> Any:
    """``tensorflow.python.client.session``, where every v1 session consumes its ConfigProto."""
    tf()
    return importlib.import_module("tensorflow.python.client.session")


def default_graph() -> Any:
    return tf().compat.v1.get_default_graph()


def pin_graph_device(graph: Any, device: str) -> None:
    """Make ``device`` the outermost device scope of ``graph``, for every op created from now on.

    ``Graph.device()`` only lasts for a ``with`` block; the entry is moved to the bottom of the
    graph's device stack so that the user's own ``with tf.device(...)`` blocks still nest inside
    it (and still win), whatever scope the call itself happens in.
    """
    graph._add_device_to_stack(device)
    stack = graph._device_function_stack
    entry = stack._stack.pop()
    stack._stack.insert(0, entry)


def set_op_device(op: Any, device: str) -> None:
    """Assign ``device`` to an op that was created before its graph was placed."""
    op._set_device(device)


def abandon_session(session: Any) -> None:
    """Let a session whose ``__init__`` was refused be collected without a ``__del__`` error."""
    if not hasattr(session, "_session"):
        session._session = None
