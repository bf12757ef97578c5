"""What ``tfcompat-gpu run`` adds to a script's wall time, measured side by side in one run.

Three ways to start the same script, interleaved round by round (machines are noisy; medians):
``python script.py``, ``tfcompat-gpu run script.py`` (no ``--legacy-keras``: the legacy-Keras
finder, the hints and the children's hand-over cost nothing until used) and, where tf_keras is
installed, ``tfcompat-gpu run --legacy-keras script.py`` for reference (it imports tf_keras
instead of Keras 3, a different amount of work).  Two scripts: an empty one (the runner's own
start-up, in ms) and a small Keras one (TensorFlow and Keras imported, a model built and called).

    python bench/run_bench.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
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
ENV = {k: v for k, v in ENV.items() if not k.startswith("TFCOMPAT_GPU_")}

KERAS = """
import numpy as np
import tensorflow as tf
import keras
model = keras.Sequential([keras.layers.Dense(4, activation="relu"), keras.layers.Dense(1)])
print(float(np.asarray(model(np.ones((2, 3), dtype="float32"))).sum()) is not None)
"""


def _time(command: list[str], cwd: str) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=ENV, check=True, capture_output=True)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="starts per variant and script")
    ns = parser.parse_args(argv)
    legacy = importlib.util.find_spec("tf_keras") is not None
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "empty.py").write_text("pass\n")
        Path(tmp, "keras_script.py").write_text(KERAS)
        run = [sys.executable, "-m", "tfcompat_gpu", "run"]
        for script, unit in (("empty.py", 1e3), ("keras_script.py", 1.0)):
            variants = {
                "python": [sys.executable, script],
                "tfcompat-gpu run": [*run, script],
            }
            if legacy and script != "empty.py":
                variants["run --legacy-keras"] = [*run, "--legacy-keras", script]
            times: dict[str, list[float]] = {name: [] for name in variants}
            for command in variants.values():  # warm the file cache once
                _time(command, tmp)
            for _ in range(ns.rounds):
                for name, command in variants.items():
                    times[name].append(_time(command, tmp))
            medians = {name: statistics.median(values) for name, values in times.items()}
            label = "ms" if unit == 1e3 else "s"
            print(f"== {script}: median of {ns.rounds} interleaved starts")
            for name, value in medians.items():
                print(f"  {name:<20} {value * unit:9.2f} {label}")
            added = medians["tfcompat-gpu run"] - medians["python"]
            ratio = medians["tfcompat-gpu run"] / medians["python"]
            print(f"  run added {added * 1e3:.1f} ms; ratio run/python {ratio:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
