"""``tf.contrib.layers.l2_regularizer`` / ``l1_regularizer`` under ``migrate`` (``tf1_compat``).

TF1 scripts regularize with ``tf.get_variable(..., regularizer=tf.contrib.layers.
l2_regularizer(scale=5e-4))`` and hand the same regularizer to ``tf.contrib.layers.
fully_connected(weights_regularizer=...)`` or ``tf.layers.dense(kernel_regularizer=...)``, then add
``tf.losses.get_regularization_loss()`` to the loss.  With a float literal scale, the call becomes
the function TF 1.15 returned; the migrated script computes the same penalty with plain ``python``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import NO_GPUS, migrated_twice, needs_tensorflow

from tests._child import run

_NET = """
    import numpy as np
    import tensorflow as tf

    x = tf.placeholder(tf.float32, [None, 4])
    w = tf.get_variable('w', [4, 3], initializer=tf.ones_initializer(),
                        regularizer=tf.contrib.layers.l2_regularizer(scale=0.5))
    h = tf.contrib.layers.fully_connected(
        tf.matmul(x, w), 2, weights_initializer=tf.constant_initializer(2.0),
        weights_regularizer=tf.contrib.layers.l1_regularizer(0.25))
    y = tf.layers.dense(h, 1, kernel_regularizer=tf.contrib.layers.l2_regularizer(0.))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        losses = sess.run(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES))
    print("LOSSES", [round(float(v), 4) for v in losses])
"""


def test_regularizers_with_a_literal_scale_become_tf1s_functions() -> None:
    code, warnings = migrated_twice(_NET)
    assert "contrib" not in code
    assert "regularizer=lambda weights: 0.5 * tf.nn.l2_loss(weights))" in code
    assert "kernel_regularizer=lambda weights: 0.25 * tf.reduce_sum(tf.abs(weights)))" in code
    # TF 1.15 returned a function giving None for a scale of 0: no loss is added
    assert "kernel_regularizer=lambda _: None)" in code
    assert not [w for w in warnings if "contrib" in w]


def test_the_migrated_penalties_are_tf1s(tmp_path: Path) -> None:
    needs_tensorflow()
    pytest.importorskip("tf_keras")
    code, _ = migrated_twice(_NET)
    script = tmp_path / "net.py"
    script.write_text(code, encoding="utf-8")
    proc = run([str(script)], env=NO_GPUS, cwd=tmp_path, drop=("TF_USE_LEGACY_KERAS",))
    assert proc.returncode == 0, proc.stderr
    # 0.5 * sum(1^2 over 12) / 2 = 3.0; 0.25 * sum(|2| over 6) = 3.0; the zero scale adds none
    assert re.search(r"LOSSES \[3\.0, 3\.0\]", proc.stdout), proc.stdout


@pytest.mark.parametrize(
    "call",
    [
        "tf.contrib.layers.l2_regularizer(weight_decay)",  # TF1 checked the value
        "tf.contrib.layers.l2_regularizer(1)",  # an integer: TF1 raised ValueError
        "tf.contrib.layers.l2_regularizer(0.1, scope='reg')",
    ],
)
def test_a_regularizer_without_a_literal_float_scale_is_left(call: str) -> None:
    code, warnings = migrated_twice(
        f"import tensorflow as tf\nw = tf.get_variable('w', [2], regularizer={call})\n"
    )
    assert call in code
    assert [w for w in warnings if "[tf.contrib removed]" in w]
