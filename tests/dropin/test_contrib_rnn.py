"""``tf.contrib.rnn``'s core names and ``tf.contrib.seq2seq.sequence_loss`` under ``run``.

The TF1 RNN tutorials (hunkim's lab-12 char-RNNs, nlintz's 07_lstm, char-rnn-tensorflow) build
their cells from ``tf.contrib.rnn`` / ``from tensorflow.contrib import rnn`` and their loss with
``tf.contrib.seq2seq.sequence_loss``; the drop-in serves the cells from their v1 homes (tf_keras)
and computes the loss as TF 1.15's tensorflow/contrib/seq2seq/python/ops/loss.py did.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests._child import run_py, run_script
from tfcompat_gpu.tfapi.contrib_names import CONTRIB_RNN, RNN_CELLS

pytest.importorskip("tensorflow")
pytest.importorskip("tf_keras")


def test_each_served_name_has_its_home_in_the_v1_api():
    # the table against TensorFlow itself: each home exists (the cells through tf_keras)
    out = run_py(
        f"""
        import tensorflow as tf
        from tests._child import emit
        found = {{}}
        for name, home in {CONTRIB_RNN!r}.items():
            owner = tf.compat.v1
            for part in home.split("."):
                owner = getattr(owner, part, None)
            found[name] = owner is not None and owner.__name__ == name
        emit(found)
        """,
        env={"TF_USE_LEGACY_KERAS": "1"},
    )
    assert out == dict.fromkeys(CONTRIB_RNN, True)
    assert {"BasicLSTMCell", "MultiRNNCell", "DropoutWrapper", "LSTMStateTuple"} <= RNN_CELLS


# lab-12 of hunkim/DeepLearningZeroToAll and nlintz's 07_lstm, on small synthetic arrays
SCRIPT = r"""
    import numpy as np
    import tensorflow as tf
    from tensorflow.contrib import rnn
    from tests._child import emit

    x_data = np.random.RandomState(0).rand(2, 5, 3).astype(np.float32)
    y_data = np.array([[0, 1, 2, 1, 0], [2, 2, 1, 0, 1]])
    X = tf.placeholder(tf.float32, [None, 5, 3])
    Y = tf.placeholder(tf.int32, [None, 5])
    cells = [rnn.DropoutWrapper(tf.contrib.rnn.BasicLSTMCell(4, state_is_tuple=True),
                                output_keep_prob=1.0) for _ in range(2)]
    cell = rnn.MultiRNNCell(cells, state_is_tuple=True)
    outputs, states = tf.nn.dynamic_rnn(cell, X, dtype=tf.float32)
    steps, _ = rnn.static_rnn(rnn.GRUCell(3), tf.unstack(X, 5, 1), dtype=tf.float32)
    weights = tf.ones([2, 5])
    loss = tf.contrib.seq2seq.sequence_loss(logits=outputs[:, :, :3], targets=Y, weights=weights)
    train = tf.train.AdamOptimizer(0.1).minimize(loss)
    out = {"tuple": isinstance(states[0], rnn.LSTMStateTuple), "steps": len(steps)}
    try:
        rnn.NASCell
    except AttributeError as error:
        out["nas"] = str(error)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        losses = [float(sess.run([loss, train], {X: x_data, Y: y_data})[0]) for _ in range(3)]
    out["losses"] = losses
    emit(out)
"""


def test_tf1_rnn_tutorial_runs_on_the_v1_cells(tmp_path):
    run = run_script(tmp_path, SCRIPT)
    assert run.rc == 0, run.err
    assert "Keras in a v1 graph (tf.contrib.rnn, line 3" in run.err
    out = run.result
    assert out["tuple"] is True
    assert out["steps"] == 5
    assert out["losses"][0] == pytest.approx(np.log(3), abs=0.2)  # about uniform at the start
    assert out["losses"][2] < out["losses"][0]
    assert "tf.contrib.rnn.NASCell: tf.contrib was removed" in out["nas"]
    assert "tensorflow_addons' tfa.rnn (NASCell" in out["nas"]


def test_without_tf_keras_the_cells_say_where_they_are(tmp_path):
    code = """
        import tensorflow as tf
        try:
            tf.contrib.rnn.LSTMCell
        except AttributeError as error:
            print("ERROR", error)
    """
    run = run_script(tmp_path, code, "--no-auto", runner=True)
    assert run.rc == 0, run.err
    assert "tf.contrib.rnn.LSTMCell is tf.compat.v1.nn.rnn_cell.LSTMCell" in run.out
    assert "--legacy-keras" in run.out


def _cross_entropy(logits, targets):
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_sum = np.log(np.exp(shifted).sum(axis=-1))
    picked = np.take_along_axis(shifted, targets[..., None], axis=-1)[..., 0]
    return log_sum - picked


def test_sequence_loss_is_tf1s_weighted_cross_entropy():
    rng = np.random.RandomState(3)
    logits = rng.randn(2, 3, 4).astype(np.float32)
    targets = rng.randint(0, 4, (2, 3))
    weights = np.array([[1.0, 1.0, 0.0], [0.5, 2.0, 1.0]], np.float32)
    out = run_py(
        f"""
        import numpy as np
        import tfcompat_gpu
        tfcompat_gpu.install()
        import tensorflow as tf
        from tests._child import emit
        tf = tf.compat.v1
        tf.disable_v2_behavior()
        logits = tf.constant(np.array({logits.tolist()!r}, np.float32))
        targets = tf.constant(np.array({targets.tolist()!r}, np.int32))
        weights = tf.constant(np.array({weights.tolist()!r}, np.float32))
        loss = tf.contrib.seq2seq.sequence_loss
        kinds = {{
            "mean": {{}},
            "per_example": {{"average_across_batch": False}},
            "per_step": {{"average_across_timesteps": False}},
            "none": {{"average_across_timesteps": False, "average_across_batch": False}},
            "sum_sum": {{"average_across_timesteps": False, "average_across_batch": False,
                        "sum_over_timesteps": True, "sum_over_batch": True}},
            "sum_steps": {{"average_across_timesteps": False, "average_across_batch": False,
                          "sum_over_timesteps": True}},
            "avg_batch_sum_steps": {{"average_across_timesteps": False,
                                    "sum_over_timesteps": True}},
            "own": {{"softmax_loss_function": tf.nn.sparse_softmax_cross_entropy_with_logits}},
        }}
        tensors = {{k: loss(logits, targets, weights, **v) for k, v in kinds.items()}}
        zero = loss(logits, targets, tf.zeros([2, 3]))
        errors = []
        for bad in ({{"sum_over_timesteps": True}}, {{"sum_over_batch": True}}):
            try:
                loss(logits, targets, weights, **bad)
            except ValueError as error:
                errors.append(str(error))
        try:
            loss(logits[0], targets, weights)
        except ValueError as error:
            errors.append(str(error))
        with tf.Session() as sess:
            values = sess.run(tensors)
            out = {{k: np.asarray(v).tolist() for k, v in values.items()}}
            out["zero"] = float(sess.run(zero))
        out["errors"] = errors
        emit(out)
        """
    )
    weighted = _cross_entropy(logits.astype(np.float64), targets) * weights
    assert out["mean"] == pytest.approx(weighted.sum() / weights.sum(), rel=1e-5)
    assert out["own"] == pytest.approx(out["mean"], rel=1e-6)
    assert out["per_example"] == pytest.approx(weighted.sum(1) / weights.sum(1), rel=1e-5)
    assert out["per_step"] == pytest.approx(weighted.sum(0) / weights.sum(0), rel=1e-5)
    assert np.allclose(out["none"], weighted, rtol=1e-5)
    # sum_over_*: divided by the count of non-zero weights (5 here, one weight is 0)
    assert out["sum_sum"] == pytest.approx(weighted.sum() / 5, rel=1e-5)
    # sum_over_timesteps alone: each example's sum over its non-zero weights (2 and 3)
    assert out["sum_steps"] == pytest.approx(weighted.sum(1) / [2, 3], rel=1e-5)
    # beside average_across_batch, as in TF1, the average is taken and sum_over_* not asked
    assert out["avg_batch_sum_steps"] == pytest.approx(out["per_step"], rel=1e-6)
    assert out["zero"] == 0.0  # no weight: 0, not NaN
    assert "average_across_timesteps and sum_over_timesteps cannot" in out["errors"][0]
    assert "average_across_batch and sum_over_batch cannot" in out["errors"][1]
    assert "Logits must be a [batch_size x sequence_length x logits] tensor" in out["errors"][2]


# the cookbook's Shakespeare LSTM (rnn_decoder with a loop function when sampling,
# sequence_loss_by_example over one flattened step) and an RNN regression tutorial (its own
# loss function), on small synthetic arrays
LEGACY = r"""
    import numpy as np
    import tensorflow as tf
    from tensorflow.contrib import legacy_seq2seq
    from tests._child import emit

    rng = np.random.RandomState(0)
    batch, steps, vocab, size = 2, 4, 5, 6
    x = tf.placeholder(tf.int32, [batch, steps])
    y = tf.placeholder(tf.int32, [batch, steps])
    cell = tf.contrib.rnn.BasicLSTMCell(size)
    state = cell.zero_state(batch, tf.float32)
    embedding = tf.get_variable("embedding", [vocab, size])
    inputs = [tf.squeeze(s, [1]) for s in tf.split(tf.nn.embedding_lookup(embedding, x), steps, 1)]
    W = tf.get_variable("W", [size, vocab])

    def loop(prev, step):
        return tf.nn.embedding_lookup(embedding, tf.argmax(tf.matmul(prev, W), 1))

    decoder = tf.contrib.legacy_seq2seq.rnn_decoder
    outputs, last = decoder(inputs, state, cell, loop_function=None)
    with tf.variable_scope("sample"):
        sampled, _ = legacy_seq2seq.rnn_decoder(inputs, state, cell, loop_function=loop)
    logits = tf.matmul(tf.reshape(tf.concat(outputs, 1), [-1, size]), W)
    by_example = legacy_seq2seq.sequence_loss_by_example(
        [logits], [tf.reshape(y, [-1])], [tf.ones([batch * steps])])
    cost = tf.reduce_sum(by_example) / (batch * steps)
    mean = tf.contrib.legacy_seq2seq.sequence_loss(
        [logits], [tf.reshape(y, [-1])], [tf.ones([batch * steps])])

    def ms_error(labels, logits):
        return tf.square(tf.subtract(labels, logits))

    pred = tf.constant([1.0, 2.0, 4.0])
    squared = legacy_seq2seq.sequence_loss_by_example(
        [pred], [tf.zeros([3])], [tf.constant([1.0, 1.0, 2.0])],
        softmax_loss_function=ms_error, name="losses")
    train = tf.train.AdamOptimizer(0.1).minimize(cost)
    out = {"names": sorted(v.name for v in tf.trainable_variables()),
           "outputs": len(outputs), "sampled": len(sampled)}
    try:
        legacy_seq2seq.embedding_attention_seq2seq
    except AttributeError as error:
        out["attention"] = str(error)
    try:
        legacy_seq2seq.sequence_loss_by_example([logits], [], [])
    except ValueError as error:
        out["lengths"] = str(error)
    feed = {x: rng.randint(0, vocab, (batch, steps)), y: rng.randint(0, vocab, (batch, steps))}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out["cost_mean"] = [float(v) for v in sess.run([cost, mean], feed)]
        out["squared"] = sess.run(squared).tolist()
        out["costs"] = [float(sess.run([cost, train], feed)[0]) for _ in range(5)]
    emit(out)
"""


def test_legacy_seq2seq_decoder_and_losses_run_as_tf1s(tmp_path):
    run = run_script(tmp_path, LEGACY)
    assert run.rc == 0, run.err
    out = run.result
    # TF1's variable names: the cell under rnn_decoder/, made once and reused at each step
    # (and by the sampling decoder: a layer's cell keeps the variables it built)
    assert out["names"] == [
        "W:0",
        "embedding:0",
        "rnn_decoder/basic_lstm_cell/bias:0",
        "rnn_decoder/basic_lstm_cell/kernel:0",
    ]
    assert out["outputs"] == out["sampled"] == 4
    cost, mean = out["cost_mean"]
    # per example averaged over its weight (1 each), then summed: the mean over the batch
    assert mean == pytest.approx(cost, rel=1e-5)
    assert cost == pytest.approx(np.log(5), abs=0.3)
    # squared error times the weight, divided by the weight (+1e-12) of the single step
    assert out["squared"] == pytest.approx([1.0, 4.0, 16.0], rel=1e-6)
    assert out["costs"][-1] < out["costs"][0]
    assert "tf.contrib.legacy_seq2seq.embedding_attention_seq2seq" in out["attention"]
    assert "rnn_decoder, sequence_loss, sequence_loss_by_example" in out["attention"]
    assert "Lengths of logits, weights, and targets must be the same 1, 0, 0." in out["lengths"]
