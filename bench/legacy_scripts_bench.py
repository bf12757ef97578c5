"""How many Keras 2 / TF1 scripts run on today's stack after ``migrate --write`` and after
``tf_upgrade_v2``, and how long each tool takes.

The scripts are the test set ``tests/codemod/legacy_scripts/`` (small programs in the shape of
public Keras 2 and TF1 code: mnist/cifar examples, ``set_session`` GPU setup,
``fit_generator``, ``decay=`` optimizers, ``tf.Session`` loops).  Each tool rewrites a copy of
the folder; every rewritten script then runs with plain ``python`` (two at a time; the ones
``migrate`` warns need tf_keras run with ``TF_USE_LEGACY_KERAS=1``, for both tools).  Times
are the median of ``--repeat`` runs of the whole process (wall and CPU).

Usage: python bench/legacy_scripts_bench.py [--repeat 3] [--no-run]
Target: migrate >= 3x faster than tf_upgrade_v2 (wall), and more scripts running.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lint_bench import time_process

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "tests" / "codemod" / "legacy_scripts"
NEEDS_TF_KERAS = {"tf1_layers_losses.py", "tf1_rnn_cell.py"}


def _env(name: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TFCOMPAT_GPU_")}
    env["TF_CPP_MIN_LOG_LEVEL"] = "3"
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    if name in NEEDS_TF_KERAS:
        env["TF_USE_LEGACY_KERAS"] = "1"
    return env


def _runs(path: Path) -> bool:
    done = subprocess.run(
        [sys.executable, path.name],
        cwd=path.parent,
        env=_env(path.name),
        capture_output=True,
        timeout=300,
        check=False,
    )
    return done.returncode == 0


def run_all(folder: Path) -> list[str]:
    """The names of the scripts of ``folder`` that run."""
    paths = sorted(folder.glob("*.py"))
    with ThreadPoolExecutor(max_workers=2) as pool:
        ok = list(pool.map(_runs, paths))
    return [path.name for path, good in zip(paths, ok) if good]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-run", action="store_true", help="time the tools only")
    parser.add_argument(
        "--tf-upgrade", default=str(Path(sys.executable).with_name("tf_upgrade_v2"))
    )
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="legacy_scripts_bench_"))
    try:
        ours = work / "migrate"
        theirs = work / "tf_upgrade_v2"

        def fresh() -> None:
            shutil.rmtree(ours, ignore_errors=True)
            shutil.copytree(SCRIPTS, ours)

        walls, cpus = [], []
        for _ in range(args.repeat):
            fresh()
            wall, cpu = time_process(
                [sys.executable, "-m", "tfcompat_gpu", "migrate", "--write", "-j1", str(ours)], 1
            )
            walls.append(wall)
            cpus.append(cpu)
        migrate_wall, migrate_cpu = sorted(walls)[len(walls) // 2], sorted(cpus)[len(cpus) // 2]
        upgrade_wall, upgrade_cpu = time_process(
            [
                args.tf_upgrade,
                "--intree",
                str(SCRIPTS),
                "--outtree",
                str(theirs),
                "--reportfile",
                str(work / "report.txt"),
            ],
            args.repeat,
            cleanup=theirs,
        )
        count = len(list(SCRIPTS.glob("*.py")))
        print(f"{count} Keras 2 / TF1 scripts ({SCRIPTS.relative_to(ROOT)})")
        print(f"  migrate --write -j1: {migrate_wall:6.2f} s wall {migrate_cpu:6.2f} s CPU")
        print(f"  tf_upgrade_v2:       {upgrade_wall:6.2f} s wall {upgrade_cpu:6.2f} s CPU")
        print(
            f"  migrate is {upgrade_wall / migrate_wall:.1f}x faster (wall), "
            f"{upgrade_cpu / migrate_cpu:.1f}x (CPU)"
        )
        if not args.no_run:
            for name, folder in (("migrate --write", ours), ("tf_upgrade_v2", theirs)):
                good = run_all(folder)
                print(f"  run with plain python after {name}: {len(good)} of {count}")
                for script in sorted(p.name for p in folder.glob("*.py")):
                    if script not in good:
                        print(f"    fails: {script}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
