"""Value kinds of the options table: how each kind of GPU/thread setting is checked and read.

Each :class:`Kind` owns, for every option of its kind, the validation of a Python value (and
its error text), the parsing of text (environment variables, INI and TOML files, command-line
flags), TensorFlow's default and the plain form written to JSON.  The options table
(:mod:`tfcompat_gpu.settings.options`) gives every row one kind; :class:`~tfcompat_gpu.GPUConfig`, the
readers, the conflict check, the lint and the codemod read values through it.

``visible_device_list`` has one parser, :func:`parse_device_list`, shared by the config, the
proto reader and the lint.  Words such as ``"local_rank"`` or ``"auto:2"`` can be taught to it
with :func:`register_device_list_form`.  Nothing here imports TensorFlow.

Example::

    >>> from tfcompat_gpu.settings.kinds import parse_device_list
    >>> parse_device_list("1, 0")
    ((1, 0), None)
    >>> parse_device_list("0,,1")[1].reason
    'empty entry'
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, NamedTuple, Union

from tfcompat_gpu.errors import GPUConfigError
from tfcompat_gpu.utils.numbers import is_int, parse_float, parse_int
from tfcompat_gpu.utils.shown import shown_value as _shown

__all__ = [
    "COUNT",
    "DEVICE_COUNT",
    "DEVICE_IDS",
    "FRACTION",
    "JIT_LEVEL",
    "MEMORY_LIMIT",
    "REWRITE_TOGGLE",
    "SWITCH",
    "UNMODELLED",
    "DeviceListForm",
    "DeviceListProblem",
    "FrozenDict",
    "Kind",
    "MemoryLimit",
    "ProtoSwitch",
    "TextError",
    "as_int",
    "device_list_forms",
    "invalid_value",
    "is_bool",
    "parse_device_list",
    "register_device_list_form",
]

INT32_MAX = 2**31 - 1

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


def invalid_value(name: str, value: object, expected: str, fix: str = "") -> GPUConfigError:
    """The error for an invalid value: field, what was expected, what was received, the fix."""
    message = f"{name}: expected {expected}. Received: {name}={_shown(value)}."
    if fix:
        message += f" {fix}"
    return GPUConfigError(message)


class TextError(ValueError):
    """Text that does not read as a value of the kind; ``expected`` says what would, ``fix``
    (optional) what to write instead."""

    def __init__(self, expected: str, fix: str = "") -> None:
        super().__init__(expected)
        self.expected = expected
        self.fix = fix


def is_bool(value: object) -> bool:
    """``bool`` or numpy's ``bool_`` (without importing numpy)."""
    kind = type(value)
    return kind is bool or (kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_"))


def as_int(value: object) -> int | None:
    """``value`` as a Python int when it is an integer of any type (numpy's too), not a bool."""
    if type(value) is int:
        return value
    if is_bool(value) or not isinstance(value, numbers.Integral):
        return None
    return int(value)


def _items(value: object) -> list[object] | None:
    """The entries of a list, tuple or 1-d array (not of a string, bytes or mapping)."""
    if isinstance(value, (str, bytes, bytearray, Mapping)):
        return None
    if isinstance(value, Sequence):
        return list(value)
    if type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 1:
        return [item for item in value]  # type: ignore[attr-defined]
    return None


class Kind:
    """What all options of one value kind share."""

    name: ClassVar[str] = ""
    proto: ClassVar[str] = "scalar"
    """How the value sits in a ``ConfigProto``: ``"scalar"`` at the option's path, ``"map"``
    (``device_count``) or ``"virtual_devices"`` (``memory_limit_mb``)."""

    def check(self, name: str, value: object) -> Any:
        """The normalized value of a non-None ``value``, or :class:`GPUConfigError`."""
        raise NotImplementedError

    def parse(self, text: str) -> Any:
        """The Python value written as ``text`` (stripped), or :class:`TextError`."""
        raise NotImplementedError

    def to_proto(self, value: Any) -> Any:
        """The ``ConfigProto`` field's value for a checked ``value`` (scalar kinds)."""
        return value

    def from_proto(self, raw: Any) -> Any:
        """The value a ``ConfigProto`` field holds: None for its zero value (TensorFlow's
        default), :data:`UNMODELLED` for one the kind cannot hold (kept in ``extra_proto``)."""
        return raw if raw else None

    def plain(self, value: Any) -> Any:
        """``value`` as plain Python data (lists and dicts), for JSON and ``to_dict()``."""
        return value

    def __repr__(self) -> str:
        return f"<kind {self.name}>"


_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


def _digits(text: str) -> bool:
    """``text`` is a non-negative integer in the project's number grammar (:mod:`._numbers`)."""
    return is_int(text)


def _type_name(key: str) -> bool:
    """``key`` reads as a TensorFlow device type: ``CPU``, ``GPU``, ``XLA_GPU``."""
    return (
        key.isascii()
        and key[:1].isalpha()
        and key.isupper()
        and key.replace("_", "").isalnum()
        and not any(c.islower() for c in key)
    )


class Switch(Kind):
    """On/off: ``True``, ``False`` or ``None``."""

    name = "switch"

    def check(self, name: str, value: object) -> bool:
        if is_bool(value):
            return bool(value)
        raise invalid_value(name, value, "True, False or None", "Pass a bool, e.g. True.")

    def parse(self, text: str) -> bool:
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise TextError("a boolean (1/0, true/false, yes/no, on/off)")


UNMODELLED = object()  # what Kind.from_proto returns for a value the facade does not model


class ProtoSwitch(Switch):
    """On/off held in a proto enum: ``True`` is ``on`` (``"ON_1=1"``: its name and number),
    ``False`` is ``off``, ``None`` the enum's DEFAULT (0); other values stay in ``extra_proto``.
    ``words`` are strings taken as values too (``"autoclustering"``, as ``set_jit`` takes it)."""

    proto = "enum"

    def __init__(self, name: str, on: str, off: str, words: Mapping[str, bool] = {}) -> None:
        self.name, self.words = name, dict(words)  # type: ignore[misc]
        (self.on_name, on_number), (self.off_name, off_number) = on.split("="), off.split("=")
        self.on, self.off = int(on_number), int(off_number)

    def check(self, name: str, value: object) -> bool:
        if is_bool(value) or (isinstance(value, str) and value in self.words):
            return self.words[value] if isinstance(value, str) else bool(value)
        fix = "Pass a bool, e.g. True."
        if as_int(value) is not None:
            on, off = f"{self.on_name} ({self.on})", f"{self.off_name} ({self.off})"
            fix = f"Pass a bool: the proto's {on} is True, {off} is False."
        elif isinstance(value, str) and self.words:
            fix = f"Pass True ({' or '.join(map(repr, self.words))}) or False."
        expected = "True, False" + "".join(f", {w!r}" for w in self.words) + " or None"
        raise invalid_value(name, value, expected, fix)

    def parse(self, text: str) -> bool:
        known = {**dict.fromkeys(_TRUE, True), **dict.fromkeys(_FALSE, False), **self.words}
        if text.lower() in known:
            return known[text.lower()]
        words = "".join(f", {w}" for w in self.words)
        raise TextError(f"a boolean (1/0, true/false, yes/no, on/off{words})")

    def to_proto(self, value: Any) -> int:
        return self.on if value else self.off

    def from_proto(self, raw: Any) -> Any:
        return None if raw == 0 else raw == self.on if raw in (self.on, self.off) else UNMODELLED


class Count(Kind):
    """A thread count: an int >= 0, 0 letting TensorFlow choose."""

    name = "count"

    def check(self, name: str, value: object) -> int:
        expected = "an int >= 0 (0 lets TensorFlow choose) or None"
        count = as_int(value)
        if count is None:
            hint = ""
            if isinstance(value, str):
                hint = f"Convert it first, e.g. {name}=int(os.environ[...])."
            raise invalid_value(name, value, expected, hint)
        if not 0 <= count <= INT32_MAX:
            raise invalid_value(name, value, expected)
        return count

    def parse(self, text: str) -> int:
        if not _digits(text):
            raise TextError("an integer >= 0")
        return int(text)


class Fraction(Kind):
    """A share of each GPU's memory: a float in (0, 1] (above 1: unified memory)."""

    name = "fraction"

    def check(self, name: str, value: object) -> float:
        expected = "a float in (0, 1] or None"
        if type(value) is not float and (is_bool(value) or not isinstance(value, numbers.Real)):
            raise invalid_value(name, value, expected, "Pass a number such as 0.3.")
        huge = isinstance(value, int) and value.bit_length() > 1024  # float() would overflow
        fraction = math.inf if huge else float(value)
        if math.isnan(fraction) or math.isinf(fraction) or fraction <= 0:
            raise invalid_value(
                name,
                value,
                expected,
                "Use None for TensorFlow's default (all memory minus a reserve).",
            )
        return fraction

    def parse(self, text: str) -> float:
        # Not float(): it reads "0_5" as 5.0 and fullwidth digits as ASCII ones.
        value = parse_float(text)
        if value is not None:
            return value
        fix = ""
        percent = parse_float(text[:-1]) if text.endswith("%") else None
        if percent is not None:
            fix = f"Write the share as a fraction: {text} is {percent / 100:g}."
        raise TextError("a number in (0, 1] (ASCII digits, such as 0.5)", fix)


class MemoryLimits(Kind):
    """MB per logical device: one int, a list (virtual GPUs) or ``{gpu_id: [MB, ...]}``."""

    name = "memory_limit"
    proto = "virtual_devices"
    _EXPECTED = "a positive int (MB), a non-empty list of them, a dict {gpu_id: [MB, ...]}, or None"
    _TEXT = 'MB as "2048", "1024,1024" or "0:1024,1024;1:2048"'

    def _limits(self, name: str, value: object, whole: object) -> tuple[int, ...]:
        single = as_int(value)
        items = [value] if single is not None else _items(value)
        if items is None:
            raise invalid_value(name, whole, self._EXPECTED)
        if not items:
            raise invalid_value(
                name, whole, self._EXPECTED, "An empty list would create no GPU device at all."
            )
        limits = []
        for item in items:
            mb = as_int(item)
            if mb is None or not 0 < mb <= INT32_MAX:
                raise invalid_value(
                    name, whole, self._EXPECTED, f"{_shown(item)} is not a memory size in MB."
                )
            limits.append(mb)
        return tuple(limits)

    def check(self, name: str, value: object) -> int | tuple[int, ...] | FrozenDict:
        if isinstance(value, Mapping):
            if not value:
                raise invalid_value(name, value, "a non-empty dict {gpu_id: [MB, ...]}")
            per_gpu = {}
            for key, limits in value.items():
                gpu_id = as_int(key)
                if gpu_id is None or not 0 <= gpu_id <= INT32_MAX:
                    raise invalid_value(
                        name,
                        value,
                        "a dict keyed by GPU id (an int >= 0)",
                        f"Key {_shown(key)} is not one.",
                    )
                per_gpu[gpu_id] = self._limits(name, limits, value)
            return FrozenDict(per_gpu)
        limits = self._limits(name, value, value)
        return limits[0] if as_int(value) is not None else limits

    def parse(self, text: str) -> MemoryLimit:
        """ "2048" -> 2048; "1024,1024" -> [1024, 1024]; "0:1024,1024;1:2048" -> {0: [...], ...}."""
        if ":" in text:
            per_gpu: dict[int, list[int]] = {}
            for chunk in text.split(";"):
                key, _, limits = chunk.partition(":")
                if not _digits(key.strip()):
                    raise TextError(self._TEXT)
                if int(key) in per_gpu:
                    raise TextError(
                        self._TEXT,
                        f"GPU {int(key)} is listed twice: give all its limits in one entry, "
                        f"such as {int(key)}:1024,1024.",
                    )
                per_gpu[int(key)] = self._ints(limits)
            return per_gpu
        values = self._ints(text)
        return values[0] if len(values) == 1 else values

    def _ints(self, part: str) -> list[int]:
        values = [p.strip() for p in part.split(",")]
        if not all(_digits(v) for v in values):
            raise TextError(self._TEXT)
        return [int(v) for v in values]

    def plain(self, value: Any) -> Any:
        if isinstance(value, Mapping):
            return {k: list(v) for k, v in value.items()}
        return list(value) if isinstance(value, tuple) else value

    @staticmethod
    def for_gpu(value: Any, gpu_id: int) -> list[int]:
        """The MB limits of the logical devices ``value`` asks for on physical GPU ``gpu_id``."""
        if value is None:
            return []
        if isinstance(value, int):
            return [value]
        if isinstance(value, Mapping):
            return list(value.get(gpu_id, ()))
        return list(value)


# -- visible_device_list ---------------------------------------------------------------------


class DeviceListProblem(NamedTuple):
    """Why a ``visible_device_list`` text is malformed."""

    entry: str
    """The offending entry as written (``""`` for an empty one)."""
    reason: str
    """Short reason (``"empty entry"``, ``"duplicate id 0"``, ``"'a' is not a GPU id"``)."""
    duplicate: int | None = None
    """The id listed twice, when that is the problem."""


class DeviceListForm(NamedTuple):
    """A word accepted as a ``visible_device_list`` (``"local_rank"``, ``"auto:2"``)."""

    word: str
    resolve: Callable[[str | None], Sequence[int]]
    """``resolve(argument)`` -> GPU ids; the argument is the text after ``word:`` (or None).
    It raises :class:`GPUConfigError` when the form cannot be resolved here."""
    help: str
    """How the form reads, for error messages (``'"local_rank[:K]": the GPU of this rank'``)."""


_FORMS: dict[str, DeviceListForm] = {}


def register_device_list_form(
    word: str, resolve: Callable[[str | None], Sequence[int]], help: str
) -> None:
    """Teach :func:`parse_device_list` a word such as ``"local_rank"`` (and ``"local_rank:K"``).

    ``GPUConfig(visible_device_list="word[:arg]")`` then holds the ids ``resolve(arg)`` returns,
    validated like a written list.  Registering a word again replaces its resolver.
    """
    if not re.fullmatch(r"[a-z][a-z0-9_]*", word):
        raise ValueError(f"device list forms are lower-case words, not {word!r}")
    _FORMS[word] = DeviceListForm(word, resolve, help)


def device_list_forms() -> tuple[DeviceListForm, ...]:
    """The registered words, in registration order."""
    return tuple(_FORMS.values())


def _form_of(text: str) -> tuple[DeviceListForm, str | None] | None:
    word, sep, argument = text.partition(":")
    form = _FORMS.get(word.strip())
    if form is None:
        return None
    return form, argument.strip() if sep else None


def parse_device_list(text: str) -> tuple[tuple[int, ...], DeviceListProblem | None]:
    """The GPU ids of a ``visible_device_list`` text, and what is wrong with it (None: nothing).

    The ids read up to the first problem are returned with it.  ``""`` is no id at all
    (TensorFlow's "every GPU").  Registered words (:func:`register_device_list_form`) are not
    expanded here: see :meth:`DeviceIds.check`.
    """
    if text == "":
        return (), None
    ids: dict[int, None] = {}  # ordered, and a set: thousands of ids stay linear
    for raw in text.split(","):
        entry = raw.strip()
        if not entry:
            return tuple(ids), DeviceListProblem(entry, "empty entry")
        if entry.startswith("-") and is_int(entry[1:]):
            return tuple(ids), DeviceListProblem(entry, f"negative id {entry}")
        # TensorFlow reads each entry with strings::safe_strto32 (ASCII digits only):
        # xla/tsl/framework/device_id_utils.cc, ParseVisibleDeviceList.
        number = parse_int(entry)
        if number is None:
            return tuple(ids), DeviceListProblem(entry, f"{entry!r} is not a GPU id")
        if number in ids:
            return tuple(ids), DeviceListProblem(entry, f"duplicate id {number}", number)
        ids[number] = None
    return tuple(ids), None


class DeviceIds(Kind):
    """``visible_device_list``: distinct GPU ids, stored as TensorFlow's text (``"1,0"``)."""

    name = "device_ids"
    _EXPECTED = 'a comma-separated list of distinct GPU ids such as "1,0", a list of ints, or None'

    def check(self, name: str, value: object) -> str | None:
        if isinstance(value, str):
            if not value.strip():
                return None  # TF1 semantics: an empty list means "every GPU", the default
            ids = self._from_text(name, value)
        else:
            items = _items(value)
            if items is None:
                raise invalid_value(name, value, self._EXPECTED)
            ids = self._from_ints(name, items, value)
        if not ids:
            raise invalid_value(
                name, value, self._EXPECTED, 'To hide every GPU use device_count={"GPU": 0}.'
            )
        return ",".join(map(str, ids))

    def _from_text(self, name: str, value: str) -> tuple[int, ...]:
        form = _form_of(value)
        if form is not None:
            return self._from_ints(name, form[0].resolve(form[1]), value)
        ids, problem = parse_device_list(value.strip())
        if problem is None:
            return ids
        if problem.duplicate is not None:
            raise invalid_value(
                name, value, self._EXPECTED, f"GPU id {problem.duplicate} is listed twice."
            )
        words = "".join(f" or {form.help}" for form in _FORMS.values())
        raise invalid_value(
            name,
            value,
            self._EXPECTED + words,
            f"Could not parse entry {problem.entry!r}: ids are non-negative integers "
            "(the GPU indices left after CUDA_VISIBLE_DEVICES).",
        )

    def _from_ints(
        self, name: str, value: Sequence[object], shown: object = None
    ) -> tuple[int, ...]:
        ids: dict[int, None] = {}  # ordered, and a set
        for entry in value:
            gpu_id = as_int(entry)
            if gpu_id is None or not 0 <= gpu_id <= INT32_MAX:
                raise invalid_value(
                    name,
                    value if shown is None else shown,
                    self._EXPECTED,
                    f"Entry {_shown(entry)} is not a GPU id.",
                )
            if gpu_id in ids:
                raise invalid_value(
                    name,
                    value if shown is None else shown,
                    self._EXPECTED,
                    f"GPU id {gpu_id} is listed twice.",
                )
            ids[gpu_id] = None
        return tuple(ids)

    def parse(self, text: str) -> str:
        return text  # checked as a value: the same rules whatever the source

    @staticmethod
    def ids(value: str | None) -> tuple[int, ...] | None:
        """The ids of a checked value (None: every GPU)."""
        return None if value is None else parse_device_list(value)[0]


class DeviceCount(Kind):
    """``device_count``: device type -> number of devices (``{"CPU": 2, "GPU": 0}``)."""

    name = "device_count"
    proto = "map"
    _EXPECTED = 'a dict of device type to count such as {"CPU": 2, "GPU": 0}'

    def check(self, name: str, value: object) -> FrozenDict:
        if not isinstance(value, Mapping):
            raise invalid_value(name, value, self._EXPECTED)
        counts = {}
        for key, count in value.items():
            if not isinstance(key, str) or not _type_name(key):
                fix = (
                    f"Device types are upper case: {key.upper()!r}." if isinstance(key, str) else ""
                )
                raise invalid_value(name, value, self._EXPECTED, fix)
            number = as_int(count)
            if number is None or not 0 <= number <= INT32_MAX:
                raise invalid_value(
                    name, value, self._EXPECTED, f"The count for {_shown(key)} must be an int >= 0."
                )
            counts[str(key)] = number
        return FrozenDict(counts)

    def parse(self, text: str) -> dict[str, int]:
        counts: dict[str, int] = {}
        for part in text.split(","):
            kind, _, count = part.partition(":")
            if not _digits(count.strip()):
                raise TextError('entries such as "CPU:2,GPU:0"')
            if kind.strip() in counts:
                raise TextError(
                    'entries such as "CPU:2,GPU:0"',
                    f"{kind.strip()!r} is listed twice: give each device type once.",
                )
            counts[kind.strip()] = int(count)
        return counts

    def plain(self, value: Any) -> Any:
        return dict(value)


SWITCH = Switch()
# config.proto OptimizerOptions.GlobalJitLevel (ON_2 unmodelled: TF2's set_jit only sets ON_1)
JIT_LEVEL = ProtoSwitch("jit_level", on="ON_1=1", off="OFF=-1", words={"autoclustering": True})
# tensorflow/core/protobuf/rewriter_config.proto, RewriterConfig.Toggle (AGGRESSIVE unmodelled)
REWRITE_TOGGLE = ProtoSwitch("rewrite_toggle", on="ON=1", off="OFF=2")
COUNT = Count()
FRACTION = Fraction()
MEMORY_LIMIT = MemoryLimits()
DEVICE_IDS = DeviceIds()
DEVICE_COUNT = DeviceCount()
