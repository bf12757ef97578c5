"""Benchmarks of the core facade, printed as ratios measured in one run.

    python bench/run.py            # core numbers, then the lint and drop-in benchmarks if present
    python bench/run.py --core     # core numbers only

Targets: ``import tfcompat_gpu`` adds < 30 ms to a bare interpreter and does not import
TensorFlow; ``tfcompat_gpu.session()`` costs <= 1.05x ``tf.compat.v1.Session()``.
Machines are noisy: runs are interleaved and medians compared, and the numbers are reported,
not asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
ENV = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", "PYTHONPATH": str(ROOT)}


def _time_process(code: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=ENV)
    return time.perf_counter() - start


def import_cost(rounds: int) -> dict[str, float]:
    bare, ours, first_use = [], [], []
    check = "import sys, tfcompat_gpu; assert 'tensorflow' not in sys.modules, 'TF imported'"
    use = (
        check
        + "; tfcompat_gpu.GPUConfig(allow_growth=True); assert 'tensorflow' not in sys.modules"
    )
    for _ in range(rounds):  # interleaved, so drift hits all three alike
        bare.append(_time_process("pass"))
        ours.append(_time_process(check))
        first_use.append(_time_process(use))
    b, o, f = statistics.median(bare), statistics.median(ours), statistics.median(first_use)
    return {
        "bare_ms": b * 1e3,
        "import_ms": o * 1e3,
        "added_ms": (o - b) * 1e3,
        "ratio": o / b,
        "first_use_added_ms": (f - b) * 1e3,
    }


_IN_TF = r"""
import json, statistics, time, sys
t0 = time.perf_counter()
import tensorflow as tf
t1 = time.perf_counter()
tf.compat.v1.disable_eager_execution()
import tfcompat_gpu
first = time.perf_counter()
tfcompat_gpu.configure(allow_growth=True, intra_op_parallelism_threads=2, inter_op_parallelism_threads=2)
first = time.perf_counter() - first
again = []
for _ in range(50):
    t = time.perf_counter()
    tfcompat_gpu.configure(allow_growth=True, intra_op_parallelism_threads=2)
    again.append(time.perf_counter() - t)
x = tf.constant(1.0) + 1.0
plain, ours = [], []
def batch(factory, into, n=50):
    total = 0.0
    for _ in range(n):
        t = time.perf_counter(); s = factory(); total += time.perf_counter() - t; s.close()
    into.append(total / n)
for i in range(ROUNDS // 50):  # short batches in ABBA order: drift hits both variants alike
    pair = [(tf.compat.v1.Session, plain), (tfcompat_gpu.session, ours)]
    for factory, into in (pair if i % 2 else pair[::-1]):
        batch(factory, into)
request = tfcompat_gpu.GPUConfig(log_device_placement=True)
proto = tf.compat.v1.ConfigProto(log_device_placement=True)
plain_cfg, ours_cfg = [], []
for i in range(ROUNDS // 50):
    pair = [(lambda: tf.compat.v1.Session(config=proto), plain_cfg), (lambda: tfcompat_gpu.session(request), ours_cfg)]
    for factory, into in (pair if i % 2 else pair[::-1]):
        batch(factory, into)
print(json.dumps({
    "session_cfg_plain_ms": statistics.median(plain_cfg) * 1e3,
    "session_cfg_ours_ms": statistics.median(ours_cfg) * 1e3,
    "tf_import_s": t1 - t0,
    "configure_first_ms": first * 1e3,
    "configure_again_ms": statistics.median(again) * 1e3,
    "session_plain_ms": statistics.median(plain) * 1e3,
    "session_ours_ms": statistics.median(ours) * 1e3,
}))
"""


def in_tensorflow(rounds: int) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", _IN_TF.replace("ROUNDS", str(rounds))],
        check=True,
        capture_output=True,
        text=True,
        env=ENV,
    ).stdout
    data: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    data["session_ratio"] = data["session_ours_ms"] / data["session_plain_ms"]
    data["configure_vs_tf_import"] = data["configure_first_ms"] / 1e3 / data["tf_import_s"]
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--core", action="store_true", help="core numbers only")
    parser.add_argument("--rounds", type=int, default=15, help="interpreter starts per variant")
    parser.add_argument("--sessions", type=int, default=2000, help="sessions per variant")
    args = parser.parse_args(argv)

    imp = import_cost(args.rounds)
    print(f"== import tfcompat_gpu (fresh interpreters, median of {args.rounds}, interleaved)")
    print(f"bare interpreter        {imp['bare_ms']:8.1f} ms")
    print(
        f"import tfcompat_gpu     {imp['import_ms']:8.1f} ms   (TensorFlow not imported: checked)"
    )
    print(
        f"added by the import     {imp['added_ms']:8.1f} ms   target < 30 ms   ratio {imp['ratio']:.3f}"
    )
    print(f"added incl. first use   {imp['first_use_added_ms']:8.1f} ms   (GPUConfig loaded)")

    tfn = in_tensorflow(args.sessions)
    print("== configure() and sessions (one process, TensorFlow imported once)")
    print(f"import tensorflow       {tfn['tf_import_s'] * 1e3:8.1f} ms")
    print(
        f"configure(), first      {tfn['configure_first_ms']:8.2f} ms   ratio to TF import {tfn['configure_vs_tf_import']:.4f}"
    )
    print(f"configure(), repeated   {tfn['configure_again_ms']:8.3f} ms")
    print(
        f"tf.compat.v1.Session()  {tfn['session_plain_ms']:8.3f} ms   (median of batch means, {args.sessions} sessions)"
    )
    print(f"tfcompat_gpu.session()  {tfn['session_ours_ms']:8.3f} ms")
    print(f"session ratio           {tfn['session_ratio']:8.3f}      target <= 1.05")
    ratio_cfg = tfn["session_cfg_ours_ms"] / tfn["session_cfg_plain_ms"]
    print(
        f"with a per-session config: Session(config=proto) {tfn['session_cfg_plain_ms']:.3f} ms, "
        f"session(GPUConfig) {tfn['session_cfg_ours_ms']:.3f} ms, ratio {ratio_cfg:.3f} "
        "(merges the process config and checks conflicts)"
    )

    if not args.core:
        for name in ("lint_bench.py", "dropin_bench.py", "run_bench.py", "strategy_bench.py"):
            script = HERE / name
            if script.exists():
                print(f"== {name}", flush=True)
                subprocess.run([sys.executable, str(script)], check=False, env=ENV)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
