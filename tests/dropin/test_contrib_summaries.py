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


# the show_all_variables() helper of TF1 GAN repositories
ANALYZER_SCRIPT = r"""
    import contextlib, io
    import tfcompat_gpu
    tfcompat_gpu.install()
    import tensorflow as tf
    import tensorflow.contrib.slim as slim
    from tests._child import emit

    tf = tf.compat.v1
    tf.disable_v2_behavior()
    with tf.variable_scope("generator"):
        tf.get_variable("w", [5, 5, 3, 64])
        tf.get_variable("b", [64], dtype=tf.float64)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        totals = slim.model_analyzer.analyze_vars(tf.trainable_variables(), print_info=True)
        ops = slim.model_analyzer.analyze_ops(tf.get_default_graph())
    emit({"totals": list(totals), "printed": printed.getvalue().splitlines(), "ops": ops})
"""


def test_slim_model_analyzer_lists_variables_as_tf1():
    out = run_py(ANALYZER_SCRIPT)
    assert out["totals"] == [5 * 5 * 3 * 64 + 64, 5 * 5 * 3 * 64 * 4 + 64 * 8]
    assert out["printed"] == [
        "---------",
        "Variables: name (type shape) [size]",
        "---------",
        "generator/w:0 (float32_ref 5x5x3x64) [4800, bytes: 19200]",
        "generator/b:0 (float64_ref 64) [64, bytes: 512]",
        "Total size of variables: 4864",
        "Total bytes of variables: 19712",
    ]
    assert out["ops"] > 4864
