"""Benchmark of ``tfcompat-gpu check`` against ``tf_upgrade_v2`` and against ``ast.parse``.

Generates a tree of realistic legacy files (TF1 sessions and ConfigProto, Keras ``set_session``,
``tf.config`` code, model code around them), then measures, in one run:

* whole process vs whole process: ``tfcompat-gpu check TREE`` (default workers, and ``-j1``)
  against ``tf_upgrade_v2 --intree TREE --outtree OUT --reportfile R`` (median of ``--repeat``
  runs);
* in process vs in process: ``tfcompat_gpu.lint.api.check([TREE])`` (discovery, reading,
  parsing, every rule) against ``ast.parse`` of the same sources already in memory (best of
  ``--repeat`` runs, the usual way to time short in-process work).

Usage: python bench/lint_bench.py [--files 200] [--repeat 3] [--keep DIR]
Targets: lint process >= 30x faster than tf_upgrade_v2; lint in process <= 3x ast.parse.
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HEADERS = [
    "import os\nimport numpy as np\nimport tensorflow as tf\n"
    "from keras.backend.tensorflow_backend import set_session\n",
    "import os\nimport tensorflow as tf\nimport keras.backend as K\n",
    "import os\nimport numpy as np\nimport tensorflow as tf\n",
    "import os\nimport tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\n",
]

TF1_SESSION = '''
def make_session_{i}(fraction={fraction}, growth=True):
    """Create a session that takes {fraction:.0%} of the GPU."""
    config = tf.ConfigProto(allow_soft_placement=True, log_device_placement=False)
    config.gpu_options.allow_growth = growth
    config.gpu_options.per_process_gpu_memory_fraction = fraction
    config.gpu_options.visible_device_list = "{gpu}"
    config.intra_op_parallelism_threads = {threads}
    config.inter_op_parallelism_threads = {threads}
    return tf.Session(config=config)
'''

KERAS_SESSION = """
def setup_keras_{i}():
    os.environ["CUDA_VISIBLE_DEVICES"] = "{gpu}"
    gpu_options = tf.GPUOptions(allow_growth=True, per_process_gpu_memory_fraction={fraction})
    sess = tf.Session(config=tf.ConfigProto(gpu_options=gpu_options))
    {setter}(sess)
    return sess
"""

TF2_CONFIG = """
def configure_gpus_{i}(limit_mb={limit}):
    gpus = tf.config.experimental.list_physical_devices("GPU")
    if not gpus:
        return []
    try:
        for gpu in gpus:
            tf.config.experimental.set_memory_growth(gpu, True)
        tf.config.threading.set_intra_op_parallelism_threads({threads})
        logical = tf.config.experimental.list_logical_devices("GPU")
        print(len(gpus), "Physical GPUs,", len(logical), "Logical GPUs")
    except RuntimeError as exc:
        print(exc)
    return gpus
"""

MODEL = '''
class Model{i}(object):
    """A small graph-mode model: placeholders, variables and a training loop."""

    def __init__(self, n_in={n_in}, n_hidden={hidden}, n_out=10, learning_rate={lr}):
        self.n_in = n_in
        self.n_hidden = n_hidden
        self.n_out = n_out
        self.learning_rate = learning_rate
        self.graph = tf.Graph()
        with self.graph.as_default(), tf.device("/gpu:{gpu}"):
            self.x = tf.placeholder(tf.float32, [None, n_in], name="x")
            self.y = tf.placeholder(tf.int64, [None], name="y")
            w1 = tf.Variable(tf.truncated_normal([n_in, n_hidden], stddev=0.1))
            b1 = tf.Variable(tf.zeros([n_hidden]))
            hidden = tf.nn.relu(tf.matmul(self.x, w1) + b1)
            w2 = tf.Variable(tf.truncated_normal([n_hidden, n_out], stddev=0.1))
            b2 = tf.Variable(tf.zeros([n_out]))
            self.logits = tf.matmul(hidden, w2) + b2
            self.loss = tf.reduce_mean(
                tf.nn.sparse_softmax_cross_entropy_with_logits(labels=self.y, logits=self.logits)
            )
            self.train_op = tf.train.AdamOptimizer(learning_rate).minimize(self.loss)
            self.accuracy = tf.reduce_mean(
                tf.cast(tf.equal(tf.argmax(self.logits, 1), self.y), tf.float32)
            )
            self.init = tf.global_variables_initializer()

    def batches(self, data, labels, batch_size=128):
        order = np.random.permutation(len(data))
        for start in range(0, len(data), batch_size):
            idx = order[start : start + batch_size]
            yield data[idx], labels[idx]

    def fit(self, sess, data, labels, epochs={epochs}):
        sess.run(self.init)
        history = []
        for epoch in range(epochs):
            losses = []
            for xb, yb in self.batches(data, labels):
                _, loss = sess.run([self.train_op, self.loss], feed_dict={{self.x: xb, self.y: yb}})
                losses.append(loss)
            acc = sess.run(self.accuracy, feed_dict={{self.x: data, self.y: labels}})
            history.append((epoch, float(np.mean(losses)), float(acc)))
            if epoch % 5 == 0:
                print("epoch %d loss %.4f acc %.3f" % history[-1])
        return history

    def evaluate(self, sess, data, labels):
        total, correct = 0, 0.0
        for xb, yb in self.batches(data, labels, batch_size=512):
            correct += sess.run(self.accuracy, feed_dict={{self.x: xb, self.y: yb}}) * len(xb)
            total += len(xb)
        return correct / max(total, 1)
'''

MAIN = """

def load_data(n={n}, n_in={n_in}, seed={i}):
    rng = np.random.RandomState(seed)
    data = rng.randn(n, n_in).astype("float32")
    labels = (data[:, 0] > 0).astype("int64") + (data[:, 1] > 0).astype("int64")
    split = int(n * 0.8)
    return (data[:split], labels[:split]), (data[split:], labels[split:])


if __name__ == "__main__":
    (train_x, train_y), (test_x, test_y) = load_data()
    model = Model{i}()
    with make_session_{i}() as sess:
        history = model.fit(sess, train_x, train_y)
        print("test accuracy", model.evaluate(sess, test_x, test_y))
"""


def generate(root: Path, files: int, seed: int = 0) -> list[Path]:
    rng = random.Random(seed)
    paths = []
    for n in range(files):
        header = HEADERS[n % len(HEADERS)]
        setter = "set_session" if "set_session" in header else "K.set_session"
        parts = [f'"""Training script {n}: legacy TF1 GPU configuration."""\n', header]
        if "np" not in header:
            parts.append("import numpy as np\n")
        for i in range(n * 10, n * 10 + 3):
            values = dict(
                i=i,
                fraction=rng.choice([0.3, 0.5, 0.8, 1.2]),
                gpu=rng.choice(["0", "1", "0,1"]),
                threads=rng.choice([1, 2, 4, 8]),
                limit=rng.choice([1024, 2048, 4096]),
                setter=setter,
                n_in=rng.choice([32, 64, 128]),
                hidden=rng.choice([64, 256]),
                lr=rng.choice([0.001, 0.01]),
                epochs=rng.choice([5, 10, 20]),
                n=1000 + i,
            )
            parts += [
                TF1_SESSION.format(**values),
                KERAS_SESSION.format(**values),
                TF2_CONFIG.format(**values),
                MODEL.format(**values),
            ]
        parts.append(MAIN.format(**values))
        path = root / f"pkg{n % 10}" / f"train_{n:03d}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(parts))
        paths.append(path)
    return paths


def time_process(argv: list[str], repeat: int, cleanup: Path | None = None) -> tuple[float, float]:
    """Median wall-clock and median CPU seconds (user + system, workers included) of a command.

    CPU time is shown beside wall time because it hardly moves when other jobs share the
    machine, while wall time of a one-second process does.
    """
    walls, cpus = [], []
    for _ in range(repeat):
        if cleanup is not None:
            shutil.rmtree(cleanup, ignore_errors=True)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run(argv, capture_output=True)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if proc.returncode not in (0, 1):
            sys.exit(f"{argv[0]} failed ({proc.returncode}):\n{proc.stderr.decode()[-2000:]}")
    return statistics.median(walls), statistics.median(cpus)


def best(func: object, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", help="generate the tree here and keep it")
    parser.add_argument(
        "--tf-upgrade", default=str(Path(sys.executable).with_name("tf_upgrade_v2"))
    )
    parser.add_argument("--lint", default=str(Path(sys.executable).with_name("tfcompat-gpu")))
    args = parser.parse_args()

    work = Path(args.keep or tempfile.mkdtemp(prefix="lint-bench-"))
    tree = work / "tree"
    shutil.rmtree(tree, ignore_errors=True)
    paths = generate(tree, args.files)
    sources = [p.read_text() for p in paths]
    lines = sum(s.count("\n") for s in sources)
    print(f"tree: {len(paths)} files, {lines} lines ({lines // len(paths)} per file) in {tree}")

    from tfcompat_gpu.lint.api import check

    report = check([str(tree)], select=["TFG"])
    print(
        f"findings: {len(report.findings)} "
        f"({', '.join(f'{c}:{n}' for c, _, n in report.statistics())})"
    )
    assert not any(f.code == "TFG000" for f in report.findings), "generated code must parse"

    # The CLI forks one worker per idle CPU by default; the single-process run is shown too.
    lint_wall, lint_cpu = time_process([args.lint, "check", "--isolated", str(tree)], args.repeat)
    serial_wall, serial_cpu = time_process(
        [args.lint, "check", "--isolated", "-j1", str(tree)], args.repeat
    )
    upgrade_wall, upgrade_cpu = time_process(
        [
            args.tf_upgrade,
            "--intree",
            str(tree),
            "--outtree",
            str(work / "out"),
            "--reportfile",
            str(work / "report.txt"),
        ],
        args.repeat,
        cleanup=work / "out",
    )

    def parse_all() -> None:
        for source, path in zip(sources, paths):
            ast.parse(source, str(path))

    parse_time = best(parse_all, args.repeat + 2)
    lint_time = best(lambda: check([str(tree)], select=["TFG"]), args.repeat + 2)

    speedup = upgrade_wall / lint_wall
    overhead = lint_time / parse_time
    n = args.repeat
    print(
        f"load average at the end:    {', '.join(f'{x:.2f}' for x in os.getloadavg())} "
        f"on {os.cpu_count()} CPUs"
    )
    print(
        f"tf_upgrade_v2 process:      {upgrade_wall:8.3f} s wall, {upgrade_cpu:7.3f} s CPU "
        f"(median of {n})"
    )
    print(
        f"tfcompat-gpu check process: {lint_wall:8.3f} s wall, {lint_cpu:7.3f} s CPU "
        f"(median of {n}, default workers)"
    )
    print(
        f"tfcompat-gpu check -j1:     {serial_wall:8.3f} s wall, {serial_cpu:7.3f} s CPU "
        f"(median of {n}, one process)"
    )
    print(f"ast.parse in process:       {parse_time:8.3f} s (best of {n + 2})")
    print(f"check() in process:         {lint_time:8.3f} s (best of {n + 2})")
    print(
        f"speed-up vs tf_upgrade_v2:  {speedup:8.1f}x wall (target >= 30x) "
        f"{'OK' if speedup >= 30 else 'MISSED'}; -j1: {upgrade_wall / serial_wall:.1f}x wall; "
        f"CPU time: {upgrade_cpu / serial_cpu:.1f}x"
    )
    print(
        f"check() / ast.parse:        {overhead:8.2f}x  (target <= 3x) "
        f"{'OK' if overhead <= 3 else 'MISSED'}"
    )
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if speedup >= 30 and overhead <= 3 else 1


if __name__ == "__main__":
    raise SystemExit(main())
