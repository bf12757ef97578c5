"""``contrib_layers`` on ``tf.contrib.layers.dropout``.

Modelled on TF1 text classifiers (CNN and RNN heads over word embeddings) that drop units of
their fully connected layer with ``tf.contrib.layers.dropout(fc, self.keep_prob)``, the keep
probability a placeholder fed 0.5 in training and 1.0 in evaluation.  TF 1.15 applied a core
``Dropout(rate=1 - keep_prob)`` with ``training=is_training`` (default ``True``); the migrated
call is ``tf.compat.v1.layers.dropout`` with that rate and contrib's training default written
out (the v1 function's default, ``False``, drops nothing).
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import NO_GPUS, migrated_twice, needs_tensorflow

from tests._child import run

_HEAD = """
    import numpy as np
    import tensorflow as tf
    from tensorflow.contrib import layers


    class Head(object):
        def __init__(self, keep):
            self.keep_prob = tf.placeholder(tf.float32, name='keep_prob')
            self.x = tf.placeholder(tf.float32, [None, 200])
            fc = tf.contrib.layers.dropout(self.x, self.keep_prob)
            self.fc = fc
            self.fixed = layers.dropout(self.x, keep_prob=keep + 0.25, seed=3)
            self.off = tf.contrib.layers.dropout(self.x, 0.5, is_training=False, scope='off')


    head = Head(0.25)
    with tf.Session() as sess:
        ones = np.ones((4, 200), np.float32)
        kept = sess.run(head.fc, {head.x: ones, head.keep_prob: 1.0})
        half = sess.run(head.fc, {head.x: ones, head.keep_prob: 0.5})
        fixed, off = sess.run([head.fixed, head.off], {head.x: ones})
    print("KEPT", float(kept.min()), float(kept.max()))
    print("HALF", sorted(set(half.ravel().tolist())), 0.3 < float((half == 0).mean()) < 0.7)
    print("FIXED", sorted(set(fixed.ravel().tolist())))
    print("OFF", float(off.min()), float(off.max()))
"""


def test_dropout_calls_become_the_v1_layer_with_the_rate_and_training() -> None:
    code, warnings = migrated_twice(_HEAD)
    assert "contrib" not in code
    assert (
        "fc = tf.compat.v1.layers.dropout(self.x, rate=1 - self.keep_prob, training=True)"
    ) in code
    assert (
        "self.fixed = tf.compat.v1.layers.dropout(self.x, rate=1 - (keep + 0.25), seed=3, "
        "training=True)"
    ) in code
    assert (
        "self.off = tf.compat.v1.layers.dropout(self.x, rate=1 - 0.5, training=False, name='off')"
    ) in code
    assert not [w for w in warnings if "contrib" in w]


def test_a_dropout_call_with_outputs_collections_is_left() -> None:
    code, warnings = migrated_twice(
        """
        import tensorflow as tf
        h = tf.contrib.layers.dropout(tf.ones([2, 3]), 0.5, outputs_collections='outs')
        """
    )
    assert "tf.contrib.layers.dropout(" in code
    assert any("tf.contrib" in w for w in warnings)


def test_the_migrated_head_runs_with_plain_python_and_drops_as_tf1(tmp_path: Path) -> None:
    needs_tensorflow()
    pytest.importorskip("tf_keras")
    code, _ = migrated_twice(_HEAD)
    script = tmp_path / "head.py"
    script.write_text(code, encoding="utf-8")
    proc = run([str(script)], env=NO_GPUS, cwd=tmp_path, drop=("TF_USE_LEGACY_KERAS",))
    assert proc.returncode == 0, proc.stderr
    assert "KEPT 1.0 1.0" in proc.stdout  # keep_prob 1.0: nothing dropped
    assert "HALF [0.0, 2.0] True" in proc.stdout  # kept units scaled by 1 / keep_prob
    assert "FIXED [0.0, 2.0]" in proc.stdout  # keep + 0.25 = 0.5
    assert "OFF 1.0 1.0" in proc.stdout  # is_training=False: the identity
