"""``tf.contrib.layers``' summary functions and ``tf.contrib.framework``'s global step under
``tfcompat-gpu run``.

Reinforcement-learning estimators of the TF1 era build a shared conv tower with
``tf.contrib.layers.conv2d`` / ``fully_connected``, log each layer with
``tf.contrib.layers.summarize_activation`` and train with
``apply_gradients(..., global_step=tf.contrib.framework.get_global_step())``; the drop-in serves
both as TF 1.15 made them (tensorflow/contrib/layers/python/layers/summaries.py).
"""

from __future__ import annotations

import pytest

from tests._child import run_py

pytest.importorskip("tensorflow")

SCRIPT = r"""
    import numpy as np
    import tfcompat_gpu
    tfcompat_gpu.install()
    import tensorflow as tf
    from tests._child import emit

    tf = tf.compat.v1
    tf.disable_v2_behavior()
    out = {}
    tf.contrib.framework.get_or_create_global_step()
    x = tf.placeholder(tf.float32, [None, 6], name="x")
    with tf.variable_scope("tower"):
        hidden = tf.contrib.layers.fully_connected(x, 4)
        logits = tf.contrib.layers.fully_connected(hidden, 2, activation_fn=tf.nn.relu6)
        tf.contrib.layers.summarize_activation(hidden)
        tf.contrib.layers.summarize_activation(logits)
        loss = tf.reduce_sum(logits ** 2)
        tf.contrib.layers.summarize_tensor(loss, "loss")
    tf.contrib.layers.summarize_tensors([loss])
    tf.contrib.layers.summarize_variables("tower/fully_connected/")
    train = tf.train.GradientDescentOptimizer(0.1).minimize(
        loss, global_step=tf.contrib.framework.get_global_step())
    merged = tf.summary.merge_all()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        feed = {x: np.random.RandomState(0).randn(5, 6).astype(np.float32)}
        pre = sess.graph.get_tensor_by_name("tower/fully_connected/Relu:0").op.inputs[0]
        p, summary, _ = sess.run([pre, merged, train], feed)
        values = tf.Summary.FromString(summary).value
        out["tags"] = sorted(value.tag for value in values)
        out["zeros"] = [v.simple_value for v in values if v.tag.endswith("Relu/zeros")]
        out["zeros_expected"] = float((p < 0).mean())
        out["step"] = int(sess.run(tf.train.get_global_step()))
    try:
        tf.contrib.layers.summarize_tensor(tf.placeholder(tf.float32, [None]), "t")
        tf.contrib.layers.summarize_activation(tf.constant([1.0]))
        out["vector"] = "ok"
    except ValueError as error:
        out["vector"] = str(error)
    emit(out)
"""


def test_contrib_summaries_and_global_step_as_tf1():
    out = run_py(SCRIPT)
    assert out["step"] == 1
    assert out["zeros"] == [pytest.approx(out["zeros_expected"])]
    assert out["vector"] == "ok"
    # the tags TF 1.15 gave: <op>/activation and <op>/zeros (ReLU), <op>/sixes (ReLU6), the
    # loss under the tag given, a tensor without tag as <op>_summary, the tower's variables;
    # tf.summary puts the name scope in front of a tag, the op's own scope included
    assert out["tags"] == sorted(
        [
            "tower/tower/fully_connected/Relu/zeros",
            "tower/tower/fully_connected/Relu/activation",
            "tower/tower/fully_connected_1/Relu6/zeros",
            "tower/tower/fully_connected_1/Relu6/sixes",
            "tower/tower/fully_connected_1/Relu6/activation",
            "tower/loss",
            "tower/Sum_summary",
            "tower/fully_connected/weights_summary",
            "tower/fully_connected/biases_summary",
        ]
    )
