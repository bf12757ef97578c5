"""``contrib_layers`` on ``tf.contrib.layers.conv2d`` / ``max_pool2d`` / ``avg_pool2d``.

Modelled on TF1 CNN tutorials that build MNIST and CIFAR nets with ``tf.contrib.layers``
(``conv2d(x, 32, 5)``, ``max_pool2d(h, 2)``, ``conv2d(..., padding='VALID', data_format='NHWC')``).
contrib's defaults that differ from ``tf.compat.v1.layers``' are written out: ReLU, ``SAME``
padding for ``conv2d``, a stride of 2 for the pooling layers.  The migrated script runs with plain
``python`` and gives the shapes the TF1 one gave.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import NO_GPUS, migrated_twice, needs_tensorflow

from tests._child import run

_CNN = """
    import numpy as np
    import tensorflow as tf

    x = tf.placeholder(tf.float32, [None, 28, 28, 1])
    h1 = tf.contrib.layers.conv2d(x, 32, 5)
    p1 = tf.contrib.layers.max_pool2d(h1, 2)
    h2 = tf.contrib.layers.conv2d(p1, 64, [3, 3], stride=1, padding='VALID', data_format='NHWC',
                                  activation_fn=tf.nn.tanh, scope='conv2')
    p2 = tf.contrib.layers.avg_pool2d(h2, [2, 2], padding='SAME')
    logits = tf.contrib.layers.fully_connected(tf.contrib.layers.flatten(p2), 10,
                                               activation_fn=None)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out = sess.run([h1, p1, h2, p2, logits], {x: np.ones((2, 28, 28, 1), np.float32)})
    print("SHAPES", [o.shape for o in out], float(out[0].min()) >= 0.0)
"""


def test_conv_and_pooling_calls_become_the_v1_layers_with_contribs_defaults() -> None:
    code, warnings = migrated_twice(_CNN)
    assert "contrib" not in code
    assert (
        "h1 = tf.compat.v1.layers.conv2d(x, 32, kernel_size=5, activation=tf.nn.relu, "
        'padding="same")'
    ) in code
    assert "p1 = tf.compat.v1.layers.max_pooling2d(h1, pool_size=2, strides=2)" in code
    assert (
        "h2 = tf.compat.v1.layers.conv2d(p1, 64, kernel_size=[3, 3], strides=1, "
        "padding='VALID', data_format=\"channels_last\""
    ) in code
    assert "activation=tf.nn.tanh, name='conv2')" in code
    assert (
        "p2 = tf.compat.v1.layers.average_pooling2d(h2, pool_size=[2, 2], padding='SAME', "
        "strides=2)"
    ) in code
    assert not [w for w in warnings if "contrib" in w]


def test_the_migrated_cnn_runs_with_plain_python_and_tf1s_shapes(tmp_path: Path) -> None:
    needs_tensorflow()
    pytest.importorskip("tf_keras")
    code, _ = migrated_twice(_CNN)
    script = tmp_path / "cnn.py"
    script.write_text(code, encoding="utf-8")
    proc = run([str(script)], env=NO_GPUS, cwd=tmp_path, drop=("TF_USE_LEGACY_KERAS",))
    assert proc.returncode == 0, proc.stderr
    # SAME keeps 28x28; the pooling stride of 2 halves it; VALID 3x3 gives 12; SAME pool 6
    assert re.search(
        r"SHAPES \[\(2, 28, 28, 32\), \(2, 14, 14, 32\), \(2, 12, 12, 64\), \(2, 6, 6, 64\), "
        r"\(2, 10\)\] True",
        proc.stdout,
    ), proc.stdout


@pytest.mark.parametrize(
    "call",
    [
        "tf.contrib.layers.conv2d(x, 8, 3, data_format=fmt)",  # not a literal
        "tf.contrib.layers.conv2d(x, 8, 3, normalizer_fn=tf.contrib.layers.batch_norm)",
        "tf.contrib.layers.max_pool2d(x, 2, outputs_collections='pools')",
    ],
)
def test_a_conv_call_without_a_home_for_an_argument_is_left(call: str) -> None:
    code, warnings = migrated_twice(f"import tensorflow as tf\ny = {call}\n")
    assert f"y = {call}" in code
    assert [w for w in warnings if "[tf.contrib removed]" in w]


def test_under_an_arg_scope_the_calls_are_left() -> None:
    # the scope sets defaults the call takes: the v1 layers would not see them
    source = """
        import tensorflow as tf

        with tf.contrib.framework.arg_scope([tf.contrib.layers.conv2d], padding='VALID'):
            y = tf.contrib.layers.conv2d(x, 8, 3)
        """
    code, warnings = migrated_twice(source)
    assert "y = tf.contrib.layers.conv2d(x, 8, 3)" in code
    assert [w for w in warnings if "[tf.contrib removed]" in w]
