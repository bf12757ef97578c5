"""``tf1_legacy_keras`` and ``contrib_layers``: TF1 layers and cells run on tf_keras after migrate.

Modelled on TF1 tutorials of the kind of golbin/TensorFlow-Tutorials (``tf.layers.conv2d``
CNNs), hunkim/DeepLearningZeroToAll lab-12 (``tf.contrib.rnn`` cells and
``tf.contrib.layers.fully_connected``) and Hvass-Labs' ``tf.contrib.layers.flatten``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import NO_GPUS, needs_tensorflow

from tests._child import run
from tfcompat_gpu.codemod.api import migrate_source

_SETDEFAULT = 'os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")'

_CNN = '''"""A small CNN on random images."""
from __future__ import print_function

import numpy as np
import tensorflow as tf

X = tf.placeholder(tf.float32, [None, 8, 8, 1])
Y = tf.placeholder(tf.float32, [None, 3])
is_training = tf.placeholder(tf.bool)
net = tf.layers.conv2d(X, 4, [3, 3], activation=tf.nn.relu)
net = tf.layers.max_pooling2d(net, [2, 2], [2, 2])
net = tf.contrib.layers.flatten(net)
net = tf.contrib.layers.fully_connected(net, 16)
logits = tf.contrib.layers.fully_connected(net, 3, activation_fn=None)
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=Y, logits=logits))
train = tf.train.AdamOptimizer(0.01).minimize(loss)
rng = np.random.RandomState(0)
x = rng.rand(16, 8, 8, 1)
y = np.eye(3)[np.arange(16) % 3]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    losses = [sess.run([loss, train], {X: x, Y: y, is_training: True})[0] for _ in range(20)]
print("LOSSES", losses[0] > losses[-1])
'''


def test_the_variable_goes_after_the_docstring_and_future_imports() -> None:
    result = migrate_source(_CNN, upgrade=True)
    lines = result.code.splitlines()
    assert lines[0] == '"""A small CNN on random images."""'
    assert lines[1] == "from __future__ import print_function"
    at = lines.index(_SETDEFAULT)
    assert lines[at - 1] == "import os"
    assert lines[at - 2].startswith("# tf.layers / tf.nn.rnn_cell come from tf_keras")
    assert "pip install tf_keras" in lines[at - 2]
    assert at < lines.index("import tensorflow.compat.v1 as tf")
    # fully_connected's relu default is written out; activation_fn=None stays None
    assert "tf.compat.v1.layers.dense(net, 16, activation=tf.nn.relu)" in result.code
    assert "tf.compat.v1.layers.dense(net, 3, activation=None)" in result.code
    assert "tf.compat.v1.layers.flatten(net)" in result.code
    assert "contrib" not in result.code
    (warning,) = [w for w in result.warnings if "tf_keras" in w]
    assert warning.startswith("10: tf.layers.conv2d comes from tf_keras")
    assert "pip install tf_keras" in warning


def test_a_second_migrate_changes_nothing_and_says_nothing_of_tf_keras() -> None:
    once = migrate_source(_CNN, upgrade=True)
    again = migrate_source(once.code, upgrade=True)
    assert again.code == once.code
    assert not [w for w in again.warnings if "tf_keras" in w]


def test_a_file_that_sets_the_variable_is_left_as_it_is() -> None:
    code = (
        "import os\nos.environ['TF_USE_LEGACY_KERAS'] = 'true'\nimport tensorflow as tf\n"
        "x = tf.placeholder(tf.float32, [None, 3])\ny = tf.layers.dense(x, 2)\n"
    )
    result = migrate_source(code, upgrade=True)
    assert _SETDEFAULT not in result.code
    assert result.code.count("import os") == 1


def test_a_leading_import_os_is_used() -> None:
    code = (
        "import os\nimport sys\nimport tensorflow as tf\n"
        "x = tf.placeholder(tf.float32, [None, 5, 3])\n"
        "cell = tf.nn.rnn_cell.BasicLSTMCell(4)\n"
        "out, _ = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)\n"
    )
    result = migrate_source(code, upgrade=True)
    lines = result.code.splitlines()
    assert lines[0] == "import os"
    assert lines[2] == _SETDEFAULT
    assert result.code.count("import os") == 1
    assert [w for w in result.warnings if "tf.nn.rnn_cell.BasicLSTMCell comes from" in w]


def test_not_with_the_standalone_keras_package() -> None:
    # Keras 3 would stay Keras 3 while tf.keras became tf_keras: the file is left to its user
    code = "import keras\nimport tensorflow as tf\nx = tf.compat.v1.layers.dense(y, 2)\n"
    result = migrate_source(code, upgrade=True)
    assert "TF_USE_LEGACY_KERAS" not in result.code.replace("TF_USE_LEGACY_KERAS=1", "")
    assert any("[served by tf_keras only]" in w for w in result.warnings)


def test_fully_connected_without_a_home_is_left() -> None:
    code = (
        "import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 3])\n"
        "y = tf.contrib.layers.fully_connected(x, 2, normalizer_fn=tf.contrib.layers.batch_norm)\n"
        "z = tf.contrib.layers.fully_connected(x, 2, biases_initializer=None, scope='fc')\n"
    )
    result = migrate_source(code, upgrade=True)
    assert "y = tf.contrib.layers.fully_connected(x, 2, normalizer_fn=" in result.code
    assert (
        "z = tf.compat.v1.layers.dense(x, 2, activation=tf.nn.relu, use_bias=False, name='fc')"
        in result.code
    )
    assert any(w.startswith("3: tf.contrib.layers left unchanged") for w in result.warnings)


def test_in_a_notebook_the_variable_goes_in_the_cell_of_the_import(tmp_path: Path) -> None:
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# RNN"]},
        {
            "cell_type": "code",
            "metadata": {},
            "execution_count": None,
            "outputs": [],
            "source": ["%matplotlib inline\n", "import tensorflow as tf\n", "import numpy as np"],
        },
        {
            "cell_type": "code",
            "metadata": {},
            "execution_count": None,
            "outputs": [],
            "source": [
                "x = tf.placeholder(tf.float32, [None, 5, 3])\n",
                "cell = tf.contrib.rnn.BasicLSTMCell(4)",
            ],
        },
    ]
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "rnn.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    command = ["-m", "tfcompat_gpu", "migrate", "--write", "--no-cache", str(path)]
    for _ in range(2):  # the second run changes nothing
        proc = run(command, env=NO_GPUS, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
    new = json.loads(path.read_text(encoding="utf-8"))["cells"]
    first = "".join(new[1]["source"])
    assert first.count(_SETDEFAULT) == 1
    assert first.index(_SETDEFAULT) < first.index("import tensorflow.compat.v1 as tf")
    assert "%matplotlib inline\n" in first  # the magic stays in its cell
    assert "tf.compat.v1.nn.rnn_cell.BasicLSTMCell(4)" in "".join(new[2]["source"])


def test_the_migrated_graph_script_runs_with_plain_python(tmp_path: Path) -> None:
    # no TF_USE_LEGACY_KERAS in the environment: the script sets it before importing TF
    needs_tensorflow()
    pytest.importorskip("tf_keras")
    script = tmp_path / "cnn.py"
    script.write_text(migrate_source(_CNN, upgrade=True).code, encoding="utf-8")
    proc = run([str(script)], env=NO_GPUS, cwd=tmp_path, drop=("TF_USE_LEGACY_KERAS",))
    assert proc.returncode == 0, proc.stderr
    assert "LOSSES True" in proc.stdout
