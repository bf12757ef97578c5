"""``contrib_legacy_seq2seq``: ``rnn_decoder`` and ``sequence_loss_by_example`` become v1 code.

Modelled on nfmcclure/tensorflow_cookbook's Shakespeare LSTM (``rnn_decoder(inputs, state,
cell)``, then ``sequence_loss_by_example([logits], [targets], [tf.ones([n])])``) and
MorvanZhou's RNN regression tutorial (its own ``softmax_loss_function``, a ``name``).  The
migrated script runs on TensorFlow 2 and checks itself against TF 1.15's definitions
(tensorflow/contrib/legacy_seq2seq/python/ops/seq2seq.py): the decoder against the loop it ran,
the losses against NumPy.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import NO_GPUS, needs_tensorflow

from tests._child import run
from tfcompat_gpu.codemod.api import migrate_source
from tfcompat_gpu.tfapi.contrib_names import LEGACY_SEQ2SEQ_PARAMETERS

_SCRIPT = """import json
import numpy as np
import tensorflow as tf

batch, steps, vocab, size = 3, 4, 5, 6
rng = np.random.RandomState(0)
x = tf.placeholder(tf.float32, [batch, steps, size])
y = tf.placeholder(tf.int32, [batch, steps])


class Model(object):
    def __init__(self):
        self.cell = tf.contrib.rnn.BasicLSTMCell(size)
        self.state = self.cell.zero_state(batch, tf.float32)
        inputs = [tf.squeeze(s, [1]) for s in tf.split(x, steps, 1)]
        outputs, last = tf.contrib.legacy_seq2seq.rnn_decoder(inputs, self.state, self.cell)
        self.outputs = outputs
        with tf.variable_scope("rnn_decoder", reuse=True):  # what TF1's rnn_decoder ran
            state, self.looped = self.state, []
            for inp in inputs:
                out, state = self.cell(inp, state)
                self.looped.append(out)
        W = tf.get_variable("W", [size, vocab])
        self.logits = tf.matmul(tf.reshape(tf.concat(outputs, 1), [-1, size]), W)
        self.loss = tf.contrib.legacy_seq2seq.sequence_loss_by_example(
            [self.logits], [tf.reshape(y, [-1])], [tf.ones([batch * steps])])
        self.plain = tf.contrib.legacy_seq2seq.sequence_loss_by_example(
            [self.logits], [tf.reshape(y, [-1])], [tf.ones([batch * steps]) * 2.0], False)
        self.squared = tf.contrib.legacy_seq2seq.sequence_loss_by_example(
            [tf.constant([1.0, 2.0]), tf.constant([3.0, 1.0])],
            [tf.zeros([2]), tf.ones([2])],
            [tf.constant([1.0, 0.5]), tf.constant([1.0, 0.5])],
            average_across_timesteps=True,
            softmax_loss_function=self.ms_error,
            name="losses",
        )

    @staticmethod
    def ms_error(labels, logits):
        return tf.square(tf.subtract(labels, logits))


model = Model()
train = tf.train.AdamOptimizer(0.1).minimize(tf.reduce_sum(model.loss))
feed = {x: rng.rand(batch, steps, size), y: rng.randint(0, vocab, (batch, steps))}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    outputs, looped, logits, loss, plain, squared = sess.run(
        [model.outputs, model.looped, model.logits, model.loss, model.plain, model.squared], feed)
    costs = [float(sess.run([tf.reduce_sum(model.loss), train], feed)[0]) for _ in range(5)]
shifted = logits - logits.max(1, keepdims=True)
crossent = np.log(np.exp(shifted).sum(1)) - shifted[np.arange(batch * steps), feed[y].reshape(-1)]
print("RESULT " + json.dumps({
    "names": sorted(v.name for v in tf.trainable_variables()),
    "decoder": bool(np.allclose(outputs, looped)),
    "loss": bool(np.allclose(loss, crossent / (1 + 1e-12), rtol=1e-5)),
    "plain": bool(np.allclose(plain, crossent * 2, rtol=1e-5)),
    "squared": np.asarray(squared).tolist(),
    "trains": costs[-1] < costs[0],
}))
"""


def test_the_migrated_decoder_and_losses_run_as_tf1s(tmp_path: Path) -> None:
    needs_tensorflow()
    pytest.importorskip("tf_keras")
    result = migrate_source(_SCRIPT, upgrade=True)
    assert "legacy_seq2seq" not in result.code
    assert not [w for w in result.warnings if "legacy_seq2seq" in w]
    assert (
        "tf.compat.v1.nn.static_rnn(self.cell, inputs, initial_state=self.state, "
        'scope="rnn_decoder")' in result.code
    )
    script = tmp_path / "lstm.py"
    script.write_text(result.code, encoding="utf-8")
    proc = run([str(script)], env=NO_GPUS, cwd=tmp_path, drop=("TF_USE_LEGACY_KERAS",))
    assert proc.returncode == 0, proc.stderr
    (line,) = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    out = json.loads(line[len("RESULT ") :])
    # the variables TF1's rnn_decoder made (the manual loop above reuses them)
    assert out["names"] == [
        "W:0",
        "rnn_decoder/basic_lstm_cell/bias:0",
        "rnn_decoder/basic_lstm_cell/kernel:0",
    ]
    assert out["decoder"] is True
    assert out["loss"] is True
    assert out["plain"] is True
    # per example: (1 * 1 + 1 * 4) / 2 and (0.5 * 4 + 0.5 * 0) / 1
    assert out["squared"] == pytest.approx([2.5, 2.0], rel=1e-6)
    assert out["trains"] is True


@pytest.mark.parametrize(
    "call",
    [
        "rnn_decoder(inputs, state, cell, loop_function=loop)",
        "rnn_decoder(inputs, state)",
        "sequence_loss_by_example(logits, targets, weights, per_step)",
        "sequence_loss_by_example(logits, targets, [tf.random_uniform([4])])",
        "sequence_loss_by_example(logits, targets, weights, softmax_loss_function=_logit)",
        "sequence_loss_by_example(logits, *rest)",
        "sequence_loss(logits, targets, weights)",
        "embedding_attention_seq2seq(enc, dec, cell, 10, 10, 8)",
    ],
)
def test_a_call_without_a_rewrite_is_left_with_a_warning(call: str) -> None:
    source = f"import tensorflow as tf\nloss = tf.contrib.legacy_seq2seq.{call}\n"
    result = migrate_source(source, upgrade=True)
    assert f"loss = tf.contrib.legacy_seq2seq.{call}" in result.code
    (warning,) = [w for w in result.warnings if "legacy_seq2seq" in w]
    assert warning.startswith("2: tf.contrib.legacy_seq2seq")
    assert "[tf.contrib removed]" in warning


def test_a_loss_function_is_not_moved_into_a_class_body_comprehension() -> None:
    # a comprehension in a class body cannot see the class's names: left, with the warning
    source = (
        "import tensorflow as tf\n"
        "def batches():\n"
        "    return 1\n"
        "class Model:\n"
        "    f = staticmethod(lambda labels, logits: labels - logits)\n"
        "    loss = tf.contrib.legacy_seq2seq.sequence_loss_by_example(a, b, c, "
        "softmax_loss_function=f)\n"
        "    def build(self):\n"
        "        return tf.contrib.legacy_seq2seq.sequence_loss_by_example(a, b, c, "
        "softmax_loss_function=self.f)\n"
    )
    result = migrate_source(source, upgrade=True)
    assert "tf.contrib.legacy_seq2seq.sequence_loss_by_example(a, b, c" in result.code
    (warning,) = [w for w in result.warnings if "legacy_seq2seq" in w]
    assert warning.startswith("6: tf.contrib.legacy_seq2seq")
    assert "self.f(labels=_target, logits=_logit)" in result.code  # in a method it is taken


def test_a_second_migrate_changes_nothing() -> None:
    once = migrate_source(_SCRIPT, upgrade=True)
    assert migrate_source(once.code, upgrade=True).code == once.code


def test_run_and_migrate_read_the_same_parameters() -> None:
    from tfcompat_gpu.dropin._contrib_rnn import rnn_decoder, sequence_loss_by_example

    for function in (rnn_decoder, sequence_loss_by_example):
        parameters = tuple(inspect.signature(function).parameters)
        assert parameters == LEGACY_SEQ2SEQ_PARAMETERS[function.__name__]
