"""``session()`` and what every v1 session goes through: record, fill, check, overlay.

:func:`prepare_session` is the one path for a new session, the facade's :func:`session` and
the drop-in's patched ``tf.Session`` alike: the first session sets the process-wide fields
nothing set before, later ones are checked against the process config by
:mod:`tfcompat_gpu.runtime.conflicts`, and the session gets the process config plus its own per-session
fields.  Under ``install()`` the drop-in registers :attr:`~tfcompat_gpu.runtime.state.ProcessState.session_hook`
and :func:`session` hands its request to it, so a session is prepared once.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any

from tfcompat_gpu.errors import GPUConfigError
from tfcompat_gpu.runtime.configuring import apply_request, record
from tfcompat_gpu.runtime.conflicts import (
    Conflict,
    find_conflicts,
    get_conflict_policy,
    report_conflicts,
)
from tfcompat_gpu.runtime.devices import extend_device_list, gpu_device
from tfcompat_gpu.runtime.planning import frozen
from tfcompat_gpu.runtime.state import STATE, SessionRecord
from tfcompat_gpu.settings import proto as _proto
from tfcompat_gpu.settings.config import GPUConfig
from tfcompat_gpu.settings.options import OPTIONS, same_value
from tfcompat_gpu.tfapi import _tf
from tfcompat_gpu.utils.where import user_frame

__all__ = ["SessionSetup", "as_request", "prepare_session", "session", "session_config"]


def session(config: Any = None, graph: Any = None, target: str = "") -> Any:
    """A ``tf.compat.v1.Session`` with the process config plus the per-session fields of ``config``.

    ``config`` may be a :class:`GPUConfig`, a ``tf.compat.v1.ConfigProto`` or None.  Process-wide
    fields that differ from the ones in force are reported per the conflict policy; the first
    session of the process still sets the ones nothing set before.

    Example::

        with tfcompat_gpu.session(tfcompat_gpu.GPUConfig(log_device_placement=True)) as sess:
            sess.run(...)
    """
    hook = STATE.session_hook
    if hook is not None:
        # install() routes every session through its hook, which records, merges and checks
        # it: hand the request over as it is, so that it is done once.
        return hook(None if config is None else as_request(config), graph, target)
    if config is None and STATE.applied is not None:
        # The common case, kept lean: nothing to merge or compare, TensorFlow builds the
        # process config itself; only the caller is recorded (formatted when read).
        frame = sys._getframe(1)
        entry = SessionRecord(_EMPTY, (frame.f_code.co_filename, frame.f_lineno))
        STATE.sessions.append(entry)
        try:
            return _tf.session_class()(target, graph)
        except BaseException:
            _forget(entry)
            raise
    setup = prepare_session(config, user_frame())
    try:
        return _tf.session_class()(target=target, graph=graph, config=setup.proto)
    except BaseException:
        setup.undo()  # a session TensorFlow refused leaves no trace
        raise


# Per-session fields, from the table.
_PER_SESSION = tuple(o for o in OPTIONS if not o.process_wide)


class _Saved:
    """The process state before a session was prepared, to put back if it is not created."""

    def __init__(self) -> None:
        self.applied = STATE.applied
        self.applied_where = STATE.applied_where
        self.process_wide_where = STATE.process_wide_where
        self.requested_as = dict(STATE.requested_as)
        self.context: _tf.ContextSnapshot | None = None
        self.entry: SessionRecord | None = None

    def keep_context(self) -> None:
        """Also snapshot TensorFlow's context: the session is about to configure the process."""
        if self.context is None and _tf.private_api_available():
            self.context = _tf.ContextSnapshot.take()

    def restore(self) -> None:
        with STATE.lock:
            STATE.applied = self.applied
            STATE.applied_where = self.applied_where
            STATE.process_wide_where = self.process_wide_where
            STATE.requested_as = self.requested_as
            if self.entry is not None:
                _forget(self.entry)
            if self.context is not None and not _tf.runtime_started():
                self.context.restore()


def _forget(entry: SessionRecord) -> None:
    with STATE.lock:
        for index in range(len(STATE.sessions) - 1, -1, -1):
            if STATE.sessions[index] is entry:
                del STATE.sessions[index]
                break


@dataclass(frozen=True)
class SessionSetup:
    """What a new session gets: its ConfigProto and, under ``"remap"``, its graph's device."""

    proto: Any
    device: str | None = None
    """TensorFlow device (``/device:GPU:1``) for the ops of the session's graph, or None."""
    saved: _Saved | None = field(default=None, compare=False, repr=False)

    def undo(self) -> None:
        """Forget the session and what it set: TensorFlow refused to create it."""
        if self.saved is not None:
            self.saved.restore()


def session_config(config: Any, where: str, kind: str = "Session") -> Any:
    """The ConfigProto a new session should get: process config + the request's per-session fields.

    Returns None for ``config=None``: TensorFlow then builds the process config itself.
    """
    return prepare_session(config, where, kind).proto


def prepare_session(config: Any, where: str, kind: str = "Session") -> SessionSetup:
    """Record a new session, check it against the process config, and return its setup.

    The first session of the process sets the process-wide fields nothing set before; later
    ones are checked by :func:`~tfcompat_gpu.runtime.conflicts.report_conflicts`.  Under the
    ``"remap"`` policy a session's own ``visible_device_list`` extends the process list instead
    of conflicting, and :attr:`SessionSetup.device` names where its graph belongs.  If the
    session is then not created, :meth:`SessionSetup.undo` puts everything back; if this
    raises, nothing was changed.
    """
    with STATE.lock:
        saved = _Saved()
        try:
            return _prepare(config, where, kind, saved)
        except BaseException:
            saved.restore()
            raise


def _prepare(config: Any, where: str, kind: str, saved: _Saved) -> SessionSetup:
    if config is None:
        # The common case: nothing to merge or compare, TensorFlow uses the process config.
        if STATE.applied is None and _tf.runtime_started():
            record(_config_in_force(), STATE.started_where or "the start of the eager runtime")
        saved.entry = SessionRecord(_EMPTY, where, kind)
        STATE.sessions.append(saved.entry)
        return SessionSetup(None, saved=saved)
    request = as_request(config)
    if not frozen():
        fill = {
            name: value
            for name, value in request.process_wide().items()
            if getattr(STATE.applied or GPUConfig(), name) is None
        }
        if fill:
            saved.keep_context()
            apply_request(GPUConfig(**fill), where)
        if STATE.process_wide_where is None:
            # The first session fixes TensorFlow's defaults for the process too.
            STATE.process_wide_where = where
    elif STATE.applied is None and _tf.runtime_started():
        record(_config_in_force(), STATE.started_where or "the start of the eager runtime")
    checked, device, union = request, None, None
    if request.visible_ids is not None and get_conflict_policy() == "remap":
        union = extend_device_list(request.visible_ids)
        device = gpu_device(request.visible_ids[0])
        checked = request.replace(visible_device_list=None)
    active = STATE.applied or GPUConfig()
    report_conflicts(
        [c for c in find_conflicts(active, checked) if not _as_applied(c)],
        requested_where=where,
        active_where=STATE.process_wide_where,
        kind=kind,
    )
    proto = _tf.effective_proto()
    _overlay_per_session(proto, checked)
    if union is not None:
        proto.gpu_options.visible_device_list = union
    saved.entry = SessionRecord(request, where, kind)
    STATE.sessions.append(saved.entry)
    return SessionSetup(proto, device, saved)


_EMPTY = GPUConfig()


def _as_applied(conflict: Conflict) -> bool:
    """The request asks for the very value that was applied as the one in force.

    TF2 applies some values in another form (a reorder ``"1,0"`` becomes ``"0,1"``, with a
    warning when it is applied): the session that set it, or a later one asking the same, does
    not conflict with what its own request became.
    """
    requested, in_force = STATE.requested_as.get(conflict.field, (None, None))
    return (
        requested is not None
        and same_value(conflict.field, requested, conflict.requested)
        and same_value(conflict.field, in_force, conflict.active)
    )


def as_request(config: Any) -> GPUConfig:
    """A session's ``config`` argument (GPUConfig, ConfigProto or None) as a GPUConfig."""
    if config is None:
        return GPUConfig()
    if isinstance(config, GPUConfig):
        return config
    return GPUConfig.from_config_proto(config)


def _config_in_force() -> GPUConfig:
    try:
        return GPUConfig.from_config_proto(_tf.effective_proto()).replace(device_count=None)
    except GPUConfigError:  # pragma: no cover - only if TensorFlow holds an invalid combination
        return GPUConfig()


def _overlay_per_session(proto: Any, request: GPUConfig) -> None:
    _proto.write_fields(proto, request, _PER_SESSION)
    if request.extra_proto:
        extra = _proto.parse_extra(request.extra_proto)
        extra.ClearField("gpu_options")  # allocator fields are process-wide
        proto.MergeFrom(extra)
