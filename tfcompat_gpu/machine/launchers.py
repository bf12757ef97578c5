"""Which launcher started this process, and its ranks: read from environment variables only.

``horovodrun``, ``mpirun`` (Open MPI, MVAPICH2, MPICH / Intel MPI), ``srun`` and ``torchrun``-style
launchers start one process per GPU and tell each its rank through variables.  This module reads
them, and resolves the ``"local_rank"`` / ``"local_rank:K"`` forms of ``visible_device_list``.
Nothing here imports TensorFlow.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from tfcompat_gpu.errors import GPUConfigError
from tfcompat_gpu.utils.numbers import parse_int

__all__ = [
    "LAUNCHERS",
    "LOCAL_RANK_VARS",
    "Launcher",
    "LauncherInfo",
    "detect",
    "local_rank",
    "local_rank_note",
    "resolve_local_rank",
]


@dataclass(frozen=True)
class Launcher:
    """One launcher's variables (``None``: it sets no such variable)."""

    name: str
    local_rank: str
    rank: str | None
    size: str | None
    local_size: str | None


# Checked in this order: a launcher run inside a SLURM allocation inherits SLURM_LOCALID from
# the batch step (one value for all the processes the launcher starts), so the variables a
# launcher sets per process win over SLURM's: the MPI ones, and torchrun's LOCAL_RANK (set for
# each worker it starts: torch/distributed/elastic/agent/server/local_elastic_agent.py,
# LocalElasticAgent._start_workers) when torchrun runs inside srun.
LAUNCHERS: tuple[Launcher, ...] = (
    Launcher(
        "horovodrun", "HOROVOD_LOCAL_RANK", "HOROVOD_RANK", "HOROVOD_SIZE", "HOROVOD_LOCAL_SIZE"
    ),
    Launcher(
        "mpirun (Open MPI)",
        "OMPI_COMM_WORLD_LOCAL_RANK",
        "OMPI_COMM_WORLD_RANK",
        "OMPI_COMM_WORLD_SIZE",
        "OMPI_COMM_WORLD_LOCAL_SIZE",
    ),
    Launcher(
        "mpirun (MVAPICH2)",
        "MV2_COMM_WORLD_LOCAL_RANK",
        "MV2_COMM_WORLD_RANK",
        "MV2_COMM_WORLD_SIZE",
        "MV2_COMM_WORLD_LOCAL_SIZE",
    ),
    Launcher(
        "mpirun (MPICH / Intel MPI)", "MPI_LOCALRANKID", "PMI_RANK", "PMI_SIZE", "MPI_LOCALNRANKS"
    ),
    Launcher("LOCAL_RANK (torchrun style)", "LOCAL_RANK", "RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE"),
    Launcher("srun (SLURM)", "SLURM_LOCALID", "SLURM_PROCID", "SLURM_STEP_NUM_TASKS", None),
)

LOCAL_RANK_VARS: tuple[str, ...] = tuple(launcher.local_rank for launcher in LAUNCHERS)


@dataclass(frozen=True)
class LauncherInfo:
    """The launcher this process was started by, and what it says about the process."""

    name: str
    variable: str
    """The variable the local rank was read from."""
    local_rank: int
    rank: int | None
    size: int | None
    local_size: int | None
    ignored: tuple[str, ...] = ()
    """``NAME=value`` of the launcher's other variables that are not ranks or counts (a
    ``RANK=master`` some scripts set themselves): left out, and said, not fatal to the local rank."""

    def __str__(self) -> str:
        parts = [f"{self.name}: local rank {self.local_rank} (from {self.variable})"]
        if self.rank is not None:
            parts.append(f"rank {self.rank}")
        if self.size is not None:
            parts.append(f"of {self.size}")
        if self.local_size is not None:
            parts.append(f"({self.local_size} on this node)")
        if self.ignored:
            parts.append(f"(ignored, not a number: {', '.join(self.ignored)})")
        return " ".join(parts)


def _int(name: str, raw: str) -> int:
    number = parse_int(raw)
    if number is None:
        raise GPUConfigError(
            f"{name}: expected a non-negative integer in ASCII digits (a rank set by the "
            f"launcher). Received: {name}={raw!r}. Unset it or let the launcher set it."
        )
    return number


def _optional(env: Mapping[str, str], name: str | None, ignored: list[str]) -> int | None:
    # Only the local rank is needed to pick a GPU; a malformed rank or size is left out (and
    # reported) rather than failing what does not depend on it.
    if name is None or not env.get(name, "").strip():
        return None
    number = parse_int(env[name])
    if number is None:
        ignored.append(f"{name}={env[name]!r}")
    return number


def detect(environ: Mapping[str, str] | None = None) -> LauncherInfo | None:
    """The first launcher whose local-rank variable is set, or None (a plain process)."""
    env = os.environ if environ is None else environ
    for launcher in LAUNCHERS:
        raw = env.get(launcher.local_rank)
        if raw is None or not raw.strip():
            continue
        ignored: list[str] = []
        local = _int(launcher.local_rank, raw)
        return LauncherInfo(
            launcher.name,
            launcher.local_rank,
            local,
            _optional(env, launcher.rank, ignored),
            _optional(env, launcher.size, ignored),
            _optional(env, launcher.local_size, ignored),
            tuple(ignored),
        )
    return None


def local_rank(environ: Mapping[str, str] | None = None) -> int:
    """This process's rank on its node, from the launcher's variables.

    Looked up in order: ``HOROVOD_LOCAL_RANK``, ``OMPI_COMM_WORLD_LOCAL_RANK``,
    ``MV2_COMM_WORLD_LOCAL_RANK``, ``MPI_LOCALRANKID``, ``LOCAL_RANK``, ``SLURM_LOCALID`` (a
    launcher inside ``srun`` sets its own per-process variable; ``SLURM_LOCALID`` is inherited).
    Raises :class:`GPUConfigError` naming them when none is set.

    Example::

        $ horovodrun -np 4 python train.py      # tfcompat_gpu.local_rank() is 0..3
    """
    info = detect(environ)
    if info is None:
        raise GPUConfigError(
            "local rank: no launcher variable is set; looked at "
            f"{', '.join(LOCAL_RANK_VARS)}. Start the script with horovodrun, mpirun, srun or "
            "torchrun (one process per GPU), set LOCAL_RANK=N yourself, or give the GPU ids "
            'explicitly (visible_device_list="0").'
        )
    return info.local_rank


# Resolved forms, for the message when a local rank points past the visible GPUs.
_NOTES: dict[str, str] = {}


def resolve_local_rank(argument: str | None) -> tuple[int, ...]:
    """GPU ids for ``"local_rank"`` (``argument`` None) or ``"local_rank:K"`` (``argument`` K).

    ``"local_rank"`` is one GPU per process (the GPU numbered like the local rank);
    ``"local_rank:K"`` gives process ``r`` the K consecutive GPUs ``r*K`` … ``r*K+K-1``.
    """
    name = "visible_device_list"
    text = "local_rank" if argument is None else f"local_rank:{argument}"
    per_process = 1
    if argument is not None:
        count = parse_int(argument)
        if count is None or count == 0:
            raise GPUConfigError(
                f'{name}: expected "local_rank" or "local_rank:K" with K >= 1 GPUs per process. '
                f"Received: {name}={text!r}."
            )
        per_process = count
    try:
        rank = local_rank()
    except GPUConfigError as exc:
        raise GPUConfigError(f"{name}={text!r}: {exc}") from None
    info = detect()
    assert info is not None
    first = rank * per_process
    ids = tuple(range(first, first + per_process))
    resolved = ",".join(map(str, ids))
    plural = "GPUs" if per_process > 1 else "GPU"
    _NOTES[resolved] = (
        f"{name}={text!r} with local rank {rank} (from {info.variable}, {info.name}) "
        f"asks for {plural} {resolved}: each process on this node takes {per_process} {plural}, "
        f"so local rank {rank} needs at least {first + per_process} visible GPUs. "
        "Start fewer processes per node, or lower K in local_rank:K."
    )
    return ids


def local_rank_note(visible_device_list: object) -> str:
    """Why a resolved ``"local_rank"`` list asks for these GPUs ("" if it did not come from one)."""
    if not isinstance(visible_device_list, str):
        return ""
    return _NOTES.get(visible_device_list, "")
