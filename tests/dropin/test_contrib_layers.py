"""``tf.contrib.layers``' initializers and regularizers under ``tfcompat-gpu run``.

TF1 tutorials build their weights as ``tf.get_variable(..., initializer=
tf.contrib.layers.xavier_initializer())``, some with ``l2_regularizer``; the drop-in serves
these functions with what TF1's computed (tensorflow/contrib/layers/python/layers/
initializers.py and regularizers.py), and names tf-slim for the layer functions it lacks.
"""

from __future__ import annotations

import math

import pytest

from tests._child import run_py

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
        tf.contrib.layers.fully_connected
    except AttributeError as error:
        out["fully_connected"] = str(error)
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
    assert "tf.contrib.layers.fully_connected: tf.contrib was removed" in out["fully_connected"]
    assert "pip install tf-slim" in out["fully_connected"]
    assert "the drop-in provides l1_regularizer, l2_regularizer" in out["fully_connected"]
