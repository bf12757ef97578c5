"""The GPU configuration a program ends up with is the same before and after ``migrate``.

The scripts are written for these tests after the way public TF1 training scripts configure
their sessions: Horovod scripts that pin one GPU per process under a flag, flag-driven memory
growth or a fixed share, XLA auto-clustering and automatic mixed precision behind flags, and a
``get_session_config()`` factory shared by a training and an evaluation session.  Each runs
as written (``tf.compat.v1``) and migrated, each in its own interpreter with two simulated GPUs
(``tests/simgpu.py``: TensorFlow's own Python configuration path over simulated physical
devices), and prints the ConfigProto its first session was built with: the process-wide
configuration TF1 applies.  The two must agree on every GPU, thread and optimizer field.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import NO_GPUS, needs_tensorflow

from tests._child import start
from tfcompat_gpu.codemod.api import migrate_source

_TESTS = Path(__file__).resolve().parents[1]

_PREFIX = f"""\
import sys
sys.path.insert(0, {str(_TESTS)!r})
from simgpu import simulate_gpus
simulate_gpus(2)
"""
# The fields compared: what TF1 takes from the first session's config for the whole process.
_SUFFIX = """
import json as _json
_c = sess._config
print("EFFECTIVE", _json.dumps({
    "allow_growth": _c.gpu_options.allow_growth,
    "per_process_gpu_memory_fraction": round(_c.gpu_options.per_process_gpu_memory_fraction, 6),
    # "" is every GPU, in order: on the two simulated GPUs, "0,1"
    "visible_device_list": _c.gpu_options.visible_device_list or "0,1",
    "intra_op_parallelism_threads": _c.intra_op_parallelism_threads,
    "inter_op_parallelism_threads": _c.inter_op_parallelism_threads,
    "global_jit_level": _c.graph_options.optimizer_options.global_jit_level,
    "auto_mixed_precision": _c.graph_options.rewrite_options.auto_mixed_precision,
    "layout_optimizer": _c.graph_options.rewrite_options.layout_optimizer,
    "place_pruned_graph": _c.graph_options.place_pruned_graph,
}))
"""

_HOROVOD = """\
import argparse
import os

import tensorflow.compat.v1 as tf

parser = argparse.ArgumentParser()
parser.add_argument("--use_horovod", action="store_true")
args = parser.parse_args()


def local_rank():
    # what hvd.local_rank() answers under mpirun
    return int(os.environ.get("OMPI_COMM_WORLD_LOCAL_RANK", "0"))


config = tf.ConfigProto()
config.gpu_options.allow_growth = True
if args.use_horovod:
    # one GPU per process
    config.gpu_options.visible_device_list = str(local_rank())
sess = tf.Session(config=config)
sess.close()
"""

_GROWTH_FLAGS = """\
import argparse

import tensorflow.compat.v1 as tf

parser = argparse.ArgumentParser()
parser.add_argument("--allow_growth", action="store_true")
parser.add_argument("--memory_fraction", type=float, default=0.0)
parser.add_argument("--num_intra_threads", type=int, default=0)
FLAGS = parser.parse_args()

gpu_options = tf.GPUOptions()
if FLAGS.allow_growth:
    gpu_options.allow_growth = True
elif FLAGS.memory_fraction > 0:
    gpu_options.per_process_gpu_memory_fraction = FLAGS.memory_fraction
config = tf.ConfigProto(gpu_options=gpu_options)
if FLAGS.num_intra_threads:
    config.intra_op_parallelism_threads = FLAGS.num_intra_threads
sess = tf.Session(config=config)
sess.close()
"""

_XLA_AMP = """\
import argparse

import tensorflow.compat.v1 as tf
from tensorflow.core.protobuf import rewriter_config_pb2

parser = argparse.ArgumentParser()
parser.add_argument("--xla", action="store_true")
parser.add_argument("--amp", action="store_true")
FLAGS = parser.parse_args()

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.gpu_options.allocator_type = "BFC"
if FLAGS.xla:
    config.graph_options.optimizer_options.global_jit_level = tf.OptimizerOptions.ON_1
if FLAGS.amp:
    config.graph_options.rewrite_options.auto_mixed_precision = (
        rewriter_config_pb2.RewriterConfig.ON
    )
sess = tf.Session(config=config)
sess.close()
"""

# XLA and mixed precision turned off explicitly, next to a rewrite no option holds
_XLA_AMP_OFF = """\
import tensorflow.compat.v1 as tf
from tensorflow.core.protobuf import rewriter_config_pb2

config = tf.ConfigProto()
config.graph_options.optimizer_options.global_jit_level = tf.OptimizerOptions.OFF
config.graph_options.rewrite_options.auto_mixed_precision = rewriter_config_pb2.RewriterConfig.OFF
config.graph_options.rewrite_options.layout_optimizer = rewriter_config_pb2.RewriterConfig.OFF
sess = tf.Session(config=config)
sess.close()
"""

_FACTORY_TWO_SESSIONS = """\
import tensorflow.compat.v1 as tf


def get_session_config():
    config = tf.ConfigProto(allow_soft_placement=True)
    config.gpu_options.allow_growth = True
    config.intra_op_parallelism_threads = 2
    config.inter_op_parallelism_threads = 1
    return config


sess = tf.Session(config=get_session_config())
eval_sess = tf.Session(config=get_session_config())
eval_sess.close()
sess.close()
"""

# a field with no TF2 successor: it stays on a smaller ConfigProto the session receives
_KEPT_FIELD = """\
import tensorflow.compat.v1 as tf

config = tf.ConfigProto(intra_op_parallelism_threads=2)
config.gpu_options.allow_growth = True
config.graph_options.place_pruned_graph = True
sess = tf.Session(config=config)
sess.close()
"""

# a config built in each arm of an if
_ARMS = """\
import argparse

import tensorflow.compat.v1 as tf

parser = argparse.ArgumentParser()
parser.add_argument("--cpu_only", action="store_true")
FLAGS = parser.parse_args()

if FLAGS.cpu_only:
    config = tf.ConfigProto(intra_op_parallelism_threads=1, inter_op_parallelism_threads=1)
else:
    config = tf.ConfigProto()
    config.gpu_options.allow_growth = True
    config.gpu_options.visible_device_list = "1"
sess = tf.Session(config=config)
sess.close()
"""

# a config factory in a local module, imported by the training script
_TRAIN_UTILS = """\
import tensorflow.compat.v1 as tf


def get_session_config(num_threads=0):
    config = tf.ConfigProto(allow_soft_placement=True)
    config.gpu_options.allow_growth = True
    config.gpu_options.visible_device_list = "1"
    config.intra_op_parallelism_threads = num_threads
    return config
"""
_FACTORY_IMPORTED = """\
import tensorflow.compat.v1 as tf
from train_utils import get_session_config

sess = tf.Session(config=get_session_config(num_threads=3))
sess.close()
"""

# a monitored training session, in a graph as TF1 training loops build it
_MONITORED = """\
import argparse

import tensorflow.compat.v1 as tf

parser = argparse.ArgumentParser()
parser.add_argument("--xla", action="store_true")
FLAGS = parser.parse_args()

config = tf.ConfigProto(allow_soft_placement=True)
config.gpu_options.allow_growth = True
config.gpu_options.visible_device_list = "1"
config.intra_op_parallelism_threads = 2
if FLAGS.xla:
    config.graph_options.optimizer_options.global_jit_level = tf.OptimizerOptions.ON_1
with tf.Graph().as_default():
    step = tf.train.get_or_create_global_step()
    train_op = tf.assign_add(step, 1)
    with tf.train.MonitoredTrainingSession(config=config, log_step_count_steps=None) as mon:
        mon.run(train_op)
        sess = mon._tf_sess()
"""

# a session-config function shared by an evaluation session and a monitored one
_MONITORED_FACTORY = """\
import tensorflow.compat.v1 as tf


def get_session_config():
    config = tf.ConfigProto()
    config.gpu_options.per_process_gpu_memory_fraction = 0.4
    config.inter_op_parallelism_threads = 3
    return config


with tf.Graph().as_default():
    step = tf.train.get_or_create_global_step()
    with tf.train.SingularMonitoredSession(config=get_session_config()) as mon:
        mon.run(step)
        sess = mon.raw_session()
    with tf.Session(config=get_session_config()) as eval_sess:
        eval_sess.run(step.initializer)
"""

# an evaluation loop: a MonitoredSession over a ChiefSessionCreator given the config
_SESSION_CREATOR = """\
import tensorflow.compat.v1 as tf

config = tf.ConfigProto(log_device_placement=False)
config.gpu_options.visible_device_list = "1"
config.gpu_options.per_process_gpu_memory_fraction = 0.25
with tf.Graph().as_default():
    step = tf.train.get_or_create_global_step()
    creator = tf.train.ChiefSessionCreator(config=config)
    with tf.train.MonitoredSession(session_creator=creator) as mon:
        mon.run(step)
        sess = mon._tf_sess()
"""

# (id, script, command-line arguments, environment)
SCENARIOS: list[tuple[str, str, list[str], dict[str, str]]] = [
    ("horovod-local-rank-1", _HOROVOD, ["--use_horovod"], {"OMPI_COMM_WORLD_LOCAL_RANK": "1"}),
    ("horovod-off", _HOROVOD, [], {}),
    ("growth-flag", _GROWTH_FLAGS, ["--allow_growth", "--num_intra_threads", "4"], {}),
    ("memory-fraction-flag", _GROWTH_FLAGS, ["--memory_fraction", "0.3"], {}),
    ("xla-and-amp", _XLA_AMP, ["--xla", "--amp"], {}),
    ("amp-only", _XLA_AMP, ["--amp"], {}),
    ("xla-and-amp-off", _XLA_AMP_OFF, [], {}),
    ("factory-two-sessions", _FACTORY_TWO_SESSIONS, [], {}),
    ("factory-in-a-local-module", _FACTORY_IMPORTED, [], {}),
    ("field-kept-on-the-session", _KEPT_FIELD, [], {}),
    ("config-in-each-arm-gpu", _ARMS, [], {}),
    ("config-in-each-arm-cpu", _ARMS, ["--cpu_only"], {}),
    ("monitored-training-session", _MONITORED, [], {}),
    ("monitored-training-session-xla", _MONITORED, ["--xla"], {}),
    ("monitored-session-from-a-factory", _MONITORED_FACTORY, [], {}),
    ("monitored-session-chief-session-creator", _SESSION_CREATOR, [], {}),
]


# an Estimator's RunConfig (TF <= 2.15 only): the config its sessions are given
_ESTIMATOR = """\
import types

import tensorflow.compat.v1 as tf

config = tf.ConfigProto(allow_soft_placement=True)
config.gpu_options.allow_growth = True
config.gpu_options.visible_device_list = "1"
config.inter_op_parallelism_threads = 2
run_config = tf.estimator.RunConfig(model_dir=None, session_config=config)
sess = types.SimpleNamespace(_config=run_config.session_config)
"""
_ESTIMATOR_REPLACE = """\
import types

import tensorflow.compat.v1 as tf

session_config = tf.ConfigProto()
session_config.gpu_options.per_process_gpu_memory_fraction = 0.5
session_config.intra_op_parallelism_threads = 3
run_config = tf.estimator.RunConfig().replace(session_config=session_config)
sess = types.SimpleNamespace(_config=run_config.session_config)
"""
ESTIMATOR_SCENARIOS = [
    ("estimator-run-config", _ESTIMATOR, [], {}),
    ("estimator-run-config-replace", _ESTIMATOR_REPLACE, [], {}),
]


def test_every_scenario_migrates_without_warning() -> None:
    for name, script, _, _ in SCENARIOS + ESTIMATOR_SCENARIOS:
        result = migrate_source(script)
        if name == "field-kept-on-the-session":
            assert len(result.warnings) == 1, result.warnings
            continue
        assert result.warnings == (), (name, result.warnings)
        assert "ConfigProto" not in result.code, (name, result.code)


def _start(script: str, argv: list[str], env: dict[str, str], path: Path) -> subprocess.Popen[str]:
    path.parent.mkdir()
    path.write_text(_PREFIX + script + _SUFFIX)
    # the local module, migrated in the "after" tree: with no caller in its own file, its
    # function returns the ConfigProto tfcompat_gpu builds from the same settings
    utils = migrate_source(_TRAIN_UTILS) if path.parent.name == "after" else None
    if utils is not None:
        assert "to_config_proto()" in utils.code
        assert utils.warnings == ()
    (path.parent / "train_utils.py").write_text(_TRAIN_UTILS if utils is None else utils.code)
    return start([str(path), *argv], env={**NO_GPUS, **env})


def _effective(process: subprocess.Popen[str], path: Path) -> dict[str, object]:
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, f"{path.read_text()}\n{err[-3000:]}"
    line = next(x for x in out.splitlines() if x.startswith("EFFECTIVE "))
    found: dict[str, object] = json.loads(line[len("EFFECTIVE ") :])
    return found


@pytest.mark.tf
@pytest.mark.parametrize(
    ("script", "argv", "env"),
    [pytest.param(s, a, e, id=i) for i, s, a, e in SCENARIOS],
)
def test_effective_gpu_configuration_is_unchanged(
    script: str, argv: list[str], env: dict[str, str], tmp_path: Path
) -> None:
    needs_tensorflow()
    migrated = migrate_source(script)
    assert migrated.code != script
    # both interpreters at once: they are independent, and TensorFlow's import dominates
    before = _start(script, argv, env, tmp_path / "before" / "train.py")
    after = _start(migrated.code, argv, env, tmp_path / "after" / "train.py")
    original = _effective(before, tmp_path / "before" / "train.py")
    result = _effective(after, tmp_path / "after" / "train.py")
    assert result == original, textwrap.indent(migrated.code, "    ")


@pytest.mark.tf
@pytest.mark.skipif(
    importlib.util.find_spec("tensorflow_estimator") is None,
    reason="tf.estimator exists only with TensorFlow <= 2.15",
)
@pytest.mark.parametrize(
    ("script", "argv", "env"),
    [pytest.param(s, a, e, id=i) for i, s, a, e in ESTIMATOR_SCENARIOS],
)
def test_estimator_session_config_is_unchanged(
    script: str, argv: list[str], env: dict[str, str], tmp_path: Path
) -> None:
    test_effective_gpu_configuration_is_unchanged(script, argv, env, tmp_path)
