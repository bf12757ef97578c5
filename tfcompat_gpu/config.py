"""``GPUConfig``: one immutable, validated description of the GPU and thread settings.

Validation happens at construction, so an invalid value never reaches TensorFlow.  Reading a
config from a ``ConfigProto``, the environment or a file only produces data; applying it to the
process is the job of :mod:`tfcompat_gpu.apply`.  Nothing here imports TensorFlow at import time.
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
import sys
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

from tfcompat_gpu._errors import GPUConfigError, GPUConfigWarning
from tfcompat_gpu._options import OPTIONS, OPTIONS_BY_NAME

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = ["FrozenDict", "GPUConfig", "MemoryLimit"]

_INT32_MAX = 2**31 - 1

MemoryLimit = Union[int, Sequence[int], Mapping[int, Sequence[int]]]


class FrozenDict(Mapping[Any, Any]):
    """A small immutable, hashable mapping (keys kept sorted for a stable repr)."""

    __slots__ = ("_data", "_hash")

    def __init__(self, data: Mapping[Any, Any]) -> None:
        self._data = dict(sorted(data.items()))
        self._hash = hash(tuple(self._data.items()))

    def __getitem__(self, key: Any) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return self._data == dict(other.items())
        return NotImplemented

    def __repr__(self) -> str:
        return repr(self._data)


def _fail(name: str, value: object, expected: str, fix: str = "") -> GPUConfigError:
    message = f"{name}: expected {expected}. Received: {name}={value!r}."
    if fix:
        message += f" {fix}"
    return GPUConfigError(message)


def _check_bool(name: str, value: object) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    raise _fail(name, value, "True, False or None", "Pass a bool, e.g. True.")


def _check_threads(name: str, value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        hint = ""
        if isinstance(value, str):
            hint = f"Convert it first, e.g. {name}=int(os.environ[...])."
        raise _fail(name, value, "an int >= 0 (0 lets TensorFlow choose) or None", hint)
    if not 0 <= value <= _INT32_MAX:
        raise _fail(name, value, "an int >= 0 (0 lets TensorFlow choose) or None")
    return value


def _check_fraction(value: object) -> float | None:
    name = "per_process_gpu_memory_fraction"
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _fail(name, value, "a float in (0, 1] or None", "Pass a number such as 0.3.")
    fraction = float(value)
    if math.isnan(fraction) or math.isinf(fraction) or fraction <= 0:
        raise _fail(
            name,
            value,
            "a float in (0, 1] or None",
            "Use None for TensorFlow's default (all memory minus a reserve).",
        )
    return fraction


def _parse_device_ids(name: str, value: object) -> tuple[int, ...]:
    """Parse a TF1 ``visible_device_list`` ("1,0") or a sequence of ints."""
    expected = 'a comma-separated list of distinct GPU ids such as "1,0", a list of ints, or None'
    ids: list[int] = []
    if isinstance(value, str):
        for raw in value.split(","):
            entry = raw.strip()
            if not entry.isdigit() or not entry.isascii():
                raise _fail(
                    name,
                    value,
                    expected,
                    f"Could not parse entry {entry!r}: ids are non-negative integers "
                    "(the GPU indices left after CUDA_VISIBLE_DEVICES).",
                )
            ids.append(int(entry))
    elif isinstance(value, Sequence) and not isinstance(value, (bytes, bytearray)):
        for entry in value:
            if isinstance(entry, bool) or not isinstance(entry, int) or entry < 0:
                raise _fail(name, value, expected, f"Entry {entry!r} is not a GPU id.")
            ids.append(entry)
    else:
        raise _fail(name, value, expected)
    if not ids:
        raise _fail(
            name,
            value,
            expected,
            'To hide every GPU use device_count={"GPU": 0}.',
        )
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise _fail(name, value, expected, f"GPU id {duplicates[0]} is listed twice.")
    return tuple(ids)


def _check_limits(name: str, value: object, whole: object) -> tuple[int, ...]:
    expected = "a positive int (MB), a non-empty list of them, a dict {gpu_id: [MB, ...]}, or None"
    if isinstance(value, (bool, str, bytes)):
        raise _fail(name, whole, expected)
    if isinstance(value, int):
        items: Sequence[object] = (value,)
    elif isinstance(value, Sequence):
        items = value
    else:
        raise _fail(name, whole, expected)
    if not items:
        raise _fail(name, whole, expected, "An empty list would create no GPU device at all.")
    limits = []
    for item in items:
        if isinstance(item, bool) or not isinstance(item, int) or not 0 < item <= _INT32_MAX:
            raise _fail(name, whole, expected, f"{item!r} is not a memory size in MB.")
        limits.append(item)
    return tuple(limits)


def _check_memory_limit(value: object) -> int | tuple[int, ...] | FrozenDict | None:
    name = "memory_limit_mb"
    if value is None:
        return None
    if isinstance(value, Mapping):
        if not value:
            raise _fail(name, value, "a non-empty dict {gpu_id: [MB, ...]}")
        per_gpu = {}
        for key, limits in value.items():
            if isinstance(key, bool) or not isinstance(key, int) or key < 0:
                raise _fail(
                    name, value, "a dict keyed by GPU id (an int >= 0)", f"Key {key!r} is not one."
                )
            per_gpu[key] = _check_limits(name, limits, value)
        return FrozenDict(per_gpu)
    limits = _check_limits(name, value, value)
    if isinstance(value, int):
        return limits[0]
    return limits


_DEVICE_TYPE = re.compile(r"^[A-Z][A-Z0-9_]*$")


def _check_device_count(value: object) -> FrozenDict | None:
    name = "device_count"
    if value is None:
        return None
    expected = 'a dict of device type to count such as {"CPU": 2, "GPU": 0}'
    if not isinstance(value, Mapping):
        raise _fail(name, value, expected)
    counts = {}
    for key, count in value.items():
        if not isinstance(key, str) or not _DEVICE_TYPE.match(key):
            fix = f"Device types are upper case: {key.upper()!r}." if isinstance(key, str) else ""
            raise _fail(name, value, expected, fix)
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= _INT32_MAX:
            raise _fail(name, value, expected, f"The count for {key!r} must be an int >= 0.")
        counts[key] = count
    return FrozenDict(counts)


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

    def __post_init__(self) -> None:
        setter = object.__setattr__
        setter(self, "allow_growth", _check_bool("allow_growth", self.allow_growth))
        setter(
            self,
            "allow_soft_placement",
            _check_bool("allow_soft_placement", self.allow_soft_placement),
        )
        setter(
            self,
            "log_device_placement",
            _check_bool("log_device_placement", self.log_device_placement),
        )
        for name in ("intra_op_parallelism_threads", "inter_op_parallelism_threads"):
            setter(self, name, _check_threads(name, getattr(self, name)))
        setter(
            self,
            "per_process_gpu_memory_fraction",
            _check_fraction(self.per_process_gpu_memory_fraction),
        )
        setter(self, "memory_limit_mb", _check_memory_limit(self.memory_limit_mb))
        visible = self.visible_device_list
        if visible is not None and not (isinstance(visible, str) and not visible.strip()):
            ids = _parse_device_ids("visible_device_list", visible)
            setter(self, "visible_device_list", ",".join(str(i) for i in ids))
        else:
            # TF1 semantics: an empty list means "every GPU", the default.
            setter(self, "visible_device_list", None)
        setter(self, "device_count", _check_device_count(self.device_count))
        if not isinstance(self.extra_proto, bytes):
            raise _fail("extra_proto", self.extra_proto, "serialized ConfigProto bytes")
        self._check_combinations()

    def _check_combinations(self) -> None:
        limits = self.memory_limit_mb
        if limits is not None and self.per_process_gpu_memory_fraction is not None:
            raise GPUConfigError(
                "per_process_gpu_memory_fraction and memory_limit_mb cannot be combined: "
                "TensorFlow rejects a memory fraction when virtual devices are set "
                f"(per_process_gpu_memory_fraction={self.per_process_gpu_memory_fraction!r}, "
                f"memory_limit_mb={limits!r}). Keep one: memory_limit_mb is an absolute cap "
                "in MB per GPU, the fraction is relative to each GPU's total memory."
            )
        if limits is not None and self.allow_growth:
            raise GPUConfigError(
                "allow_growth=True and memory_limit_mb cannot be combined: TensorFlow 2 cannot "
                "set memory growth on a GPU that has logical (virtual) devices "
                f"(memory_limit_mb={limits!r}). Keep one: memory_limit_mb caps the memory, "
                "allow_growth allocates it on demand."
            )
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
        if self.visible_device_list is None:
            return None
        assert isinstance(self.visible_device_list, str)
        return tuple(int(i) for i in self.visible_device_list.split(","))

    def items(self) -> Iterator[tuple[str, Any]]:
        """The modelled fields that are set (not None), in the table's order."""
        for option in OPTIONS:
            value = getattr(self, option.name)
            if value is not None:
                yield option.name, value

    def to_dict(self) -> dict[str, Any]:
        """The fields that are set, as plain Python values (lists and dicts)."""
        out: dict[str, Any] = {}
        for name, value in self.items():
            if isinstance(value, FrozenDict):
                value = {k: list(v) if isinstance(v, tuple) else v for k, v in value.items()}
            elif isinstance(value, tuple):
                value = list(value)
            out[name] = value
        return out

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
        if other.memory_limit_mb is not None:
            changes.setdefault("per_process_gpu_memory_fraction", None)
            if not other.allow_growth:
                changes.setdefault("allow_growth", None)
        elif other.per_process_gpu_memory_fraction is not None or other.allow_growth:
            changes["memory_limit_mb"] = None
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
        from tfcompat_gpu import _tf

        return _tf.set_fields(_tf.parse_config_proto(self.extra_proto))

    # -- ConfigProto ---------------------------------------------------------------------------

    @classmethod
    def from_config_proto(cls, proto: Any) -> GPUConfig:
        """Read a ``tf.compat.v1.ConfigProto`` (or its serialized bytes).

        Fields the facade does not model (``graph_options``, ``allocator_type``, …) are kept in
        :attr:`extra_proto` and written back by :meth:`to_config_proto`.
        """
        from tfcompat_gpu import _tf

        return cls(**_tf.fields_from_proto(proto))

    def to_config_proto(self) -> Any:
        """A ``tf.compat.v1.ConfigProto`` carrying every set field, plus the kept extras."""
        from tfcompat_gpu import _tf

        return _tf.proto_from_config(self)

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
        fields: dict[str, Any] = {}
        for option in OPTIONS:
            if option.env is None:
                continue
            raw = env.get(option.env, "").strip()
            if raw:
                fields[option.name] = _parse_text(
                    option.name, raw, f"environment variable {option.env}"
                )
        forced = env.get("TF_FORCE_GPU_ALLOW_GROWTH")
        if forced is not None:
            if forced in ("true", "false"):
                fields["allow_growth"] = forced == "true"
            else:
                warnings.warn(
                    f"TF_FORCE_GPU_ALLOW_GROWTH={forced!r} is ignored: TensorFlow accepts only "
                    "'true' or 'false' (lower case) and otherwise keeps the configured value.",
                    GPUConfigWarning,
                    stacklevel=2,
                )
        return _build(cls, fields, "the environment")

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
        location = Path(path)
        try:
            text = location.read_text(encoding="utf-8")
        except OSError as exc:
            raise GPUConfigError(f"Cannot read GPU settings from {str(location)!r}: {exc}") from exc
        if location.suffix == ".toml":
            return _from_toml(cls, text, location)
        return _from_ini(cls, text, location)


# -- helpers for the readers -----------------------------------------------------------------

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _resolve_key(key: str, where: str) -> str:
    normalized = key.strip().lower().replace("-", "_")
    if normalized in OPTIONS_BY_NAME:
        return normalized
    for option in OPTIONS:
        if normalized in option.aliases:
            return option.name
    names = ", ".join(sorted(OPTIONS_BY_NAME))
    raise GPUConfigError(f"Unknown GPU setting {key!r} in {where}. Expected one of: {names}.")


def _parse_text(name: str, raw: str, where: str) -> Any:
    """Turn the text of an environment variable or INI value into the field's Python value."""
    text = raw.strip()
    option = OPTIONS_BY_NAME[name]

    def bad(expected: str) -> GPUConfigError:
        return GPUConfigError(f"{where}: expected {expected} for {name}. Received: {raw!r}.")

    if name in ("allow_growth", "allow_soft_placement", "log_device_placement"):
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise bad("a boolean (1/0, true/false, yes/no, on/off)")
    if name in ("intra_op_parallelism_threads", "inter_op_parallelism_threads"):
        if not re.fullmatch(r"\d+", text):
            raise bad("an integer >= 0")
        return int(text)
    if name == "per_process_gpu_memory_fraction":
        try:
            return float(text)
        except ValueError:
            raise bad("a number in (0, 1]") from None
    if name == "visible_device_list":
        return text
    if name == "memory_limit_mb":
        return _parse_memory_limit(text, bad)
    if name == "device_count":
        counts: dict[str, int] = {}
        for part in text.split(","):
            kind, _, count = part.partition(":")
            if not re.fullmatch(r"\d+", count.strip()):
                raise bad('entries such as "CPU:2,GPU:0"')
            counts[kind.strip()] = int(count)
        return counts
    raise AssertionError(option)  # pragma: no cover - every row is handled above


def _parse_memory_limit(text: str, bad: Any) -> MemoryLimit:
    """ "2048" -> 2048; "1024,1024" -> [1024, 1024]; "0:1024,1024;1:2048" -> {0: [...], 1: [...]}."""

    def ints(part: str) -> list[int]:
        values = [p.strip() for p in part.split(",")]
        if not all(re.fullmatch(r"\d+", v) for v in values):
            raise bad('MB as "2048", "1024,1024" or "0:1024,1024;1:2048"')
        return [int(v) for v in values]

    if ":" in text:
        per_gpu: dict[int, list[int]] = {}
        for chunk in text.split(";"):
            key, _, limits = chunk.partition(":")
            if not re.fullmatch(r"\d+", key.strip()):
                raise bad('MB as "2048", "1024,1024" or "0:1024,1024;1:2048"')
            per_gpu[int(key)] = ints(limits)
        return per_gpu
    values = ints(text)
    return values[0] if len(values) == 1 else values


def _build(cls: type[GPUConfig], fields: dict[str, Any], where: str) -> GPUConfig:
    try:
        return cls(**fields)
    except GPUConfigError as exc:
        raise GPUConfigError(f"{exc} (read from {where})") from None


def _from_ini(cls: type[GPUConfig], text: str, location: Path) -> GPUConfig:
    import configparser

    parser = configparser.ConfigParser()
    try:
        parser.read_string(text, source=str(location))
    except configparser.Error as exc:
        raise GPUConfigError(f"{str(location)!r} is not a valid INI file: {exc}") from None
    if not parser.has_section("gpu"):
        raise GPUConfigError(
            f"{str(location)!r} has no [gpu] section. Expected INI keys such as "
            "allow_growth, allow_soft_placement and rate under [gpu]."
        )
    fields: dict[str, Any] = {}
    for key, raw in parser.items("gpu"):
        name = _resolve_key(key, f"{location} [gpu]")
        fields[name] = _parse_text(name, raw, f"{location} [gpu] {key}")
    return _build(cls, fields, str(location))


def _from_toml(cls: type[GPUConfig], text: str, location: Path) -> GPUConfig:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise GPUConfigError(f"{str(location)!r} is not valid TOML: {exc}") from None
    table = data.get("tool", {}).get("tfcompat-gpu")
    where = f"{location} [tool.tfcompat-gpu]"
    if table is None:
        table, where = data.get("gpu"), f"{location} [gpu]"
    if not isinstance(table, dict):
        raise GPUConfigError(
            f"{str(location)!r} has no [tool.tfcompat-gpu] (or [gpu]) table with GPU settings."
        )
    fields: dict[str, Any] = {}
    for key, value in table.items():
        if isinstance(value, dict) and key not in ("memory_limit_mb", "device_count"):
            continue  # sub-tables such as [tool.tfcompat-gpu.lint] belong to other tools
        name = _resolve_key(key, where)
        if name == "memory_limit_mb" and isinstance(value, dict):
            # TOML keys are strings; GPU ids are ints.
            if not all(str(k).isdigit() for k in value):
                raise GPUConfigError(
                    f"{where}: expected GPU ids as keys of memory_limit_mb. Received: {value!r}."
                )
            value = {int(k): v for k, v in value.items()}
        fields[name] = value
    return _build(cls, fields, where)


def _merge_extra(base: bytes, update: bytes) -> bytes:
    if not base:
        return update
    from tfcompat_gpu import _tf

    return _tf.merge_serialized(base, update)
