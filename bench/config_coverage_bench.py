"""How much of a real-looking repository's ``ConfigProto`` code ``tfcompat-gpu migrate`` takes over.

Generates a tree shaped like a multi-project repository of TF1 training code (one folder per
model, each with training scripts, a ``utils`` module with a session-config factory, and model
code without GPU configuration), runs ``tfcompat-gpu migrate --write`` over it, and reports,
measured on the written files:

- the share of files that built a ``ConfigProto`` (or ``GPUOptions``) and no longer do;
- the warnings by the construct that stopped them (the ``[...]`` each warning ends with);
- per pattern: how many files of it came out without a ``ConfigProto``.

The patterns are written after the way public training scripts configure sessions (Horovod
scripts pinning one GPU per process under a flag, flag-driven growth, XLA and AMP flags,
``get_session_config()`` factories, Keras ``set_session``, Estimator ``RunConfig``, configs kept
on ``self``, ...); their weights are this benchmark's choice and are printed with the result, so
the share can be recomputed for another mix from the per-pattern lines.  Every number is read
from the migrated files and the warnings, none is assumed.

Usage: python bench/config_coverage_bench.py [--projects 8] [--keep DIR]
Target: >= 80% of the ConfigProto files come out without one.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_HEAD = '''\
"""{doc}"""
import argparse
import os

import tensorflow as tf

parser = argparse.ArgumentParser()
parser.add_argument("--use_horovod", action="store_true")
parser.add_argument("--allow_growth", action="store_true")
parser.add_argument("--memory_fraction", type=float, default=0.0)
parser.add_argument("--xla", action="store_true")
parser.add_argument("--amp", action="store_true")
parser.add_argument("--threads", type=int, default=0)
FLAGS = parser.parse_args()
'''

_MODEL = """

def build_model(inputs, num_classes={n}):
    net = tf.layers.conv2d(inputs, 32, 3, activation=tf.nn.relu)
    net = tf.layers.max_pooling2d(net, 2, 2)
    net = tf.layers.flatten(net)
    return tf.layers.dense(net, num_classes)
"""


def horovod_conditional(i: int) -> str:
    return (
        _HEAD.format(doc=f"Horovod training {i}")
        + _MODEL.format(n=10 + i)
        + """

def main():
    if FLAGS.use_horovod:
        import horovod.tensorflow as hvd
        hvd.init()
    config = tf.ConfigProto(allow_soft_placement=True)
    config.gpu_options.allow_growth = True
    if FLAGS.use_horovod:
        config.gpu_options.visible_device_list = str(hvd.local_rank())
    with tf.Session(config=config) as sess:
        sess.run(tf.global_variables_initializer())
"""
    )


def flag_growth(i: int) -> str:
    return (
        _HEAD.format(doc=f"Training with flag-driven GPU memory {i}")
        + """
gpu_options = tf.GPUOptions()
if FLAGS.allow_growth:
    gpu_options.allow_growth = True
elif FLAGS.memory_fraction > 0:
    gpu_options.per_process_gpu_memory_fraction = FLAGS.memory_fraction
config = tf.ConfigProto(gpu_options=gpu_options)
if FLAGS.threads:
    config.intra_op_parallelism_threads = FLAGS.threads
    config.inter_op_parallelism_threads = FLAGS.threads
sess = tf.Session(config=config)
sess.run(tf.global_variables_initializer())
"""
    )


def xla_amp(i: int) -> str:
    return (
        _HEAD.format(doc=f"Mixed-precision training {i}")
        + """
from tensorflow.core.protobuf import rewriter_config_pb2

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
if FLAGS.xla:
    config.graph_options.optimizer_options.global_jit_level = tf.OptimizerOptions.ON_1
if FLAGS.amp:
    config.graph_options.rewrite_options.auto_mixed_precision = (
        rewriter_config_pb2.RewriterConfig.ON
    )
sess = tf.Session(config=config)
sess.run(tf.global_variables_initializer())
"""
    )


def config_per_branch(i: int) -> str:
    return (
        _HEAD.format(doc=f"Training on GPU or CPU {i}")
        + """
if FLAGS.threads:
    config = tf.ConfigProto(intra_op_parallelism_threads=FLAGS.threads)
else:
    config = tf.ConfigProto(allow_soft_placement=True)
    config.gpu_options.allow_growth = True
sess = tf.Session(config=config)
sess.run(tf.global_variables_initializer())
"""
    )


def factory_two_sessions(i: int) -> str:
    return (
        _HEAD.format(doc=f"Train and evaluate {i}")
        + """

def get_session_config():
    config = tf.ConfigProto(allow_soft_placement=True)
    config.gpu_options.allow_growth = True
    return config


train_sess = tf.Session(config=get_session_config())
eval_sess = tf.Session(config=get_session_config())
train_sess.run(tf.global_variables_initializer())
eval_sess.close()
"""
    )


def factory_module(i: int) -> str:
    return f'''"""Session helpers {i}."""
import tensorflow as tf


def get_session_config(num_threads=0, gpu_fraction=0.0):
    gpu_options = tf.GPUOptions(allow_growth=True, allocator_type="BFC")
    config = tf.ConfigProto(gpu_options=gpu_options, allow_soft_placement=True)
    config.intra_op_parallelism_threads = num_threads
    return config
'''


def factory_caller(i: int) -> str:
    # no ConfigProto in it: not counted, but its session call is migrated
    return (
        _HEAD.format(doc=f"Script using the session helpers {i}")
        + """
from utils.session import get_session_config

sess = tf.Session(config=get_session_config(num_threads=FLAGS.threads))
sess.run(tf.global_variables_initializer())
"""
    )


def keras_set_session(i: int) -> str:
    return f'''"""Keras training {i}."""
import tensorflow as tf
from keras import backend as K

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.gpu_options.allocator_type = "BFC"
K.set_session(tf.Session(config=config))
'''


def estimator_run_config(i: int) -> str:
    return (
        _HEAD.format(doc=f"Estimator training {i}")
        + """
session_config = tf.ConfigProto(allow_soft_placement=True)
session_config.gpu_options.allow_growth = True
run_config = tf.estimator.RunConfig(session_config=session_config)
"""
    )


def monitored_session(i: int) -> str:
    return (
        _HEAD.format(doc=f"Monitored training {i}")
        + """
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
with tf.train.MonitoredTrainingSession(config=config) as sess:
    pass
"""
    )


def config_on_self(i: int) -> str:
    return f'''"""Session wrapper {i}."""
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.config = tf.ConfigProto(allow_soft_placement=True)
        self.config.gpu_options.allow_growth = True
        self.sess = tf.Session(config=self.config)
'''


def flags_in_a_loop(i: int) -> str:
    return (
        _HEAD.format(doc=f"Options from a dict {i}")
        + """
options = {"allow_growth": True}
config = tf.ConfigProto()
for key, value in options.items():
    setattr(config.gpu_options, key, value)
sess = tf.Session(config=config)
sess.run(tf.global_variables_initializer())
"""
    )


def two_sessions_two_gpus(i: int) -> str:
    return f'''"""Two models on two GPUs {i}."""
import tensorflow as tf

sess_a = tf.Session(config=tf.ConfigProto(gpu_options=tf.GPUOptions(visible_device_list="0")))
sess_b = tf.Session(config=tf.ConfigProto(gpu_options=tf.GPUOptions(visible_device_list="1")))
sess_a.close()
sess_b.close()
'''


# (pattern, files of it per project, template); the weights are this benchmark's choice:
# conditional settings most common, then factories, then the rest.
PATTERNS: list[tuple[str, int, Callable[[int], str]]] = [
    ("horovod-conditional", 2, horovod_conditional),
    ("flag-driven-growth", 2, flag_growth),
    ("xla-and-amp", 1, xla_amp),
    ("config-per-branch", 1, config_per_branch),
    ("factory-two-sessions", 1, factory_two_sessions),
    ("factory-module", 1, factory_module),
    ("keras-set-session", 1, keras_set_session),
    ("estimator-run-config", 1, estimator_run_config),
]
# patterns that appear in one project in four (rarer constructs)
RARE: list[tuple[str, int, Callable[[int], str]]] = [
    ("monitored-session", 1, monitored_session),
    ("config-on-self", 1, config_on_self),
    ("flags-in-a-loop", 1, flags_in_a_loop),
    ("two-sessions-two-gpus", 1, two_sessions_two_gpus),
]
_PROJECTS = ("resnet50", "bert", "maskrcnn", "unet", "transformer", "ncf", "gnmt", "ssd")


def write_tree(root: Path, projects: int) -> dict[Path, str]:
    """The tree; returns each file that builds a ConfigProto with its pattern."""
    made: dict[Path, str] = {}
    for p in range(projects):
        folder = root / "models" / f"{_PROJECTS[p % len(_PROJECTS)]}{p // len(_PROJECTS) or ''}"
        (folder / "utils").mkdir(parents=True)
        (folder / "utils" / "__init__.py").write_text("")
        chosen = PATTERNS + (RARE if p % 4 == 0 else [])
        for name, count, template in chosen:
            for k in range(count):
                if name == "factory-module":
                    path = folder / "utils" / "session.py"
                    (folder / "train_with_helpers.py").write_text(factory_caller(p))
                else:
                    path = folder / f"{name.replace('-', '_')}_{k}.py"
                path.write_text(template(p * 10 + k))
                made[path] = name
        for m in range(3):
            (folder / f"model_{m}.py").write_text(
                f'"""Model code {m}."""\nimport tensorflow as tf\n' + _MODEL.format(n=m + 2)
            )
    return made


_REASON = re.compile(r"\[([^\[\]]+)\]$")
_HAS_PROTO = re.compile(r"\b(ConfigProto|GPUOptions)\b")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--projects", type=int, default=8)
    parser.add_argument("--keep", help="generate the tree here and keep it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(args.keep or tmp)
        made = write_tree(root, args.projects)
        files = sum(1 for _ in root.rglob("*.py"))
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        }
        done = subprocess.run(
            [sys.executable, "-m", "tfcompat_gpu", "migrate", "--write", str(root)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        reasons: collections.Counter[str] = collections.Counter()
        for line in done.stderr.splitlines():
            match = _REASON.search(line)
            if match is not None and re.match(r".+?:\d+: ", line):
                reasons[match[1]] += 1
        per_pattern: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
        for path, name in made.items():
            text = path.read_text()
            compile(text, str(path), "exec")  # the migrated file must still be Python
            per_pattern[name][0] += 1
            per_pattern[name][1] += _HAS_PROTO.search(text) is None
        total = len(made)
        migrated = sum(done_ for _, done_ in per_pattern.values())
        print(f"tree: {args.projects} projects, {files} Python files, {total} build a ConfigProto")
        print(f"migrate --write: exit {done.returncode}")
        print(
            f"ConfigProto files fully migrated: {migrated}/{total} = {100 * migrated / total:.1f}%"
        )
        print("per pattern (files without ConfigProto after / files):")
        for name, (count, fine) in per_pattern.items():
            print(f"  {name:24} {fine}/{count}")
        print("warnings by reason:")
        for reason, count in reasons.most_common():
            print(f"  {count:4}  {reason}")
        unlabelled = [
            line
            for line in done.stderr.splitlines()
            if re.match(r".+?:\d+: ", line) and _REASON.search(line) is None
        ]
        print(f"  {len(unlabelled):4}  (warnings without a reason)")
        target = migrated / total >= 0.8
        print(f"target >= 80%: {'met' if target else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
