"""``GPUConfig``: one immutable, validated description of the GPU and thread settings.

Validation happens at construction, so an invalid value never reaches TensorFlow.  Reading a
config from a ``ConfigProto``, the environment or a file only produces data; applying it to the
process is the job of :mod:`tfcompat_gpu.runtime.configuring`.  Per-field checks and text parsing come
from the options table (:mod:`tfcompat_gpu.settings.options`).  Nothing here imports TensorFlow at
import time.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tfcompat_gpu.errors import GPUConfigError, GPUConfigWarning
from tfcompat_gpu.settings.kinds import (
    DeviceIds,
    FrozenDict,
    MemoryLimit,
    MemoryLimits,
    invalid_value,
    register_device_list_form,
)
from tfcompat_gpu.settings.options import (
    EXCLUSIVE,
    OPTIONS,
    OPTIONS_BY_NAME,
    check_value,
    parse_text,
    unknown_setting,
)
from tfcompat_gpu.utils.shown import shown_value

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = ["FrozenDict", "GPUConfig", "MemoryLimit"]


def _resolver(module: str, name: str) -> Callable[[str | None], Sequence[int]]:
    """A resolver that imports its module on first use, so loading GPUConfig stays cheap."""

    def resolve(argument: str | None) -> Sequence[int]:
        import importlib

        found: Sequence[int] = getattr(importlib.import_module(module), name)(argument)
        return found

    return resolve


# The visible_device_list words: the launcher's local rank (_launchers) and GPUs picked through
# NVML (_machine).
register_device_list_form(
    "local_rank",
    _resolver("tfcompat_gpu.machine.launchers", "resolve_local_rank"),
    '"local_rank" (the GPU of this process\'s local rank) or "local_rank:K" (K GPUs per process)',
)
register_device_list_form(
    "auto",
    _resolver("tfcompat_gpu.machine.resolve", "resolve_form"),
    '"auto[:N]": the N GPUs with the most free memory (NVML)',
)


@dataclass(frozen=True)
class GPUConfig:
    """GPU and thread settings for the whole process; ``None`` leaves TensorFlow's default.

    Example::

        cfg = GPUConfig(allow_growth=True, visible_device_list="0", intra_op_parallelism_threads=4)
        tfcompat_gpu.configure(cfg)

    Invalid values raise :class:`GPUConfigError` here, before anything reaches TensorFlow.
    """

    allow_growth: bool | None = None
    per_process_gpu_memory_fraction: float | None = None
    memory_limit_mb: MemoryLimit | None = None
    visible_device_list: str | Sequence[int] | None = None
    allow_soft_placement: bool | None = None
    log_device_placement: bool | None = None
    intra_op_parallelism_threads: int | None = None
    inter_op_parallelism_threads: int | None = None
    device_count: Mapping[str, int] | None = None
    extra_proto: bytes = field(default=b"", compare=False, repr=False)
    """Serialized ``ConfigProto`` of the fields the facade does not model (kept, never dropped)."""
    jit: bool | None = None
    """XLA auto-clustering (``True`` or ``"autoclustering"``; ``False`` turns it off)."""
    auto_mixed_precision: bool | None = None
    """Grappler's automatic mixed precision graph rewrite."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        # Before the generated __init__, so that a misspelled name is our error, not TypeError.
        if kwargs and not cls.__dataclass_fields__.keys() >= kwargs.keys():
            raise unknown_setting(next(k for k in kwargs if k not in cls.__dataclass_fields__))
        return super().__new__(cls)

    def __post_init__(self) -> None:
        for option in OPTIONS:
            value = getattr(self, option.name)
            if value is not None:
                object.__setattr__(self, option.name, option.kind.check(option.name, value))
        if not isinstance(self.extra_proto, bytes):
            raise invalid_value("extra_proto", self.extra_proto, "serialized ConfigProto bytes")
        if self.extra_proto and "tensorflow" in sys.modules:
            # Checked here when TensorFlow is loaded anyway; otherwise where it is used.
            from tfcompat_gpu.settings import proto as _proto

            _proto.parse_extra(self.extra_proto)
        self._check_combinations()

    def _check_combinations(self) -> None:
        for first, second, reason in EXCLUSIVE:
            a = getattr(self, first)
            b = getattr(self, second)
            if a is not None and a is not False and b is not None and b is not False:
                raise GPUConfigError(reason.format(first=a, second=b))
        limits = self.memory_limit_mb
        if isinstance(limits, Mapping) and self.visible_device_list is not None:
            visible = set(self.visible_ids or ())
            hidden = sorted(set(limits) - visible)
            if hidden:
                raise GPUConfigError(
                    f"memory_limit_mb: GPU id {hidden[0]} has limits but is not in "
                    f"visible_device_list={self.visible_device_list!r}. Expected keys among the "
                    "visible GPUs; add it to visible_device_list or drop its entry."
                )
        gpu_count = (self.device_count or {}).get("GPU")
        if gpu_count == 0 and (self.visible_device_list is not None or limits is not None):
            raise GPUConfigError(
                'device_count={"GPU": 0} hides every GPU, which contradicts '
                f"visible_device_list={self.visible_device_list!r} / memory_limit_mb={limits!r}. "
                "Drop one of them."
            )
        fraction = self.per_process_gpu_memory_fraction
        if fraction is not None and fraction > 1:
            warnings.warn(
                f"per_process_gpu_memory_fraction={fraction!r} is above 1: TensorFlow then "
                "oversubscribes GPU memory with CUDA unified memory (host RAM), which is slow. "
                "Use a value in (0, 1] unless that is what you want.",
                GPUConfigWarning,
                stacklevel=4,
            )

    # -- views -------------------------------------------------------------------------------

    @property
    def visible_ids(self) -> tuple[int, ...] | None:
        """``visible_device_list`` as a tuple of GPU ids (None: every GPU)."""
        assert self.visible_device_list is None or isinstance(self.visible_device_list, str)
        return DeviceIds.ids(self.visible_device_list)

    def memory_limits_for(self, gpu_id: int) -> list[int]:
        """The MB limits of the logical devices asked for on physical GPU ``gpu_id``."""
        return MemoryLimits.for_gpu(self.memory_limit_mb, gpu_id)

    def items(self) -> Iterator[tuple[str, Any]]:
        """The modelled fields that are set (not None), in the table's order."""
        for option in OPTIONS:
            value = getattr(self, option.name)
            if value is not None:
                yield option.name, value

    def to_dict(self) -> dict[str, Any]:
        """The fields that are set, as plain Python values (lists and dicts)."""
        return {name: OPTIONS_BY_NAME[name].kind.plain(value) for name, value in self.items()}

    def replace(self, **changes: Any) -> Self:
        """A copy with some fields changed (validated again)."""
        return dataclasses.replace(self, **changes)

    def merged(self, other: GPUConfig) -> GPUConfig:
        """``other``'s set fields over this config's (unmodelled proto fields merge too).

        Setting one of two exclusive fields in ``other`` drops the other one from this config:
        a memory limit replaces a fraction and growth, and the reverse.
        """
        changes: dict[str, Any] = dict(other.items())
        if other.extra_proto:
            changes["extra_proto"] = _merge_extra(self.extra_proto, other.extra_proto)
        for first, second, _ in EXCLUSIVE:
            a = getattr(other, first)
            b = getattr(other, second)
            if a is not None and a is not False and (b is None or b is False):
                changes.setdefault(second, None)
            elif b is not None and b is not False and (a is None or a is False):
                changes.setdefault(first, None)
        return self.replace(**changes)

    def process_wide(self) -> GPUConfig:
        """Only the fields TensorFlow treats as process-wide."""
        return GPUConfig(
            **{name: value for name, value in self.items() if OPTIONS_BY_NAME[name].process_wide}
        )

    def unmodeled_fields(self) -> dict[str, Any]:
        """Dotted ConfigProto paths of the kept fields the facade does not model."""
        if not self.extra_proto:
            return {}
        from tfcompat_gpu.settings import proto as _proto
        from tfcompat_gpu.tfapi import _tf

        return _tf.set_fields(_proto.parse_extra(self.extra_proto))

    # -- ConfigProto ---------------------------------------------------------------------------

    @classmethod
    def from_config_proto(cls, proto: Any) -> GPUConfig:
        """Read a ``tf.compat.v1.ConfigProto`` (or its serialized bytes).

        Fields the facade does not model (``graph_options``, ``allocator_type``, …) are kept in
        :attr:`extra_proto` and written back by :meth:`to_config_proto`.
        """
        from tfcompat_gpu.settings import proto as _proto

        return cls(**_proto.fields_from_proto(proto))

    def to_config_proto(self) -> Any:
        """A ``tf.compat.v1.ConfigProto`` carrying every set field, plus the kept extras."""
        from tfcompat_gpu.settings import proto as _proto

        return _proto.proto_from_config(self)

    # -- environment -------------------------------------------------------------------------

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> GPUConfig:
        """Read ``TFCOMPAT_GPU_*`` variables, and TensorFlow's ``TF_FORCE_GPU_ALLOW_GROWTH``.

        ``TF_FORCE_GPU_ALLOW_GROWTH`` follows TensorFlow exactly: only ``"true"`` and ``"false"``
        count, and either overrides ``allow_growth``; any other value is ignored with a
        :class:`GPUConfigWarning` (TensorFlow logs an error and ignores it too).

        Example::

            $ TFCOMPAT_GPU_ALLOW_GROWTH=1 TFCOMPAT_GPU_VISIBLE_DEVICES=1,0 python train.py
        """
        env = os.environ if environ is None else environ
        if not isinstance(env, Mapping):
            raise GPUConfigError(
                "GPUConfig.from_env: expected a mapping of variable names to text, such as "
                f"os.environ or a dict. Received: environ={shown_value(env)}."
            )
        fields: dict[str, Any] = {}
        read: dict[str, str] = {}
        for option in OPTIONS:
            if option.env is None:
                continue
            raw = env.get(option.env, "")
            if not isinstance(raw, str):
                raise GPUConfigError(
                    f"GPUConfig.from_env: environment variables are text: "
                    f"{option.env}={shown_value(raw)}. Pass str(value)."
                )
            raw = raw.strip()
            if raw:
                where = f"environment variable {option.env}"
                value = parse_text(option.name, raw, where)
                try:
                    fields[option.name] = check_value(option.name, value)
                except GPUConfigError as exc:
                    raise GPUConfigError(f"{where}={raw!r}: {exc}") from None
                read[option.env] = raw
        forced = env.get("TF_FORCE_GPU_ALLOW_GROWTH")
        if forced is not None:
            if forced in ("true", "false"):
                fields["allow_growth"] = forced == "true"
                read["TF_FORCE_GPU_ALLOW_GROWTH"] = forced
            else:
                warnings.warn(
                    f"TF_FORCE_GPU_ALLOW_GROWTH={forced!r} is ignored: TensorFlow accepts only "
                    "'true' or 'false' (lower case) and otherwise keeps the configured value.",
                    GPUConfigWarning,
                    stacklevel=2,
                )
        names = ", ".join(f"{name}={raw!r}" for name, raw in read.items())
        return _build(cls, fields, f"the environment: {names}")

    # -- files -------------------------------------------------------------------------------

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> GPUConfig:
        """Read an INI file with a ``[gpu]`` section, or TOML with a ``[tool.tfcompat-gpu]`` table.

        INI keys are the field names, plus ``rate`` for the memory fraction, as in::

            [gpu]
            allow_growth = true
            allow_soft_placement = true
            rate = 0.3

        A ``.toml`` file (``pyproject.toml`` included) uses ``[tool.tfcompat-gpu]`` with the
        same keys, or a top-level ``[gpu]`` table.
        """
        from tfcompat_gpu.settings import files as _settings_files

        fields, where = _settings_files.read_fields(path)
        return _build(cls, fields, where)


# -- helpers for the readers -----------------------------------------------------------------


def _build(cls: type[GPUConfig], fields: dict[str, Any], where: str) -> GPUConfig:
    try:
        return cls(**fields)
    except GPUConfigError as exc:
        raise GPUConfigError(f"{exc} (read from {where})") from None


def _merge_extra(base: bytes, update: bytes) -> bytes:
    if not base:
        return update
    from tfcompat_gpu.settings import proto as _proto

    return _proto.merge_extra(base, update)
