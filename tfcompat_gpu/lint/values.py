"""Checks of single values, shared by the static rules and the runtime check."""

from __future__ import annotations

from functools import lru_cache

from tfcompat_gpu.lint.registry import Severity
from tfcompat_gpu.settings.env_vars import KNOWN_ENV_VARS
from tfcompat_gpu.settings.kinds import parse_device_list

__all__ = [
    "KNOWN_ENV_VARS",
    "allow_growth_env_problem",
    "cuda_visible_count",
    "device_string_problem",
    "fraction_problem",
    "parse_visible_device_list",
    "suggest_env_var",
]

_BY_LENGTH: dict[int, list[str]] = {}
for _name in sorted(KNOWN_ENV_VARS):
    _BY_LENGTH.setdefault(len(_name), []).append(_name)


def _distance(a: str, b: str, limit: int) -> int:
    """Optimal-string-alignment distance (a swap counts once), cut off above ``limit``."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


@lru_cache(maxsize=1024)  # a file repeats its names: each is compared with the table once
def suggest_env_var(name: str) -> str | None:
    """The known GPU variable ``name`` misspells, or None (known, or not close to any)."""
    if name in KNOWN_ENV_VARS or not 6 <= len(name) <= 64:
        return None
    upper = name.upper()
    if upper in KNOWN_ENV_VARS:
        return upper
    limit = 2 if len(name) >= 12 else 1
    best: tuple[int, str] | None = None
    for length in range(len(name) - limit, len(name) + limit + 1):
        for known in _BY_LENGTH.get(length, ()):
            d = _distance(upper, known, limit)
            if d <= limit and (best is None or d < best[0]):
                best = (d, known)
    return best[1] if best else None


def parse_visible_device_list(value: str) -> tuple[list[int], str | None]:
    """GPU ids of a ``visible_device_list``, and why it is malformed (None if it is not)."""
    ids, problem = parse_device_list(value)
    return list(ids), None if problem is None else problem.reason


def cuda_visible_count(value: str) -> int | None:
    """How many GPUs ``CUDA_VISIBLE_DEVICES=value`` leaves visible, when it is plain ids.

    CUDA stops at the first invalid entry (``-1`` hides everything); UUIDs and MIG names are
    not counted (None), since their validity depends on the machine.
    """
    count = 0
    for entry in value.split(","):
        text = entry.strip()
        if not (text.isascii() and text.isdigit()):
            return count if text.startswith("-") or not text else None
        count += 1
    return count


def fraction_problem(value: float) -> tuple[str, Severity] | None:
    """``(reason, severity)`` when a memory fraction is outside (0, 1]."""
    if value > 1:
        return (
            "above 1 turns on CUDA unified memory (oversubscription into host RAM); "
            "write a fraction such as 0.5 unless that is intended",
            "warning",
        )
    if value <= 0:
        return (
            "it does not limit memory (0 means TensorFlow's default, nearly all of it); "
            "write a fraction such as 0.5",
            "error",
        )
    return None


# Device types TensorFlow accepts without the "device:" prefix (device_spec.py).
_DEVICE_TYPES = frozenset({"CPU", "GPU", "TPU", "TPU_SYSTEM", "XLA_CPU", "XLA_GPU", "DEFAULT"})


def device_string_problem(spec: str) -> str | None:
    """Why ``tf.device(spec)`` raises, following TensorFlow's DeviceSpec parser, or None."""
    device_type = None
    for part in spec.split("/"):
        fields = part.split(":")
        n = len(fields)
        head = fields[0]
        if n == 2 and head in ("job", "replica", "task"):
            if head != "job" and not fields[1].strip().isdigit():
                return f"{head} {fields[1]!r} is not a number"
            continue
        if n in (1, 2) and head.upper() in _DEVICE_TYPES:
            index = fields[1] if n == 2 else "*"
        elif n == 3 and head == "device":
            index = fields[2]
        elif head == "":
            # TensorFlow skips parts with an empty name ("/" at the start, "//").
            continue
        elif "," in part:
            return "a device string names one device, not a list"
        else:
            return f"unknown part {part!r}"
        if device_type is not None:
            return "more than one device type"
        device_type = head
        if index != "*" and not _is_int(index):
            if "," in index:
                return "a device string names one device, not a list"
            return f"device index {index!r} is not a number"
    return None


def _is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def allow_growth_env_problem(value: str) -> str | None:
    """The value to write instead, when ``TF_FORCE_GPU_ALLOW_GROWTH=value`` is ignored."""
    if value in ("true", "false"):
        return None
    lowered = value.strip().lower()
    if lowered in ("false", "0", "no", "off", ""):
        return "false"
    return "true"
