"""``GPUConfig`` <-> ``tf.compat.v1.ConfigProto``, driven by the options table.

Scalar options sit at their row's ``proto_path`` (``jit`` and ``auto_mixed_precision`` as the
enum values their kind gives); ``device_count`` is a map and
``memory_limit_mb`` becomes ``gpu_options.experimental.virtual_devices`` (one entry per visible
GPU).  Everything a ``ConfigProto`` holds that no row models is kept as serialized bytes
(``GPUConfig.extra_proto``) and written back.  TensorFlow's proto classes come from
:mod:`tfcompat_gpu.tfapi._tf`, which knows nothing of ``GPUConfig``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from tfcompat_gpu.errors import GPUConfigError
from tfcompat_gpu.settings.kinds import UNMODELLED, MemoryLimit, MemoryLimits, parse_device_list
from tfcompat_gpu.settings.options import OPTIONS, Option
from tfcompat_gpu.tfapi import _tf

__all__ = [
    "Fields",
    "fields_from_proto",
    "merge_extra",
    "parse_extra",
    "proto_from_config",
    "write_fields",
]


class Fields(Protocol):
    """What the writers read of a config: a :class:`~tfcompat_gpu.settings.config.GPUConfig`.

    Named here as a protocol so that this module, which ``GPUConfig`` imports, does not import
    ``GPUConfig`` back; every option of the table is read by name with ``getattr``.
    """

    @property
    def extra_proto(self) -> bytes: ...

    @property
    def memory_limit_mb(self) -> MemoryLimit | None: ...

    @property
    def visible_ids(self) -> tuple[int, ...] | None: ...


_SPLIT: dict[str, tuple[tuple[str, ...], str]] = {}
_EMPTIED = (
    "gpu_options.experimental",
    "gpu_options",
    "graph_options.optimizer_options",
    "graph_options.rewrite_options",
    "graph_options",
)


def _owner(proto: Any, path: str) -> tuple[Any, str]:
    split = _SPLIT.get(path)
    if split is None:
        *parents, leaf = path.split(".")
        split = _SPLIT[path] = (tuple(parents), leaf)
    for part in split[0]:
        proto = getattr(proto, part)
    return proto, split[1]


def parse_extra(data: bytes, field: str = "extra_proto") -> Any:
    """A ConfigProto from serialized bytes, or :class:`GPUConfigError` if they are not one."""
    try:
        return _tf.parse_config_proto(data)
    except Exception as exc:  # protobuf's DecodeError, whatever module defines it
        raise GPUConfigError(
            f"{field}: expected the bytes of a serialized tf.compat.v1.ConfigProto. Received: "
            f"{len(data)} bytes that do not parse ({exc}). Pass proto.SerializeToString(), or "
            "build the config with GPUConfig.from_config_proto(proto)."
        ) from None


def merge_extra(base: bytes, update: bytes) -> bytes:
    """``update``'s fields merged over ``base``'s, both serialized ConfigProtos."""
    proto = parse_extra(base)
    proto.MergeFrom(parse_extra(update))
    return bytes(proto.SerializeToString(deterministic=True))


def _as_proto(proto: Any) -> Any:
    if isinstance(proto, (bytes, bytearray)):
        return parse_extra(bytes(proto), "from_config_proto")
    if isinstance(proto, _tf.config_proto_class()):
        return proto
    raise GPUConfigError(
        "from_config_proto: expected a tf.compat.v1.ConfigProto or its serialized bytes. "
        f"Received: {type(proto).__name__} {proto!r}."
    )


def fields_from_proto(proto: Any) -> dict[str, Any]:
    """GPUConfig keyword arguments for a ConfigProto; defaults (False, 0, "") read as None.

    The enum fields read by their kind: ``global_jit_level`` DEFAULT is None, OFF ``False``, ON_1
    ``True``; ON_2 is no ``jit`` value and stays in ``extra_proto`` (so does AGGRESSIVE).
    """
    source = _as_proto(proto)
    rest = _tf.config_proto_class()()
    rest.CopyFrom(source)
    fields: dict[str, Any] = {}
    for option in OPTIONS:
        if option.kind.proto in ("scalar", "enum"):
            owner, leaf = _owner(rest, option.proto_path)
            value = option.kind.from_proto(getattr(owner, leaf))
            if value is UNMODELLED:
                continue  # a value the facade does not model (XLA ON_2): kept as it is
            if value is not None:
                fields[option.name] = value
            owner.ClearField(leaf)
        elif option.kind.proto == "map":
            owner, leaf = _owner(rest, option.proto_path)
            if getattr(owner, leaf):
                fields[option.name] = dict(getattr(owner, leaf))
            owner.ClearField(leaf)
        else:
            limits = _read_virtual_devices(rest, source.gpu_options.visible_device_list)
            if limits is not None:
                fields[option.name] = limits
    # Messages left empty by the cleared fields are dropped, innermost first.
    for path in _EMPTIED:
        owner, leaf = _owner(rest, path)
        if owner.HasField(leaf) and not getattr(owner, leaf).ListFields():
            owner.ClearField(leaf)
    if rest.ListFields():
        fields["extra_proto"] = bytes(rest.SerializeToString(deterministic=True))
    return fields


def _read_virtual_devices(rest: Any, visible: str) -> Any:
    """``memory_limit_mb`` for the virtual devices of ``rest`` (cleared when modelled)."""
    virtual = list(rest.gpu_options.experimental.virtual_devices)
    if not virtual or any(v.priority or v.device_ordinal for v in virtual):
        return None  # absent, or finer than the facade models: kept in extra_proto
    ids, problem = parse_device_list(visible)
    gpu_ids = (
        list(ids) if problem is None and len(ids) == len(virtual) else list(range(len(virtual)))
    )
    rest.gpu_options.experimental.ClearField("virtual_devices")
    # The proto stores MB as floats; TF2's LogicalDeviceConfiguration takes whole MB.
    per_gpu = {
        i: [round(mb) for mb in v.memory_limit_mb]
        for i, v in zip(gpu_ids, virtual)
        if v.memory_limit_mb
    }
    limits = list(per_gpu.values())
    if len(per_gpu) == len(virtual) and all(limit == limits[0] for limit in limits):
        return limits[0][0] if len(limits[0]) == 1 else limits[0]
    return per_gpu or None


def write_fields(proto: Any, cfg: Fields, options: Iterable[Option]) -> None:
    """Write the fields of ``options`` that ``cfg`` sets into ``proto`` (not virtual devices).

    Explicit ``False`` / ``0`` values are written too (a proto merge would skip them).
    """
    for option in options:
        value = getattr(cfg, option.name)
        if value is None:
            continue
        owner, leaf = _owner(proto, option.proto_path)
        if option.kind.proto in ("scalar", "enum"):
            setattr(owner, leaf, option.kind.to_proto(value))
        elif option.kind.proto == "map":
            getattr(owner, leaf).update(value)
        else:
            raise AssertionError(f"{option.name} needs the GPU count: use proto_from_config")


def proto_from_config(cfg: Fields, num_gpus: int | None = None) -> Any:
    """A ConfigProto with every set field of ``cfg`` plus its kept extras.

    Virtual devices need one entry per visible GPU: with no ``visible_device_list`` the count
    comes from ``num_gpus`` or TensorFlow's physical GPU list (which does not start the runtime).
    """
    proto = parse_extra(cfg.extra_proto) if cfg.extra_proto else _tf.config_proto_class()()
    write_fields(proto, cfg, (o for o in OPTIONS if o.kind.proto != "virtual_devices"))
    limits = cfg.memory_limit_mb
    if limits is not None:
        ids = cfg.visible_ids
        if ids is None:
            count = num_gpus if num_gpus is not None else len(_tf.physical_gpus())
            if isinstance(limits, Mapping):
                count = max(count, max(limits.keys()) + 1)
            ids = tuple(range(max(count, 1)))
        devices = proto.gpu_options.experimental.virtual_devices
        del devices[:]
        for gpu_id in ids:
            devices.add().memory_limit_mb.extend(MemoryLimits.for_gpu(limits, gpu_id))
    return proto
