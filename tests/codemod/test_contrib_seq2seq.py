"""``contrib_seq2seq``: ``tf.contrib.seq2seq.sequence_loss`` becomes the v1 ops it computed.

Modelled on hunkim/DeepLearningZeroToAll lab-12 (``sequence_loss(logits=outputs, targets=Y,
weights=tf.ones([batch_size, sequence_length]))`` after a ``fully_connected`` layer).  The
rewritten expression is evaluated on TensorFlow 2 and compared with TF 1.15's formula
(tensorflow/contrib/seq2seq/python/ops/loss.py) computed with NumPy.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("libcst")

from _support import NO_GPUS, migrated_twice, needs_tensorflow

from tests._child import run
from tfcompat_gpu.codemod.api import migrate_source

_LEFT = "tf.contrib.seq2seq.sequence_loss left unchanged"


def _tf1_sequence_loss(logits, targets, weights, timesteps, batch):  # type: ignore[no-untyped-def]
    """TF 1.15's sequence_loss, on the flattened logits as it computed it."""
    classes = logits.shape[2]
    flat = logits.reshape(-1, classes).astype(np.float64)
    flat = flat - flat.max(axis=1, keepdims=True)
    log_softmax = flat - np.log(np.exp(flat).sum(axis=1, keepdims=True))
    crossent = -log_softmax[np.arange(flat.shape[0]), targets.reshape(-1)]
    crossent = crossent * weights.reshape(-1)
    if timesteps and batch:
        total = weights.sum()
        return crossent.sum() / total if total else 0.0
    crossent = crossent.reshape(logits.shape[:2])
    if timesteps or batch:
        axis = 0 if batch else 1
        total = weights.sum(axis=axis)
        return np.where(total != 0, crossent.sum(axis=axis) / np.where(total, total, 1), 0.0)
    return crossent


def _rewritten(call: str) -> str:
    code = migrate_source(f"import tensorflow as tf\nloss = {call}\n", upgrade=True).code
    (line,) = [line for line in code.splitlines() if line.startswith("loss = ")]
    return line[len("loss = ") :]


@pytest.mark.parametrize(
    ("flags", "timesteps", "batch"),
    [
        ("", True, True),
        (", average_across_timesteps=True, average_across_batch=True", True, True),
        (", average_across_timesteps=False", False, True),
        (", average_across_batch=False", True, False),
        (", False, False", False, False),
    ],
)
def test_the_rewritten_loss_is_tf1s(flags: str, timesteps: bool, batch: bool) -> None:
    needs_tensorflow()
    import tensorflow as tf

    expression = _rewritten(f"tf.contrib.seq2seq.sequence_loss(outputs, Y, weights{flags})")
    assert "contrib" not in expression
    rng = np.random.RandomState(1)
    logits = rng.randn(4, 6, 5).astype(np.float32)
    targets = rng.randint(0, 5, size=(4, 6)).astype(np.int32)
    weights = rng.rand(4, 6).astype(np.float32)
    weights[1] = 0.0  # a zero sum: div_no_nan gives 0
    weights[:, 2] = 0.0
    got = eval(  # the migrated expression, on TensorFlow 2
        expression,
        {"tf": tf, "outputs": tf.constant(logits), "Y": tf.constant(targets)}
        | {"weights": tf.constant(weights)},
    )
    want = _tf1_sequence_loss(logits, targets, weights, timesteps, batch)
    assert np.shape(got) == np.shape(want)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-6)


def test_the_weights_written_inline_are_read_twice() -> None:
    expression = _rewritten(
        "tf.contrib.seq2seq.sequence_loss(logits=outputs, targets=Y, weights=tf.ones([2, 3]))"
    )
    assert expression == (
        "tf.compat.v1.div_no_nan(tf.compat.v1.reduce_sum("
        "tf.compat.v1.nn.sparse_softmax_cross_entropy_with_logits(labels=Y, logits=outputs) "
        "* tf.ones([2, 3])), tf.compat.v1.reduce_sum(tf.ones([2, 3])))"
    )


@pytest.mark.parametrize(
    "arguments",
    [
        "outputs, Y, weights, softmax_loss_function=sampled",
        "outputs, Y, weights, average_across_batch=per_batch",
        "outputs, Y, weights, sum_over_timesteps=True, average_across_timesteps=False",
        "outputs, Y, weights, name='loss'",
        "outputs, Y, *rest",
        "outputs, Y, tf.random_uniform([2, 3])",  # drawn twice it would not be the same
    ],
)
def test_a_call_without_a_home_is_left_with_a_warning(arguments: str) -> None:
    call = f"tf.contrib.seq2seq.sequence_loss({arguments})"
    result = migrate_source(f"import tensorflow as tf\nloss = {call}\n", upgrade=True)
    assert f"loss = {call}" in result.code
    (warning,) = [w for w in result.warnings if "seq2seq" in w]
    assert warning.startswith(f"2: {_LEFT}")


_LAB12 = """import numpy as np
import tensorflow as tf

tf.set_random_seed(777)
sample = " if you want you"
idx2char = list(set(sample))
char2idx = {c: i for i, c in enumerate(idx2char)}
sample_idx = [char2idx[c] for c in sample]
x_data = [sample_idx[:-1]]
y_data = [sample_idx[1:]]
num_classes = len(char2idx)
sequence_length = len(sample) - 1
batch_size = 1

X = tf.placeholder(tf.int32, [None, sequence_length])
Y = tf.placeholder(tf.int32, [None, sequence_length])
x_one_hot = tf.one_hot(X, num_classes)
X_for_fc = tf.reshape(x_one_hot, [-1, num_classes])
outputs = tf.contrib.layers.fully_connected(X_for_fc, num_classes, activation_fn=None)
outputs = tf.reshape(outputs, [batch_size, sequence_length, num_classes])
weights = tf.ones([batch_size, sequence_length])
sequence_loss = tf.contrib.seq2seq.sequence_loss(
    logits=outputs, targets=Y, weights=weights)
loss = tf.reduce_mean(sequence_loss)
train = tf.train.AdamOptimizer(learning_rate=0.1).minimize(loss)
prediction = tf.argmax(outputs, axis=2)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    losses = [sess.run([loss, train], feed_dict={X: x_data, Y: y_data})[0] for _ in range(50)]
    result = sess.run(prediction, feed_dict={X: x_data})
print("LOSSES", losses[-1] < losses[0], np.shape(result))
"""


def test_a_second_migrate_changes_nothing() -> None:
    once = migrate_source(_LAB12, upgrade=True)
    assert "contrib" not in once.code
    assert not [w for w in once.warnings if "seq2seq" in w]
    assert migrate_source(once.code, upgrade=True).code == once.code


def test_the_migrated_lab_12_script_runs_with_plain_python(tmp_path: Path) -> None:
    needs_tensorflow()
    pytest.importorskip("tf_keras")
    script = tmp_path / "lab12.py"
    script.write_text(migrate_source(_LAB12, upgrade=True).code, encoding="utf-8")
    proc = run([str(script)], env=NO_GPUS, cwd=tmp_path, drop=("TF_USE_LEGACY_KERAS",))
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"LOSSES True \(1, 15\)", proc.stdout), proc.stdout


def test_run_and_migrate_read_the_same_parameters() -> None:
    import inspect

    from tfcompat_gpu.dropin._contrib_rnn import sequence_loss
    from tfcompat_gpu.tfapi.contrib_names import SEQUENCE_LOSS_PARAMETERS

    assert tuple(inspect.signature(sequence_loss).parameters) == SEQUENCE_LOSS_PARAMETERS


# imported by name, as char-rnn and translation scripts wrote it
_BY_NAME = """import tensorflow as tf
from tensorflow.contrib.seq2seq import sequence_loss

logits = tf.placeholder(tf.float32, [None, 20, 64])
targets = tf.placeholder(tf.int32, [None, 20])
mask = tf.sequence_mask(lengths, 20, dtype=tf.float32)
loss = sequence_loss(logits, targets, mask, average_across_batch=False)
"""


def test_sequence_loss_imported_by_name_is_rewritten_and_the_import_goes() -> None:
    code, warnings = migrated_twice(_BY_NAME)
    assert "contrib" not in code
    assert "sequence_loss(" not in code
    assert (
        "loss = tf.compat.v1.div_no_nan(tf.compat.v1.reduce_sum("
        "tf.compat.v1.nn.sparse_softmax_cross_entropy_with_logits(labels=targets, "
        "logits=logits) * mask, axis=[1]), tf.compat.v1.reduce_sum(mask, axis=[1]))"
    ) in code
    assert not [w for w in warnings if "contrib" in w]


def test_the_seq2seq_module_imported_by_name_is_rewritten_through_its_alias() -> None:
    code, warnings = migrated_twice(
        _BY_NAME.replace(
            "from tensorflow.contrib.seq2seq import sequence_loss",
            "from tensorflow.contrib import seq2seq as s2s",
        ).replace("= sequence_loss(", "= s2s.sequence_loss(")
    )
    assert "contrib" not in code
    assert "s2s" not in code
    assert "reduce_sum(mask, axis=[1])" in code
    assert not [w for w in warnings if "contrib" in w]


@pytest.mark.parametrize(
    "use",
    [
        "loss = sequence_loss(logits, targets, tf.random_uniform([2, 20]))",  # drawn twice
        "loss_fn = sequence_loss",  # read, not called
    ],
)
def test_an_import_with_a_use_the_rewrite_does_not_cover_stays_with_a_warning(use: str) -> None:
    source = _BY_NAME.replace(
        "loss = sequence_loss(logits, targets, mask, average_across_batch=False)", use
    )
    code, warnings = migrated_twice(source)
    assert "from tensorflow.contrib.seq2seq import sequence_loss" in code
    assert use in code
    (warning,) = [w for w in warnings if "contrib" in w]
    assert warning.startswith("2: from tensorflow.contrib.seq2seq import ... left unchanged")
    assert "`tfcompat-gpu run` serves sequence_loss" in warning


def test_the_migrated_loss_by_name_matches_tf1s() -> None:
    needs_tensorflow()
    import tensorflow as tf

    code, _ = migrated_twice(_BY_NAME)
    (line,) = [line for line in code.splitlines() if line.startswith("loss = ")]
    rng = np.random.RandomState(4)
    logits = rng.randn(3, 20, 64).astype(np.float32)
    targets = rng.randint(0, 64, size=(3, 20)).astype(np.int32)
    mask = (np.arange(20)[None, :] < np.array([[5], [20], [11]])).astype(np.float32)
    got = eval(
        line[len("loss = ") :],
        {"tf": tf, "logits": tf.constant(logits), "targets": tf.constant(targets)}
        | {"mask": tf.constant(mask)},
    )
    want = _tf1_sequence_loss(logits, targets, mask, True, False)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-6)
