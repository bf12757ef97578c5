"""``tf.contrib.layers.conv2d`` and its pooling layers, and ``tf.contrib.slim``, under ``run``.

Modelled on TF1 scripts built with TF-Slim: LeNet on MNIST (``slim.arg_scope([slim.conv2d,
slim.fully_connected], normalizer_fn=slim.batch_norm, ...)``, ``slim.conv2d(x, 32, [5, 5],
scope='conv1')``, ``slim.max_pool2d(net, [2, 2])``), a VGG-style net (``slim.repeat(net, 2,
slim.conv2d, 64, [3, 3], scope='conv1')``, ``slim.l2_regularizer``), a DCGAN generator with
``slim.conv2d_transpose``, and fine-tuning with ``slim.get_variables_to_restore(exclude=...)``.
The layers compute what TF 1.15's did (tensorflow/contrib/layers/python/layers/layers.py), checked
against ``tf.nn`` with the variables' own values, and name their variables as TF1 did.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests._child import run_script

pytest.importorskip("tensorflow")

CONV_SCRIPT = r"""
    import numpy as np
    import tensorflow as tf
    from tensorflow.contrib.layers import avg_pool2d, conv2d, max_pool2d
    from tests._child import emit

    rng = np.random.RandomState(0)
    data = rng.randn(2, 9, 9, 3).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, 9, 9, 3])
    h = conv2d(x, 4, 3)  # relu, SAME, xavier, zeros
    valid = tf.contrib.layers.conv2d(x, 5, [2, 2], stride=2, padding="VALID",
                                     activation_fn=None, biases_initializer=None)
    named = tf.contrib.layers.conv2d(x, 2, 3, rate=2, scope="dilated",
                                     weights_regularizer=tf.contrib.layers.l2_regularizer(0.1))
    pooled = max_pool2d(h, 2)
    averaged = avg_pool2d(h, [3, 3], stride=1, padding="SAME")
    first = conv2d(tf.transpose(x, [0, 3, 1, 2]), 4, 3, data_format="NCHW", scope="nchw")
    names = sorted(v.op.name for v in tf.global_variables())
    model = sorted(v.op.name for v in tf.get_collection(tf.GraphKeys.MODEL_VARIABLES))
    regs = len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        w, b, wv, wd, bd = sess.run(["Conv/weights:0", "Conv/biases:0", "Conv_1/weights:0",
                                     "dilated/weights:0", "dilated/biases:0"])
        got = sess.run([h, valid, named, pooled, averaged], {x: data})
        # the same computations, from tf.nn with the variables' values
        ref_h = tf.nn.relu(tf.nn.conv2d(data, w, 1, "SAME") + b)
        ref_valid = tf.nn.conv2d(data, wv, 2, "VALID")
        ref_named = tf.nn.relu(tf.nn.conv2d(data, wd, 1, "SAME", dilations=2) + bd)
        ref = sess.run([ref_h, ref_valid, ref_named,
                        tf.nn.max_pool2d(ref_h, 2, 2, "VALID"),
                        tf.nn.avg_pool2d(ref_h, 3, 1, "SAME")])
    emit({
        "names": names,
        "model": model == names,
        "regs": regs,
        "shapes": [list(g.shape) for g in got],
        "static": [t.shape.as_list() for t in (h, valid, pooled, first)],
        "same": [bool(np.allclose(g, r, atol=1e-5)) for g, r in zip(got, ref)],
        "w_limit": float(np.abs(w).max()),
        "relu": float(got[0].min()),
    })
"""


def test_contrib_conv2d_and_pooling_compute_what_tf1s_did(tmp_path: Path) -> None:
    run = run_script(tmp_path, CONV_SCRIPT)
    assert run.rc == 0, run.err
    out = run.result
    # Conv, Conv_1 as TF1's variable_scope(scope, 'Conv') made them; no biases without an
    # initializer; the scope given kept
    assert out["names"] == [
        "Conv/biases",
        "Conv/weights",
        "Conv_1/weights",
        "dilated/biases",
        "dilated/weights",
        "nchw/biases",
        "nchw/weights",
    ]
    assert out["model"] is True
    assert out["regs"] == 1
    assert out["shapes"] == [[2, 9, 9, 4], [2, 4, 4, 5], [2, 9, 9, 2], [2, 4, 4, 4], [2, 9, 9, 4]]
    assert out["static"] == [[None, 9, 9, 4], [None, 4, 4, 5], [None, 4, 4, 4], [None, 4, 9, 9]]
    assert out["same"] == [True] * 5
    # xavier uniform over fan_in 27, fan_out 36
    assert out["w_limit"] <= np.sqrt(6 / (27 + 36))
    assert out["relu"] >= 0.0


SLIM_SCRIPT = r"""
    import numpy as np
    import tensorflow as tf
    import tensorflow.contrib.slim as slim
    from tensorflow.contrib import slim as slim2
    from tests._child import emit

    images = tf.placeholder(tf.float32, [None, 16, 16, 3])
    with tf.variable_scope("vgg"):
        with slim.arg_scope([slim.conv2d, slim.fully_connected], activation_fn=tf.nn.elu,
                            weights_regularizer=slim.l2_regularizer(0.0005)):
            with slim.arg_scope([tf.contrib.layers.conv2d], padding="VALID"):
                net = slim.repeat(images, 2, slim.conv2d, 8, [3, 3], scope="conv1")
            net = slim.max_pool2d(net, [2, 2], scope="pool1")
            net = slim.stack(net, slim.conv2d, [(16, [3, 3]), (16, [1, 1])], scope="conv2")
            logits = slim.fully_connected(slim.flatten(net), 4, activation_fn=None, scope="fc")
    z = tf.placeholder(tf.float32, [None, 4, 4, 8])
    with tf.variable_scope("generator"):
        up = slim.conv2d_transpose(z, 3, [4, 4], stride=2)
        up_valid = slim.conv2d_transpose(z, 3, [3, 3], stride=2, padding="VALID")
    onehot = slim.one_hot_encoding(tf.constant([0, 2]), 3)
    restore = slim.get_variables_to_restore(exclude=["vgg/fc"])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        shapes = sess.run([tf.shape(net), tf.shape(up), tf.shape(up_valid)],
                          {images: np.ones((2, 16, 16, 3)), z: np.ones((2, 4, 4, 8))})
        hot = sess.run(onehot)
    emit({
        "same_module": slim2 is slim and slim.conv2d is tf.contrib.layers.conv2d,
        "vgg": [v.op.name for v in slim.get_model_variables("vgg")],
        "trainable": len(slim.get_trainable_variables("generator")),
        "weights_only": [v.op.name for v in slim.get_variables("vgg/conv2", suffix="weights")],
        "regs": len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)),
        "shapes": [s.tolist() for s in shapes],
        "static": up.shape.as_list(),
        "restore": sorted(v.op.name for v in restore if v.op.name.startswith("vgg/")),
        "hot": hot.tolist(),
        "learning": hasattr(slim, "learning"),
    })
"""


def test_slim_layers_scopes_and_variable_helpers_work_as_tf1s(tmp_path: Path) -> None:
    run = run_script(tmp_path, SLIM_SCRIPT)
    assert run.rc == 0, run.err
    out = run.result
    assert out["same_module"] is True
    # slim.repeat: conv1/conv1_1, conv1/conv1_2; slim.stack: conv2/conv2_1, conv2/conv2_2
    assert out["vgg"] == [
        "vgg/conv1/conv1_1/weights",
        "vgg/conv1/conv1_1/biases",
        "vgg/conv1/conv1_2/weights",
        "vgg/conv1/conv1_2/biases",
        "vgg/conv2/conv2_1/weights",
        "vgg/conv2/conv2_1/biases",
        "vgg/conv2/conv2_2/weights",
        "vgg/conv2/conv2_2/biases",
        "vgg/fc/weights",
        "vgg/fc/biases",
    ]
    assert out["trainable"] == 4
    assert out["weights_only"] == ["vgg/conv2/conv2_1/weights", "vgg/conv2/conv2_2/weights"]
    assert out["regs"] == 5  # the arg_scope's regularizer on every conv2d and fully_connected
    # VALID from the inner arg_scope over tf.contrib.layers.conv2d (slim.conv2d is the same
    # function): 16 -> 14 -> 12, pooled to 6, then SAME
    assert out["shapes"] == [[2, 6, 6, 16], [2, 8, 8, 3], [2, 9, 9, 3]]
    assert out["static"] == [None, 8, 8, 3]
    assert "vgg/fc/weights" not in out["restore"]
    assert "vgg/conv1/conv1_1/weights" in out["restore"]
    assert out["hot"] == [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
    assert out["learning"] is False


PREFETCH_SCRIPT = r"""
    import numpy as np
    import tensorflow as tf
    from tests._child import emit

    pixels = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 4))
    classes = tf.constant([0, 1, 2])
    batches = tf.contrib.slim.prefetch_queue.prefetch_queue([pixels, classes], capacity=4)
    keyed = tf.contrib.slim.prefetch_queue.prefetch_queue(
        {"pixels": pixels, "classes": classes}, capacity=2, num_threads=2, name="keyed")
    sums = []
    for k in range(2):
        with tf.device("/gpu:%d" % k), tf.name_scope("replica_%d" % k):
            x, y = batches.dequeue()
            sums.append(tf.reduce_sum(x) + tf.cast(tf.reduce_sum(y), tf.float32))
    record = keyed.dequeue()
    summaries = sorted(s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES))
    runners = len(tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS))
    with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess=sess, coord=coord)
        got = sess.run(sums)
        row = sess.run(record)
        coord.request_stop()
        coord.join(threads)
    emit({
        "sums": [float(v) for v in got],
        "keys": sorted(row),
        "shapes": [v.shape.as_list() for v in (x, y)],
        "summaries": summaries,
        "runners": runners,
        "queue": batches.name,
    })
"""


def test_slim_prefetch_queue_feeds_each_tower_as_tf1s(tmp_path: Path) -> None:
    # cifar10_multi_gpu_train: one prefetch queue of the input batch, dequeued once per tower
    run = run_script(tmp_path, PREFETCH_SCRIPT)
    assert run.rc == 0, run.err
    out = run.result
    assert out["sums"] == [69.0, 69.0]  # the whole batch each time: 66 + 3
    assert out["keys"] == ["classes", "pixels"]
    assert out["shapes"] == [[3, 4], [3]]
    assert out["summaries"] == [
        "keyed/fraction_of_2_full",
        "prefetch_queue/fraction_of_4_full",
    ]
    assert out["runners"] == 2
    assert out["queue"].startswith("prefetch_queue")
