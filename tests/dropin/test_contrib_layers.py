"""``tf.contrib.layers``' initializers, regularizers and two layers under ``tfcompat-gpu run``.

TF1 tutorials build their weights as ``tf.get_variable(..., initializer=
tf.contrib.layers.xavier_initializer())``, some with ``l2_regularizer``; the drop-in serves
these functions with what TF1's computed (tensorflow/contrib/layers/python/layers/
initializers.py and regularizers.py), and names tf-slim for the layer functions it lacks
(``separable_conv2d``).
Their RNN and CNN tutorials (hunkim's lab-10-7 and lab-12, Hvass') build layers with
``tf.contrib.layers.fully_connected`` and ``flatten``, served as TF 1.15's layers.py built them.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests._child import run_py, run_script

pytest.importorskip("tensorflow")

SCRIPT = r"""
    import numpy as np
    import tfcompat_gpu
    tfcompat_gpu.install()
    import tensorflow as tf
    from tests._child import emit
    from tensorflow.contrib.layers import l2_regularizer, variance_scaling_initializer

    tf = tf.compat.v1
    tf.disable_v2_behavior()
    w = tf.get_variable("w", [400, 600], initializer=tf.contrib.layers.xavier_initializer(seed=1))
    k = tf.get_variable("k", [3, 3, 200, 100],
                        initializer=tf.contrib.layers.xavier_initializer_conv2d(uniform=False))
    h = tf.get_variable("h", [500, 300], initializer=variance_scaling_initializer(seed=2))
    reg = l2_regularizer(0.5)(w)
    out = {"none": l2_regularizer(0.0)(w)}
    try:
        tf.contrib.layers.separable_conv2d
    except AttributeError as error:
        out["batch_norm"] = str(error)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        wv, kv, hv, rv = sess.run([w, k, h, reg])
    out.update(w_max=float(np.abs(wv).max()), k_std=float(kv.std()), h_std=float(hv.std()),
               reg=float(rv), reg_expected=float(0.5 * (wv.astype(np.float64) ** 2).sum() / 2))
    emit(out)
"""


def test_contrib_layers_initializers_and_regularizers_draw_as_tf1():
    out = run_py(SCRIPT)
    # Xavier uniform: U(-sqrt(6 / (fan_in + fan_out)), +...)
    limit = math.sqrt(6 / (400 + 600))
    assert 0.95 * limit < out["w_max"] <= limit
    # Xavier normal: truncated normal of stddev sqrt(1.3 / n), n = (fan_in + fan_out) / 2,
    # whose sample spread is 0.8796 of that
    fan_in, fan_out = 3 * 3 * 200, 3 * 3 * 100
    expected = math.sqrt(1.3 / ((fan_in + fan_out) / 2)) * 0.87962566103423978
    assert out["k_std"] == pytest.approx(expected, rel=0.02)
    # variance_scaling_initializer's defaults (He): factor 2, FAN_IN, truncated normal
    assert out["h_std"] == pytest.approx(math.sqrt(1.3 * 2 / 500) * 0.87962566103423978, rel=0.02)
    assert out["reg"] == pytest.approx(out["reg_expected"], rel=1e-5)
    assert out["none"] is None
    assert "tf.contrib.layers.separable_conv2d: tf.contrib was removed" in out["batch_norm"]
    assert "pip install tf-slim" in out["batch_norm"]
    assert (
        "the drop-in provides avg_pool2d, batch_norm, conv2d, conv2d_transpose, convolution"
        in out["batch_norm"]
    )


# lab-12-2 (a char-RNN's output layer over [batch * steps, hidden]), lab-10-7 (named scopes,
# xavier, dropout between), a CNN's flatten, on small synthetic arrays, under `run`
LAYERS_SCRIPT = r"""
    import numpy as np
    import tensorflow as tf
    from tensorflow.contrib import layers
    from tensorflow.contrib.layers import flatten, fully_connected
    from tests._child import emit

    rng = np.random.RandomState(0)
    x_data = rng.randn(4, 3).astype(np.float32)
    seq_data = rng.randn(2, 5, 3).astype(np.float32)
    img_data = rng.randn(2, 4, 4, 2).astype(np.float32)
    X = tf.placeholder(tf.float32, [None, 3])
    S = tf.placeholder(tf.float32, [None, 5, 3])
    I = tf.placeholder(tf.float32, [None, 4, 4, 2])
    relu = tf.contrib.layers.fully_connected(X, 4)
    linear = fully_connected(relu, 2, activation_fn=None,
                             weights_regularizer=tf.contrib.layers.l2_regularizer(0.1),
                             biases_initializer=tf.constant_initializer([0.25, -0.5]),
                             biases_regularizer=layers.l1_regularizer(0.5),
                             outputs_collections="outputs")
    seq = layers.fully_connected(S, 6, scope="seq")
    with tf.variable_scope("outer"):
        h1 = fully_connected(X, 4, scope="h1", trainable=False,
                             variables_collections={"weights": ["kernels"]})
    again = fully_connected(X, 4, scope="outer/h1", reuse=True)
    normed = fully_connected(X, 3, normalizer_fn=lambda t, scale: t * scale,
                             normalizer_params={"scale": 2.0})
    flat = flatten(I, outputs_collections="outputs")
    flat_seq = tf.contrib.layers.flatten(S)
    part = tf.placeholder(tf.float32, [5, None])
    out = {
        "variables": [v.name for v in tf.global_variables()],
        "trainable": [v.name for v in tf.trainable_variables()],
        "model": [v.name for v in tf.model_variables()],
        "kernels": [v.name for v in tf.get_collection("kernels")],
        "names": [relu.name, linear.name],
        "aliases": [t.aliases for t in tf.get_collection("outputs")],
        "shapes": [seq.shape.as_list(), flat.shape.as_list(), flat_seq.shape.as_list(),
                   flatten(part).shape.as_list()],
        "losses": len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)),
    }
    errors = {}
    for key, call in {
        "rank1": lambda: flatten(tf.placeholder(tf.float32, [5])),
        "fc_rank1": lambda: fully_connected(tf.placeholder(tf.float32, [5]), 2),
        "depth": lambda: fully_connected(tf.placeholder(tf.float32, [None, None]), 2),
        "units": lambda: fully_connected(X, 2.0),
    }.items():
        try:
            call()
        except (ValueError, TypeError) as error:
            errors[key] = type(error).__name__
    out["errors"] = errors
    loss = tf.losses.get_regularization_loss()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        names = ["fully_connected/weights", "fully_connected/biases", "fully_connected_1/weights",
                 "fully_connected_1/biases", "seq/weights", "seq/biases", "outer/h1/weights",
                 "fully_connected_2/weights"]
        found = {v.op.name: v for v in tf.global_variables()}
        values = sess.run([found[name] for name in names])
        feed = {X: x_data, S: seq_data, I: img_data}
        got = sess.run([relu, linear, seq, h1, again, normed, flat, flat_seq, loss], feed)
    out["values"] = {name: value.tolist() for name, value in zip(names, values)}
    out["got"] = [np.asarray(value).tolist() for value in got]
    out["data"] = [x_data.tolist(), seq_data.tolist(), img_data.tolist()]
    emit(out)
"""


def test_fully_connected_and_flatten_compute_what_tf1s_did(tmp_path):
    run = run_script(tmp_path, LAYERS_SCRIPT)
    assert run.rc == 0, run.err
    out = run.result
    fc = ["fully_connected/weights:0", "fully_connected/biases:0"]
    fc1 = ["fully_connected_1/weights:0", "fully_connected_1/biases:0"]
    seq = ["seq/weights:0", "seq/biases:0"]
    h1 = ["outer/h1/weights:0", "outer/h1/biases:0"]
    # the names TF1 checkpoints hold: default scopes made unique, no `biases` with a normalizer
    assert out["variables"] == [*fc, *fc1, *seq, *h1, "fully_connected_2/weights:0"]
    assert out["model"] == out["variables"]
    assert out["trainable"] == [*fc, *fc1, *seq, "fully_connected_2/weights:0"]
    assert out["kernels"] == ["outer/h1/weights:0"]
    assert out["names"] == ["fully_connected/Relu:0", "fully_connected_1/BiasAdd:0"]
    assert out["aliases"] == [["fully_connected_1"], ["Flatten"]]
    assert out["shapes"] == [[None, 5, 6], [None, 32], [None, 15], [5, None]]
    assert out["losses"] == 2
    assert out["errors"] == {
        "rank1": "ValueError",
        "fc_rank1": "ValueError",
        "depth": "ValueError",
        "units": "ValueError",
    }
    v = {name: np.array(value) for name, value in out["values"].items()}
    x, s, img = (np.array(data, np.float32) for data in out["data"])
    relu, linear, seq_out, h1_out, again, normed, flat, flat_seq, loss = (
        np.array(value) for value in out["got"]
    )
    # Xavier uniform weights, zero biases
    assert np.abs(v["fully_connected/weights"]).max() <= math.sqrt(6 / (3 + 4))
    assert not v["fully_connected/biases"].any()
    assert v["seq/weights"].shape == (3, 6)
    hidden = np.maximum(x @ v["fully_connected/weights"] + v["fully_connected/biases"], 0)
    np.testing.assert_allclose(relu, hidden, rtol=1e-5, atol=1e-6)
    w1, b1 = v["fully_connected_1/weights"], v["fully_connected_1/biases"]
    np.testing.assert_array_equal(b1, [0.25, -0.5])
    np.testing.assert_allclose(linear, hidden @ w1 + b1, rtol=1e-5, atol=1e-6)
    # rank 3: contracted over the last axis, the steps kept
    np.testing.assert_allclose(
        seq_out, np.maximum(s @ v["seq/weights"] + v["seq/biases"], 0), rtol=1e-5, atol=1e-6
    )
    np.testing.assert_allclose(again, h1_out)  # reuse=True: the same variables
    np.testing.assert_allclose(
        normed, np.maximum(2.0 * (x @ v["fully_connected_2/weights"]), 0), rtol=1e-5, atol=1e-6
    )
    np.testing.assert_array_equal(flat, img.reshape(2, 32))
    np.testing.assert_array_equal(flat_seq, s.reshape(2, 15))
    # l2: 0.1 * sum(w ** 2) / 2, l1 on the biases: 0.5 * sum(|b|)
    assert loss == pytest.approx(0.1 * (w1**2).sum() / 2 + 0.5 * np.abs(b1).sum(), rel=1e-5)


# lab-10-7-m's shape (fully_connected layers normalized by batch_norm and dropped out, their
# arguments set once by arg_scope, is_training a placeholder, the moving averages updated in
# place), with a convolution's output normalized in the default UPDATE_OPS way, small
# synthetic arrays
BATCH_NORM_SCRIPT = r"""
    import numpy as np
    import tensorflow as tf
    from tensorflow.contrib.framework import arg_scope
    from tensorflow.contrib.layers import batch_norm, dropout, flatten, fully_connected
    from tests._child import emit

    tf.set_random_seed(7)
    rng = np.random.RandomState(0)
    x_data = rng.randn(8, 4, 4, 1).astype(np.float32) * 3 + 1
    y_data = np.eye(3, dtype=np.float32)[rng.randint(0, 3, 8)]
    X = tf.placeholder(tf.float32, [None, 4, 4, 1])
    Y = tf.placeholder(tf.float32, [None, 3])
    train = tf.placeholder(tf.bool)
    kernel = tf.get_variable("kernel", [3, 3, 1, 2], trainable=False)  # a fixed batch
    conv = batch_norm(tf.nn.conv2d(X, kernel, [1, 1, 1, 1], "SAME"), decay=0.5, scale=True,
                      is_training=train, activation_fn=tf.nn.relu)
    params = {"is_training": train, "decay": 0.9, "updates_collections": None}
    with arg_scope([fully_connected], activation_fn=tf.nn.relu, biases_initializer=None,
                   normalizer_fn=batch_norm, normalizer_params=params):
        with arg_scope([fully_connected, dropout], scope="inner"):
            h1 = fully_connected(flatten(conv), 6, scope="h1")
        h1 = dropout(h1, 0.7, is_training=train)
        logits = fully_connected(h1, 3, activation_fn=None, scope="out")
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=Y, logits=logits))
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        step = tf.train.AdamOptimizer(0.05).minimize(loss)
    errors = {}
    for argument, value in [("param_initializers", {"beta": tf.ones_initializer()}),
                            ("renorm", True), ("data_format", "NCHW")]:
        try:
            batch_norm(flatten(X), **{argument: value})
        except ValueError as error:
            errors[argument] = str(error)
    found = {v.op.name: v for v in tf.global_variables()}
    names = ["BatchNorm/moving_mean", "BatchNorm/moving_variance", "h1/BatchNorm/moving_mean",
             "h1/BatchNorm/moving_variance", "h1/BatchNorm/beta"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        feed = {X: x_data, Y: y_data, train: True}
        losses = [float(sess.run(loss, {**feed, train: False}))]
        for _ in range(5):
            sess.run(step, feed)
            losses.append(float(sess.run(loss, {**feed, train: False})))
        values = sess.run([found[name] for name in names])
        h1_eval = sess.run(h1, {X: x_data, train: False})
        pre = sess.run(tf.nn.conv2d(X, kernel, [1, 1, 1, 1], "SAME"), {X: x_data})
    emit({
        "variables": sorted(found), "model": sorted(v.op.name for v in tf.model_variables()),
        "update_ops": len(tf.get_collection(tf.GraphKeys.UPDATE_OPS)), "losses": losses,
        "values": [v.tolist() for v in values], "pre": pre.tolist(), "errors": errors,
        "h1_eval": h1_eval.tolist(),
    })
"""


def test_batch_norm_and_arg_scope_train_as_tf1s_did(tmp_path):
    run = run_script(tmp_path, BATCH_NORM_SCRIPT)
    assert run.rc == 0, run.err
    out = run.result
    bn = ["BatchNorm/beta", "BatchNorm/gamma", "BatchNorm/moving_mean", "BatchNorm/moving_variance"]
    layers = ["h1/BatchNorm/beta", "h1/BatchNorm/moving_mean", "h1/BatchNorm/moving_variance"]
    layers += [name.replace("h1", "out") for name in layers] + ["h1/weights", "out/weights"]
    # TF1's names, no biases under a normalizer (biases_initializer=None from the scope), the
    # inner scope's scope="h1" beaten by the call's, no gamma unless scale=True
    assert [v for v in out["variables"] if "Adam" not in v and "power" not in v] == sorted(
        [*bn, *layers, "kernel"]
    )
    assert out["model"] == sorted([*bn, *layers])
    # the conv's two updates in UPDATE_OPS; the in-place (updates_collections=None) ones not
    assert out["update_ops"] == 2
    assert out["losses"][-1] < out["losses"][0]
    mean, variance, h1_mean, h1_variance, h1_beta = (np.array(v) for v in out["values"])
    # five training steps of a 0.5 decay on the same batch: the moving mean is 1 - 0.5**5 of
    # the batch mean, the variance moves from 1 to the (Bessel-corrected) batch variance
    pre = np.array(out["pre"]).reshape(-1, 2)
    np.testing.assert_allclose(mean, (1 - 0.5**5) * pre.mean(0), rtol=1e-4, atol=1e-5)
    expected = 0.5**5 + (1 - 0.5**5) * pre.var(0, ddof=1)
    np.testing.assert_allclose(variance, expected, rtol=1e-4)
    assert np.abs(h1_mean).sum() > 0  # updated in place
    assert (h1_variance != 1).all()
    assert np.abs(h1_beta).sum() > 0  # trained
    assert np.array(out["h1_eval"]).shape == (8, 6)
    assert set(out["errors"]) == {"param_initializers", "renorm", "data_format"}
    for argument, message in out["errors"].items():
        assert message.startswith(f"tf.contrib.layers.batch_norm({argument}=")
        assert "pip install tf-slim" in message
