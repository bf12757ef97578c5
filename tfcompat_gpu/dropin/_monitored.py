"""Estimator sessions (TF <= 2.15): ``RunConfig(session_config=...)`` as a first session.

Monitored sessions get their config to the process through the session hook once building their
``Saver`` no longer starts the runtime (:func:`~tfcompat_gpu.dropin._discovery.is_custom_device`).
An Estimator in TF2 mode builds its graph with v2 control flow: the ``tf.cond`` that reads the
global step registers a function with the eager context, which starts the runtime before the
``MonitoredTrainingSession`` it then creates exists.  So ``train``/``evaluate``/``predict`` hand
the Estimator's ``session_config`` to the process first, exactly as its first session would, with
the caller's line; the session created inside then agrees with it.
"""

from __future__ import annotations

from typing import Any

from tfcompat_gpu.tfapi import _tf
from tfcompat_gpu.utils.where import user_frame

__all__ = ["ESTIMATOR", "estimator_entry"]

ESTIMATOR = "tensorflow_estimator.python.estimator.estimator"


def estimator_entry(wrapped: Any, instance: Any, args: Any, kwargs: Any) -> Any:
    config = getattr(instance, "_session_config", None)
    if config is not None and not _tf.runtime_started():
        from tfcompat_gpu.runtime.sessions import prepare_session

        prepare_session(config, user_frame(), "Estimator")
    return wrapped(*args, **kwargs)
