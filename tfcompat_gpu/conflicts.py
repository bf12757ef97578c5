"""Detect sessions that ask for process-wide GPU options other than the ones in force.

TensorFlow builds the GPU allocator, the id map and the thread pools once per process; a later
session's different values are ignored without a word, or, for the device list and virtual
devices, fail on a GPU machine only.  This is the project's own logic, so it works the same on
CPU-only machines, where TensorFlow never looks at GPU options.
"""

from __future__ import annotations

import logging
import os
import threading
import warnings
from dataclasses import dataclass
from typing import Any, Literal

from tfcompat_gpu._errors import GPUConfigConflictError, GPUConfigError, GPUConfigWarning
from tfcompat_gpu._options import OPTIONS_BY_NAME
from tfcompat_gpu.config import GPUConfig

__all__ = [
    "Conflict",
    "ConflictPolicy",
    "find_conflicts",
    "get_conflict_policy",
    "report_conflicts",
    "set_conflict_policy",
]

ConflictPolicy = Literal["error", "warn", "ignore", "remap"]
_POLICIES: tuple[str, ...] = ("error", "warn", "ignore", "remap")
_ENV = "TFCOMPAT_GPU_CONFLICT_POLICY"

logger = logging.getLogger("tfcompat_gpu")
_lock = threading.Lock()
_policy: str | None = None


@dataclass(frozen=True)
class Conflict:
    """One process-wide field a request wants changed."""

    field: str
    active: Any
    requested: Any

    @property
    def severity(self) -> str:
        """``"error"`` where TensorFlow fails on a GPU, ``"warn"`` where it silently ignores."""
        return OPTIONS_BY_NAME[self.field].conflict if self.field in OPTIONS_BY_NAME else "warn"


def _check_policy(policy: object, source: str) -> str:
    if policy not in _POLICIES:
        raise GPUConfigError(
            f"{source}: expected one of {', '.join(map(repr, _POLICIES))}. Received: {policy!r}."
        )
    return str(policy)


def set_conflict_policy(policy: ConflictPolicy | None) -> None:
    """Choose what a conflicting session does: ``"error"``, ``"warn"``, ``"ignore"`` or ``"remap"``.

    ``None`` restores the default: conflicts TensorFlow would fail on with a GPU (device list,
    virtual devices) raise, the ones it silently ignores (memory fraction, growth, allocator,
    thread pools) warn.  ``"error"`` makes every conflict an error (for CI).

    Example::

        tfcompat_gpu.set_conflict_policy("error")
    """
    global _policy
    with _lock:
        _policy = None if policy is None else _check_policy(policy, "set_conflict_policy")


def get_conflict_policy() -> str | None:
    """The policy set by :func:`set_conflict_policy` or ``TFCOMPAT_GPU_CONFLICT_POLICY`` (None: default)."""
    if _policy is not None:
        return _policy
    raw = os.environ.get(_ENV, "").strip()
    return _check_policy(raw, f"environment variable {_ENV}") if raw else None


def find_conflicts(active: GPUConfig, requested: GPUConfig) -> list[Conflict]:
    """Process-wide fields set in ``requested`` whose value differs from ``active``."""
    out = []
    for name, value in requested.process_wide().items():
        current = getattr(active, name)
        if _same(name, current, value):
            continue
        out.append(Conflict(name, current, value))
    out.extend(_extra_conflicts(active, requested))
    return out


def _same(name: str, current: Any, value: Any) -> bool:
    if current == value:
        return True
    # None is TensorFlow's default: 0 threads and growth off mean the same.
    if name.endswith("_threads"):
        return (current or 0) == (value or 0)
    if name == "allow_growth":
        return bool(current) == bool(value)
    return False


_ALLOCATOR_PREFIXES = ("gpu_options.",)


def _extra_conflicts(active: GPUConfig, requested: GPUConfig) -> list[Conflict]:
    """Allocator fields the facade does not model (``allocator_type``, ``experimental.*``)."""
    if not requested.extra_proto:
        return []
    wanted = {
        path: value
        for path, value in requested.unmodeled_fields().items()
        if path.startswith(_ALLOCATOR_PREFIXES)
    }
    if not wanted:
        return []
    current = active.unmodeled_fields()
    return [
        Conflict(path, current.get(path), value)
        for path, value in sorted(wanted.items())
        if current.get(path) != value
    ]


def _show(value: Any) -> str:
    return "(TensorFlow's default)" if value is None else repr(value)


def format_conflicts(
    conflicts: list[Conflict], *, requested_where: str, active_where: str | None
) -> str:
    """The message of a conflict error or warning (its first line names the fields)."""
    fields = ", ".join(c.field for c in conflicts)
    lines = [
        f"Conflicting process-wide GPU options ({fields}): TensorFlow applies them once per "
        "process, so a later session cannot change them."
    ]
    since = active_where or "<unknown>"
    for c in conflicts:
        lines.append(
            f"  {c.field}: {_show(c.requested)} requested at {requested_where}, but "
            f"{_show(c.active)} is in force since {since}."
        )
    lines.append(
        "Fix: give every session the same GPU options (or config=None, which inherits the process "
        "config), set them once with tfcompat_gpu.configure() at start, or, to run models on "
        'different GPUs, use tfcompat_gpu.set_conflict_policy("remap") or tfcompat_gpu.on_gpu().'
    )
    return "\n".join(lines)


def report_conflicts(
    conflicts: list[Conflict], *, requested_where: str, active_where: str | None
) -> None:
    """Raise, warn or log per the policy; no-op without conflicts."""
    if not conflicts:
        return
    policy = get_conflict_policy()
    message = format_conflicts(
        conflicts, requested_where=requested_where, active_where=active_where
    )
    if policy == "ignore":
        logger.debug("%s", message)
        return
    fatal = policy == "error" or (
        policy in (None, "remap") and any(c.severity == "error" for c in conflicts)
    )
    if fatal:
        raise GPUConfigConflictError(message)
    warnings.warn(message, GPUConfigWarning, stacklevel=4)
