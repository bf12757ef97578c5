"""Latency of ``tfcompat-gpu plan`` against the cost of importing TensorFlow, in one run.

Each round runs, interleaved: ``tfcompat-gpu plan`` on a described 4-GPU machine (the whole
command: parent, child with TensorFlow's configuration modules, answer), a bare
``python -c "import tensorflow"``, and a bare interpreter.  Wall time (median and best) and the
CPU time of the process tree (user + system, from ``resource``) are printed, with the ratio of
``plan`` to ``import tensorflow``.

Usage: python bench/plan_bench.py [--rounds 5]
Target: plan answers in under 3 s on a 2-CPU machine (wall, median).  Other work on the
machine inflates wall time; the CPU time shows what the command itself costs.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", "PYTHONPATH": str(ROOT)}
ENV.pop("CUDA_VISIBLE_DEVICES", None)

COMMANDS = {
    "plan": [
        sys.executable,
        "-m",
        "tfcompat_gpu",
        "plan",
        "--gpus",
        "4",
        "--gpu-memory",
        "16GiB",
        "--cuda-visible-devices",
        "2,3",
        "--memory-limit-mb",
        "2048,2048",
        "--format",
        "json",
    ],
    "import tensorflow": [sys.executable, "-c", "import tensorflow"],
    "bare python": [sys.executable, "-c", "pass"],
}


def _run(argv: list[str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, check=True, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    walls: dict[str, list[float]] = {name: [] for name in COMMANDS}
    cpus: dict[str, list[float]] = {name: [] for name in COMMANDS}
    _run(COMMANDS["plan"])  # warm the file cache once, as any second call would find it
    for _ in range(args.rounds):
        for name, argv in COMMANDS.items():
            wall, cpu = _run(argv)
            walls[name].append(wall)
            cpus[name].append(cpu)
    print(f"CPUs: {os.cpu_count()}, load average: {os.getloadavg()[0]:.2f}, rounds: {args.rounds}")
    for name in COMMANDS:
        print(
            f"{name:<18} wall median {statistics.median(walls[name]):6.2f} s  best "
            f"{min(walls[name]):6.2f} s   cpu median {statistics.median(cpus[name]):6.2f} s"
        )
    ratio = statistics.median(walls["plan"]) / statistics.median(walls["import tensorflow"])
    cpu_ratio = statistics.median(cpus["plan"]) / statistics.median(cpus["import tensorflow"])
    print(f"plan / import tensorflow: wall {ratio:.2f}x, cpu {cpu_ratio:.2f}x")
    median = statistics.median(walls["plan"])
    print(f"target plan < 3 s wall: {'met' if median < 3 else 'NOT met'} ({median:.2f} s median)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
