"""``tf.contrib.crf`` under ``run``: the linear-chain CRF of TF1 sequence taggers.

A BiLSTM-CRF tagger takes its loss from ``tf.contrib.crf.crf_log_likelihood(scores, tags,
lengths)`` (a ``transitions`` variable made in the caller's scope) and decodes with
``viterbi_decode`` on the fetched arrays, or with ``crf_decode`` in the graph.  The values are
checked against every tag sequence enumerated by brute force.
"""

from __future__ import annotations

import pytest

from tests._child import run_script

pytest.importorskip("tensorflow")

SCRIPT = r"""
    import itertools
    import numpy as np
    import tensorflow as tf
    from tests._child import emit

    rng = np.random.RandomState(3)
    batch, steps, num_tags = 4, 4, 3
    potentials = rng.randn(batch, steps, num_tags).astype(np.float32)
    gold = rng.randint(0, num_tags, (batch, steps)).astype(np.int32)
    lengths = np.array([4, 2, 1, 3], dtype=np.int32)

    scores = tf.placeholder(tf.float32, [None, None, num_tags])
    tags = tf.placeholder(tf.int32, [None, None])
    seq_len = tf.placeholder(tf.int32, [None])
    with tf.variable_scope("crf"):
        log_likelihood, trans = tf.contrib.crf.crf_log_likelihood(scores, tags, seq_len)
    loss = tf.reduce_mean(-log_likelihood)
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    decoded, best = tf.contrib.crf.crf_decode(scores, trans, seq_len)
    feed = {scores: potentials, tags: gold, seq_len: lengths}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        ll, t, dec, bst, before = sess.run([log_likelihood, trans, decoded, best, loss], feed)
        sess.run(train, feed)
        after = sess.run(loss, feed)

    def score(p, path):
        return sum(p[i, k] for i, k in enumerate(path)) + sum(
            t[a, b] for a, b in zip(path[:-1], path[1:]))

    expected_ll, expected_paths, expected_best, viterbi = [], [], [], []
    for b in range(batch):
        p, n = potentials[b, :lengths[b]], lengths[b]
        paths = list(itertools.product(range(num_tags), repeat=n))
        all_scores = np.array([score(p, path) for path in paths])
        norm = np.log(np.sum(np.exp(all_scores)))
        expected_ll.append(score(p, list(gold[b, :n])) - norm)
        top = int(np.argmax(all_scores))
        expected_paths.append(list(paths[top]) + [0] * (steps - n))
        expected_best.append(all_scores[top])
        path, value = tf.contrib.crf.viterbi_decode(p, t)
        viterbi.append([list(map(int, path)), float(value)])
    emit({"shape": list(t.shape), "name": trans.name,
          "ll": np.abs(ll - expected_ll).max().item(),
          "decoded": dec.tolist(), "expected": expected_paths,
          "best": np.abs(bst - expected_best).max().item(),
          "viterbi": [v[0] for v in viterbi],
          "viterbi_best": float(max(abs(v[1] - e) for v, e in zip(viterbi, expected_best))),
          "learns": bool(after < before)})
"""


def test_crf_likelihood_and_decoding_are_the_exact_ones(tmp_path):
    run = run_script(tmp_path, SCRIPT)
    assert run.rc == 0, run.err
    out = run.result
    assert out["shape"] == [3, 3]
    assert out["name"] == "crf/transitions:0"
    assert out["ll"] < 1e-4
    assert out["decoded"] == out["expected"]
    assert out["best"] < 1e-4
    assert out["viterbi"] == [row[:n] for row, n in zip(out["expected"], [4, 2, 1, 3])]
    assert out["viterbi_best"] < 1e-4
    assert out["learns"] is True


def test_an_unserved_crf_name_says_what_is_served(tmp_path):
    run = run_script(
        tmp_path,
        """
        import tensorflow as tf
        from tensorflow.contrib import crf
        from tests._child import emit
        try:
            crf.CrfForwardRnnCell
        except AttributeError as error:
            emit(str(error))
        """,
    )
    assert run.rc == 0, run.err
    assert "tf.contrib.crf.CrfForwardRnnCell" in run.result
    assert "crf_log_likelihood" in run.result
