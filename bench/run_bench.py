"""What ``tfcompat-gpu run`` adds to a script's start, measured side by side in one run.

Each script is started as ``python script.py`` and as ``tfcompat-gpu run script.py`` (no
flags: auto mode reads it first), interleaved round by round so that a busy machine slows both
alike; the medians of wall time and of the child's CPU time (user + system, less disturbed by
other processes) are printed with their ratio.  Python's bytecode is cached (in a temporary
``PYTHONPYCACHEPREFIX``, written by a warm-up start), as for an installed package;
``--from-source`` compiles every module at every start instead, as under
``PYTHONDONTWRITEBYTECODE=1`` in a source checkout.  Scripts:

* ``empty.py``: the runner's own start-up (ms);
* ``tf_script.py``: imports TensorFlow and runs one op (the target: run/python <= 1.02);
* ``tf1_script.py``: TF1 graph code that auto mode runs with the v1 API, against the same
  code written with ``tf.compat.v1`` under plain Python (the v1 switch's cost).

The last lines put the scripts' ratios side by side.  ``--baseline DIR`` adds the runner of
another checkout (an older commit, unpacked with ``git archive``) as a third variant in the
same rounds, for a before/after measured under the same load.  The load average (Linux) is
printed before and after: the machine's other work slows every variant, not always alike.

    python bench/run_bench.py [--rounds 5] [--from-source] [--only empty.py] [--baseline DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {
    **os.environ,
    "TF_CPP_MIN_LOG_LEVEL": "3",
    "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
}
ENV = {
    k: v
    for k, v in ENV.items()
    if not k.startswith("TFCOMPAT_GPU_")
    and k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")
}

TF = "import tensorflow as tf\nprint(float(tf.constant(1.0) + 1.0))\n"
TF1 = """import tensorflow as tf
x = tf.placeholder(tf.float32, [2])
with tf.Session() as sess:
    print(sess.run(x * 2.0, {x: [1.0, 2.0]}))
"""
TF1_AS_V1 = TF1.replace(
    "import tensorflow as tf", "import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()"
)


def _time(command: list[str], cwd: str, env: dict[str, str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=env, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def _load() -> str:
    try:
        with open("/proc/loadavg", encoding="ascii") as handle:
            return " ".join(handle.read().split()[:3])
    except OSError:
        return "unknown"


def _with_root(env: dict[str, str], root: Path) -> dict[str, str]:
    return {**env, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="starts per variant and script")
    parser.add_argument(
        "--from-source", action="store_true", help="no bytecode cache: compile at every start"
    )
    parser.add_argument(
        "--only", metavar="SCRIPT", action="append", help="run only this script (repeatable)"
    )
    parser.add_argument(
        "--baseline",
        metavar="DIR",
        type=Path,
        help="also time the runner of the checkout in DIR (before/after in the same rounds)",
    )
    ns = parser.parse_args(argv)
    run = [sys.executable, "-m", "tfcompat_gpu", "run"]
    print(f"load average before: {_load()}", flush=True)
    summary: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(ENV)
        if ns.from_source:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        else:
            env["PYTHONPYCACHEPREFIX"] = str(Path(tmp, "pycache"))
        Path(tmp, "empty.py").write_text("pass\n")
        Path(tmp, "tf_script.py").write_text(TF)
        Path(tmp, "tf1_script.py").write_text(TF1)
        Path(tmp, "tf1_as_v1.py").write_text(TF1_AS_V1)
        cases = [
            ("empty.py", [sys.executable, "empty.py"], [*run, "empty.py"], 1e3),
            ("tf_script.py", [sys.executable, "tf_script.py"], [*run, "tf_script.py"], 1.0),
            ("tf1_script.py", [sys.executable, "tf1_as_v1.py"], [*run, "tf1_script.py"], 1.0),
        ]
        for name, python, runner, unit in cases:
            if ns.only and name not in ns.only:
                continue
            variants = {"python": (python, env), "tfcompat-gpu run": (runner, env)}
            if ns.baseline is not None:
                variants["run (baseline)"] = (runner, _with_root(env, ns.baseline.resolve()))
            walls: dict[str, list[float]] = {k: [] for k in variants}
            cpus: dict[str, list[float]] = {k: [] for k in variants}
            for command, its_env in variants.values():  # warm the file cache once
                _time(command, tmp, its_env)
            for _ in range(ns.rounds):
                for key, (command, its_env) in variants.items():
                    wall, cpu = _time(command, tmp, its_env)
                    walls[key].append(wall)
                    cpus[key].append(cpu)
            label = "ms" if unit == 1e3 else "s"
            how = "from source" if ns.from_source else "bytecode cached"
            print(f"== {name}: median of {ns.rounds} interleaved starts ({how}) [min-max]")
            for key in variants:
                w, c = walls[key], cpus[key]
                print(
                    f"  {key:<18} wall {statistics.median(w) * unit:9.3f} {label} "
                    f"[{min(w) * unit:.3f}-{max(w) * unit:.3f}]   "
                    f"cpu {statistics.median(c) * unit:9.3f} {label} "
                    f"[{min(c) * unit:.3f}-{max(c) * unit:.3f}]"
                )
            for key in variants:
                if key == "python":
                    continue
                parts = []
                for what, data in (("wall", walls), ("cpu", cpus)):
                    ours = statistics.median(data[key])
                    theirs = statistics.median(data["python"])
                    print(
                        f"  {what}: {key} added {(ours - theirs) * 1e3:7.1f} ms; "
                        f"ratio {key}/python {ours / theirs:.3f}"
                    )
                    parts.append(f"{what} {ours / theirs:.3f} ({(ours - theirs) * 1e3:+.1f} ms)")
                summary.append(f"  {name:<14} {key:<18} " + "   ".join(parts))
    print(f"== run/python, side by side (medians of {ns.rounds}; target for tf_script.py <= 1.02)")
    print("\n".join(summary))
    print(f"load average after: {_load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
