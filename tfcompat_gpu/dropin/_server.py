"""The wrapper around ``tf.train.Server.__init__``: a TF1 cluster server gets the process config.

A server creates this process's devices (GPU allocators included) from the ``ConfigProto`` in its
``ServerDef``, and the sessions that later run on it through ``server.target`` inherit them.  Like
the first session of a process, it is recorded, fills the process-wide settings nothing set
before, is checked against the ones in force, and gets the effective configuration: the
``tfcompat-gpu run`` options win over its own, as they do for sessions.
"""

from __future__ import annotations

from typing import Any

from tfcompat_gpu.runtime.state import STATE
from tfcompat_gpu.settings.config import GPUConfig
from tfcompat_gpu.tfapi import _tf
from tfcompat_gpu.utils.where import user_frame

__all__ = ["server_init"]


def _bind(
    server_or_cluster_def: Any,
    job_name: Any = None,
    task_index: Any = None,
    protocol: Any = None,
    config: Any = None,
    start: bool = True,
) -> tuple[Any, Any, Any, Any, Any, bool]:
    return server_or_cluster_def, job_name, task_index, protocol, config, start


def server_init(wrapped: Any, instance: Any, args: Any, kwargs: Any) -> Any:
    definition, job_name, task_index, protocol, config, start = _bind(*args, **kwargs)
    if config is not None and not isinstance(config, _tf.config_proto_class()):
        return wrapped(*args, **kwargs)  # TensorFlow's own TypeError says it best
    from tfcompat_gpu.dropin import _sessions
    from tfcompat_gpu.runtime.sessions import prepare_session

    request = GPUConfig() if config is None else GPUConfig.from_config_proto(config)
    with STATE.lock:
        with _sessions._lock:
            overrides = _sessions._overrides
        if overrides is not None:
            request = request.merged(overrides)
        setup = prepare_session(request, user_frame(), "Server")
    try:
        return wrapped(definition, job_name, task_index, protocol, setup.proto, start)
    except BaseException:
        setup.undo()  # a server TensorFlow refused (a port in use) leaves no trace
        raise
