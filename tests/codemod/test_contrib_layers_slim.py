"""``contrib_layers`` on ``tf.contrib.slim``: slim's layer functions are ``tf.contrib.layers``'.

Modelled on the LeNet-5 that TF1 books build with TensorFlow-Slim (``import
tensorflow.contrib.slim as slim``, ``slim.conv2d(x, 32, [5, 5], padding='SAME', scope=...)``,
``slim.max_pool2d(net, 2, stride=2)``, ``slim.flatten``, ``slim.fully_connected``).  The import
goes when every read of it is such a call; the migrated script runs with plain ``python``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import NO_GPUS, migrated_twice, needs_tensorflow

from tests._child import run

_LENET = """
    import numpy as np
    import tensorflow as tf
    import tensorflow.contrib.slim as slim


    def lenet(images):
        net = tf.reshape(images, [-1, 28, 28, 1])
        net = slim.conv2d(net, 6, [5, 5], padding='SAME', scope='c1')
        net = slim.max_pool2d(net, 2, stride=2, scope='s2')
        net = slim.conv2d(net, 16, [5, 5], padding='VALID', scope='c3')
        net = slim.avg_pool2d(net, [2, 2], scope='s4')
        net = slim.flatten(net, scope='flat')
        net = slim.fully_connected(net, 84, scope='f5')
        return slim.fully_connected(net, 10, activation_fn=None, scope='logits')


    x = tf.placeholder(tf.float32, [None, 784])
    logits = lenet(x)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out = sess.run(logits, {x: np.ones((3, 784), np.float32)})
    print("SHAPE", out.shape)
"""


def test_slim_layer_calls_become_the_v1_layers_and_the_import_goes() -> None:
    code, warnings = migrated_twice(_LENET)
    assert "contrib" not in code
    assert "slim" not in code
    assert (
        "net = tf.compat.v1.layers.conv2d(net, 6, kernel_size=[5, 5], padding='SAME', "
        "name='c1', activation=tf.nn.relu)"
    ) in code
    assert "tf.compat.v1.layers.max_pooling2d(net, pool_size=2, strides=2, name='s2')" in code
    assert (
        "tf.compat.v1.layers.average_pooling2d(net, pool_size=[2, 2], name='s4', strides=2)" in code
    )
    assert "tf.compat.v1.layers.dense(net, 84, activation=tf.nn.relu, name='f5')" in code
    assert "tf.compat.v1.layers.dense(net, 10, activation=None, name='logits')" in code
    assert not [w for w in warnings if "contrib" in w]


def test_the_migrated_slim_lenet_runs_with_plain_python(tmp_path: Path) -> None:
    needs_tensorflow()
    pytest.importorskip("tf_keras")
    code, _ = migrated_twice(_LENET)
    script = tmp_path / "lenet.py"
    script.write_text(code, encoding="utf-8")
    proc = run([str(script)], env=NO_GPUS, cwd=tmp_path, drop=("TF_USE_LEGACY_KERAS",))
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"SHAPE \(3, 10\)", proc.stdout), proc.stdout


@pytest.mark.parametrize(
    ("imports", "body"),
    [
        # a slim name with no tf.compat.v1 home (batch_norm's collections, the variable helpers)
        ("import tensorflow.contrib.slim as slim", "y = slim.batch_norm(x)\n"),
        (
            "from tensorflow.contrib import slim",
            "y = slim.conv2d(x, 8, 3)\nv = slim.get_variables()\n",
        ),
        # an arg_scope sets the calls' defaults
        (
            "import tensorflow.contrib.slim as slim",
            "with slim.arg_scope([slim.conv2d], padding='VALID'):\n    y = slim.conv2d(x, 8, 3)\n",
        ),
    ],
)
def test_a_slim_import_with_a_read_without_a_home_is_left_and_said(imports: str, body: str) -> None:
    code, warnings = migrated_twice(f"import tensorflow as tf\n{imports}\n{body}")
    assert imports in code
    (warning,) = [w for w in warnings if "[tf.contrib removed]" in w]
    assert warning.startswith("2: ")
    assert "tf-slim" in warning


def test_a_slim_module_with_no_other_tf1_name_is_graph_code_on_the_first_run() -> None:
    # the calls become tf.compat.v1 names read through tf: the first run sees them as a second
    # would, and disables v2 behaviour once
    code, _ = migrated_twice(
        """
        import tensorflow as tf
        from tensorflow.contrib import slim

        def encoder(x):
            return slim.fully_connected(x, 8, activation_fn=None)
        """
    )
    assert code.count("disable_v2_behavior()") == 1
