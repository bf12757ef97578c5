"""``configure()``: merge a request into the process configuration and apply it.

Before the TensorFlow runtime starts, :func:`~tfcompat_gpu.runtime.planning.plan` translates the merged
config and :func:`~tfcompat_gpu.runtime.planning.run_steps` applies it all or nothing; after, the request
goes to :mod:`tfcompat_gpu.runtime.too_late`.  What took effect, and where it was asked for, is recorded
in :data:`tfcompat_gpu.runtime.state.STATE`.
"""

from __future__ import annotations

from typing import Any

from tfcompat_gpu.errors import GPUConfigError
from tfcompat_gpu.machine.resolve import before_listing
from tfcompat_gpu.runtime.planning import TFDevices, plan, run_steps
from tfcompat_gpu.runtime.state import STATE, warn_once
from tfcompat_gpu.runtime.too_late import configure_late
from tfcompat_gpu.settings.config import GPUConfig
from tfcompat_gpu.settings.options import OPTIONS_BY_NAME, unknown_setting
from tfcompat_gpu.tfapi import _tf
from tfcompat_gpu.utils.where import user_frame

__all__ = ["apply_request", "configure", "configure_at", "current_config", "record"]


def current_config() -> GPUConfig:
    """The effective process configuration (``GPUConfig()`` until something was applied)."""
    with STATE.lock:
        return STATE.applied or GPUConfig()


def configure(cfg: GPUConfig | None = None, /, **fields: Any) -> GPUConfig:
    """Apply GPU and thread settings to the whole process; return the effective config.

    Settings are merged with what earlier calls applied (``None`` leaves a field alone).  Before
    the TensorFlow runtime starts every field applies, in eager and in graph mode alike.  After
    it started, identical settings are a no-op, soft/log placement, ``jit`` and
    ``auto_mixed_precision`` still apply, and any other change raises :class:`TooLateError`.
    Nothing is half-applied: on any error the process is as it was.

    Example::

        import tfcompat_gpu
        tfcompat_gpu.configure(allow_growth=True, visible_device_list="0")
    """
    return configure_at(_request(cfg, fields), user_frame())


def configure_at(cfg: GPUConfig, where: str) -> GPUConfig:
    """:func:`configure` with the origin given: ``where`` is what messages name as having set
    the config (``"tfcompat-gpu run options"``) instead of the caller's line."""
    with STATE.lock:
        return apply_request(cfg, where)


def _request(cfg: object, fields: dict[str, Any]) -> GPUConfig:
    for name in fields:
        if name not in OPTIONS_BY_NAME:
            raise unknown_setting(name)
    if cfg is None:
        return GPUConfig(**fields)
    if not isinstance(cfg, GPUConfig):
        if _tf.is_imported() and isinstance(cfg, _tf.config_proto_class()):
            cfg = GPUConfig.from_config_proto(cfg)
        else:
            raise GPUConfigError(
                "cfg: expected a tfcompat_gpu.GPUConfig, a tf.compat.v1.ConfigProto or None. "
                f"Received: {type(cfg).__name__} {cfg!r}."
            )
    return cfg.replace(**fields) if fields else cfg


def apply_request(request: GPUConfig, where: str) -> GPUConfig:
    """Merge ``request`` into the process config and apply it; the caller holds ``STATE.lock``."""
    merged = (STATE.applied or GPUConfig()).merged(request)
    # "auto": while TensorFlow has not listed its GPUs, CUDA_VISIBLE_DEVICES shows only the picked.
    visible = before_listing(merged.visible_device_list)
    if visible != merged.visible_device_list:
        merged = merged.replace(visible_device_list=visible)
    tf_devices = TFDevices.read()
    if tf_devices.started:
        return configure_late(request, merged, tf_devices, where)
    steps, effective, notes = plan(merged, tf_devices)
    run_steps(steps)
    for key, note in notes:
        warn_once(key, note)
    for name, value in merged.process_wide().items():
        if value != getattr(effective, name):
            STATE.requested_as[name] = (value, getattr(effective, name))
    record(effective, where)
    _tf.watch_runtime_start(_runtime_starting)
    return effective


def record(effective: GPUConfig, where: str) -> None:
    """Remember ``effective`` as the process config, set at ``where``."""
    STATE.applied = effective
    STATE.applied_where = where
    STATE.process_wide_where = where


def _runtime_starting() -> None:
    STATE.started_where = user_frame()
