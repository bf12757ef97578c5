"""``tf.contrib.eager`` (``tfe``) under ``run``.

TF 1.7-1.15 eager tutorials import ``tensorflow.contrib.eager as tfe`` (or write ``tfe =
tf.contrib.eager``, or ``from tensorflow.contrib.eager.python import tfe``), call
``tf.enable_eager_execution()``, keep weights in ``tfe.Variable``s, take gradients with
``tfe.implicit_gradients(loss)`` for a ``tf.train`` optimizer's ``apply_gradients``, walk a
dataset with ``tfe.Iterator(ds)`` (and ``.next()``), average with ``tfe.metrics`` and save with
``tfe.Checkpoint``.  The drop-in serves each from the TensorFlow 2 name that replaced it.
"""

from __future__ import annotations

import pytest

from tests._child import run_script

pytest.importorskip("tensorflow")

SCRIPT = r"""
    import numpy as np
    import tensorflow as tf
    import tensorflow.contrib.eager as tfe
    from tensorflow.contrib.eager.python import tfe as tfe_python
    from tests._child import emit

    tf.enable_eager_execution()

    w = tfe.Variable(tf.zeros([3, 1]), name="w")
    b = tfe.Variable(0.0, name="b")
    xs = np.arange(24, dtype=np.float32).reshape(8, 3) / 24.0
    ys = xs.sum(axis=1, keepdims=True)
    batches = tf.data.Dataset.from_tensor_slices((xs, ys)).batch(4)

    def squared_error(inputs, targets):
        return tf.reduce_mean(tf.square(tf.matmul(inputs, w) + b - targets))

    value_and_grads = tfe.implicit_value_and_gradients(squared_error)
    grads_fn = tf.contrib.eager.implicit_gradients(squared_error)
    optimizer = tf.train.GradientDescentOptimizer(0.5)
    losses = []
    mean = tfe.metrics.Mean()
    for epoch in range(20):
        for x, y in tfe.Iterator(batches):
            loss, grads_and_vars = value_and_grads(x, y)
            optimizer.apply_gradients(grads_fn(x, y))
            mean(loss)
        losses.append(float(loss))
    first_x, first_y = tfe.Iterator(batches).next()
    accuracy = tfe.metrics.Accuracy()
    accuracy(tf.constant([1, 2, 3]), tf.constant([1, 2, 0]))

    checkpoint = tfe.Checkpoint(w=w, step=tf.train.get_or_create_global_step())
    path = checkpoint.save("./ckpt/model")
    w.assign(tf.ones([3, 1]))
    checkpoint.restore(path)
    emit({
        "eager": tfe.executing_eagerly(),
        "same module": tfe_python is tfe,
        "pairs": [v.name for _, v in grads_and_vars],
        "falls": losses[-1] < losses[0] / 10,
        "restored": float(tf.reduce_sum(w)) != 3.0,
        "batch": first_x.shape.as_list(),
        "accuracy": round(float(accuracy.result()), 3),
        "mean": float(mean.result()) > 0,
    })
"""


def test_tfe_tutorial_trains_and_saves(tmp_path):
    run = run_script(tmp_path, SCRIPT)
    assert run.rc == 0, run.err
    assert run.result == {
        "eager": True,
        "same module": True,
        "pairs": ["w:0", "b:0"],
        "falls": True,
        "restored": True,
        "batch": [4, 3],
        "accuracy": 0.667,
        "mean": True,
    }


def test_unserved_tfe_name_says_what_is(tmp_path):
    run = run_script(
        tmp_path,
        """
        import tensorflow as tf
        tfe = tf.contrib.eager
        tfe.Network
        """,
    )
    assert run.rc != 0
    assert "tf.contrib.eager.Network: tf.contrib was removed" in run.err
    assert "implicit_gradients" in run.err
