"""Translate a :class:`GPUConfig` into changes of TensorFlow's state, and make them all or none.

:func:`plan` produces data (a list of :class:`Step`) and checks everything against what
TensorFlow sees (GPU ids, TensorFlow's capabilities) without changing anything; :func:`run_steps` is the one
place that changes TensorFlow's device and thread settings, and it rolls the eager context back
if TensorFlow rejects anything, so a failed call leaves the process exactly as it was.
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tfcompat_gpu.errors import GPUConfigError
from tfcompat_gpu.machine.resolve import fraction_as_limits_from_nvml
from tfcompat_gpu.runtime.state import STATE
from tfcompat_gpu.settings import proto as _proto
from tfcompat_gpu.settings.config import GPUConfig
from tfcompat_gpu.settings.options import OPTIONS_BY_NAME
from tfcompat_gpu.tfapi import _tf

__all__ = [
    "SETTERS",
    "Step",
    "TFDevices",
    "choose_gpus",
    "frozen",
    "plan",
    "run_steps",
    "setter_step",
]

logger = logging.getLogger("tfcompat_gpu")

SETTERS: dict[str, str] = {
    "allow_soft_placement": "config.set_soft_device_placement",
    "log_device_placement": "debugging.set_log_device_placement",
    "intra_op_parallelism_threads": "config.threading.set_intra_op_parallelism_threads",
    "inter_op_parallelism_threads": "config.threading.set_inter_op_parallelism_threads",
    "jit": "config.optimizer.set_jit",
    "auto_mixed_precision": "config.optimizer.set_experimental_options",
}
"""Options TF2 sets with one call: option -> ``tf.`` attribute path.  The call takes the value
as is, or in the form :data:`_ARGUMENT` gives."""

_ARGUMENT: dict[str, Callable[[Any], object]] = {
    # tensorflow/python/framework/config.py, set_optimizer_jit: True is a deprecated alias
    # of "autoclustering" (a warning), False turns auto-clustering off.
    "jit": lambda on: "autoclustering" if on else False,
    # config.py, set_optimizer_experimental_options: a dict of rewrites, merged into the
    # context's (tensorflow/python/eager/context.py, set_optimizer_experimental_options).
    "auto_mixed_precision": lambda on: {"auto_mixed_precision": on},
}


@dataclass(frozen=True)
class Step:
    """One change to TensorFlow's state, described for logs and error messages."""

    option: str
    call: str
    run: Callable[[], object] = field(compare=False, repr=False)


@dataclass
class TFDevices:
    """What TensorFlow sees of the machine: its physical GPUs and CPUs, and whether the
    process-wide settings are already fixed (:func:`frozen`)."""

    gpus: list[Any]
    cpus: list[Any]
    started: bool

    @classmethod
    def read(cls) -> TFDevices:
        return cls(_tf.physical_gpus(), _tf.physical_cpus(), frozen())


def frozen() -> bool:
    """Process-wide settings are fixed: the eager runtime started or a session exists."""
    return _tf.runtime_started() or bool(STATE.sessions)


def plan(
    config: GPUConfig, tf_devices: TFDevices | None = None
) -> tuple[list[Step], GPUConfig, list[tuple[str, str]]]:
    """Translate ``config`` into steps here: (steps, effective config, warnings).

    Each warning is ``(key, message)``; a key is reported once per process.

    Validates everything against ``tf_devices`` (GPU ids, TF capabilities) and changes nothing.
    """
    tf_devices = tf_devices or TFDevices.read()
    tfm = _tf.tf()
    steps: list[Step] = []
    notes: list[tuple[str, str]] = []
    effective = config
    base = _tf.config_proto_class()()
    gpus = tf_devices.gpus

    if not gpus:
        gpu_fields = [name for name, _ in config.items() if OPTIONS_BY_NAME[name].gpu]
        if gpu_fields:
            notes.append(
                (
                    "no-gpu",
                    f"No GPU is visible to TensorFlow: {', '.join(gpu_fields)} recorded but "
                    "without effect on this machine; CPU settings still apply.",
                )
            )
            # Kept in the base config so sessions carry them as TF1 did; virtual devices are
            # left out: even a CPU build refuses to start with virtual GPUs it cannot create.
            recorded = {n: getattr(config, n) for n in gpu_fields if n != "memory_limit_mb"}
            base.MergeFrom(_proto.proto_from_config(GPUConfig(**recorded), num_gpus=1))
    else:
        chosen = choose_gpus(config, len(gpus))
        if (
            config.visible_device_list is not None
            or (config.device_count or {}).get("GPU") is not None
        ):
            if chosen != sorted(chosen) and config.visible_device_list is not None:
                message = (
                    f"visible_device_list={config.visible_device_list!r} asks for a reorder, which "
                    "TF2 cannot express: GPUs are numbered in physical order "
                    f"({','.join(map(str, sorted(chosen)))}). Use CUDA_VISIBLE_DEVICES to reorder."
                )
                notes.append((message, message))
                effective = effective.replace(visible_device_list=sorted(chosen))
            devices = [gpus[i] for i in sorted(chosen)]
            steps.append(
                Step(
                    "visible_device_list",
                    f"tf.config.set_visible_devices({_names(devices)}, 'GPU')",
                    functools.partial(tfm.config.set_visible_devices, devices, "GPU"),
                )
            )
        visible = [gpus[i] for i in sorted(chosen)]
        if config.allow_growth is not None:
            for gpu in visible:
                steps.append(
                    Step(
                        "allow_growth",
                        f"tf.config.experimental.set_memory_growth({gpu.name!r}, {config.allow_growth})",
                        functools.partial(
                            tfm.config.experimental.set_memory_growth, gpu, config.allow_growth
                        ),
                    )
                )
        if config.memory_limit_mb is not None:
            _check_limit_ids(config, len(gpus), chosen)
            for gpu_id in sorted(chosen):
                limits = config.memory_limits_for(gpu_id)
                if not limits:
                    continue
                logical = [tfm.config.LogicalDeviceConfiguration(memory_limit=mb) for mb in limits]
                steps.append(
                    Step(
                        "memory_limit_mb",
                        f"tf.config.set_logical_device_configuration({gpus[gpu_id].name!r}, "
                        f"[LogicalDeviceConfiguration(memory_limit={', '.join(map(str, limits))})])",
                        functools.partial(
                            tfm.config.set_logical_device_configuration, gpus[gpu_id], logical
                        ),
                    )
                )

    counts = dict(config.device_count or {})
    cpu_count = counts.pop("CPU", None)
    counts.pop("GPU", None)
    if cpu_count is not None:
        if cpu_count == 0:
            raise GPUConfigError(
                'device_count: expected "CPU" >= 1. Received: device_count='
                f"{dict(config.device_count or {})!r}. TensorFlow needs a CPU device; "
                'drop the "CPU" entry to keep its default of 1.'
            )
        if cpu_count > 1 or _tf.context().get_logical_device_configuration(tf_devices.cpus[0]):
            logical_cpus = [tfm.config.LogicalDeviceConfiguration() for _ in range(cpu_count)]
            steps.append(
                Step(
                    "device_count",
                    f"tf.config.set_logical_device_configuration('{tf_devices.cpus[0].name}', "
                    f"[LogicalDeviceConfiguration()] * {cpu_count})",
                    functools.partial(
                        tfm.config.set_logical_device_configuration,
                        tf_devices.cpus[0],
                        logical_cpus,
                    ),
                )
            )
    for kind in counts:
        message = (
            f"device_count[{kind!r}] is ignored: TF2 only configures CPU and GPU device counts."
        )
        notes.append((message, message))
    if config.allow_growth and gpus and (cpu_count or 1) > 1:
        # Logical CPUs sit in the same map as virtual GPUs, and TensorFlow then drops growth.
        base.gpu_options.allow_growth = True

    for name in SETTERS:
        value = getattr(config, name)
        if value is not None:
            steps.append(setter_step(name, value))

    fraction = config.per_process_gpu_memory_fraction
    if fraction is not None and gpus and not _tf.private_api_available():
        # No internal path on this TensorFlow: the allocator's own cap, total x fraction, as a
        # memory_limit, with the cards' sizes from NVML.
        caps = fraction_as_limits_from_nvml(
            fraction, sorted(chosen), config.allow_growth, str(_tf.version())
        )
        for gpu_id, mb in caps.items():
            logical = [tfm.config.LogicalDeviceConfiguration(memory_limit=mb)]
            steps.append(
                Step(
                    "per_process_gpu_memory_fraction",
                    f"tf.config.set_logical_device_configuration({gpus[gpu_id].name!r}, "
                    f"[LogicalDeviceConfiguration(memory_limit={mb})])",
                    functools.partial(
                        tfm.config.set_logical_device_configuration, gpus[gpu_id], logical
                    ),
                )
            )
    elif fraction is not None:
        _tf.require_private_api("per_process_gpu_memory_fraction", fraction)
        base.gpu_options.per_process_gpu_memory_fraction = fraction
    if config.extra_proto:
        base.MergeFrom(_proto.parse_extra(config.extra_proto))
    if base.ListFields():
        _tf.require_private_api("base ConfigProto fields", sorted(_tf.set_fields(base)))
        steps.append(
            Step(
                "base_config",
                f"context base ConfigProto <- {sorted(_tf.set_fields(base))}",
                functools.partial(_tf.merge_into_base_config, base),
            )
        )
    return steps, effective, notes


def _names(devices: list[Any]) -> str:
    return "[" + ", ".join(repr(d.name) for d in devices) + "]"


def choose_gpus(config: GPUConfig, count: int) -> list[int]:
    ids = list(config.visible_ids) if config.visible_ids is not None else list(range(count))
    for gpu_id in ids:
        if gpu_id >= count:
            cuda = os.environ.get("CUDA_VISIBLE_DEVICES")
            after = f" (after CUDA_VISIBLE_DEVICES={cuda!r})" if cuda is not None else ""
            from tfcompat_gpu.machine.launchers import local_rank_note

            note = local_rank_note(config.visible_device_list)
            raise GPUConfigError(
                f"visible_device_list: 'visible_device_list' listed an invalid GPU id '{gpu_id}' "
                f"but visible device count is {count}{after}. Received: "
                f"visible_device_list={config.visible_device_list!r}. Expected ids from 0 to "
                f"{count - 1}: they count the GPUs left after CUDA_VISIBLE_DEVICES, not nvidia-smi's."
                + (f" {note}" if note else "")
            )
    gpu_count = (config.device_count or {}).get("GPU")
    return ids[:gpu_count] if gpu_count is not None else ids


def _check_limit_ids(config: GPUConfig, count: int, chosen: list[int]) -> None:
    limits = config.memory_limit_mb
    if not isinstance(limits, Mapping):
        return
    for gpu_id in limits:
        if gpu_id >= count or gpu_id not in chosen:
            raise GPUConfigError(
                f"memory_limit_mb: GPU id {gpu_id} is not a visible GPU (visible: "
                f"{sorted(chosen)}). Received: memory_limit_mb={dict(limits)!r}. Expected keys "
                "among the visible GPU ids."
            )


def run_steps(steps: list[Step]) -> None:
    """The one place that changes TensorFlow's state; all or nothing."""
    if not steps:
        return
    snapshot = _tf.ContextSnapshot.take() if _tf.private_api_available() else None
    current: Step | None = None
    try:
        for current in steps:
            logger.debug("tfcompat_gpu: %s", current.call)
            current.run()
        _tf.effective_proto()  # TensorFlow validates the combination when it builds the config
    except (ValueError, RuntimeError, TypeError) as exc:
        if snapshot is not None:
            snapshot.restore()
        where = f" at {current.call}" if current is not None else ""
        raise GPUConfigError(
            f"TensorFlow rejected the configuration{where}: {exc}. Nothing was applied."
        ) from exc


def setter_step(name: str, value: object) -> Step:
    """The step that calls ``tf.<SETTERS[name]>(value)`` (the value as ``_ARGUMENT`` has it)."""
    setter: Any = _tf.tf()
    for part in SETTERS[name].split("."):
        setter = getattr(setter, part)
    argument = _ARGUMENT[name](value) if name in _ARGUMENT else value
    return Step(name, f"tf.{SETTERS[name]}({argument!r})", functools.partial(setter, argument))
