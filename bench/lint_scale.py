"""How ``check`` scales with the size of one file: every rule's own example, repeated.

For each rule with an example (``tfcompat-gpu explain CODE`` shows it), two files are made: the
example repeated ``N`` times at module level, and ``N`` functions each holding it; then the same
with ``4 * N``.  Rules that pair statements (two sessions, memory growth and a limit, a variable
set after the GPUs were listed and a child process started) must stay near linear: the ratio of
the two CPU times is about 4 for linear work and about 16 for quadratic work.

Usage: python bench/lint_scale.py [--n 500] [--rules TFG005,TFG022]
Target: every ratio <= 8 (anything above is reported as QUADRATIC).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import textwrap
import time
from pathlib import Path

HEADER = (
    "import os\nimport subprocess\nimport multiprocessing\nimport tensorflow as tf\n"
    "import keras\nfrom keras import backend as K\nimport horovod.tensorflow as hvd\n"
    "from keras.backend.tensorflow_backend import set_session\n"
    "gpus = tf.config.list_physical_devices('GPU')\n"
)


def sources(example: str, n: int) -> dict[str, str]:
    body = example.rstrip("\n") + "\n"
    funcs = "".join(f"def f{i}():\n" + textwrap.indent(body, "    ") for i in range(n))
    return {"flat": HEADER + body * n, "funcs": HEADER + funcs}


def cpu_time(path: Path) -> tuple[float, int]:
    from tfcompat_gpu.lint.api import check

    start = time.process_time()
    report = check(str(path))
    return time.process_time() - start, len(report.findings)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=500, help="repetitions of the smaller file")
    parser.add_argument("--rules", help="comma-separated codes (default: every rule)")
    args = parser.parse_args(argv)
    from tfcompat_gpu.lint.registry import RULES

    wanted = set(args.rules.split(",")) if args.rules else None
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for rule in RULES:
            if (wanted and rule.code not in wanted) or not rule.example:
                continue
            for shape in ("flat", "funcs"):
                times = []
                for n in (args.n, 4 * args.n):
                    text = sources(rule.example, n)[shape]
                    try:
                        compile(text, rule.code, "exec")
                    except SyntaxError:
                        break  # an example of unparsable code (TFG000)
                    path = Path(tmp) / f"{rule.code}_{shape}_{n}.py"
                    path.write_text(text)
                    times.append(cpu_time(path))
                if len(times) < 2:
                    continue
                (small, _), (large, found) = times
                ratio = large / max(small, 1e-3)
                worst = max(worst, ratio)
                flag = "QUADRATIC" if ratio > 8 else "ok"
                print(
                    f"{rule.code} {shape:5}  {small:6.2f} s -> {large:6.2f} s  "
                    f"x{ratio:5.1f}  ({found} findings)  {flag}",
                    flush=True,
                )
    print(f"worst ratio for 4x the statements: {worst:.1f} (target <= 8)")
    return 0 if worst <= 8 else 1


if __name__ == "__main__":
    sys.exit(main())
