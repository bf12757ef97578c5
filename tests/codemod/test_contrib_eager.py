"""``contrib_eager``: ``tf.contrib.eager`` (``tfe``) names become their TensorFlow 2 names.

Modelled on the TF 1.x eager-API examples (a logistic regression trained with ``tfe =
tf.contrib.eager``, ``tfe.Variable`` weights, ``tfe.Iterator(dataset)``'s ``next()`` and
``tfe.implicit_gradients(loss_fn)`` handed to a ``tf.train`` optimizer), and on the eager guide's
object-based saving (``tfe.Checkpoint``).  The migrated script runs with plain ``python``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import NO_GPUS, migrated_twice, needs_tensorflow

from tests._child import run

_LOGREG = """import numpy as np
import tensorflow as tf
import tensorflow.contrib.eager as tfe

tf.enable_eager_execution()

rng = np.random.RandomState(0)
images = rng.rand(64, 6).astype(np.float32)
labels = (images[:, 0] > 0.5).astype(np.int64)
dataset = tf.data.Dataset.from_tensor_slices((images, labels)).repeat().batch(16)
dataset_iter = tfe.Iterator(dataset)
W = tfe.Variable(tf.zeros([6, 2]), name='weights')
b = tfe.Variable(tf.zeros([2]), name='bias')


def logistic_regression(inputs):
    return tf.matmul(inputs, W) + b


def loss_fn(inference_fn, inputs, labels):
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        logits=inference_fn(inputs), labels=labels))


optimizer = tf.train.GradientDescentOptimizer(learning_rate=1.0)
grad = tfe.implicit_gradients(loss_fn)
value_and_grad = tfe.implicit_value_and_gradients(loss_fn)
losses = []
for step in range(30):
    x_batch, y_batch = dataset_iter.next()
    loss, pairs = value_and_grad(logistic_regression, x_batch, y_batch)
    losses.append(float(loss))
    optimizer.apply_gradients(grad(logistic_regression, x_batch, y_batch))
accuracy = tfe.metrics.Accuracy()
accuracy(labels, tf.argmax(logistic_regression(images), 1))
checkpoint = tfe.Checkpoint(W=W, b=b)
path = checkpoint.save('./ckpt/model')
print("PAIRS", [v.name for _, v in pairs], losses[-1] < losses[0] / 2)
print("ACCURACY", float(accuracy.result()) > 0.8, bool(path))
"""


def test_the_names_become_their_tf2_names_and_the_binding_goes() -> None:
    code, warnings = migrated_twice(_LOGREG)
    assert "tfe" not in code
    assert "contrib" not in code
    assert "dataset_iter = iter(dataset)" in code
    assert "W = tf.Variable(tf.zeros([6, 2]), name='weights')" in code
    assert "grad = _implicit_gradients(loss_fn)" in code
    assert "accuracy = tf.keras.metrics.Accuracy()" in code
    assert "checkpoint = tf.train.Checkpoint(W=W, b=b)" in code
    # the helpers once, after the imports
    assert code.count("def _implicit_value_and_gradients(f):") == 1
    assert code.index("import tensorflow") < code.index("def _implicit_gradients")
    assert not [w for w in warnings if "contrib" in w]


def test_the_migrated_script_trains_with_plain_python(tmp_path: Path) -> None:
    needs_tensorflow()
    script = tmp_path / "logreg.py"
    script.write_text(migrated_twice(_LOGREG)[0], encoding="utf-8")
    proc = run([str(script)], env=NO_GPUS, cwd=tmp_path, drop=("TF_USE_LEGACY_KERAS",))
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"PAIRS \['weights:0', 'bias:0'\] True", proc.stdout), proc.stdout
    assert "ACCURACY True True" in proc.stdout


def test_a_name_without_a_tf2_home_leaves_the_binding_with_a_warning() -> None:
    source = (
        "import tensorflow as tf\ntfe = tf.contrib.eager\nsaver = tfe.Saver([tfe.Variable(1.0)])\n"
    )
    code, warnings = migrated_twice(source)
    assert "tfe = tf.contrib.eager\n" in code
    assert "saver = tfe.Saver([tfe.Variable(1.0)])" in code
    (warning,) = [w for w in warnings if "contrib" in w]
    assert warning.startswith("2: tf.contrib.eager (tfe) left unchanged")
    assert "tfe.Saver has no TF2 name" in warning


def test_names_written_out_are_rewritten() -> None:
    source = (
        "import tensorflow as tf\n"
        "batches = tf.data.Dataset.range(4).batch(2)\n"
        "for batch in tf.contrib.eager.Iterator(batches):\n"
        "    mean = tf.contrib.eager.metrics.Mean()\n"
        "    net = tf.contrib.eager.Network()\n"
    )
    code, warnings = migrated_twice(source)
    assert "for batch in iter(batches):" in code
    assert "mean = tf.keras.metrics.Mean()" in code
    assert "net = tf.contrib.eager.Network()" in code
    (warning,) = [w for w in warnings if "contrib" in w]
    assert warning.startswith("5: tf.contrib.eager.Network left unchanged: it has no TF2 name")


def test_the_module_bound_in_a_function_is_left_with_a_warning() -> None:
    source = (
        "import tensorflow as tf\n"
        "def main():\n"
        "    tfe = tf.contrib.eager\n"
        "    return tfe.Variable(1.0)\n"
    )
    code, warnings = migrated_twice(source)
    assert "    tfe = tf.contrib.eager\n" in code
    (warning,) = [w for w in warnings if "contrib" in w]
    assert warning.startswith("3: tf.contrib.eager left unchanged: tf.contrib was removed")


def test_an_import_in_a_block_or_a_function_is_rewritten_in_its_scope() -> None:
    # a demo under ``if __name__ == '__main__':`` that turns eager execution on (tensorpack's
    # model files), and a function importing tfe for itself
    source = (
        "import tensorflow as tf\n"
        "def run():\n"
        "    from tensorflow.contrib import eager as tfe\n"
        "    return tfe.Variable(1.0), tfe.Network\n"
        "if __name__ == '__main__':\n"
        "    import tensorflow.contrib.eager as tfe\n"
        "    tfe.enable_eager_execution()\n"
    )
    code, warnings = migrated_twice(source)
    assert "if __name__ == '__main__':\n    tf.compat.v1.enable_eager_execution()\n" in code
    assert "    from tensorflow.contrib import eager as tfe\n" in code
    (warning,) = [w for w in warnings if "contrib" in w]
    assert warning.startswith("3: tf.contrib.eager (tfe) left unchanged")
    assert "tfe.Network has no TF2 name" in warning
