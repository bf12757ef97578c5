"""Session.run throughput with the drop-in installed vs without, measured in one process.

Nothing of the shim sits on the ``run`` path (it wraps session creation only), so the ratio
should be 1 within noise.  Repetitions interleave: uninstall, time a session made without the
shim; install, time a session made with it; repeat, and compare medians.

    python bench/dropin_bench.py [--reps 15] [--runs 2000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=15)
    parser.add_argument("--runs", type=int, default=2000, help="sess.run calls per repetition")
    ns = parser.parse_args()

    import tensorflow as tf

    import tfcompat_gpu

    tf.compat.v1.disable_eager_execution()
    x = tf.compat.v1.placeholder(tf.float32, shape=[4])
    y = tf.reduce_sum(x * 2.0 + 1.0)
    feed = {x: [1.0, 2.0, 3.0, 4.0]}

    plain = tf.compat.v1.Session()
    tfcompat_gpu.install()
    shimmed = tf.compat.v1.Session()

    def rate(sess: object) -> float:
        run = sess.run  # type: ignore[attr-defined]
        for _ in range(50):
            run(y, feed_dict=feed)
        start = time.perf_counter()
        for _ in range(ns.runs):
            run(y, feed_dict=feed)
        return ns.runs / (time.perf_counter() - start)

    without, with_shim = [], []
    for _ in range(ns.reps):
        tfcompat_gpu.uninstall()
        without.append(rate(plain))
        tfcompat_gpu.install()
        with_shim.append(rate(shimmed))
    tfcompat_gpu.uninstall()

    a, b = statistics.median(without), statistics.median(with_shim)
    print(f"TensorFlow {tf.__version__}, {ns.reps} interleaved repetitions of {ns.runs} sess.run")
    print(f"  without the shim: {a:10.0f} runs/s (median)")
    print(f"  with the shim:    {b:10.0f} runs/s (median)")
    print(f"  ratio with/without: {b / a:.3f}")


if __name__ == "__main__":
    main()
