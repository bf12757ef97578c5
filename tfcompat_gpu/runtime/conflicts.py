"""Detect sessions that ask for process-wide GPU options other than the ones in force.

TensorFlow builds the GPU allocator, the id map and the thread pools once per process; a later
session's different values are ignored without a word, or, for the device list and virtual
devices, fail on a GPU machine only.  This is the project's own logic, so it works the same on
CPU-only machines, where TensorFlow never looks at GPU options.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from typing import Any, Literal

from tfcompat_gpu.errors import GPUConfigConflictError, GPUConfigError, GPUConfigWarning
from tfcompat_gpu.runtime.state import STATE
from tfcompat_gpu.settings.config import GPUConfig
from tfcompat_gpu.settings.env_vars import CONFLICT_POLICY_ENV
from tfcompat_gpu.settings.options import OPTIONS_BY_NAME, same_value, show_value

__all__ = [
    "Conflict",
    "ConflictPolicy",
    "find_conflicts",
    "format_conflicts",
    "get_conflict_policy",
    "report_conflicts",
    "set_conflict_policy",
]

ConflictPolicy = Literal["error", "warn", "ignore", "remap"]
_POLICIES: tuple[str, ...] = ("error", "warn", "ignore", "remap")


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
    thread pools) warn.  ``"error"`` makes every conflict an error (for CI).  ``"remap"`` is
    the default plus one thing: a session asking for its own ``visible_device_list`` no longer
    conflicts; the process keeps the union of the lists in first-seen order and the session's
    graph is placed on the TensorFlow device of the GPU it asked for.

    Example::

        tfcompat_gpu.set_conflict_policy("error")
    """
    checked = None if policy is None else _check_policy(policy, "set_conflict_policy")
    with STATE.lock:
        STATE.policy = checked


def get_conflict_policy() -> str | None:
    """The policy set by :func:`set_conflict_policy` or ``TFCOMPAT_GPU_CONFLICT_POLICY`` (None: default)."""
    if STATE.policy is not None:
        return STATE.policy
    raw = os.environ.get(CONFLICT_POLICY_ENV, "").strip()
    return _check_policy(raw, f"environment variable {CONFLICT_POLICY_ENV}") if raw else None


def find_conflicts(active: GPUConfig, requested: GPUConfig) -> list[Conflict]:
    """Process-wide fields set in ``requested`` whose value differs from ``active``."""
    out = []
    for name, value in requested.process_wide().items():
        current = getattr(active, name)
        if same_value(name, current, value):
            continue
        out.append(Conflict(name, current, value))
    out.extend(_extra_conflicts(active, requested))
    return out


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


def _consequence(conflict: Conflict) -> str:
    if conflict.field == "visible_device_list":
        return (
            "on a GPU, TensorFlow fails with 'TensorFlow device (GPU:0) is being mapped to "
            "multiple devices'"
        )
    if conflict.severity == "error":
        return "on a GPU, TensorFlow fails to create the session's devices"
    return (
        f"TensorFlow keeps {show_value(conflict.field, conflict.active)} and ignores the request "
        "without a word"
    )


def format_conflicts(
    conflicts: list[Conflict],
    *,
    requested_where: str,
    active_where: str | None,
    kind: str = "Session",
) -> str:
    """The message of a conflict error or warning (its first line names the fields)."""
    fields = ", ".join(c.field for c in conflicts)
    lines = [
        f"Conflicting process-wide GPU options ({fields}): the {kind} created at "
        f"{requested_where} asks for values other than the ones in force, and TensorFlow "
        "applies them once per process."
    ]
    since = active_where or "<unknown>"
    for c in conflicts:
        lines.append(
            f"  {c.field}: {show_value(c.field, c.requested)} requested at {requested_where}, but "
            f"{show_value(c.field, c.active)} is in force since {since}; {_consequence(c)}."
        )
    fix = (
        "Fix: give every session the same GPU options (or config=None, which inherits the "
        "process config), or set them once with tfcompat_gpu.configure() at start"
    )
    if any(c.field == "visible_device_list" for c in conflicts):
        fix += (
            '; to run models on different GPUs, use tfcompat_gpu.set_conflict_policy("remap") '
            "(each session's graph then runs on the GPU it asked for) or "
            "tfcompat_gpu.on_gpu(gpu_id, graph)"
        )
    lines.append(fix + ".")
    return "\n".join(lines)


def report_conflicts(
    conflicts: list[Conflict],
    *,
    requested_where: str,
    active_where: str | None,
    kind: str = "Session",
) -> None:
    """Raise, warn or log per the policy; no-op without conflicts.

    A warning is attributed to ``requested_where`` (the user's line), not to the TensorFlow
    frame that created the session, so warning filters and ``-W error`` see the user's code.
    """
    if not conflicts:
        return
    policy = get_conflict_policy()
    message = format_conflicts(
        conflicts, requested_where=requested_where, active_where=active_where, kind=kind
    )
    if policy == "ignore":
        import logging  # here: a script that never meets a conflict never imports it

        logging.getLogger("tfcompat_gpu").debug("%s", message)
        return
    fatal = policy == "error" or (
        policy in (None, "remap") and any(c.severity == "error" for c in conflicts)
    )
    if fatal:
        raise GPUConfigConflictError(message)
    # One request is said once: an Estimator (or a monitored session) and the Session it then
    # builds from the same config at the same line would otherwise report it twice.
    key = (
        "conflict:"
        + requested_where
        + ":"
        + repr(sorted((c.field, show_value(c.field, c.requested)) for c in conflicts))
    )
    if key in STATE.warned:
        return
    STATE.warned.add(key)
    filename, _, line = requested_where.rpartition(":")
    if filename and line.isdigit():
        warnings.warn_explicit(message, GPUConfigWarning, filename, int(line))
    else:
        warnings.warn(message, GPUConfigWarning, stacklevel=2)
