"""What ``tfcompat_gpu.strategy()`` adds over building the same strategy directly.

    python bench/strategy_bench.py [--rounds N]

Each case is a whole process (interpreter start, ``import tensorflow``, device configuration,
the strategy, one step run under it), timed from outside; the direct and the ``strategy()``
variant of a case run interleaved (ABBA), and medians are compared. Target: ratio <= 1.05.
Cases: MirroredStrategy over two logical CPUs, MirroredStrategy over two of four simulated GPUs
(TensorFlow's configuration path only, see tests/simgpu.py), and the default strategy.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
ENV = {
    **os.environ,
    "TF_CPP_MIN_LOG_LEVEL": "3",
    "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")]),
}

_RUN_CPU = """
@tf.function
def step():
    return s.run(lambda: tf.constant(1.0) * 2.0)
s.experimental_local_results(step())
assert s.num_replicas_in_sync == 2
"""

CASES: dict[str, tuple[str, str]] = {
    "MirroredStrategy, 2 logical CPUs": (
        """
import tensorflow as tf
cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"],
                                   cross_device_ops=tf.distribute.ReductionToOneDevice())
"""
        + _RUN_CPU,
        """
import tfcompat_gpu
tfcompat_gpu.configure(device_count={"CPU": 2})
s = tfcompat_gpu.strategy(devices=["/cpu:0", "/cpu:1"])
import tensorflow as tf
"""
        + _RUN_CPU,
    ),
    "MirroredStrategy, 2 of 4 simulated GPUs": (
        """
from simgpu import simulate_gpus
gpus = simulate_gpus(4)
import tensorflow as tf
tf.config.set_visible_devices(gpus[1:3], "GPU")
for gpu in gpus[1:3]:
    tf.config.experimental.set_memory_growth(gpu, True)
s = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"],
                                   cross_device_ops=tf.distribute.NcclAllReduce(num_packs=1))
assert s.num_replicas_in_sync == 2
""",
        """
from simgpu import simulate_gpus
simulate_gpus(4)
import tfcompat_gpu
tfcompat_gpu.configure(visible_device_list="1,2", allow_growth=True)
s = tfcompat_gpu.strategy()
assert s.num_replicas_in_sync == 2
""",
    ),
    "default strategy, one device": (
        """
import tensorflow as tf
s = tf.distribute.get_strategy()
tf.constant(1.0) * 2.0
""",
        """
import tfcompat_gpu
s = tfcompat_gpu.strategy()
import tensorflow as tf
tf.constant(1.0) * 2.0
""",
    ),
}


def _time(code: str) -> float:
    start = time.perf_counter()
    # TensorFlow's C++ start-up lines go to stderr whatever TF_CPP_MIN_LOG_LEVEL says.
    subprocess.run([sys.executable, "-c", code], check=True, env=ENV, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def measure(direct: str, ours: str, rounds: int) -> tuple[float, float]:
    plain: list[float] = []
    wrapped: list[float] = []
    for i in range(rounds):
        pair = [(direct, plain), (ours, wrapped)]
        for code, into in pair if i % 2 else pair[::-1]:
            into.append(_time(code))
    return statistics.median(plain), statistics.median(wrapped)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8, help="processes per variant and case")
    args = parser.parse_args(argv)
    print(
        f"== strategy() vs the same strategy built directly (whole process, median of "
        f"{args.rounds}, interleaved)"
    )
    for name, (direct, ours) in CASES.items():
        plain, wrapped = measure(direct, ours, args.rounds)
        print(
            f"{name:<40} direct {plain * 1e3:8.0f} ms   strategy() {wrapped * 1e3:8.0f} ms   "
            f"ratio {wrapped / plain:.3f}   target <= 1.05",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
