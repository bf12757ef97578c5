"""``tf.contrib.crf`` under ``run``: the linear-chain CRF of TF1 sequence taggers.

BiLSTM-CRF taggers (named entities, part of speech, word segmentation) end in
``tf.contrib.crf.crf_log_likelihood(logits, labels, lengths)`` for the loss and decode with
``tf.contrib.crf.viterbi_decode(scores, transitions)`` on the fetched NumPy arrays, or with
``crf_decode`` in the graph.  TensorFlow 2 has no CRF (tensorflow_addons, which had one, is no
longer maintained).  The functions here compute what TF 1.15's did
(tensorflow/contrib/crf/python/ops/crf.py) from ``tf.compat.v1`` ops: the same ``transitions``
variable (``get_variable`` in the caller's scope, ``[num_tags, num_tags]``), the sequence score of
the gold tags (unary scores plus transition scores, masked by the lengths), the log partition by
the forward algorithm (a sequence's last step carried through the padding, as ``dynamic_rnn``
did), and Viterbi decoding (NumPy; in the graph through ``tf.py_func`` for ``crf_decode``, whose
tags past a sequence's length are 0).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tfcompat_gpu.tfapi import _tf

__all__ = ["CRF"]


def _v1() -> Any:
    return _tf.tf().compat.v1


def crf_unary_score(tag_indices: Any, sequence_lengths: Any, inputs: Any) -> Any:
    """The sum of ``inputs[b, t, tag_indices[b, t]]`` over each sequence's steps."""
    tf = _v1()
    tags = tf.convert_to_tensor(tag_indices)
    picked = tf.gather(inputs, tags, axis=2, batch_dims=2)  # [batch, time]
    masks = tf.sequence_mask(sequence_lengths, maxlen=tf.shape(tags)[1], dtype=inputs.dtype)
    return tf.reduce_sum(picked * masks, 1)


def crf_binary_score(tag_indices: Any, sequence_lengths: Any, transition_params: Any) -> Any:
    """The sum of ``transition_params[tag[t], tag[t + 1]]`` over each sequence's steps."""
    tf = _v1()
    tags = tf.convert_to_tensor(tag_indices)
    num_tags = tf.shape(transition_params, out_type=tags.dtype)[0]
    flat = tf.reshape(transition_params, [-1])
    scores = tf.gather(flat, tags[:, :-1] * num_tags + tags[:, 1:])
    masks = tf.sequence_mask(
        sequence_lengths, maxlen=tf.shape(tags)[1], dtype=transition_params.dtype
    )
    return tf.reduce_sum(scores * masks[:, 1:], 1)


def crf_sequence_score(
    inputs: Any, tag_indices: Any, sequence_lengths: Any, transition_params: Any
) -> Any:
    """The unnormalized score of the tag sequences (0 for an empty sequence)."""
    tf = _v1()
    unary = crf_unary_score(tag_indices, sequence_lengths, inputs)
    binary = crf_binary_score(tag_indices, sequence_lengths, transition_params)
    return tf.where(tf.less_equal(sequence_lengths, 0), tf.zeros_like(unary), unary + binary)


def _forward(inputs: Any, sequence_lengths: Any, transition_params: Any, combine: Any) -> Any:
    """The forward recursion over time of ``combine`` (``reduce_logsumexp`` or ``reduce_max``)
    from the first step's scores; each sequence's state stops changing at its last step."""
    tf = _v1()
    first = inputs[:, 0, :]
    rest = tf.transpose(inputs[:, 1:, :], [1, 0, 2])  # [time - 1, batch, tags]
    steps = tf.range(tf.shape(rest)[0])
    last = tf.maximum(tf.cast(sequence_lengths, tf.int32) - 1, 0)

    def step(state: Any, elems: Any) -> Any:
        scores, t = elems
        new = scores + combine(tf.expand_dims(state, 2) + tf.expand_dims(transition_params, 0), 1)
        return tf.where(tf.less(t, last), new, state)

    return tf.foldl(step, (rest, steps), initializer=first)


def crf_log_norm(inputs: Any, sequence_lengths: Any, transition_params: Any) -> Any:
    """The log partition function of each sequence (0 for an empty sequence)."""
    tf = _v1()
    alphas = _forward(inputs, sequence_lengths, transition_params, tf.reduce_logsumexp)
    norm = tf.reduce_logsumexp(alphas, 1)
    return tf.where(tf.less_equal(sequence_lengths, 0), tf.zeros_like(norm), norm)


def crf_log_likelihood(
    inputs: Any, tag_indices: Any, sequence_lengths: Any, transition_params: Any = None
) -> tuple[Any, Any]:
    """The log-likelihood of each tag sequence, and the transition matrix (a ``transitions``
    variable of the current scope when none is given)."""
    tf = _v1()
    if transition_params is None:
        num_tags = inputs.shape[2]
        num_tags = getattr(num_tags, "value", num_tags)
        transition_params = tf.get_variable("transitions", [num_tags, num_tags])
    score = crf_sequence_score(inputs, tag_indices, sequence_lengths, transition_params)
    return score - crf_log_norm(inputs, sequence_lengths, transition_params), transition_params


def viterbi_decode(score: Any, transition_params: Any) -> tuple[list[int], Any]:
    """The best tag sequence of one sequence's ``[time, tags]`` scores, and its score (NumPy)."""
    score = np.asarray(score)
    transition_params = np.asarray(transition_params)
    trellis = np.zeros_like(score)
    backpointers = np.zeros_like(score, dtype=np.int32)
    trellis[0] = score[0]
    for t in range(1, score.shape[0]):
        candidates = np.expand_dims(trellis[t - 1], 1) + transition_params
        trellis[t] = score[t] + np.max(candidates, 0)
        backpointers[t] = np.argmax(candidates, 0)
    path = [int(np.argmax(trellis[-1]))]
    for pointers in backpointers[1:][::-1]:
        path.append(int(pointers[path[-1]]))
    path.reverse()
    return path, np.max(trellis[-1])


def _decode_batch(potentials: Any, transitions: Any, lengths: Any) -> tuple[Any, Any]:
    batch, time, _ = potentials.shape
    tags = np.zeros((batch, time), dtype=np.int32)
    scores = np.zeros((batch,), dtype=potentials.dtype)
    for b in range(batch):
        length = max(int(lengths[b]), 1)
        path, best = viterbi_decode(potentials[b, :length], transitions)
        tags[b, :length] = path
        scores[b] = best
    return tags, scores


def crf_decode(potentials: Any, transition_params: Any, sequence_length: Any) -> tuple[Any, Any]:
    """The best tags ``[batch, time]`` (int32, 0 past each length) and their scores."""
    tf = _v1()
    tags, scores = tf.py_func(
        _decode_batch,
        [potentials, transition_params, sequence_length],
        [tf.int32, potentials.dtype],
        stateful=False,
    )
    tags.set_shape(potentials.shape[:2])
    scores.set_shape(potentials.shape[:1])
    return tags, scores


CRF = {
    "crf_log_likelihood": crf_log_likelihood,
    "crf_sequence_score": crf_sequence_score,
    "crf_log_norm": crf_log_norm,
    "crf_unary_score": crf_unary_score,
    "crf_binary_score": crf_binary_score,
    "viterbi_decode": viterbi_decode,
    "crf_decode": crf_decode,
}
