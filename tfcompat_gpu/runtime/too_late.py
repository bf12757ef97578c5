"""``configure()`` once the process-wide settings are fixed: compare, apply what TF still takes.

After the eager runtime started (or a v1 session was created), identical settings are a no-op,
soft and log placement, XLA auto-clustering and mixed precision still apply, per-session fields
still apply while only sessions froze the process, and any other change raises
:class:`TooLateError` naming each field, the value in force, the value requested and what
fixed them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tfcompat_gpu.errors import TooLateError
from tfcompat_gpu.runtime.planning import Step, TFDevices, choose_gpus, plan, run_steps, setter_step
from tfcompat_gpu.runtime.state import STATE
from tfcompat_gpu.settings.config import GPUConfig
from tfcompat_gpu.settings.options import OPTIONS, OPTIONS_BY_NAME
from tfcompat_gpu.tfapi import _tf

__all__ = ["configure_late"]


def _active_values(tf_devices: TFDevices) -> dict[str, Any]:
    """Process-wide values in force, in the comparable form of :func:`_requested_values`."""
    ctx = _tf.context()
    base = _tf.base_config()
    values: dict[str, Any] = {
        "per_process_gpu_memory_fraction": base.gpu_options.per_process_gpu_memory_fraction or None,
        "intra_op_parallelism_threads": ctx._intra_op_parallelism_threads or 0,
        "inter_op_parallelism_threads": ctx._inter_op_parallelism_threads or 0,
    }
    cpu_config = (
        ctx.get_logical_device_configuration(tf_devices.cpus[0]) if tf_devices.cpus else None
    )
    values["device_count"] = {"CPU": len(cpu_config) if cpu_config else 1}
    if tf_devices.gpus:
        visible = ctx.get_visible_devices("GPU")
        ids = [tf_devices.gpus.index(gpu) for gpu in visible]
        values["visible_device_list"] = tuple(ids)
        values["device_count"]["GPU"] = len(ids)
        growth = {bool(ctx.get_memory_growth(gpu)) for gpu in visible}
        values["allow_growth"] = growth.pop() if len(growth) == 1 else None
        limits = {}
        for gpu_id, gpu in zip(ids, visible):
            logical = ctx.get_logical_device_configuration(gpu)
            if logical:
                limits[gpu_id] = tuple(d.memory_limit for d in logical)
        values["memory_limit_mb"] = limits
    else:
        recorded = GPUConfig.from_config_proto(base)
        values["allow_growth"] = bool(recorded.allow_growth)
        values["visible_device_list"] = recorded.visible_ids
        applied = STATE.applied or GPUConfig()
        values["memory_limit_mb"] = _limits_by_gpu(applied, applied.visible_ids or (0,))
    return values


def _limits_by_gpu(cfg: GPUConfig, ids: tuple[int, ...] | list[int]) -> dict[int, tuple[int, ...]]:
    return {i: tuple(cfg.memory_limits_for(i)) for i in ids if cfg.memory_limits_for(i)}


def _requested_values(request: GPUConfig, tf_devices: TFDevices) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name, value in request.items():
        option = OPTIONS_BY_NAME[name]
        if option.after_start:
            continue
        if name == "visible_device_list":
            if tf_devices.gpus:
                values[name] = tuple(sorted(choose_gpus(request, len(tf_devices.gpus))))
            else:
                values[name] = request.visible_ids
        elif name == "memory_limit_mb":
            ids = (
                sorted(choose_gpus(request, len(tf_devices.gpus)))
                if tf_devices.gpus
                else list(request.visible_ids or (0,))
            )
            values[name] = _limits_by_gpu(request, ids)
        elif name == "device_count":
            values[name] = dict(value)
        else:
            values[name] = value
    return values


def configure_late(
    request: GPUConfig, merged: GPUConfig, tf_devices: TFDevices, where: str
) -> GPUConfig:
    active = _active_values(tf_devices)
    changes = []
    for name, wanted in _requested_values(request, tf_devices).items():
        current = active.get(name)
        if name == "device_count":
            current = {k: v for k, v in (current or {}).items() if k in wanted}
            wanted = {k: v for k, v in wanted.items() if k in ("CPU", "GPU")}
        if current != wanted:
            changes.append((name, current, wanted))
    steps: list[Step] = []
    if changes and not _tf.runtime_started():
        # Only sessions froze the process so far: they fix the process-wide fields, but the
        # eager context can still take per-session ones (device_count), e.g. from a session
        # handed to Keras 3's set_session.
        open_fields = {
            name: getattr(request, name)
            for name, _, _ in changes
            if not OPTIONS_BY_NAME[name].process_wide
        }
        if open_fields:
            steps.extend(plan(GPUConfig(**open_fields), tf_devices)[0])
            changes = [change for change in changes if change[0] not in open_fields]
    if changes:
        raise TooLateError(_too_late_message(changes, where))
    for name, value in request.items():
        if OPTIONS_BY_NAME[name].after_start:
            steps.append(setter_step(name, value))
    run_steps(steps)
    STATE.applied = merged
    STATE.applied_where = where
    return merged


def _too_late_message(changes: list[tuple[str, Any, Any]], where: str) -> str:
    if _tf.runtime_started():
        started = STATE.started_where
        what = (
            f"the TensorFlow runtime was started at {started}"
            if started
            else "the TensorFlow runtime has already started (an eager op, "
            "tf.config.list_logical_devices() or a Keras model started it before configure() "
            "was first called)"
        )
    else:
        first = STATE.sessions[0]
        what = f"the first session was created at {first.where} and fixed them for the process"
    lines = [
        f"Too late to change process-wide GPU settings at {where}: {what}.",
    ]
    for name, current, wanted in changes:
        lines.append(f"  {name}: active {_plain(current)}, requested {_plain(wanted)}")
    lines.append(
        "Fix: call tfcompat_gpu.configure() before anything runs a TensorFlow op, lists logical "
        "devices or builds a model (at the top of the script), or run the script with "
        "'tfcompat-gpu run --allow-growth ...'. Settings TensorFlow accepts after start "
        f"({', '.join(o.name for o in OPTIONS if o.after_start)}) can still change."
    )
    return "\n".join(lines)


def _plain(value: Any) -> str:
    if isinstance(value, tuple):
        return '"' + ",".join(map(str, value)) + '"' if value else '""'
    if isinstance(value, Mapping):
        return repr({k: list(v) if isinstance(v, tuple) else v for k, v in value.items()})
    return repr(value)
