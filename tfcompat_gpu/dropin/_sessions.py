"""The wrapper around ``BaseSession.__init__``: every v1 session goes through the process config.

It runs once per session creation and never on ``Session.run``, so the shim costs nothing on
the hot path.  It also keeps what the runner and Keras 3's ``set_session`` need to know about
sessions: the request each one made and the ConfigProto it really got.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any

from tfcompat_gpu.runtime.state import STATE
from tfcompat_gpu.settings.config import GPUConfig
from tfcompat_gpu.tfapi import _tf
from tfcompat_gpu.utils.where import user_frame

__all__ = ["base_session_init", "create_session", "request_of", "seen_sessions", "set_overrides"]

_lock = threading.Lock()
_handoff = threading.local()
"""``request``: the GPUConfig ``tfcompat_gpu.session()`` asked for, read by the wrapper below."""
_overrides: GPUConfig | None = None
_requests: weakref.WeakKeyDictionary[Any, GPUConfig] = weakref.WeakKeyDictionary()
_seen: list[dict[str, Any]] = []


def set_overrides(cfg: GPUConfig | None) -> None:
    """Fields that win over what any session asks for (``tfcompat-gpu run`` options)."""
    global _overrides
    with _lock:
        _overrides = cfg if cfg is not None and cfg.to_dict() else None


def request_of(session: Any) -> GPUConfig | None:
    """What ``session`` asked for when it was created through the drop-in (None: not seen)."""
    with _lock:
        return _requests.get(session)


def seen_sessions() -> list[dict[str, Any]]:
    """Every session created through the drop-in: kind, place, device and the proto it got."""
    with _lock:
        return [dict(entry) for entry in _seen]


def create_session(request: GPUConfig | None, graph: Any, target: str) -> Any:
    """``tfcompat_gpu.session()`` under ``install()``: a ``tf.compat.v1.Session`` whose request
    reaches :func:`base_session_init` as the GPUConfig it is (never through a ConfigProto)."""
    _handoff.request = request
    try:
        return _tf.session_class()(target=target, graph=graph)
    finally:
        _handoff.request = None


def _bind(target: Any = "", graph: Any = None, config: Any = None) -> tuple[Any, Any, Any]:
    return target, graph, config


def _interactive_default(config: Any) -> bool:
    """``InteractiveSession()`` with no config builds this one itself (growth on)."""
    expected = _tf.config_proto_class()()
    expected.gpu_options.allow_growth = True
    expected.graph_options.place_pruned_graph = True
    return bool(config == expected)


def base_session_init(wrapped: Any, instance: Any, args: Any, kwargs: Any) -> Any:
    target, graph, config = _bind(*args, **kwargs)
    if config is not None and not isinstance(config, _tf.config_proto_class()):
        return wrapped(*args, **kwargs)  # TensorFlow's own TypeError says it best
    kind = type(instance).__name__
    where = user_frame()
    handed: GPUConfig | None = getattr(_handoff, "request", None)
    _handoff.request = None
    if handed is not None and config is None:
        request = handed
    else:
        request = GPUConfig() if config is None else GPUConfig.from_config_proto(config)
    from tfcompat_gpu.runtime.sessions import prepare_session

    with STATE.lock:
        if kind == "InteractiveSession" and _interactive_default(config):
            # TensorFlow's own default, not the user's request: growth only counts where it
            # decides growth for the process, as it did in TF1.
            first = (
                not STATE.sessions
                and not _tf.runtime_started()
                and (STATE.applied or GPUConfig()).allow_growth is None
            )
            if not first:
                request = request.replace(allow_growth=None)
        with _lock:
            overrides = _overrides
        if overrides is not None:
            request = request.merged(overrides)
        try:
            setup = prepare_session(request, where, kind)
            session_graph = graph if graph is not None else _tf.default_graph()
            if setup.device is not None:
                from tfcompat_gpu.dropin.placement import check_placeable

                check_placeable(session_graph, setup.device, where)
        except BaseException:
            _tf.abandon_session(instance)
            raise
    try:
        result = wrapped(target, graph, setup.proto)
    except BaseException:
        setup.undo()  # a session TensorFlow refused leaves no trace
        raise
    if setup.device is not None:
        from tfcompat_gpu.dropin.placement import place_graph

        place_graph(session_graph, setup.device, where)
    with _lock:
        _requests[instance] = request
        _seen.append(
            {
                "kind": kind,
                "where": where,
                "device": setup.device,
                "request": request.to_dict(),
                "config": _tf.set_fields(setup.proto),
            }
        )
    return result
