"""``contrib_layers`` on names imported from ``tensorflow.contrib`` (hunkim lab-10 / lab-12)."""

from __future__ import annotations

import pytest

pytest.importorskip("libcst")

from tfcompat_gpu.codemod.api import migrate_source

_HEAD = "import tensorflow as tf\n"


def test_the_module_and_its_functions_imported_are_rewritten() -> None:
    code = (
        _HEAD + "from tensorflow.contrib import layers\n"
        "from tensorflow.contrib.layers import fully_connected as fc, flatten\n"
        "x = tf.placeholder(tf.float32, [None, 4, 4])\n"
        "h = fc(flatten(x), 8)\n"
        "y = layers.fully_connected(h, 3, activation_fn=None, scope='out')\n"
    )
    result = migrate_source(code, upgrade=True)
    assert "contrib" not in result.code
    assert (
        "h = tf.compat.v1.layers.dense(tf.compat.v1.layers.flatten(x), 8, "
        "activation=tf.nn.relu)" in result.code
    )
    assert "y = tf.compat.v1.layers.dense(h, 3, activation=None, name='out')" in result.code
    assert migrate_source(result.code, upgrade=True).code == result.code


def test_an_import_nothing_reads_goes() -> None:
    code = (
        _HEAD + "from tensorflow.contrib import layers\n"
        "w = tf.get_variable('w', [3, 3], initializer=tf.contrib.layers.xavier_initializer())\n"
    )
    result = migrate_source(code, upgrade=True)
    assert "contrib" not in result.code
    assert not [w for w in result.warnings if "contrib" in w]


@pytest.mark.parametrize(
    "body",
    [
        "from tensorflow.contrib import layers\ny = layers.batch_norm(x)\n",
        "from tensorflow.contrib import layers\ny = layers.fully_connected(x, 2, "
        "normalizer_fn=tf.nn.l2_normalize)\n",
        "from tensorflow.contrib.layers import fully_connected\nf = fully_connected\n",
        "from tensorflow.contrib.layers import separable_conv2d, flatten\ny = flatten(x)\n",
    ],
)
def test_an_import_with_a_read_without_a_home_is_left_and_said(body: str) -> None:
    result = migrate_source(
        _HEAD + "x = tf.placeholder(tf.float32, [None, 4])\n" + body, upgrade=True
    )
    assert body.splitlines()[0] in result.code
    (warning,) = [w for w in result.warnings if "[tf.contrib removed]" in w]
    assert warning.startswith("3: from tensorflow.contrib")
