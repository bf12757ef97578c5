"""``strategy()``: the ``tf.distribute`` strategy the configuration and the launcher call for.

The process configuration is applied first (``configure()``'s, or ``GPUConfig.from_env()``), then
the strategy is chosen from what TensorFlow will really have:

- more than one worker in ``TF_CONFIG``, or a SLURM step with more than one task:
  ``MultiWorkerMirroredStrategy`` (NCCL between GPUs where TensorFlow has NCCL, RING otherwise);
- several logical GPUs after ``visible_device_list`` / ``device_count`` / virtual devices:
  ``MirroredStrategy`` over exactly those, with ``NcclAllReduce`` where TensorFlow has NCCL
  kernels and each device is a whole GPU, else ``ReductionToOneDevice`` (TensorFlow's own
  fallback);
- one device: TensorFlow's default strategy;
- ``devices=[...]``: ``MirroredStrategy`` over exactly those (logical CPUs included).

:func:`explain` says the same without building anything or starting the runtime.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tfcompat_gpu.errors import GPUConfigError, TooLateError
from tfcompat_gpu.machine import launchers as _launchers
from tfcompat_gpu.machine.cluster import (
    COORDINATED,
    slurm_cluster,
    slurm_resolver,
    slurm_tasks,
    tf_config_cluster,
)
from tfcompat_gpu.machine.launchers import LauncherInfo, local_rank
from tfcompat_gpu.runtime.state import STATE, StrategyRecord, warn_once
from tfcompat_gpu.settings.config import GPUConfig
from tfcompat_gpu.tfapi import _tf
from tfcompat_gpu.utils.where import user_frame

__all__ = ["StrategyPlan", "explain", "local_rank", "strategy"]

MIRRORED = "MirroredStrategy"
MULTI_WORKER = "MultiWorkerMirroredStrategy"
DEFAULT = "default strategy"


@dataclass(frozen=True)
class StrategyPlan:
    """Which strategy :func:`strategy` returns here, over which devices, and why."""

    kind: str
    """``"MultiWorkerMirroredStrategy"``, ``"MirroredStrategy"`` or ``"default strategy"``."""
    devices: tuple[str, ...]
    """The devices of this process the strategy spans (its replicas here)."""
    cross_device_ops: str | None = None
    """MirroredStrategy's ``cross_device_ops`` class (``NcclAllReduce``, ``ReductionToOneDevice``)."""
    communication: str | None = None
    """MultiWorkerMirroredStrategy's collective implementation (``NCCL`` or ``RING``)."""
    cluster_source: str | None = None
    """``"TF_CONFIG"`` or ``"SLURM"`` for a multi-worker plan."""
    cluster: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    task: tuple[str, int] | None = None
    num_workers: int = 1
    launcher: LauncherInfo | None = None
    reasons: tuple[str, ...] = ()
    error: str | None = None
    """Set when :func:`strategy` would raise instead (the message it would raise)."""

    @property
    def key(self) -> tuple[Any, ...]:
        """What makes two answers the same strategy."""
        cluster = tuple(sorted(self.cluster.items()))
        return (
            self.kind,
            self.devices,
            self.cross_device_ops,
            self.communication,
            cluster,
            self.task,
        )

    def __str__(self) -> str:
        lines = [f"Launcher:        {self.launcher or 'none (a single process)'}"]
        if self.cluster:
            task = f"{self.task[0]} {self.task[1]}" if self.task else "-"
            lines.append(
                f"Cluster:         {self.cluster_source}, {self.num_workers} workers, this task: {task}"
            )
            for job, addresses in sorted(self.cluster.items()):
                lines.append(f"                 {job}: {', '.join(addresses)}")
        else:
            lines.append("Cluster:         none")
        if self.error:
            lines.append(f"Strategy:        strategy() would raise: {self.error}")
        else:
            how = self.cross_device_ops or (
                f"{self.communication} collectives" if self.communication else None
            )
            what = self.kind + (f" with {how}" if how else "")
            lines.append(f"Strategy:        {what}")
            lines.append(f"Devices:         {', '.join(self.devices) or '-'}")
        lines += [f"  because {reason}" for reason in self.reasons]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "devices": list(self.devices),
            "cross_device_ops": self.cross_device_ops,
            "communication": self.communication,
            "cluster_source": self.cluster_source,
            "cluster": {job: list(tasks) for job, tasks in self.cluster.items()},
            "task": list(self.task) if self.task else None,
            "num_workers": self.num_workers,
            "launcher": str(self.launcher) if self.launcher else None,
            "reasons": list(self.reasons),
            "error": self.error,
        }


@dataclass(frozen=True)
class _Layout:
    """This process's logical GPUs: how many, and whether each is a whole physical GPU."""

    physical: int
    logical: int
    whole: bool
    cpus: int


# -- the process's devices -------------------------------------------------------------------


def _layout(cfg: GPUConfig | None) -> _Layout:
    """Logical devices this process has (or will have under ``cfg``), without starting TF."""
    tfm = _tf.tf()
    physical = _tf.physical_gpus()
    cpus = _tf.physical_cpus()
    cpu_count = len(tfm.config.get_logical_device_configuration(cpus[0]) or ()) or 1
    if cfg is None:
        # Applied already: read TensorFlow's own state (it includes direct tf.config calls).
        visible = tfm.config.get_visible_devices("GPU")
        per_gpu = [len(tfm.config.get_logical_device_configuration(g) or ()) or 1 for g in visible]
    else:
        from tfcompat_gpu.runtime.planning import choose_gpus

        chosen = choose_gpus(cfg, len(physical)) if physical else []
        per_gpu = [len(cfg.memory_limits_for(i)) or 1 for i in chosen]
        cpu_count = (cfg.device_count or {}).get("CPU", cpu_count) or 1
    return _Layout(len(physical), sum(per_gpu), all(n == 1 for n in per_gpu), cpu_count)


def _nccl() -> bool:
    return "GPU" in _tf.kernel_device_types("NcclAllReduce")


def _parse_devices(devices: Sequence[str], layout: _Layout) -> tuple[str, ...]:
    tfm = _tf.tf()
    if isinstance(devices, (str, bytes)) or not devices:
        raise GPUConfigError(
            "devices: expected a non-empty list of device names such as ['/gpu:0', '/gpu:1'] "
            f"or ['/cpu:0', '/cpu:1']. Received: devices={devices!r}."
        )
    names = []
    for device in devices:
        try:
            spec = tfm.DeviceSpec.from_string(device) if isinstance(device, str) else None
        except ValueError:
            spec = None
        kind = (spec.device_type or "").upper() if spec is not None else ""
        if spec is None or kind not in ("CPU", "GPU"):
            raise GPUConfigError(
                "devices: expected device names such as '/gpu:0' or '/cpu:1'. "
                f"Received: {device!r} in devices={list(devices)!r}."
            )
        index = spec.device_index or 0
        have = layout.logical if kind == "GPU" else layout.cpus
        if index >= have:
            what = (
                f"{have} logical GPU(s) after visible_device_list / device_count / virtual devices"
                if kind == "GPU"
                else f'{have} logical CPU(s) (device_count={{"CPU": n}} makes more)'
            )
            raise GPUConfigError(
                f"devices: {device!r} is not a device of this process: it has {what}. "
                f"Received: devices={list(devices)!r}. Name devices from /{kind.lower()}:0 to "
                f"/{kind.lower()}:{max(have - 1, 0)}, or change the configuration first."
            )
        names.append(f"/{kind.lower()}:{index}")
    if len(set(names)) != len(names):
        raise GPUConfigError(
            f"devices: a device is listed twice. Received: devices={list(devices)!r}."
        )
    return tuple(names)


# -- the decision ----------------------------------------------------------------------------


def _decide(devices: Sequence[str] | None, cfg: GPUConfig | None) -> StrategyPlan:
    environ = os.environ
    launcher = _launchers.detect(environ)
    layout = _layout(cfg)
    reasons: list[str] = []
    gpu_note = (
        f"{layout.logical} logical GPU(s) on {layout.physical} physical after the configuration"
        if layout.physical
        else "no GPU is visible to TensorFlow"
    )

    cluster = tf_config_cluster(environ)
    step_tasks = slurm_tasks(environ, launcher)
    if cluster is None and step_tasks > 1:
        cluster = slurm_cluster(step_tasks)
    elif cluster is not None and step_tasks > 1 and step_tasks != cluster.tasks:
        # TF_CONFIG wins: TensorFlow's MultiWorkerMirroredStrategy builds its resolver from it
        # (TFConfigClusterResolver) and never looks at SLURM; the step's other tasks then
        # either wait for a cluster that never forms or train apart.
        reasons.append(_MISMATCH.format(tasks=cluster.tasks, slurm=step_tasks))
    if cluster is not None and cluster.has_ps:
        raise GPUConfigError(
            "TF_CONFIG has 'ps' tasks: that is a parameter-server cluster, which strategy() does "
            "not pick (ParameterServerStrategy needs a coordinator program). Build "
            "tf.distribute.experimental.ParameterServerStrategy yourself, or run TF1 "
            "between-graph code as it is."
        )
    if devices is None and cluster is not None and cluster.num_workers > 1:
        if cluster.task[0] not in COORDINATED:
            reasons.append(
                f"this task is {cluster.task[0]!r} in a {cluster.source} cluster of "
                f"{cluster.num_workers} workers: it trains nothing collectively"
            )
        else:
            if layout.logical:
                names = tuple(f"/gpu:{i}" for i in range(layout.logical))
                comm = "NCCL" if _nccl() else "RING"
                why = (
                    "NCCL between GPUs"
                    if comm == "NCCL"
                    else "RING: this TensorFlow has no NCCL kernels"
                )
            else:
                names, comm, why = ("/cpu:0",), "RING", "RING between CPU workers"
            source = "TF_CONFIG lists" if cluster.source == "TF_CONFIG" else "the SLURM step has"
            reasons += [
                f"{source} {cluster.num_workers} workers (chief + worker tasks)",
                f"{gpu_note}; {why}",
            ]
            note = _keras3_note()
            if note:
                reasons.append(note)
            job, index = cluster.task
            return StrategyPlan(
                MULTI_WORKER,
                tuple(f"/job:{job}/task:{index}/device:{n[1:].upper()}" for n in names),
                communication=comm,
                cluster_source=cluster.source,
                cluster=cluster.cluster,
                task=cluster.task,
                num_workers=cluster.num_workers,
                launcher=launcher,
                reasons=tuple(reasons),
            )
    elif cluster is not None and devices is None:
        reasons.append(f"{cluster.source} has a single worker: local training")
    elif launcher is not None and (launcher.size or 1) > 1 and devices is None:
        reasons.append(_UNCLUSTERED.format(name=launcher.name, size=launcher.size))
    if devices is not None:
        names = _parse_devices(devices, layout)
        ops: str | None = _cross_device_ops(names, layout)
        kind = MIRRORED
        reasons.append(f"devices={list(devices)!r} was given; {_ops_reason(names, layout)}")
    elif layout.logical > 1:
        names = tuple(f"/gpu:{i}" for i in range(layout.logical))
        ops = _cross_device_ops(names, layout)
        kind = MIRRORED
        reasons += [gpu_note, _ops_reason(names, layout)]
    else:
        names, ops, kind = ("/gpu:0" if layout.logical else "/cpu:0",), None, DEFAULT
        reasons.append(f"{gpu_note}: one device ({names[0]})")
        if not layout.logical and layout.cpus > 1:
            reasons.append(
                f"{layout.cpus} logical CPUs are used only when named: strategy(devices=[...])"
            )
    if cluster is None:
        return StrategyPlan(kind, names, ops, launcher=launcher, reasons=tuple(reasons))
    return StrategyPlan(
        kind,
        names,
        ops,
        cluster_source=cluster.source,
        cluster=cluster.cluster,
        task=cluster.task,
        num_workers=cluster.num_workers,
        launcher=launcher,
        reasons=tuple(reasons),
    )


_MISMATCH = (
    "TF_CONFIG lists {tasks} task(s) but this SLURM step has {slurm} (SLURM_STEP_NUM_TASKS): "
    "TensorFlow uses TF_CONFIG and ignores SLURM, so the counts must agree. Expected one "
    "TF_CONFIG task per SLURM task: write TF_CONFIG for the step, or unset it and let "
    "strategy() read the SLURM step"
)

_UNCLUSTERED = (
    "{name} started {size} processes, but tf.distribute only forms a cluster from TF_CONFIG or "
    "a SLURM step: each process trains on its own devices unless the script exchanges "
    "gradients itself (Horovod's DistributedOptimizer)"
)


def _keras3_note() -> str | None:
    from tfcompat_gpu.settings.env_vars import legacy_keras_requested

    if _tf.version().release < (2, 16) or legacy_keras_requested():
        return None
    return (
        "note: Keras 3's Model.fit does not run under MultiWorkerMirroredStrategy; use tf_keras "
        "(TF_USE_LEGACY_KERAS=1) or a custom training loop"
    )


def _cross_device_ops(names: tuple[str, ...], layout: _Layout) -> str:
    if all(n.startswith("/gpu:") for n in names) and layout.whole and _nccl():
        return "NcclAllReduce"
    return "ReductionToOneDevice"


def _ops_reason(names: tuple[str, ...], layout: _Layout) -> str:
    if _cross_device_ops(names, layout) == "NcclAllReduce":
        return "NcclAllReduce: whole GPUs and TensorFlow has NCCL kernels"
    if not all(n.startswith("/gpu:") for n in names):
        return "ReductionToOneDevice: NCCL only runs between GPUs"
    if not layout.whole:
        return "ReductionToOneDevice: NCCL cannot run between virtual GPUs of one physical GPU"
    return "ReductionToOneDevice: this TensorFlow has no NCCL kernels"


def explain(devices: Sequence[str] | None = None) -> StrategyPlan:
    """What :func:`strategy` would return here, and why; builds nothing, starts nothing.

    Until the configuration is applied, it is read as :func:`strategy` would apply it
    (``GPUConfig.from_env()``).  A problem :func:`strategy` would raise is in ``plan.error``.

    Example::

        print(tfcompat_gpu.explain())
    """
    with STATE.lock:
        applied = STATE.applied is not None or _tf.runtime_started()
    try:
        cfg = None if applied else GPUConfig.from_env()
        plan = _decide(devices, cfg)
    except GPUConfigError as exc:
        return StrategyPlan(
            "none", (), launcher=_safe_launcher(), reasons=(), error=str(exc).splitlines()[0]
        )
    with STATE.lock:
        current = STATE.strategy
    if current is not None and current.plan.key != plan.key and _tf.runtime_started():
        return StrategyPlan(
            plan.kind,
            plan.devices,
            launcher=plan.launcher,
            error=f"TooLateError: {_differs(current, plan).splitlines()[0]}",
        )
    return plan


def _safe_launcher() -> LauncherInfo | None:
    try:
        return _launchers.detect()
    except GPUConfigError:
        return None


# -- building it -----------------------------------------------------------------------------


def strategy(devices: Sequence[str] | None = None) -> Any:
    """The process's ``tf.distribute`` strategy, after applying the GPU configuration.

    One strategy per process: a second call returns the same object.  A call whose answer
    differs once the TensorFlow runtime started raises :class:`TooLateError`.

    Example::

        tfcompat_gpu.configure(allow_growth=True, visible_device_list="local_rank")
        with tfcompat_gpu.strategy().scope():
            model = build_model()
    """
    where = user_frame()
    with STATE.lock:
        if STATE.applied is None:
            from tfcompat_gpu.runtime.configuring import apply_request

            apply_request(GPUConfig.from_env(), where)
        plan = _decide(devices, None)
        current = STATE.strategy
        if current is not None:
            if current.plan.key == plan.key:
                return current.strategy
            if _tf.runtime_started():
                raise TooLateError(_differs(current, plan))
        if plan.kind == MULTI_WORKER and _tf.runtime_started():
            started = STATE.started_where or "before strategy() was called"
            raise TooLateError(
                f"Too late for MultiWorkerMirroredStrategy at {where}: the TensorFlow runtime "
                f"was started at {started}, and collective ops must be configured before it "
                "starts. Fix: call tfcompat_gpu.strategy() right after configure(), before "
                "anything runs a TensorFlow op or builds a model."
            )
        built = _build(plan)
        STATE.strategy = StrategyRecord(plan, built, where)
    launcher = plan.launcher
    mismatch = [r for r in plan.reasons if r.startswith("TF_CONFIG lists") and "SLURM" in r]
    if mismatch:
        warn_once("strategy-tf-config-slurm", mismatch[0] + ".")
    if devices is None and plan.kind != MULTI_WORKER and launcher and (launcher.size or 1) > 1:
        warn_once(
            "strategy-unclustered",
            _UNCLUSTERED.format(name=launcher.name, size=launcher.size) + ".",
        )
    return built


def _differs(current: StrategyRecord, plan: StrategyPlan) -> str:
    def says(p: StrategyPlan) -> str:
        return f"{p.kind} over {', '.join(p.devices)}"

    return (
        f"Too late for another strategy: strategy() at {current.where} returned "
        f"{says(current.plan)}, and the TensorFlow runtime has started since, so its devices "
        f"and collectives are fixed for the process; this call asks for {says(plan)}.\n"
        "Fix: call strategy() once, after the configuration is final; to use other devices, "
        "run them in another process."
    )


def _build(plan: StrategyPlan) -> Any:
    tfm = _tf.tf()
    if plan.kind == DEFAULT:
        return tfm.distribute.get_strategy()
    if plan.kind == MIRRORED:
        ops_class = getattr(tfm.distribute, plan.cross_device_ops or "ReductionToOneDevice")
        ops = ops_class(num_packs=1) if plan.cross_device_ops == "NcclAllReduce" else ops_class()
        return tfm.distribute.MirroredStrategy(devices=list(plan.devices), cross_device_ops=ops)
    experimental = tfm.distribute.experimental
    options = experimental.CommunicationOptions(
        implementation=getattr(
            experimental.CommunicationImplementation, plan.communication or "RING"
        )
    )
    if plan.cluster_source == "SLURM":
        gpus = sum(1 for d in plan.devices if "GPU" in d)
        resolver = slurm_resolver(gpus)
    else:
        resolver = tfm.distribute.cluster_resolver.TFConfigClusterResolver()
    return tfm.distribute.MultiWorkerMirroredStrategy(
        cluster_resolver=resolver, communication_options=options
    )
