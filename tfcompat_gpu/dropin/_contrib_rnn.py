"""``tf.contrib.rnn``'s core names, ``tf.contrib.seq2seq.sequence_loss`` and
``tf.contrib.legacy_seq2seq``'s decoder and losses under ``run``.

TF1's ``tf.contrib.rnn`` re-exported the core RNN cells and static RNN functions; they live on
in the v1 API (:data:`~tfcompat_gpu.tfapi.contrib_names.CONTRIB_RNN`), the cells served by
tf_keras from TensorFlow 2.16 on (auto mode picks tf_keras for a script that uses them).
``sequence_loss`` (tensorflow/contrib/seq2seq/python/ops/loss.py, TF 1.15) has no TF2 home but
tensorflow_addons'; :func:`sequence_loss` computes what TF1's did from ``tf.compat.v1`` ops.
``tf.contrib.legacy_seq2seq`` (tensorflow/contrib/legacy_seq2seq/python/ops/seq2seq.py, TF 1.15)
worked on Python lists of per-step tensors: :func:`rnn_decoder`, :func:`sequence_loss_by_example`
and :func:`legacy_sequence_loss` are those functions again, on ``tf.compat.v1`` ops.
The modules themselves are made in :mod:`tfcompat_gpu.dropin._contrib`.
"""

from __future__ import annotations

from typing import Any

from tfcompat_gpu.dropin._contrib_seq2seq import DECODERS
from tfcompat_gpu.tfapi import _tf
from tfcompat_gpu.tfapi.contrib_names import CONTRIB_RNN

__all__ = [
    "LEGACY_SEQ2SEQ",
    "RNN_FUNCTIONS",
    "SEQ2SEQ",
    "legacy_sequence_loss",
    "rnn_decoder",
    "rnn_name",
    "sequence_loss",
    "sequence_loss_by_example",
    "stack_bidirectional_dynamic_rnn",
    "stack_bidirectional_rnn",
]


def rnn_name(name: str) -> Any:
    """``tf.contrib.rnn.<name>`` as its v1 home has it (``name`` is in ``CONTRIB_RNN``), or
    contrib's own function of :data:`RNN_FUNCTIONS`."""
    if name in RNN_FUNCTIONS:
        return RNN_FUNCTIONS[name]
    home = CONTRIB_RNN[name]
    found: Any = _tf.tf().compat.v1
    try:
        for part in home.split("."):
            found = getattr(found, part)
    except AttributeError as error:  # Keras 3: "`BasicLSTMCell` is not available with Keras 3"
        raise AttributeError(
            f"tf.contrib.rnn.{name} is tf.compat.v1.{home}, which TensorFlow >= 2.16 serves "
            "from tf_keras (Keras 2) only: pip install tf_keras and run with --legacy-keras "
            f"(auto mode does so for TF1 graph code that uses tf.contrib.rnn). ({error})"
        ) from None
    return found


def _stack_checks(cells_fw: Any, cells_bw: Any) -> None:
    if not cells_fw:
        raise ValueError("Must specify at least one fw cell for BidirectionalRNN.")
    if not cells_bw:
        raise ValueError("Must specify at least one bw cell for BidirectionalRNN.")
    if not isinstance(cells_fw, list):
        raise ValueError("cells_fw must be a list of RNNCells (one per layer).")
    if not isinstance(cells_bw, list):
        raise ValueError("cells_bw must be a list of RNNCells (one per layer).")
    if len(cells_fw) != len(cells_bw):
        raise ValueError("Forward and Backward cells must have the same depth.")


def _layer_state(states: Any, layer: int) -> Any:
    return states[layer] if states else None


def stack_bidirectional_rnn(
    cells_fw: Any,
    cells_bw: Any,
    inputs: Any,
    initial_states_fw: Any = None,
    initial_states_bw: Any = None,
    dtype: Any = None,
    sequence_length: Any = None,
    scope: Any = None,
) -> tuple[Any, tuple[Any, ...], tuple[Any, ...]]:
    """``tf.contrib.rnn.stack_bidirectional_rnn``: layers of ``static_bidirectional_rnn``.

    Layer ``i`` runs ``cells_fw[i]`` / ``cells_bw[i]`` under ``<scope>/cell_<i>`` (``scope``
    defaults to ``"stack_bidirectional_rnn"``) over the list of step outputs of the layer below.
    Returns the last layer's list of outputs and the tuples of each layer's final states.
    """
    _stack_checks(cells_fw, cells_bw)
    v1 = _tf.tf().compat.v1
    states_fw, states_bw = [], []
    prev_layer = inputs
    with v1.variable_scope(scope or "stack_bidirectional_rnn"):
        for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
            with v1.variable_scope(f"cell_{i}") as cell_scope:
                prev_layer, state_fw, state_bw = v1.nn.static_bidirectional_rnn(
                    cell_fw,
                    cell_bw,
                    prev_layer,
                    initial_state_fw=_layer_state(initial_states_fw, i),
                    initial_state_bw=_layer_state(initial_states_bw, i),
                    sequence_length=sequence_length,
                    dtype=dtype,
                    scope=cell_scope,
                )
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return prev_layer, tuple(states_fw), tuple(states_bw)


def stack_bidirectional_dynamic_rnn(
    cells_fw: Any,
    cells_bw: Any,
    inputs: Any,
    initial_states_fw: Any = None,
    initial_states_bw: Any = None,
    dtype: Any = None,
    sequence_length: Any = None,
    parallel_iterations: Any = None,
    time_major: bool = False,
    scope: Any = None,
    swap_memory: bool = False,
) -> tuple[Any, tuple[Any, ...], tuple[Any, ...]]:
    """``tf.contrib.rnn.stack_bidirectional_dynamic_rnn``: layers of
    ``bidirectional_dynamic_rnn``.

    Layer ``i`` runs ``cells_fw[i]`` / ``cells_bw[i]`` under ``<scope>/cell_<i>`` (``scope``
    defaults to ``"stack_bidirectional_rnn"``, as TF 1.15 named it); its forward and backward
    outputs, concatenated on the last axis, are the next layer's input.  Returns the last layer's
    outputs and the tuples of each layer's final states.
    """
    _stack_checks(cells_fw, cells_bw)
    v1 = _tf.tf().compat.v1
    states_fw, states_bw = [], []
    prev_layer = inputs
    with v1.variable_scope(scope or "stack_bidirectional_rnn"):
        for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
            with v1.variable_scope(f"cell_{i}"):
                outputs, (state_fw, state_bw) = v1.nn.bidirectional_dynamic_rnn(
                    cell_fw,
                    cell_bw,
                    prev_layer,
                    initial_state_fw=_layer_state(initial_states_fw, i),
                    initial_state_bw=_layer_state(initial_states_bw, i),
                    sequence_length=sequence_length,
                    parallel_iterations=parallel_iterations,
                    dtype=dtype,
                    swap_memory=swap_memory,
                    time_major=time_major,
                )
                prev_layer = v1.concat(outputs, 2)
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return prev_layer, tuple(states_fw), tuple(states_bw)


RNN_FUNCTIONS: dict[str, Any] = {
    "stack_bidirectional_rnn": stack_bidirectional_rnn,
    "stack_bidirectional_dynamic_rnn": stack_bidirectional_dynamic_rnn,
}
"""``tf.contrib.rnn``'s own functions (no v1 home), composed of the v1 RNNs as TF 1.15 did
(tensorflow/contrib/rnn/python/ops/rnn.py)."""


def _rank(tensor: Any, rank: int, message: str) -> None:
    if len(tensor.get_shape()) != rank:
        raise ValueError(message)


def sequence_loss(
    logits: Any,
    targets: Any,
    weights: Any,
    average_across_timesteps: bool = True,
    average_across_batch: bool = True,
    sum_over_timesteps: bool = False,
    sum_over_batch: bool = False,
    softmax_loss_function: Any = None,
    name: str | None = None,
) -> Any:
    """``tf.contrib.seq2seq.sequence_loss``: the weighted cross-entropy of a sequence of logits.

    ``logits`` ``[batch, steps, classes]``, ``targets`` and ``weights`` ``[batch, steps]``.  The
    cross-entropy of each step (``softmax_loss_function(labels=, logits=)`` when given, else the
    sparse softmax one) times its weight is summed over the axes asked for, then divided: by the
    weights' sum there (``average_across_*``), or by the count of non-zero weights
    (``sum_over_*``); a zero divisor gives 0.  By default a scalar, the mean weighted
    log-perplexity per symbol; rank 1 or 2 when an axis is kept.
    """
    if average_across_timesteps and sum_over_timesteps:
        raise ValueError(
            "average_across_timesteps and sum_over_timesteps cannot be set to True at same time."
        )
    if average_across_batch and sum_over_batch:
        raise ValueError(
            "average_across_batch and sum_over_batch cannot be set to True at same time."
        )
    tf = _tf.tf()
    v1 = tf.compat.v1
    with v1.name_scope(name, "sequence_loss", [logits, targets, weights]):
        logits = v1.convert_to_tensor(logits)
        targets = v1.convert_to_tensor(targets)
        weights = v1.convert_to_tensor(weights)
        _rank(logits, 3, "Logits must be a [batch_size x sequence_length x logits] tensor")
        _rank(targets, 2, "Targets must be a [batch_size x sequence_length] tensor")
        _rank(weights, 2, "Weights must be a [batch_size x sequence_length] tensor")
        shape = v1.shape(logits)
        flat_logits = v1.reshape(logits, [-1, shape[2]])
        flat_targets = v1.reshape(targets, [-1])
        if softmax_loss_function is None:
            losses = v1.nn.sparse_softmax_cross_entropy_with_logits(
                labels=flat_targets, logits=flat_logits
            )
        else:
            losses = softmax_loss_function(labels=flat_targets, logits=flat_logits)
        losses = losses * v1.reshape(weights, [-1])
        if average_across_timesteps and average_across_batch:
            return v1.div_no_nan(v1.reduce_sum(losses), v1.reduce_sum(weights))
        if sum_over_timesteps and sum_over_batch:
            count = v1.cast(v1.count_nonzero(weights), losses.dtype)
            return v1.div_no_nan(v1.reduce_sum(losses), count)
        per_step = v1.reshape(losses, shape[:2])
        if average_across_timesteps or average_across_batch:
            axis = [0] if average_across_batch else [1]
            total = v1.reduce_sum(weights, axis=axis)
            return v1.div_no_nan(v1.reduce_sum(per_step, axis=axis), total)
        if sum_over_timesteps or sum_over_batch:
            axis = [0] if sum_over_batch else [1]
            count = v1.cast(v1.count_nonzero(weights, axis=axis), losses.dtype)
            return v1.div_no_nan(v1.reduce_sum(per_step, axis=axis), count)
        return per_step


SEQ2SEQ: dict[str, Any] = {"sequence_loss": sequence_loss, **DECODERS}
"""The ``tf.contrib.seq2seq`` names served: ``sequence_loss`` and the basic decoder
(:mod:`tfcompat_gpu.dropin._contrib_seq2seq`); its attention wrappers and beam search are
tensorflow_addons' ``tfa.seq2seq`` (the error names it)."""


def rnn_decoder(
    decoder_inputs: Any,
    initial_state: Any,
    cell: Any,
    loop_function: Any = None,
    scope: Any = None,
) -> tuple[list[Any], Any]:
    """``tf.contrib.legacy_seq2seq.rnn_decoder``: ``cell`` run over a list of step inputs.

    From ``initial_state``, each input of ``decoder_inputs`` (or, with ``loop_function``, after
    the first step ``loop_function(previous output, step)``) goes through ``cell`` under the
    variable scope ``scope`` (``"rnn_decoder"``), its variables made at the first step and reused
    after.  Returns the list of outputs and the last state.
    """
    v1 = _tf.tf().compat.v1
    with v1.variable_scope(scope or "rnn_decoder"):
        state = initial_state
        outputs = []
        prev = None
        for step, inp in enumerate(decoder_inputs):
            if loop_function is not None and prev is not None:
                with v1.variable_scope("loop_function", reuse=True):
                    inp = loop_function(prev, step)
            if step > 0:
                v1.get_variable_scope().reuse_variables()
            output, state = cell(inp, state)
            outputs.append(output)
            if loop_function is not None:
                prev = output
    return outputs, state


def sequence_loss_by_example(
    logits: Any,
    targets: Any,
    weights: Any,
    average_across_timesteps: bool = True,
    softmax_loss_function: Any = None,
    name: str | None = None,
) -> Any:
    """``tf.contrib.legacy_seq2seq.sequence_loss_by_example``: the loss of each example.

    ``logits`` a list of ``[batch, classes]`` tensors, ``targets`` and ``weights`` lists of
    ``[batch]`` ones of the same length.  The cross-entropy of each step
    (``softmax_loss_function(labels=, logits=)`` when given, else the sparse softmax one of the
    flattened target) times its weight, summed over the steps and, with
    ``average_across_timesteps``, divided by the weights' sum plus ``1e-12``.
    """
    if len(targets) != len(logits) or len(weights) != len(logits):
        raise ValueError(
            "Lengths of logits, weights, and targets must be the same "
            f"{len(logits)}, {len(weights)}, {len(targets)}."
        )
    v1 = _tf.tf().compat.v1
    with v1.name_scope(name, "sequence_loss_by_example", [*logits, *targets, *weights]):
        per_step = []
        for logit, target, weight in zip(logits, targets, weights):
            if softmax_loss_function is None:
                target = v1.reshape(target, [-1])
                crossent = v1.nn.sparse_softmax_cross_entropy_with_logits(
                    labels=target, logits=logit
                )
            else:
                crossent = softmax_loss_function(labels=target, logits=logit)
            per_step.append(crossent * weight)
        log_perps = v1.add_n(per_step)
        if average_across_timesteps:
            log_perps /= v1.add_n(weights) + 1e-12
    return log_perps


def legacy_sequence_loss(
    logits: Any,
    targets: Any,
    weights: Any,
    average_across_timesteps: bool = True,
    average_across_batch: bool = True,
    softmax_loss_function: Any = None,
    name: str | None = None,
) -> Any:
    """``tf.contrib.legacy_seq2seq.sequence_loss``: :func:`sequence_loss_by_example` summed, and
    with ``average_across_batch`` divided by the batch size (the first target's length)."""
    v1 = _tf.tf().compat.v1
    with v1.name_scope(name, "sequence_loss", [*logits, *targets, *weights]):
        cost = v1.reduce_sum(
            sequence_loss_by_example(
                logits,
                targets,
                weights,
                average_across_timesteps=average_across_timesteps,
                softmax_loss_function=softmax_loss_function,
            )
        )
        if average_across_batch:
            return cost / v1.cast(v1.shape(targets[0])[0], cost.dtype)
        return cost


LEGACY_SEQ2SEQ: dict[str, Any] = {
    "rnn_decoder": rnn_decoder,
    "sequence_loss_by_example": sequence_loss_by_example,
    "sequence_loss": legacy_sequence_loss,
}
"""The ``tf.contrib.legacy_seq2seq`` functions served; its embedding and attention models
(``embedding_attention_seq2seq``, ``model_with_buckets``, ...) are not (the error says so)."""
