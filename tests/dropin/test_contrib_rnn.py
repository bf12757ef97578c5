"""``tf.contrib.rnn``'s core names and stacked bidirectional RNNs, ``tf.contrib.seq2seq``'s
``sequence_loss`` and basic decoder, and ``tf.contrib.legacy_seq2seq`` under ``run``.

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


# a text classifier's encoder: two layers of bidirectional GRUs over padded word ids, each cell
# in a DropoutWrapper, the last layer's final states concatenated for the classes
STACKED = r"""
    import numpy as np
    import tensorflow as tf
    from tensorflow.contrib import rnn
    from tests._child import emit

    ids = np.array([[3, 1, 4, 0, 0], [2, 7, 1, 8, 2]], dtype=np.int32)
    x = tf.placeholder(tf.int32, [None, None])
    y = tf.placeholder(tf.int32, [None])
    lengths = tf.reduce_sum(tf.cast(x > 0, tf.int32), axis=-1)
    table = tf.get_variable("embeddings", [10, 6])
    inputs = tf.nn.embedding_lookup(table, x)

    def make_cell():
        return rnn.DropoutWrapper(rnn.GRUCell(num_units=4), output_keep_prob=1.0)

    outputs, state_fw, state_bw = rnn.stack_bidirectional_dynamic_rnn(
        cells_fw=[make_cell() for _ in range(2)],
        cells_bw=[make_cell() for _ in range(2)],
        inputs=inputs, sequence_length=lengths, dtype=tf.float32)
    merged = tf.concat([state_fw[-1], state_bw[-1]], axis=-1)
    logits = tf.layers.dense(merged, 3)
    loss = tf.reduce_mean(
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    train = tf.train.AdamOptimizer(0.05).minimize(loss)
    steps = [tf.placeholder(tf.float32, [None, 6]) for _ in range(3)]
    static_out, static_fw, _ = tf.contrib.rnn.stack_bidirectional_rnn(
        [rnn.LSTMCell(2)], [rnn.LSTMCell(2)], steps, dtype=tf.float32, scope="static")
    out = {
        "names": sorted(v.name for v in tf.trainable_variables()
                        if "cell_1" in v.name or v.name.startswith("static")),
        "states": [len(state_fw), len(state_bw), len(static_fw)],
        "static": [len(static_out), static_out[0].shape.as_list()],
    }
    try:
        rnn.stack_bidirectional_dynamic_rnn([], [make_cell()], inputs, dtype=tf.float32)
    except ValueError as error:
        out["empty"] = str(error)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        feed = {x: ids, y: [0, 2]}
        values = sess.run(outputs, feed)
        out["shape"] = list(values.shape)
        out["padded"] = float(np.abs(values[0, 3:]).max())
        out["losses"] = [float(sess.run([loss, train], feed)[0]) for _ in range(4)]
    emit(out)
"""


def test_stacked_bidirectional_rnns_run_as_tf1s(tmp_path):
    run = run_script(tmp_path, STACKED)
    assert run.rc == 0, run.err
    out = run.result
    # TF 1.15's scopes: <scope or stack_bidirectional_rnn>/cell_<i>/ around each layer
    prefix = "stack_bidirectional_rnn/cell_1/bidirectional_rnn/"
    assert prefix + "fw/gru_cell/gates/kernel:0" in out["names"]
    assert prefix + "bw/gru_cell/candidate/bias:0" in out["names"]
    assert "static/cell_0/fw/lstm_cell/kernel:0" in out["names"], out["names"]
    assert out["states"] == [2, 2, 1]
    assert out["static"] == [3, [None, 4]]
    # the forward and backward outputs of the last layer, concatenated; zero past each length
    assert out["shape"] == [2, 5, 8]
    assert out["padded"] == 0.0
    assert out["losses"][-1] < out["losses"][0]
    assert out["empty"] == "Must specify at least one fw cell for BidirectionalRNN."


# a seq2seq decoder as TF1 tutorials and chatbots wrote it: teacher forcing with TrainingHelper
# over sequences of different lengths, an output projection, impute_finished, then greedy
# decoding from a start token with the same cell and projection
DECODER = r"""
    import numpy as np
    import tensorflow as tf
    from tensorflow.python.layers.core import Dense
    from tests._child import emit

    SOS, EOS, vocab, hidden = 0, 4, 5, 6
    x_data = np.array([[SOS, 2, 1, 3], [SOS, 3, 1, 0], [SOS, 1, 2, 2]], dtype=np.int32)
    y_data = np.array([[2, 1, 3, EOS], [3, EOS, 0, 0], [1, 2, EOS, 0]], dtype=np.int32)
    lengths = np.array([4, 2, 3])
    cell = tf.contrib.rnn.MultiRNNCell([tf.contrib.rnn.BasicLSTMCell(hidden) for _ in range(2)])
    embedding = tf.get_variable("embedding", [vocab, 8])
    inputs = tf.nn.embedding_lookup(embedding, x_data)
    init = cell.zero_state(3, tf.float32)
    projection = Dense(vocab, name="output_projection")
    helper = tf.contrib.seq2seq.TrainingHelper(inputs, lengths)
    decoder = tf.contrib.seq2seq.BasicDecoder(cell=cell, helper=helper, initial_state=init,
                                              output_layer=projection)
    outputs, state, out_lengths = tf.contrib.seq2seq.dynamic_decode(
        decoder=decoder, impute_finished=True, maximum_iterations=10)
    mask = tf.sequence_mask(lengths, 4, dtype=tf.float32)
    loss = tf.contrib.seq2seq.sequence_loss(outputs.rnn_output, y_data, mask)
    train = tf.train.AdamOptimizer(0.05).minimize(loss)
    ref, _ = tf.nn.dynamic_rnn(cell, inputs, sequence_length=lengths, initial_state=init)
    ref_logits = projection(ref)
    greedy = tf.contrib.seq2seq.GreedyEmbeddingHelper(embedding, tf.fill([3], SOS), EOS)
    infer = tf.contrib.seq2seq.BasicDecoder(cell, greedy, init, output_layer=projection)
    with tf.variable_scope("decode", reuse=tf.AUTO_REUSE):
        sampled, _, sampled_lengths = tf.contrib.seq2seq.dynamic_decode(
            infer, maximum_iterations=6)
    out = {
        "names": sorted(v.name for v in tf.trainable_variables()),
        "types": [type(outputs).__name__, outputs.sample_id.dtype.name,
                  outputs.rnn_output.shape.as_list()],
    }
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got, want, n, mask_v = sess.run([outputs.rnn_output, ref_logits, out_lengths, mask])
        out["lengths"] = n.tolist()
        out["shape"] = list(got.shape)
        out["match"] = float(np.abs((got - want) * mask_v[..., None]).max())
        out["imputed"] = float(np.abs(got[1, 2:]).max())
        out["losses"] = [float(sess.run([loss, train])[0]) for _ in range(30)]
        ids, logits, s_len = sess.run([sampled.sample_id, sampled.rnn_output, sampled_lengths])
        out["greedy"] = [list(ids.shape), bool((ids == logits.argmax(-1)).all()),
                         bool((s_len <= 6).all())]
        first_eos = [list(row).index(EOS) + 1 if EOS in row else 6 for row in ids]
        out["eos"] = [first_eos, s_len.tolist()]
    emit(out)
"""


def test_contrib_seq2seq_basic_decoder_runs_as_tf1s(tmp_path):
    run = run_script(tmp_path, DECODER)
    assert run.rc == 0, run.err
    out = run.result
    # TF1's names: the cell and the projection built under dynamic_decode's "decoder" scope
    assert out["names"] == [
        "decoder/multi_rnn_cell/cell_0/basic_lstm_cell/bias:0",
        "decoder/multi_rnn_cell/cell_0/basic_lstm_cell/kernel:0",
        "decoder/multi_rnn_cell/cell_1/basic_lstm_cell/bias:0",
        "decoder/multi_rnn_cell/cell_1/basic_lstm_cell/kernel:0",
        "decoder/output_projection/bias:0",
        "decoder/output_projection/kernel:0",
        "embedding:0",
    ]
    assert out["types"] == ["BasicDecoderOutput", "int32", [3, None, 5]]
    # teacher forcing is the cell run over the inputs: dynamic_rnn's logits within each length
    assert out["lengths"] == [4, 2, 3]
    assert out["shape"] == [3, 4, 5]
    assert out["match"] < 1e-5
    assert out["imputed"] == 0.0  # impute_finished: zeros past a sequence's end
    assert out["losses"][0] == pytest.approx(np.log(5), abs=0.3)
    assert out["losses"][-1] < out["losses"][0] / 2
    # greedy decoding feeds back the argmax; a sequence ends at its first EOS (or the maximum)
    rows, steps = out["greedy"][0]
    assert rows == 3
    assert steps <= 6
    assert out["greedy"][1:] == [True, True]
    assert out["eos"][0] == out["eos"][1]


# a decoder fed by the script's own functions, as TF1 code wrote one for inference with a
# projection of the outputs back to the inputs: CustomHelper(initialize_fn, sample_fn,
# next_inputs_fn), stopping after three steps
CUSTOM = r"""
    import tensorflow as tf
    from tensorflow.contrib import seq2seq
    from tests._child import emit

    batch = 2
    cell = tf.contrib.rnn.GRUCell(3)
    start = tf.ones([batch, 3])

    def initialize_fn():
        return tf.zeros([batch], tf.bool), start

    def sample_fn(time, outputs, state):
        return tf.argmax(outputs, axis=-1, output_type=tf.int32)

    def next_inputs_fn(time, outputs, state, sample_ids):
        return tf.fill([batch], time + 1 >= 3), outputs, state

    helper = seq2seq.CustomHelper(initialize_fn, sample_fn, next_inputs_fn)
    decoder = seq2seq.BasicDecoder(cell, helper, cell.zero_state(batch, tf.float32))
    outputs, _, lengths = seq2seq.dynamic_decode(decoder, output_time_major=True)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out, n = sess.run([outputs.rnn_output, lengths])
    emit({"shape": list(out.shape), "lengths": n.tolist(), "served": "CustomHelper" in seq2seq.__all__})
"""


def test_contrib_seq2seq_custom_helper_calls_the_scripts_functions(tmp_path):
    run = run_script(tmp_path, CUSTOM)
    assert run.rc == 0, run.err
    # time-major: three steps of two sequences of the cell's three units
    assert run.result == {"shape": [3, 2, 3], "lengths": [3, 3], "served": True}
