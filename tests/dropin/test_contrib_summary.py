"""``tf.contrib.summary`` under ``run``.

TF 1.8-1.15 eager training loops log with ``writer = tf.contrib.summary.create_file_writer(
logdir)``, ``writer.set_as_default()``, then ``with
tf.contrib.summary.record_summaries_every_n_global_steps(N): tf.contrib.summary.scalar('loss',
loss)`` while ``apply_gradients(..., global_step=...)`` counts the steps.  The drop-in serves
these from TensorFlow 2's ``tf.summary``, at TF1's default step, the global step.
"""

from __future__ import annotations

import importlib.util

import pytest

from tests._child import run_script

pytest.importorskip("tensorflow")
# TensorFlow 2.16+ writes summaries through tensorboard, which it no longer installs (the
# legacy-keras extra does); without it tf.summary raises TBNotInstalledError, as it would for
# the script itself
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("tensorboard") is None, reason="tf.summary needs tensorboard"
)

SCRIPT = r"""
    import glob
    import tensorflow as tf
    from tests._child import emit

    tf.enable_eager_execution()
    writer = tf.contrib.summary.create_file_writer('./logs', flush_millis=1000)
    writer.set_as_default()
    w = tf.Variable(3.0)
    optimizer = tf.train.GradientDescentOptimizer(0.1)
    global_step = tf.train.get_or_create_global_step()
    for i in range(5):
        with tf.GradientTape() as tape:
            loss = w * w
        grads = tape.gradient(loss, [w])
        with tf.contrib.summary.record_summaries_every_n_global_steps(2):
            tf.contrib.summary.scalar('loss', loss)
        with tf.contrib.summary.always_record_summaries():
            tf.contrib.summary.histogram('w', w)
        optimizer.apply_gradients(zip(grads, [w]), global_step=global_step)
    tf.contrib.summary.flush()
    steps = {}
    for path in glob.glob('./logs/events.*'):
        for event in tf.compat.v1.train.summary_iterator(path):
            for value in event.summary.value:
                steps.setdefault(value.tag, []).append(int(event.step))
    emit({"loss": sorted(steps.get("loss", [])), "w": sorted(steps.get("w", []))})
"""


def test_eager_summaries_land_at_the_global_step(tmp_path):
    run = run_script(tmp_path, SCRIPT)
    assert run.rc == 0, run.err
    assert run.result == {"loss": [0, 2, 4], "w": [0, 1, 2, 3, 4]}
