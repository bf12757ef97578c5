"""The cluster this process belongs to, as ``TF_CONFIG`` and SLURM describe it.

``TF_CONFIG`` (TensorFlow's JSON cluster description) and a SLURM step's variables
(``SLURM_STEP_NUM_TASKS``, ``SLURM_STEP_TASKS_PER_NODE``) say which workers train together and
which one this process is.  This module reads them; ``runtime/distribute`` decides the strategy.
Only :func:`slurm_resolver` / :func:`slurm_cluster` import TensorFlow (its SLURM resolver).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tfcompat_gpu.errors import GPUConfigError
from tfcompat_gpu.machine.launchers import LauncherInfo
from tfcompat_gpu.utils.numbers import INT_TEXT, parse_int
from tfcompat_gpu.utils.shown import shown_value

_MAX_NODES = 1 << 20
"""More nodes than any SLURM step has: a longer task list is a mistake, not a cluster."""

__all__ = [
    "COORDINATED",
    "Cluster",
    "slurm_cluster",
    "slurm_resolver",
    "slurm_tasks",
    "tasks_per_node",
    "tf_config_cluster",
]

COORDINATED = ("chief", "worker")
"""The jobs whose tasks train together (a ``ps`` or ``evaluator`` task does not)."""


@dataclass(frozen=True)
class Cluster:
    """A multi-process cluster: where it was read from, its jobs, and this process's task."""

    source: str
    """``"TF_CONFIG"`` or ``"SLURM"``."""
    cluster: dict[str, tuple[str, ...]]
    """Job -> the ``host:port`` of each of its tasks."""
    task: tuple[str, int]
    """This process's job and index."""
    num_workers: int
    """Tasks of the coordinated jobs (chief + worker)."""
    has_ps: bool = False

    @property
    def tasks(self) -> int:
        """Every task of the cluster, whatever its job (one process each)."""
        return sum(len(tasks) for tasks in self.cluster.values())


def tf_config_cluster(environ: Mapping[str, str]) -> Cluster | None:
    """The cluster ``TF_CONFIG`` describes (None: unset, or no cluster: local training)."""
    raw = environ.get("TF_CONFIG", "").strip()
    if not raw:
        return None
    expected = (
        'expected JSON such as {"cluster": {"worker": ["host1:port", "host2:port"]}, '
        '"task": {"type": "worker", "index": 0}}'
    )
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        why = "nested too deeply" if isinstance(exc, RecursionError) else exc
        raise GPUConfigError(
            f"TF_CONFIG: {expected}. Received: TF_CONFIG={shown_value(raw)} ({why})."
        ) from None
    if not isinstance(data, dict):
        # TensorFlow's resolver calls .get() on the parsed value
        # (tensorflow/python/distribute/cluster_resolver/tfconfig_cluster_resolver.py,
        # _get_value_in_tfconfig): "[]" or "null" fails there, it does not mean "no cluster".
        raise GPUConfigError(
            f"TF_CONFIG: {expected}; a JSON object ({{...}}). Received: TF_CONFIG={raw!r}, "
            f"a JSON {type(data).__name__.replace('NoneType', 'null')}. Unset TF_CONFIG for "
            "training without a cluster."
        )
    cluster = data.get("cluster")
    if not cluster:
        return None  # TensorFlow treats a TF_CONFIG without a cluster as local training
    if not isinstance(cluster, dict) or not all(
        isinstance(tasks, list) and all(isinstance(t, str) for t in tasks)
        for tasks in cluster.values()
    ):
        raise GPUConfigError(
            f"TF_CONFIG: {expected}; each job maps to a list of 'host:port' strings. "
            f"Received: cluster={cluster!r}."
        )
    task = data.get("task") or {}
    if not isinstance(task, dict):
        task = {"type": None, "given": task}
    task_type, index = task.get("type"), task.get("index", 0)
    if (
        task_type not in cluster
        # TensorFlow's int(task_info['index']) reads true as 1 (task_id in
        # tfconfig_cluster_resolver.py): a bool is no index, whatever int() makes of it.
        or type(index) is not int
        or not 0 <= index < len(cluster[task_type])
    ):
        raise GPUConfigError(
            f"TF_CONFIG: {expected}; task must name a job of the cluster and an index within it. "
            f"Received: task={task!r}, jobs={sorted(cluster)}."
        )
    workers = sum(len(cluster.get(job, ())) for job in COORDINATED)
    return Cluster(
        "TF_CONFIG",
        {job: tuple(tasks) for job, tasks in cluster.items()},
        (str(task_type), index),
        workers,
        has_ps="ps" in cluster,
    )


def tasks_per_node(raw: str) -> list[int]:
    """SLURM's ``2(x3),1`` -> [2, 2, 2, 1]."""
    counts: list[int] = []
    for part in raw.split(","):
        match = re.fullmatch(rf"\s*({INT_TEXT})(?:\(x({INT_TEXT})\))?\s*", part)
        if match is None:
            raise GPUConfigError(
                "SLURM_STEP_TASKS_PER_NODE: expected a SLURM task list such as '2(x3),1'. "
                f"Received: SLURM_STEP_TASKS_PER_NODE={raw!r}."
            )
        repeat = int(match.group(2) or 1)
        if len(counts) + repeat > _MAX_NODES:
            raise GPUConfigError(
                f"SLURM_STEP_TASKS_PER_NODE: expected at most {_MAX_NODES} nodes. "
                f"Received: SLURM_STEP_TASKS_PER_NODE={shown_value(raw)}."
            )
        counts += [int(match.group(1))] * repeat
    return counts


def slurm_tasks(environ: Mapping[str, str], launcher: LauncherInfo | None) -> int:
    """Tasks of this SLURM step when SLURM launched this process (0: not a SLURM step)."""
    if launcher is not None and not launcher.name.startswith("srun"):
        return 0  # an MPI launcher inside an allocation: SLURM's step is the launcher's daemons
    raw = environ.get("SLURM_STEP_NUM_TASKS", "").strip()
    if not raw or "SLURM_PROCID" not in environ:
        return 0
    tasks = parse_int(raw)
    if tasks is None:
        raise GPUConfigError(
            "SLURM_STEP_NUM_TASKS: expected the number of tasks of the step (an int). "
            f"Received: SLURM_STEP_NUM_TASKS={raw!r}."
        )
    return tasks


def slurm_resolver(logical_gpus: int) -> Any:
    """TensorFlow's ``SlurmClusterResolver`` for this step, reporting ``logical_gpus`` per task."""
    from tfcompat_gpu.tfapi import _tf

    base = _tf.tf().distribute.cluster_resolver.SlurmClusterResolver
    tasks = tasks_per_node(os.environ.get("SLURM_STEP_TASKS_PER_NODE", "1"))

    class _Resolver(base):  # type: ignore[misc, valid-type]
        """SLURM's cluster, with this process's GPUs as configured (never set by TensorFlow)."""

        def num_accelerators(
            self, task_type: Any = None, task_id: Any = None, config_proto: Any = None
        ) -> dict[str, int]:
            return {"GPU": logical_gpus}

    # One port and one (unused) GPU slot per task: GPUs are pinned by visible_device_list,
    # and TensorFlow's CUDA_VISIBLE_DEVICES assignment would come after the driver read it.
    most = max(tasks)
    return _Resolver(gpus_per_node=most, gpus_per_task=1, auto_set_gpu=False)


def slurm_cluster(tasks: int) -> Cluster:
    """The cluster of this SLURM step of ``tasks`` tasks, as TensorFlow's resolver reads it."""
    resolver = slurm_resolver(0)
    spec = resolver.cluster_spec().as_dict()
    cluster = {job: tuple(addresses) for job, addresses in spec.items()}
    return Cluster("SLURM", cluster, (resolver.task_type, resolver.task_id), tasks)
