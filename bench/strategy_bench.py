"""What ``tfcompat_gpu.strategy()`` adds over building the same strategy directly.

    python bench/strategy_bench.py [--rounds N] [--depths K]

Each case is a whole process (interpreter start, ``import tensorflow``, device configuration,
the strategy, one step run under it), timed from outside; the direct and the ``strategy()``
variant of a case run interleaved (ABBA); the ratio of the medians is the figure judged, the
ratio of the means is printed beside it. Target: ratio <= 1.05.
Cases: MirroredStrategy over two logical CPUs, MirroredStrategy over two of four simulated GPUs
(TensorFlow's configuration path only, see tests/simgpu.py), and the default strategy.

Each variant's code runs inside 0 to K-1 nested function calls, the same depths for both. On
CPython 3.11 and later, ``import tensorflow`` costs 0.2-0.5 s more when it starts at an unlucky
offset of the interpreter's frame stack: the stack grows in 16 KiB chunks, and TensorFlow's
extension modules call back into Python thousands of times at one depth; when that depth sits
on a chunk boundary, every callback maps and unmaps a chunk (seen with ``strace`` as tens of
thousands of 16 KiB ``mmap``/``munmap`` pairs).  Which offsets are unlucky follows the call
depth, not the code: the plain script hits it too at some depths.  A single depth would measure
that accident; the sweep measures both variants over the same spread of depths.

The package is byte-compiled first, as ``pip install`` leaves it (TensorFlow's own modules are),
so that neither variant pays for compiling source when ``PYTHONDONTWRITEBYTECODE`` is set.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import textwrap
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


def nested(code: str, depth: int) -> str:
    """``code`` run inside ``depth`` nested function calls (0: at module level)."""
    if depth == 0:
        return code
    body = textwrap.indent(code.strip("\n"), "    ")
    out = [f"def f1():\n{body}\n"]
    out += [f"def f{i}():\n    f{i - 1}()\n" for i in range(2, depth + 1)]
    return "".join(out) + f"f{depth}()\n"


def _time(code: str) -> float:
    start = time.perf_counter()
    # TensorFlow's C++ start-up lines go to stderr whatever TF_CPP_MIN_LOG_LEVEL says.
    subprocess.run([sys.executable, "-c", code], check=True, env=ENV, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def measure(direct: str, ours: str, rounds: int, depths: int) -> tuple[list[float], list[float]]:
    """Seconds of each variant's runs over ``rounds`` sweeps of the call depths, interleaved."""
    plain: list[float] = []
    wrapped: list[float] = []
    runs = 0
    for _ in range(rounds):
        for depth in range(depths):
            pair = [(nested(direct, depth), plain), (nested(ours, depth), wrapped)]
            for code, into in pair if runs % 2 else pair[::-1]:
                into.append(_time(code))
            runs += 1
    return plain, wrapped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2, help="sweeps of the depths per case")
    parser.add_argument(
        "--depths", type=int, default=6, help="call depths 0..K-1 for both variants"
    )
    args = parser.parse_args(argv)
    compileall.compile_dir(str(ROOT / "tfcompat_gpu"), quiet=1)
    print(
        f"== strategy() vs the same strategy built directly (whole process, "
        f"{args.rounds * args.depths} runs per variant: call depths 0-{args.depths - 1}, "
        f"{args.rounds} sweep(s), interleaved)"
    )
    worst = 0.0
    for name, (direct, ours) in CASES.items():
        plain, wrapped = measure(direct, ours, args.rounds, args.depths)
        by_median = statistics.median(wrapped) / statistics.median(plain)
        by_mean = statistics.fmean(wrapped) / statistics.fmean(plain)
        worst = max(worst, by_median)
        print(
            f"{name:<40} direct {statistics.median(plain) * 1e3:6.0f} ms   strategy() "
            f"{statistics.median(wrapped) * 1e3:6.0f} ms   ratio {by_median:.3f} (medians), "
            f"{by_mean:.3f} (means)   target <= 1.05",
            flush=True,
        )
    print(f"load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0 if worst <= 1.05 else 1


if __name__ == "__main__":
    raise SystemExit(main())
