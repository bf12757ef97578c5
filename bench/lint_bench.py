"""Benchmark of ``tfcompat-gpu check`` against ``tf_upgrade_v2`` and against ``ast.parse``.

Generates a tree of realistic legacy files (TF1 sessions and ConfigProto, Keras ``set_session``,
``tf.config`` code, model code around them), then measures, in one run:

* whole process vs whole process: ``tfcompat-gpu check -jN TREE`` (one worker per CPU, what the
  default gives on an idle machine, and ``-j1``)
  against ``tf_upgrade_v2 --intree TREE --outtree OUT --reportfile R`` (median of ``--repeat``
  runs);
* whole process vs whole process, what a user waits for: ``tfcompat-gpu check -jN TREE`` (one
  worker per CPU, what the default gives on an idle machine) against a Python process that reads and ``ast.parse``-s the same files (median of
  ``2 * --repeat + 1`` runs, in turns; wall clock, so it moves with other load);
* in process vs in process: ``check`` without a cache (discovery, reading, parsing, every
  rule) against ``ast.parse`` of the same sources already in memory (best of ``--repeat``
  runs, the usual way to time short in-process work);
* the same on a tree shaped like a large mixed repository (``--mixed`` files, two thirds of
  them PyTorch, NumPy and tooling code that names nothing a rule looks for): a cold ``check``
  (empty cache) and a warm one (cache filled, nothing changed) against ``ast.parse``.

The in-process timings are CPU times, interleaved (parse, cold, warm, parse, ...), so that load
from other work on the machine falls on all of them alike.

Usage: python bench/lint_bench.py [--files 200] [--mixed 900] [--repeat 3] [--keep DIR]
Targets: lint process >= 40x faster than tf_upgrade_v2; check <= 1.0x ast.parse on the
TensorFlow tree; mixed tree: cold check <= 0.5x ast.parse, warm check <= 0.1x cold.
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


OTHER_HEADERS = [
    "import os\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n",
    "import argparse\nimport json\nimport os\nfrom pathlib import Path\n\nimport numpy as np\n",
    "import logging\nimport os\nimport sys\n\nimport torch\nfrom torch.utils.data import Dataset\n",
]

TORCH_MODEL = '''
class Block{i}(nn.Module):
    """A residual block of the {i}th stage."""

    def __init__(self, channels={hidden}, dropout={lr}):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, kernel_size=3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, kernel_size=3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.dropout(out)
        out = self.bn2(self.conv2(out))
        return F.relu(out + x)


def train_{i}(model, loader, epochs={epochs}, device="cuda:0"):
    optimizer = torch.optim.Adam(model.parameters(), lr={lr})
    model.to(device)
    for epoch in range(epochs):
        total = 0.0
        for step, (xb, yb) in enumerate(loader):
            xb, yb = xb.to(device), yb.to(device)
            optimizer.zero_grad()
            loss = F.cross_entropy(model(xb), yb)
            loss.backward()
            optimizer.step()
            total += loss.item()
            if step % 100 == 0:
                print(f"epoch {{epoch}} step {{step}} loss {{total / (step + 1):.4f}}")
    return model
'''

TOOLING = """
def parse_args_{i}(argv=None):
    parser = argparse.ArgumentParser(description="Prepare split {i}.")
    parser.add_argument("--data", type=Path, default=Path("data") / "raw")
    parser.add_argument("--out", type=Path, default=Path(os.path.join("data", "split_{i}")))
    parser.add_argument("--seed", type=int, default={i})
    parser.add_argument("--ratio", type=float, default={lr})
    return parser.parse_args(argv)


def split_{i}(items, ratio={lr}, seed={i}):
    rng = np.random.RandomState(seed)
    order = rng.permutation(len(items))
    cut = int(len(items) * (1 - ratio))
    train = [items[k] for k in order[:cut]]
    test = [items[k] for k in order[cut:]]
    return train, test


def write_manifest_{i}(out, train, test):
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "manifest.json", "w") as handle:
        json.dump({{"train": len(train), "test": len(test), "files": train[:10]}}, handle)
    return out / "manifest.json"
"""


def generate_mixed(root: Path, files: int, seed: int = 1) -> list[Path]:
    """A large repository's shape: a third TensorFlow training code, two thirds not."""
    rng = random.Random(seed)
    tf_files = generate(root / "tf_models", files // 3, seed)
    paths = list(tf_files)
    for n in range(files - len(tf_files)):
        header = OTHER_HEADERS[n % len(OTHER_HEADERS)]
        parts = [f'"""Module {n} of the PyTorch side and its tooling."""\n', header]
        if "nn" not in header:
            parts.append("import torch.nn as nn\nimport torch.nn.functional as F\n")
        if "argparse" not in header:
            parts.append("import argparse\nimport json\nfrom pathlib import Path\n")
        if "numpy" not in header:
            parts.append("import numpy as np\n")
        for i in range(n * 10, n * 10 + 5):
            values = dict(
                i=i,
                hidden=rng.choice([64, 128, 256]),
                lr=rng.choice([0.001, 0.01, 0.1]),
                epochs=rng.choice([5, 10, 20]),
            )
            parts += [TORCH_MODEL.format(**values), TOOLING.format(**values)]
        path = root / f"torch_pkg{n % 20}" / f"module_{n:04d}.py"
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


# A whole process that reads and parses every ``.py`` file of a tree, nothing else: the
# baseline for the time a user waits for ``check`` (start-up and reading included on both sides).
_PARSE_PROCESS = (
    "import ast, os, sys\n"
    "for root, _, names in os.walk(sys.argv[1]):\n"
    "    for name in names:\n"
    "        if name.endswith('.py'):\n"
    "            path = os.path.join(root, name)\n"
    "            with open(path, 'rb') as handle:\n"
    "                ast.parse(handle.read(), path)\n"
)


def interleaved_processes(commands: dict[str, list[str]], repeat: int) -> dict[str, float]:
    """Median wall-clock seconds of each command, run in turns (a, b, a, b, ...)."""
    walls: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, argv in commands.items():
            start = time.perf_counter()
            proc = subprocess.run(argv, capture_output=True)
            walls[name].append(time.perf_counter() - start)
            if proc.returncode not in (0, 1):
                sys.exit(f"{argv[0]} failed ({proc.returncode}):\n{proc.stderr.decode()[-2000:]}")
    return {name: statistics.median(values) for name, values in walls.items()}


def _lint(tree: Path, cache: Path | None) -> object:
    from tfcompat_gpu.lint.paths import lint_paths

    return lint_paths(
        [str(tree)],
        select=["TFG"],
        use_config=False,
        jobs=1,
        cache_dir=None if cache is None else str(cache),
    )


def interleaved(funcs: dict[str, object], repeat: int) -> dict[str, float]:
    """Best CPU time of each function, run in turns (a, b, c, a, b, c, ...).

    CPU time of this process, not wall time: on a machine shared with other jobs, wall time
    of in-process work moves with their load, CPU time much less.
    """
    times: dict[str, list[float]] = {name: [] for name in funcs}
    for _ in range(repeat):
        for name, func in funcs.items():
            start = time.process_time()
            func()  # type: ignore[operator]
            times[name].append(time.process_time() - start)
    return {name: min(values) for name, values in times.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--mixed", type=int, default=900, help="files of the mixed tree")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", help="generate the trees here and keep them")
    parser.add_argument(
        "--tf-upgrade", default=str(Path(sys.executable).with_name("tf_upgrade_v2"))
    )
    parser.add_argument("--lint", default=str(Path(sys.executable).with_name("tfcompat-gpu")))
    args = parser.parse_args()

    work = Path(args.keep or tempfile.mkdtemp(prefix="lint-bench-"))
    tree = work / "tree"
    mixed = work / "mixed"
    shutil.rmtree(tree, ignore_errors=True)
    shutil.rmtree(mixed, ignore_errors=True)
    paths = generate(tree, args.files)
    sources = [p.read_text() for p in paths]
    lines = sum(s.count("\n") for s in sources)
    print(f"tree: {len(paths)} files, {lines} lines ({lines // len(paths)} per file) in {tree}")
    mixed_paths = generate_mixed(mixed, args.mixed)
    mixed_sources = [p.read_text() for p in mixed_paths]
    mixed_lines = sum(s.count("\n") for s in mixed_sources)
    print(
        f"mixed tree: {len(mixed_paths)} files ({args.mixed // 3} TensorFlow), "
        f"{mixed_lines} lines in {mixed}"
    )

    report = _lint(tree, None)
    print(
        f"findings: {len(report.findings)} "  # type: ignore[attr-defined]
        f"({', '.join(f'{c}:{n}' for c, _, n in report.statistics())})"  # type: ignore[attr-defined]
    )
    assert not any(f.code == "TFG000" for f in report.findings), "generated code must parse"  # type: ignore[attr-defined]

    # The CLI forks one worker per idle CPU by default; the single-process run is shown too.
    # Without an installed console script, the package this interpreter imports.
    lint = [args.lint] if os.path.exists(args.lint) else [sys.executable, "-m", "tfcompat_gpu"]
    base = [*lint, "check", "--isolated", "--no-cache"]
    # One worker per CPU, as the default gives on an idle machine: the default counts the load
    # average, which this benchmark's own processes (tf_upgrade_v2 runs for a minute) raise.
    workers = f"-j{os.cpu_count() or 1}"
    lint_wall, lint_cpu = time_process([*base, workers, str(tree)], args.repeat)
    serial_wall, serial_cpu = time_process([*base, "-j1", str(tree)], args.repeat)
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

    # What the user waits for: the check process with a worker per CPU against a process
    # that only parses the same files, in turns.
    waits = interleaved_processes(
        {
            "parse process": [sys.executable, "-c", _PARSE_PROCESS, str(tree)],
            "check process": [*base, workers, str(tree)],
        },
        2 * args.repeat + 1,
    )

    def parse(sources: list[str], paths: list[Path]) -> None:
        for source, path in zip(sources, paths):
            ast.parse(source, str(path))

    cache = work / "cache"
    warm_cache = work / "warm-cache"
    shutil.rmtree(warm_cache, ignore_errors=True)
    _lint(mixed, warm_cache)  # fill it

    def cold() -> None:
        shutil.rmtree(cache, ignore_errors=True)
        _lint(mixed, cache)

    best_of = args.repeat + 2
    timed = interleaved(
        {
            "parse": lambda: parse(sources, paths),
            "check": lambda: _lint(tree, None),
            "mixed parse": lambda: parse(mixed_sources, mixed_paths),
            "mixed cold": cold,
            "mixed warm": lambda: _lint(mixed, warm_cache),
        },
        best_of,
    )

    speedup = upgrade_wall / lint_wall
    overhead = timed["check"] / timed["parse"]
    cold_ratio = timed["mixed cold"] / timed["mixed parse"]
    warm_ratio = timed["mixed warm"] / timed["mixed cold"]
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
        f"(median of {n}, {workers}, --no-cache)"
    )
    print(
        f"tfcompat-gpu check -j1:     {serial_wall:8.3f} s wall, {serial_cpu:7.3f} s CPU "
        f"(median of {n}, one process, --no-cache)"
    )
    from tfcompat_gpu.lint.paths import default_jobs

    print(
        f"waiting for the whole process (median of {2 * n + 1}, in turns): parse "
        f"{waits['parse process']:.3f} s, check {waits['check process']:.3f} s wall "
        f"(-j{os.cpu_count() or 1}; the default would be {default_jobs()} now) = "
        f"{waits['check process'] / waits['parse process']:.2f}x"
    )
    print(f"in process, best of {best_of}, interleaved:")
    for name, seconds in timed.items():
        print(f"  {name + ':':<26}{seconds:8.3f} s")
    checks = [
        (
            f"speed-up vs tf_upgrade_v2:  {speedup:8.1f}x wall (target >= 40x); "
            f"-j1: {upgrade_wall / serial_wall:.1f}x wall; "
            f"CPU time: {upgrade_cpu / serial_cpu:.1f}x",
            speedup >= 40,
        ),
        (f"TF tree check / parse:      {overhead:8.2f}x  (target <= 1.0x)", overhead <= 1.0),
        (f"mixed cold check / parse:   {cold_ratio:8.2f}x  (target <= 0.5x)", cold_ratio <= 0.5),
        (f"mixed warm / cold check:    {warm_ratio:8.2f}x  (target <= 0.1x)", warm_ratio <= 0.1),
    ]
    for line, ok in checks:
        print(f"{line} {'OK' if ok else 'MISSED'}")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    raise SystemExit(main())
