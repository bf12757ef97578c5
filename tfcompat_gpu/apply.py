"""Apply a :class:`GPUConfig` to the process: ``configure()``, ``session()`` and friends.

Translation produces data (a list of :class:`Step`); :func:`_run_steps` is the one place that
changes TensorFlow's state, after everything was validated, and it rolls the context back if
TensorFlow rejects anything, so a failed call leaves the process exactly as it was.
"""

from __future__ import annotations

import enum
import functools
import logging
import os
import sys
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tfcompat_gpu import _tf
from tfcompat_gpu._errors import GPUConfigError, GPUConfigWarning, TooLateError
from tfcompat_gpu._options import OPTIONS, OPTIONS_BY_NAME
from tfcompat_gpu._state import STATE, SessionRecord
from tfcompat_gpu._where import user_frame
from tfcompat_gpu.config import GPUConfig
from tfcompat_gpu.conflicts import find_conflicts, get_conflict_policy, report_conflicts

__all__ = [
    "GPU_ENV_VARS",
    "Environment",
    "Mode",
    "SessionSetup",
    "Step",
    "configure",
    "current_config",
    "detect_mode",
    "environment",
    "gpu_device",
    "plan",
    "prepare_session",
    "session",
    "session_config",
]

logger = logging.getLogger("tfcompat_gpu")

GPU_ENV_VARS: tuple[str, ...] = (
    "CUDA_VISIBLE_DEVICES",
    "CUDA_DEVICE_ORDER",
    "TF_FORCE_GPU_ALLOW_GROWTH",
    "TF_GPU_ALLOCATOR",
    "TF_GPU_THREAD_MODE",
    "TF_GPU_THREAD_COUNT",
    "TF_CPP_MIN_LOG_LEVEL",
    "TF_USE_LEGACY_KERAS",
    "TF_ENABLE_ONEDNN_OPTS",
    "KERAS_BACKEND",
    "HIP_VISIBLE_DEVICES",
    "ROCR_VISIBLE_DEVICES",
    "TFCOMPAT_GPU_CONFLICT_POLICY",
    *(option.env for option in OPTIONS if option.env),
)


class Mode(str, enum.Enum):
    """How the process runs TensorFlow."""

    EAGER = "eager"
    """TF2 behaviour (the default)."""
    GRAPH = "graph"
    """Eager disabled (``disable_eager_execution()`` / ``disable_v2_behavior()``): v1 sessions."""


def detect_mode() -> Mode:
    """``Mode.GRAPH`` once eager execution was disabled for the process, else ``Mode.EAGER``.

    Example::

        tf.compat.v1.disable_eager_execution()
        assert tfcompat_gpu.detect_mode() is tfcompat_gpu.Mode.GRAPH
    """
    return Mode.GRAPH if _tf.graph_mode() else Mode.EAGER


@dataclass(frozen=True)
class Step:
    """One change to TensorFlow's state, described for logs and error messages."""

    option: str
    call: str
    run: Callable[[], object] = field(compare=False, repr=False)


def current_config() -> GPUConfig:
    """The effective process configuration (``GPUConfig()`` until something was applied)."""
    with STATE.lock:
        return STATE.applied or GPUConfig()


def configure(cfg: GPUConfig | None = None, /, **fields: Any) -> GPUConfig:
    """Apply GPU and thread settings to the whole process; return the effective config.

    Settings are merged with what earlier calls applied (``None`` leaves a field alone).  Before
    the TensorFlow runtime starts every field applies, in eager and in graph mode alike.  After
    it started, identical settings are a no-op, soft/log placement still apply, and any other
    change raises :class:`TooLateError`.  Nothing is half-applied: on any error the process is
    as it was.

    Example::

        import tfcompat_gpu
        tfcompat_gpu.configure(allow_growth=True, visible_device_list="0")
    """
    request = _request(cfg, fields)
    where = user_frame()
    with STATE.lock:
        return _configure(request, where)


def _request(cfg: object, fields: dict[str, Any]) -> GPUConfig:
    known = {option.name for option in OPTIONS}
    for name in fields:
        if name not in known:
            import difflib

            close = difflib.get_close_matches(name, sorted(known), n=1)
            hint = f" Did you mean {close[0]!r}?" if close else ""
            raise GPUConfigError(
                f"Unknown GPU setting {name!r}. Expected one of: {', '.join(sorted(known))}.{hint}"
            )
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


@dataclass
class _Machine:
    gpus: list[Any]
    cpus: list[Any]
    started: bool

    @classmethod
    def read(cls) -> _Machine:
        return cls(_tf.physical_gpus(), _tf.physical_cpus(), _frozen())


def _frozen() -> bool:
    """Process-wide settings are fixed: the eager runtime started or a session exists."""
    return _tf.runtime_started() or bool(STATE.sessions)


def _configure(request: GPUConfig, where: str) -> GPUConfig:
    target = (STATE.applied or GPUConfig()).merged(request)
    machine = _Machine.read()
    if machine.started:
        return _configure_late(request, target, machine, where)
    steps, effective, notes = plan(target, machine)
    _run_steps(steps)
    for key, note in notes:
        _warn_once(key, note)
    _record(effective, where)
    _tf.watch_runtime_start(_runtime_starting)
    return effective


def _record(effective: GPUConfig, where: str) -> None:
    STATE.applied = effective
    STATE.applied_where = where
    STATE.process_wide = effective.process_wide()
    STATE.process_wide_where = where


def _runtime_starting() -> None:
    STATE.started_where = user_frame()


def _warn_once(key: str, message: str) -> None:
    if key in STATE.warned:
        return
    STATE.warned.add(key)
    logger.info("%s", message)
    # Attributed to the user's line: the call may come from deep inside TensorFlow (a session).
    filename, _, line = user_frame().rpartition(":")
    if filename and line.isdigit():
        warnings.warn_explicit(message, GPUConfigWarning, filename, int(line))
    else:
        warnings.warn(message, GPUConfigWarning, stacklevel=4)


def plan(
    target: GPUConfig, machine: _Machine | None = None
) -> tuple[list[Step], GPUConfig, list[tuple[str, str]]]:
    """Translate ``target`` into steps for this machine: (steps, effective config, warnings).

    Each warning is ``(key, message)``; a key is reported once per process.

    Validates everything against the machine (GPU ids, TF capabilities) and changes nothing.
    """
    machine = machine or _Machine.read()
    tfm = _tf.tf()
    steps: list[Step] = []
    notes: list[tuple[str, str]] = []
    effective = target
    base = _tf.config_proto_class()()
    gpus = machine.gpus

    if not gpus:
        gpu_fields = [name for name, _ in target.items() if OPTIONS_BY_NAME[name].gpu]
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
            recorded = {n: getattr(target, n) for n in gpu_fields if n != "memory_limit_mb"}
            base.MergeFrom(_tf.proto_from_config(GPUConfig(**recorded), num_gpus=1))
    else:
        chosen = _choose_gpus(target, len(gpus))
        if (
            target.visible_device_list is not None
            or (target.device_count or {}).get("GPU") is not None
        ):
            if chosen != sorted(chosen) and target.visible_device_list is not None:
                message = (
                    f"visible_device_list={target.visible_device_list!r} asks for a reorder, which "
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
        if target.allow_growth is not None:
            for gpu in visible:
                steps.append(
                    Step(
                        "allow_growth",
                        f"tf.config.experimental.set_memory_growth({gpu.name!r}, {target.allow_growth})",
                        functools.partial(
                            tfm.config.experimental.set_memory_growth, gpu, target.allow_growth
                        ),
                    )
                )
        if target.memory_limit_mb is not None:
            _check_limit_ids(target, len(gpus), chosen)
            for gpu_id in sorted(chosen):
                limits = _tf.memory_limits_for(target, gpu_id)
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

    counts = dict(target.device_count or {})
    cpu_count = counts.pop("CPU", None)
    counts.pop("GPU", None)
    if cpu_count is not None:
        if cpu_count == 0:
            raise GPUConfigError(
                'device_count: expected "CPU" >= 1. Received: device_count='
                f"{dict(target.device_count or {})!r}. TensorFlow needs a CPU device; "
                'drop the "CPU" entry to keep its default of 1.'
            )
        if cpu_count > 1 or _tf.context().get_logical_device_configuration(machine.cpus[0]):
            logical_cpus = [tfm.config.LogicalDeviceConfiguration() for _ in range(cpu_count)]
            steps.append(
                Step(
                    "device_count",
                    f"tf.config.set_logical_device_configuration('{machine.cpus[0].name}', "
                    f"[LogicalDeviceConfiguration()] * {cpu_count})",
                    functools.partial(
                        tfm.config.set_logical_device_configuration, machine.cpus[0], logical_cpus
                    ),
                )
            )
    for kind in counts:
        message = (
            f"device_count[{kind!r}] is ignored: TF2 only configures CPU and GPU device counts."
        )
        notes.append((message, message))
    if target.allow_growth and gpus and (cpu_count or 1) > 1:
        # Logical CPUs sit in the same map as virtual GPUs, and TensorFlow then drops growth.
        base.gpu_options.allow_growth = True

    for name, call, setter in (
        (
            "allow_soft_placement",
            "tf.config.set_soft_device_placement",
            tfm.config.set_soft_device_placement,
        ),
        (
            "log_device_placement",
            "tf.debugging.set_log_device_placement",
            tfm.debugging.set_log_device_placement,
        ),
        (
            "intra_op_parallelism_threads",
            "tf.config.threading.set_intra_op_parallelism_threads",
            tfm.config.threading.set_intra_op_parallelism_threads,
        ),
        (
            "inter_op_parallelism_threads",
            "tf.config.threading.set_inter_op_parallelism_threads",
            tfm.config.threading.set_inter_op_parallelism_threads,
        ),
    ):
        value = getattr(target, name)
        if value is not None:
            steps.append(Step(name, f"{call}({value!r})", functools.partial(setter, value)))

    fraction = target.per_process_gpu_memory_fraction
    if fraction is not None:
        _tf.require_private_api("per_process_gpu_memory_fraction", fraction)
        base.gpu_options.per_process_gpu_memory_fraction = fraction
    if target.extra_proto:
        base.MergeFrom(_tf.parse_config_proto(target.extra_proto))
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


def _choose_gpus(target: GPUConfig, count: int) -> list[int]:
    ids = list(target.visible_ids) if target.visible_ids is not None else list(range(count))
    for gpu_id in ids:
        if gpu_id >= count:
            cuda = os.environ.get("CUDA_VISIBLE_DEVICES")
            after = f" (after CUDA_VISIBLE_DEVICES={cuda!r})" if cuda is not None else ""
            raise GPUConfigError(
                f"visible_device_list: 'visible_device_list' listed an invalid GPU id '{gpu_id}' "
                f"but visible device count is {count}{after}. Received: "
                f"visible_device_list={target.visible_device_list!r}. Expected ids from 0 to "
                f"{count - 1}: they count the GPUs left after CUDA_VISIBLE_DEVICES, not nvidia-smi's."
            )
    gpu_count = (target.device_count or {}).get("GPU")
    return ids[:gpu_count] if gpu_count is not None else ids


def _check_limit_ids(target: GPUConfig, count: int, chosen: list[int]) -> None:
    limits = target.memory_limit_mb
    if not isinstance(limits, Mapping):
        return
    for gpu_id in limits:
        if gpu_id >= count or gpu_id not in chosen:
            raise GPUConfigError(
                f"memory_limit_mb: GPU id {gpu_id} is not a visible GPU (visible: "
                f"{sorted(chosen)}). Received: memory_limit_mb={dict(limits)!r}. Expected keys "
                "among the visible GPU ids."
            )


def _run_steps(steps: list[Step]) -> None:
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


# -- too late --------------------------------------------------------------------------------


def _active_values(machine: _Machine) -> dict[str, Any]:
    """Process-wide values in force, in the comparable form of :func:`_requested_values`."""
    ctx = _tf.context()
    base = _tf.base_config()
    values: dict[str, Any] = {
        "per_process_gpu_memory_fraction": base.gpu_options.per_process_gpu_memory_fraction or None,
        "intra_op_parallelism_threads": ctx._intra_op_parallelism_threads or 0,
        "inter_op_parallelism_threads": ctx._inter_op_parallelism_threads or 0,
    }
    cpu_config = ctx.get_logical_device_configuration(machine.cpus[0]) if machine.cpus else None
    values["device_count"] = {"CPU": len(cpu_config) if cpu_config else 1}
    if machine.gpus:
        visible = ctx.get_visible_devices("GPU")
        ids = [machine.gpus.index(gpu) for gpu in visible]
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
    return {i: tuple(_tf.memory_limits_for(cfg, i)) for i in ids if _tf.memory_limits_for(cfg, i)}


def _requested_values(request: GPUConfig, machine: _Machine) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name, value in request.items():
        option = OPTIONS_BY_NAME[name]
        if option.after_start:
            continue
        if name == "visible_device_list":
            if machine.gpus:
                values[name] = tuple(sorted(_choose_gpus(request, len(machine.gpus))))
            else:
                values[name] = request.visible_ids
        elif name == "memory_limit_mb":
            ids = (
                sorted(_choose_gpus(request, len(machine.gpus)))
                if machine.gpus
                else list(request.visible_ids or (0,))
            )
            values[name] = _limits_by_gpu(request, ids)
        elif name == "device_count":
            values[name] = dict(value)
        else:
            values[name] = value
    return values


def _configure_late(
    request: GPUConfig, target: GPUConfig, machine: _Machine, where: str
) -> GPUConfig:
    active = _active_values(machine)
    changes = []
    for name, wanted in _requested_values(request, machine).items():
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
            steps.extend(plan(GPUConfig(**open_fields), machine)[0])
            changes = [change for change in changes if change[0] not in open_fields]
    if changes:
        raise TooLateError(_too_late_message(changes, where))
    tfm = _tf.tf()
    if request.allow_soft_placement is not None:
        steps.append(
            Step(
                "allow_soft_placement",
                f"tf.config.set_soft_device_placement({request.allow_soft_placement})",
                functools.partial(
                    tfm.config.set_soft_device_placement, request.allow_soft_placement
                ),
            )
        )
    if request.log_device_placement is not None:
        steps.append(
            Step(
                "log_device_placement",
                f"tf.debugging.set_log_device_placement({request.log_device_placement})",
                functools.partial(
                    tfm.debugging.set_log_device_placement, request.log_device_placement
                ),
            )
        )
    _run_steps(steps)
    STATE.applied = target
    STATE.applied_where = where
    return target


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
        "(allow_soft_placement, log_device_placement) can still change."
    )
    return "\n".join(lines)


def _plain(value: Any) -> str:
    if isinstance(value, tuple):
        return '"' + ",".join(map(str, value)) + '"' if value else '""'
    if isinstance(value, Mapping):
        return repr({k: list(v) if isinstance(v, tuple) else v for k, v in value.items()})
    return repr(value)


# -- sessions --------------------------------------------------------------------------------


def session(config: Any = None, graph: Any = None, target: str = "") -> Any:
    """A ``tf.compat.v1.Session`` with the process config plus the per-session fields of ``config``.

    ``config`` may be a :class:`GPUConfig`, a ``tf.compat.v1.ConfigProto`` or None.  Process-wide
    fields that differ from the ones in force are reported per the conflict policy; the first
    session of the process still sets the ones nothing set before.

    Example::

        with tfcompat_gpu.session(tfcompat_gpu.GPUConfig(log_device_placement=True)) as sess:
            sess.run(...)
    """
    if STATE.sessions_patched:
        # install() routes every session through its hook, which records, merges and checks
        # it: hand the request over as TF1 code would, so it is done once.
        if isinstance(config, GPUConfig):
            config = config.to_config_proto()
        return _tf.session_class()(target=target, graph=graph, config=config)
    if config is None and STATE.applied is not None:
        # The common case, kept lean: nothing to merge or compare, TensorFlow builds the
        # process config itself; only the caller is recorded (formatted when read).
        frame = sys._getframe(1)
        STATE.sessions.append(SessionRecord(_EMPTY, (frame.f_code.co_filename, frame.f_lineno)))
        return _tf.session_class()(target, graph)
    where = user_frame()
    proto = session_config(config, where)
    return _tf.session_class()(target=target, graph=graph, config=proto)


# Per-session scalar fields, from the table (device_count is a map, handled beside them).
_PER_SESSION = tuple(o.name for o in OPTIONS if not o.process_wide and o.name != "device_count")


@dataclass(frozen=True)
class SessionSetup:
    """What a new session gets: its ConfigProto and, under ``"remap"``, its graph's device."""

    proto: Any
    device: str | None = None
    """TensorFlow device (``/device:GPU:1``) for the ops of the session's graph, or None."""


def session_config(config: Any, where: str, kind: str = "Session") -> Any:
    """The ConfigProto a new session should get: process config + the request's per-session fields.

    Returns None for ``config=None``: TensorFlow then builds the process config itself.
    """
    return prepare_session(config, where, kind).proto


def prepare_session(config: Any, where: str, kind: str = "Session") -> SessionSetup:
    """Record a new session, check it against the process config, and return its setup.

    The first session of the process sets the process-wide fields nothing set before; later
    ones are checked by :func:`~tfcompat_gpu.conflicts.report_conflicts`.  Under the
    ``"remap"`` policy a session's own ``visible_device_list`` extends the process list instead
    of conflicting, and :attr:`SessionSetup.device` names where its graph belongs.
    """
    if config is None:
        # The common case: nothing to merge or compare, TensorFlow uses the process config.
        with STATE.lock:
            if STATE.applied is None and _tf.runtime_started():
                _record(_config_in_force(), STATE.started_where or "the start of the eager runtime")
            STATE.sessions.append(SessionRecord(_EMPTY, where, kind))
        return SessionSetup(None)
    request = _as_request(config)
    with STATE.lock:
        if not _frozen():
            fill = {
                name: value
                for name, value in request.process_wide().items()
                if getattr(STATE.applied or GPUConfig(), name) is None
            }
            if fill:
                _configure(GPUConfig(**fill), where)
            if STATE.process_wide_where is None:
                # The first session fixes TensorFlow's defaults for the process too.
                STATE.process_wide_where = where
        elif STATE.applied is None and _tf.runtime_started():
            _record(_config_in_force(), STATE.started_where or "the start of the eager runtime")
        checked, device, union = request, None, None
        if request.visible_ids is not None and get_conflict_policy() == "remap":
            union = _remap(request.visible_ids)
            device = gpu_device(request.visible_ids[0])
            checked = request.replace(visible_device_list=None)
        active = STATE.applied or GPUConfig()
        report_conflicts(
            find_conflicts(active, checked),
            requested_where=where,
            active_where=STATE.process_wide_where,
            kind=kind,
        )
        proto = _tf.effective_proto()
        _overlay_per_session(proto, checked)
        if union is not None:
            proto.gpu_options.visible_device_list = union
        STATE.sessions.append(SessionRecord(request, where, kind))
        return SessionSetup(proto, device)


def _remap(ids: tuple[int, ...]) -> str | None:
    """Extend the process device list with ``ids`` (first-seen order); the list sessions get.

    Appending keeps every TensorFlow GPU id pointing at the physical GPU it pointed at before,
    which is what TensorFlow's per-process id map requires; None while every GPU is visible.
    """
    active = STATE.applied or GPUConfig()
    current = active.visible_ids
    if current is None:
        return None
    union = current + tuple(i for i in dict.fromkeys(ids) if i not in current)
    if union != current:
        gpus = _tf.physical_gpus()
        text = ",".join(map(str, union))
        if gpus:
            _choose_gpus(GPUConfig(visible_device_list=text), len(gpus))
        STATE.applied = active.replace(visible_device_list=text)
        STATE.process_wide = STATE.applied.process_wide()
    return ",".join(map(str, union))


def gpu_device(physical_id: int) -> str:
    """The TensorFlow device name that physical GPU ``physical_id`` has in this process.

    TensorFlow numbers the GPUs of ``visible_device_list`` in list order, and a GPU split into
    virtual devices takes one number per logical device; with no list every GPU is visible in
    physical order.

    Example::

        tfcompat_gpu.configure(visible_device_list="1,2")
        assert gpu_device(2) == "/device:GPU:1"
    """
    if isinstance(physical_id, bool) or not isinstance(physical_id, int) or physical_id < 0:
        raise GPUConfigError(
            f"gpu_id: expected a physical GPU number (int >= 0). Received: {physical_id!r}."
        )
    with STATE.lock:
        cfg = STATE.applied or GPUConfig()
        where = STATE.process_wide_where or STATE.applied_where or "<unknown>"
    ids = cfg.visible_ids
    if ids is None:
        count = len(_tf.physical_gpus()) if _tf.is_imported() else 0
        ids = tuple(range(max(count, physical_id + 1)))
    if physical_id not in ids:
        raise GPUConfigError(
            f"gpu_id: physical GPU {physical_id} is not in the process device list "
            f"visible_device_list={cfg.visible_device_list!r} (set at {where}). Expected one of "
            f"{list(ids)}. Fix: list it in tfcompat_gpu.configure(visible_device_list=...) before "
            'the first session, or use tfcompat_gpu.set_conflict_policy("remap") so that sessions '
            "asking for other GPUs extend the list."
        )
    index = 0
    for gpu_id in ids:
        if gpu_id == physical_id:
            break
        index += max(len(_tf.memory_limits_for(cfg, gpu_id)), 1)
    return f"/device:GPU:{index}"


_EMPTY = GPUConfig()


def _as_request(config: Any) -> GPUConfig:
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
    _tf.copy_scalar_fields(proto, request, _PER_SESSION)
    if request.extra_proto:
        extra = _tf.parse_config_proto(request.extra_proto)
        extra.ClearField("gpu_options")  # allocator fields are process-wide
        proto.MergeFrom(extra)


# -- environment -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Environment:
    """What TensorFlow, Keras and the GPUs look like to this process."""

    tensorflow_version: str | None
    keras_flavour: str | None
    """``"keras3"``, ``"tf_keras"`` (``TF_USE_LEGACY_KERAS``) or ``"keras2"`` (TF <= 2.15)."""
    keras_version: str | None
    mode: Mode | None
    physical_gpus: tuple[str, ...]
    gpu_env: Mapping[str, str]
    runtime_started: bool

    def __str__(self) -> str:
        lines = [
            f"TensorFlow:      {self.tensorflow_version or 'not available'}",
            f"Keras:           {self.keras_flavour or '-'} {self.keras_version or ''}".rstrip(),
            f"Mode:            {self.mode.value if self.mode else '-'}",
            f"Physical GPUs:   {', '.join(self.physical_gpus) or 'none'}",
            f"Runtime started: {'yes' if self.runtime_started else 'no'}",
            "GPU variables:   "
            + (", ".join(f"{k}={v}" for k, v in self.gpu_env.items()) or "none"),
        ]
        return "\n".join(lines)


def _dist_version(name: str) -> str | None:
    import importlib.metadata

    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def environment(*, import_tensorflow: bool = True) -> Environment:
    """Report TensorFlow, Keras, GPUs and GPU variables without starting the runtime.

    With ``import_tensorflow=False`` TensorFlow is only inspected if already imported.

    Example::

        print(tfcompat_gpu.environment())
    """
    gpu_env = {name: os.environ[name] for name in GPU_ENV_VARS if name in os.environ}
    if not (import_tensorflow or _tf.is_imported()):
        return Environment(None, None, None, None, (), gpu_env, False)
    try:
        tf_version = _tf.version()
    except ImportError:
        return Environment(None, None, None, None, (), gpu_env, False)
    flavour: str
    keras: str | None
    if tf_version.release < (2, 16):
        flavour, keras = "keras2", _dist_version("keras") or str(tf_version)
    elif os.environ.get("TF_USE_LEGACY_KERAS", "") in ("1", "true", "True"):
        flavour, keras = "tf_keras", _dist_version("tf-keras")
    else:
        flavour, keras = "keras3", _dist_version("keras")
    gpus = tuple(d.name for d in _tf.physical_gpus())
    return Environment(
        str(tf_version), flavour, keras, detect_mode(), gpus, gpu_env, _tf.runtime_started()
    )
