"""``contrib_rnn`` on ``tf.contrib.rnn.stack_bidirectional_dynamic_rnn`` / ``stack_bidirectional_rnn``.

Modelled on TF1 text classifiers and taggers whose encoder is a stack of bidirectional GRU / LSTM
layers: ``from tensorflow.contrib import rnn``, cells made by a small function (a
``DropoutWrapper`` around a ``GRUCell``), then ``rnn.stack_bidirectional_dynamic_rnn(cells_fw=,
cells_bw=, inputs=, sequence_length=, dtype=)`` and the last layer's final states concatenated.
The function was contrib's own; the migrated file defines one of the same layers and scopes
below its imports, and runs with plain ``python``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import NO_GPUS, migrated_twice, needs_tensorflow

from tests._child import run

_ENCODER = """
    import numpy as np
    import tensorflow as tf
    from tensorflow.contrib import rnn


    def cell():
        return rnn.DropoutWrapper(rnn.GRUCell(num_units=4))


    x = tf.placeholder(tf.int32, [None, None])
    lengths = tf.reduce_sum(tf.cast(x > 0, tf.int32), axis=-1)
    inputs = tf.nn.embedding_lookup(tf.get_variable('embeddings', [10, 6]), x)
    outputs, state_fw, state_bw = rnn.stack_bidirectional_dynamic_rnn(
        cells_fw=[cell() for _ in range(2)], cells_bw=[cell() for _ in range(2)],
        inputs=inputs, sequence_length=lengths, dtype=tf.float32)
    merged = tf.concat([state_fw[-1], state_bw[-1]], axis=-1)
    steps = tf.unstack(inputs, 5, 1)
    static, _, _ = tf.contrib.rnn.stack_bidirectional_rnn(
        [rnn.LSTMCell(2)], [rnn.LSTMCell(2)], steps, dtype=tf.float32, scope='static')
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        ids = np.array([[3, 1, 4, 0, 0], [2, 7, 1, 8, 2]])
        out, m = sess.run([outputs, merged], {x: ids})
        names = sorted(v.name for v in tf.trainable_variables())
    print("SHAPES", out.shape, m.shape, float(np.abs(out[0, 3:]).max()), len(static))
    print("NAMES", [n for n in names if 'cell_1' in n][:1], [n for n in names if 'static' in n][:1])
"""


def test_stacked_rnns_become_helpers_defined_below_the_imports() -> None:
    code, warnings = migrated_twice(_ENCODER)
    assert "contrib" not in code
    assert "outputs, state_fw, state_bw = _stack_bidirectional_dynamic_rnn(" in code
    assert "static, _, _ = _stack_bidirectional_rnn(" in code
    assert code.count("def _stack_bidirectional_dynamic_rnn(") == 1
    assert code.count("def _stack_bidirectional_rnn(") == 1
    # below the imports, before the file's own code
    assert code.index("import numpy") < code.index("def _stack_bidirectional_dynamic_rnn(")
    assert code.index("def _stack_bidirectional_rnn(") < code.index("def cell():")
    assert "tf.compat.v1.nn.bidirectional_dynamic_rnn(" in code
    assert "tf.compat.v1.nn.rnn_cell.GRUCell(num_units=4)" in code
    assert not [w for w in warnings if "contrib" in w and "left unchanged" in w]


def test_only_the_helper_read_is_written() -> None:
    code, _ = migrated_twice(
        """
        import tensorflow as tf
        from tensorflow.contrib.rnn import stack_bidirectional_dynamic_rnn, GRUCell
        out = stack_bidirectional_dynamic_rnn([GRUCell(2)], [GRUCell(2)], tf.ones([1, 3, 2]),
                                              dtype=tf.float32)
        """
    )
    assert "out = _stack_bidirectional_dynamic_rnn([tf.compat.v1.nn.rnn_cell.GRUCell(2)]" in code
    assert "def _stack_bidirectional_dynamic_rnn(" in code
    assert "def _stack_bidirectional_rnn(" not in code
    assert "contrib" not in code


def test_the_migrated_encoder_runs_with_plain_python_and_tf1s_scopes(tmp_path: Path) -> None:
    needs_tensorflow()
    pytest.importorskip("tf_keras")
    code, _ = migrated_twice(_ENCODER)
    script = tmp_path / "encoder.py"
    script.write_text(code, encoding="utf-8")
    proc = run([str(script)], env=NO_GPUS, cwd=tmp_path, drop=("TF_USE_LEGACY_KERAS",))
    assert proc.returncode == 0, proc.stderr
    # both directions of the last layer concatenated; zero past a sequence's length
    assert "SHAPES (2, 5, 8) (2, 8) 0.0 5" in proc.stdout
    assert (
        "NAMES ['stack_bidirectional_rnn/cell_1/bidirectional_rnn/bw/gru_cell/candidate/bias:0'] "
        "['static/cell_0/bw/lstm_cell/bias:0']" in proc.stdout
    )
