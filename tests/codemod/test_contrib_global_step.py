"""``tf.contrib.framework``'s global-step functions under ``migrate`` (``tf1_compat``).

Policy-gradient and DQN estimators of the TF1 era train with ``optimizer.apply_gradients(
grads_and_vars, global_step=tf.contrib.framework.get_global_step())`` after a
``tf.contrib.framework.get_or_create_global_step()``; these were ``tf.train``'s functions
re-exported, so they become ``tf.train.get_global_step`` of ``tf.compat.v1`` and the migrated
script counts its steps with plain ``python``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import NO_GPUS, migrated_twice, needs_tensorflow

from tests._child import run

_ESTIMATOR = """
    import numpy as np
    import tensorflow as tf

    class Estimator(object):
        def __init__(self):
            self.states = tf.placeholder(tf.float32, [None, 4])
            w = tf.Variable(tf.ones([4, 1]))
            self.loss = tf.reduce_sum(tf.square(tf.matmul(self.states, w)))
            optimizer = tf.train.RMSPropOptimizer(0.001, 0.99, 0.0, 1e-6)
            grads = optimizer.compute_gradients(self.loss)
            self.train_op = optimizer.apply_gradients(
                grads, global_step=tf.contrib.framework.get_global_step())

    global_step = tf.contrib.framework.get_or_create_global_step()
    read_step = tf.contrib.framework.get_global_step
    estimator = Estimator()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(estimator.train_op, {estimator.states: np.ones((2, 4))})
        print("STEP", sess.run(read_step()))
"""


def test_global_step_functions_become_tf_train_ones() -> None:
    code, warnings = migrated_twice(_ESTIMATOR)
    assert "contrib" not in code
    assert "global_step=tf.train.get_global_step())" in code
    assert "global_step = tf.train.get_or_create_global_step()" in code
    assert "read_step = tf.train.get_global_step\n" in code
    assert not [w for w in warnings if "contrib" in w]


def test_a_framework_name_of_its_own_keeps_the_warning() -> None:
    code, warnings = migrated_twice(
        """
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 3])
        names = tf.contrib.framework.get_variables_to_restore()
        """
    )
    assert "tf.contrib.framework.get_variables_to_restore()" in code
    assert [w for w in warnings if "tf.contrib.framework left unchanged" in w]


def test_the_migrated_estimator_counts_its_steps(tmp_path: Path) -> None:
    needs_tensorflow()
    code, _ = migrated_twice(_ESTIMATOR)
    script = tmp_path / "estimator.py"
    script.write_text(code, encoding="utf-8")
    proc = run([str(script)], env=NO_GPUS, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"STEP 3\b", proc.stdout), proc.stdout
