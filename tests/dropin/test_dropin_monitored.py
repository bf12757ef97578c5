"""Monitored sessions, Supervisor and Estimator: the first one's config is the process config.

Before the fix, building their ``Saver`` started the runtime, so the config was reported as a
conflict and ignored; here it must reach the process exactly as a first ``tf.Session``'s does,
and a later session with other values must name both call sites.
"""

from __future__ import annotations

import pytest

from tests._child import run_script

pytestmark = pytest.mark.tf

GRAPH = """
import sys, tempfile, warnings
import tensorflow as tf
from tests._child import emit

warnings.simplefilter("always")
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.gpu_options.per_process_gpu_memory_fraction = 0.4
step = tf.train.get_or_create_global_step()
w = tf.Variable(1.0)
train = tf.train.GradientDescentOptimizer(0.1).minimize(tf.square(w), global_step=step)
kind = sys.argv[1]
with warnings.catch_warnings(record=True) as caught:
    if kind == "MonitoredTrainingSession":
        hooks = [tf.train.StopAtStepHook(last_step=2)]
        with tf.train.MonitoredTrainingSession(checkpoint_dir=tempfile.mkdtemp(), hooks=hooks,
                                               config=config) as sess:
            while not sess.should_stop():
                sess.run(train)
            got = sess._tf_sess()._config
    elif kind == "MonitoredSession":
        creator = tf.train.ChiefSessionCreator(config=config)
        with tf.train.MonitoredSession(session_creator=creator) as sess:
            sess.run(train)
            got = sess._tf_sess()._config
    elif kind == "SingularMonitoredSession":
        with tf.train.SingularMonitoredSession(config=config) as sess:
            sess.run(train)
            got = sess.raw_session()._config
    elif kind == "Supervisor":
        sv = tf.train.Supervisor(logdir=tempfile.mkdtemp())
        with sv.managed_session(config=config) as sess:
            sess.run(train)
            got = sess._config
    else:
        saver = tf.train.Saver()
        with tf.Session(config=config) as sess:
            sess.run(tf.global_variables_initializer())
            got = sess._config
    second = tf.ConfigProto()
    second.gpu_options.per_process_gpu_memory_fraction = 0.7
    tf.Session(config=second).close()
emit({"got": [got.gpu_options.allow_growth, got.gpu_options.per_process_gpu_memory_fraction],
      "warnings": [str(w.message) for w in caught if "Conflicting" in str(w.message)]})
"""

KINDS = [
    "MonitoredTrainingSession",
    "MonitoredSession",
    "SingularMonitoredSession",
    "Supervisor",
    "Saver",
]


@pytest.mark.parametrize("kind", KINDS)
def test_first_monitored_session_sets_the_process_config(tmp_path, kind):
    run = run_script(tmp_path, GRAPH, "--tf1", args=(kind,))
    assert run.rc == 0, run.err
    assert run.result["got"] == [True, pytest.approx(0.4)]
    assert run.report["config"] == {"allow_growth": True, "per_process_gpu_memory_fraction": 0.4}
    # only the later session conflicts, and the message names both lines
    [conflict] = run.result["warnings"]
    assert "per_process_gpu_memory_fraction: 0.7 requested at script.py:42" in conflict
    assert "0.4 is in force since script.py:" in conflict


ESTIMATOR = """
import tempfile, warnings
import tensorflow as tf
from tests._child import emit
try:
    import tensorflow_estimator  # noqa: F401
except ImportError:
    emit({"skip": "no tf.estimator in TensorFlow " + tf.__version__})
    raise SystemExit(0)

warnings.simplefilter("always")
config = tf.compat.v1.ConfigProto()
config.gpu_options.allow_growth = True
config.gpu_options.per_process_gpu_memory_fraction = 0.4

def model_fn(features, labels, mode):
    w = tf.compat.v1.get_variable("w", [1])
    loss = tf.reduce_mean(tf.square(features["x"] * w - labels))
    step = tf.compat.v1.train.get_or_create_global_step()
    train = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train)

def input_fn():
    return tf.data.Dataset.from_tensors(({"x": [1.0]}, [2.0])).repeat(5)

def estimator(fraction):
    config.gpu_options.per_process_gpu_memory_fraction = fraction
    run_config = tf.estimator.RunConfig(session_config=config, model_dir=tempfile.mkdtemp())
    return tf.estimator.Estimator(model_fn, config=run_config)

with warnings.catch_warnings(record=True) as caught:
    estimator(0.4).train(input_fn, steps=2)
    estimator(0.6).train(input_fn, steps=2)
emit({"warnings": [str(w.message) for w in caught if "Conflicting" in str(w.message)]})
"""


def test_estimator_session_config_is_the_first_session(tmp_path):
    run = run_script(tmp_path, ESTIMATOR)
    assert run.rc == 0, run.err
    if "skip" in run.result:
        pytest.skip(run.result["skip"])
    assert run.report["config"] == {"allow_growth": True, "per_process_gpu_memory_fraction": 0.4}
    [conflict] = run.result["warnings"]
    assert "0.6 requested at script.py:32" in conflict
    assert "0.4 is in force since script.py:31" in conflict
