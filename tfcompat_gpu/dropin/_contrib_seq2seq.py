"""``tf.contrib.seq2seq``'s decoders under ``run``: ``BasicDecoder``, its helpers and
``dynamic_decode``, as TF 1.15 built them in a v1 graph.

TF 1.15's tensorflow/contrib/seq2seq/python/ops/{helper,basic_decoder,decoder}.py: a helper
gives the decoder its first inputs and, after each step of the cell, the ids it sampled and the
next inputs (the time-major ground truth for ``TrainingHelper``, the embedding of the argmax for
``GreedyEmbeddingHelper``, the script's functions for ``CustomHelper``); ``dynamic_decode`` runs
the decoder in a ``tf.while_loop`` until every sequence is finished or ``maximum_iterations`` is
reached, stacking each step's outputs in ``TensorArray``s.  Variable names, output shapes, ``impute_finished`` and the sequence lengths
are TF1's.  The attention wrappers and the beam search decoder are not served (the drop-in's
error names tensorflow_addons' ``tfa.seq2seq``).
"""

from __future__ import annotations

import collections
import contextlib
from typing import Any

from tfcompat_gpu.tfapi import _tf

__all__ = [
    "DECODERS",
    "BasicDecoder",
    "BasicDecoderOutput",
    "CustomHelper",
    "Decoder",
    "GreedyEmbeddingHelper",
    "Helper",
    "TrainingHelper",
    "dynamic_decode",
]

BasicDecoderOutput = collections.namedtuple("BasicDecoderOutput", ("rnn_output", "sample_id"))


def _v1() -> Any:
    return _tf.tf().compat.v1


def _transpose_batch_time(tensor: Any) -> Any:
    """Swaps the first two axes of a tensor of rank >= 2 (rank 0 or 1 stays as it is)."""
    v1 = _v1()
    rank = tensor.shape.ndims
    if rank is not None and rank < 2:
        return tensor
    if rank is None:
        rank_t = v1.rank(tensor)
        perm = v1.concat(([1, 0], v1.range(2, rank_t)), axis=0)
        return v1.transpose(tensor, perm)
    return v1.transpose(tensor, [1, 0, *range(2, rank)])


class Helper:
    """``tf.contrib.seq2seq.Helper``: what a decoder asks of its inputs at each step."""

    @property
    def batch_size(self) -> Any:
        raise NotImplementedError

    @property
    def sample_ids_shape(self) -> Any:
        return _tf.tf().TensorShape([])

    @property
    def sample_ids_dtype(self) -> Any:
        return _tf.tf().int32

    def initialize(self, name: str | None = None) -> Any:
        raise NotImplementedError

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        raise NotImplementedError

    def next_inputs(
        self, time: Any, outputs: Any, state: Any, sample_ids: Any, name: str | None = None
    ) -> Any:
        raise NotImplementedError


class CustomHelper(Helper):
    """``tf.contrib.seq2seq.CustomHelper``: a helper of the script's three functions, called
    with keywords (``time=``, ``outputs=``, ``state=``, ``sample_ids=``); its batch size is the
    size of the ``finished`` vector ``initialize_fn`` gives."""

    def __init__(
        self,
        initialize_fn: Any,
        sample_fn: Any,
        next_inputs_fn: Any,
        sample_ids_shape: Any = None,
        sample_ids_dtype: Any = None,
    ) -> None:
        self._initialize_fn = initialize_fn
        self._sample_fn = sample_fn
        self._next_inputs_fn = next_inputs_fn
        self._batch_size: Any = None
        self._sample_ids_shape = _tf.tf().TensorShape(sample_ids_shape or [])
        self._sample_ids_dtype = sample_ids_dtype or _tf.tf().int32

    @property
    def batch_size(self) -> Any:
        if self._batch_size is None:
            raise ValueError("batch_size accessed before initialize was called")
        return self._batch_size

    @property
    def sample_ids_shape(self) -> Any:
        return self._sample_ids_shape

    @property
    def sample_ids_dtype(self) -> Any:
        return self._sample_ids_dtype

    def initialize(self, name: str | None = None) -> Any:
        v1 = _v1()
        with v1.name_scope(name, f"{type(self).__name__}Initialize"):
            finished, next_inputs = self._initialize_fn()
            if self._batch_size is None:
                self._batch_size = v1.size(finished)
        return finished, next_inputs

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        v1 = _v1()
        with v1.name_scope(name, f"{type(self).__name__}Sample", (time, outputs, state)):
            return self._sample_fn(time=time, outputs=outputs, state=state)

    def next_inputs(
        self, time: Any, outputs: Any, state: Any, sample_ids: Any, name: str | None = None
    ) -> Any:
        v1 = _v1()
        with v1.name_scope(name, f"{type(self).__name__}NextInputs", (time, outputs, state)):
            return self._next_inputs_fn(
                time=time, outputs=outputs, state=state, sample_ids=sample_ids
            )


class TrainingHelper(Helper):
    """``tf.contrib.seq2seq.TrainingHelper``: the decoder reads the given inputs (teacher
    forcing); a sequence is finished once its ``sequence_length`` steps are read, and a finished
    batch gets zeros as inputs."""

    def __init__(
        self,
        inputs: Any,
        sequence_length: Any,
        time_major: bool = False,
        name: str | None = None,
    ) -> None:
        tf = _tf.tf()
        v1 = tf.compat.v1
        with v1.name_scope(name, "TrainingHelper", [inputs, sequence_length]):
            inputs = v1.convert_to_tensor(inputs, name="inputs")
            self._inputs = inputs
            if not time_major:
                inputs = tf.nest.map_structure(_transpose_batch_time, inputs)
            self._input_tas = tf.nest.map_structure(
                lambda inp: tf.TensorArray(
                    dtype=inp.dtype, size=v1.shape(inp)[0], element_shape=inp.shape[1:]
                ).unstack(inp),
                inputs,
            )
            lengths = v1.convert_to_tensor(sequence_length, name="sequence_length")
            # NumPy's default int64 on Linux (int32 on Windows, where many of these scripts were
            # written) compared with the int32 step counter: TF1 raised, the lengths are counts
            self._sequence_length = (
                v1.cast(lengths, v1.int32) if lengths.dtype == v1.int64 else lengths
            )
            if self._sequence_length.get_shape().ndims != 1:
                raise ValueError(
                    "Expected sequence_length to be a vector, but received shape: "
                    f"{self._sequence_length.get_shape()}"
                )
            self._zero_inputs = tf.nest.map_structure(lambda inp: v1.zeros_like(inp[0, :]), inputs)
            self._batch_size = v1.size(self._sequence_length)

    @property
    def inputs(self) -> Any:
        return self._inputs

    @property
    def sequence_length(self) -> Any:
        return self._sequence_length

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    def _read(self, time: Any, finished: Any) -> Any:
        tf = _tf.tf()
        v1 = tf.compat.v1
        return v1.cond(
            v1.reduce_all(finished),
            lambda: self._zero_inputs,
            lambda: tf.nest.map_structure(lambda ta: ta.read(time), self._input_tas),
        )

    def initialize(self, name: str | None = None) -> Any:
        v1 = _v1()
        with v1.name_scope(name, "TrainingHelperInitialize"):
            finished = v1.equal(0, self._sequence_length)
            return finished, self._read(0, finished)

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        v1 = _v1()
        with v1.name_scope(name, "TrainingHelperSample", [time, outputs]):
            return v1.cast(v1.argmax(outputs, axis=-1), v1.int32)

    def next_inputs(
        self, time: Any, outputs: Any, state: Any, sample_ids: Any, name: str | None = None
    ) -> Any:
        v1 = _v1()
        with v1.name_scope(name, "TrainingHelperNextInputs", [time, outputs, state]):
            next_time = time + 1
            finished = next_time >= self._sequence_length
            return finished, self._read(next_time, finished), state


class GreedyEmbeddingHelper(Helper):
    """``tf.contrib.seq2seq.GreedyEmbeddingHelper``: inference; each step's input is the
    embedding of the argmax of the last output, starting from ``start_tokens``; a sequence is
    finished when it samples ``end_token``."""

    def __init__(self, embedding: Any, start_tokens: Any, end_token: Any) -> None:
        v1 = _v1()
        if callable(embedding):
            self._embedding_fn = embedding
        else:
            self._embedding_fn = lambda ids: v1.nn.embedding_lookup(embedding, ids)
        self._start_tokens = v1.convert_to_tensor(start_tokens, dtype=v1.int32, name="start_tokens")
        self._end_token = v1.convert_to_tensor(end_token, dtype=v1.int32, name="end_token")
        if self._start_tokens.get_shape().ndims != 1:
            raise ValueError("start_tokens must be a vector")
        self._batch_size = v1.size(start_tokens)
        if self._end_token.get_shape().ndims != 0:
            raise ValueError("end_token must be a scalar")
        self._start_inputs = self._embedding_fn(self._start_tokens)

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    def initialize(self, name: str | None = None) -> Any:
        v1 = _v1()
        return v1.tile([False], [self._batch_size]), self._start_inputs

    def sample(self, time: Any, outputs: Any, state: Any, name: str | None = None) -> Any:
        v1 = _v1()
        if not isinstance(outputs, _tf.tf().Tensor):
            raise TypeError(f"Expected outputs to be a single Tensor, got: {type(outputs)}")
        return v1.argmax(outputs, axis=-1, output_type=v1.int32)

    def next_inputs(
        self, time: Any, outputs: Any, state: Any, sample_ids: Any, name: str | None = None
    ) -> Any:
        v1 = _v1()
        finished = v1.equal(sample_ids, self._end_token)
        next_inputs = v1.cond(
            v1.reduce_all(finished),
            lambda: self._start_inputs,
            lambda: self._embedding_fn(sample_ids),
        )
        return finished, next_inputs, state


class Decoder:
    """``tf.contrib.seq2seq.Decoder``: the interface ``dynamic_decode`` runs."""

    @property
    def batch_size(self) -> Any:
        raise NotImplementedError

    @property
    def output_size(self) -> Any:
        raise NotImplementedError

    @property
    def output_dtype(self) -> Any:
        raise NotImplementedError

    @property
    def tracks_own_finished(self) -> bool:
        return False

    def initialize(self, name: str | None = None) -> Any:
        raise NotImplementedError

    def step(self, time: Any, inputs: Any, state: Any, name: str | None = None) -> Any:
        raise NotImplementedError

    def finalize(self, outputs: Any, final_state: Any, sequence_lengths: Any) -> Any:
        raise NotImplementedError


class BasicDecoder(Decoder):
    """``tf.contrib.seq2seq.BasicDecoder``: one step of ``cell`` (then ``output_layer``), its
    ids sampled and next inputs given by ``helper``."""

    def __init__(
        self, cell: Any, helper: Any, initial_state: Any, output_layer: Any = None
    ) -> None:
        if not callable(cell):
            raise TypeError(f"cell must be an RNNCell, received: {type(cell)}")
        if not isinstance(helper, Helper) and not hasattr(helper, "next_inputs"):
            raise TypeError(f"helper must be a Helper, received: {type(helper)}")
        self._cell = cell
        self._helper = helper
        self._initial_state = initial_state
        self._output_layer = output_layer

    @property
    def batch_size(self) -> Any:
        return self._helper.batch_size

    def _rnn_output_size(self) -> Any:
        tf = _tf.tf()
        size = self._cell.output_size
        if self._output_layer is None:
            return size
        with_batch = tf.nest.map_structure(lambda s: tf.TensorShape([None]).concatenate(s), size)
        layer_shape = self._output_layer.compute_output_shape(with_batch)
        return tf.nest.map_structure(lambda s: tf.TensorShape(s)[1:], layer_shape)

    @property
    def output_size(self) -> Any:
        return BasicDecoderOutput(
            rnn_output=self._rnn_output_size(), sample_id=self._helper.sample_ids_shape
        )

    @property
    def output_dtype(self) -> Any:
        tf = _tf.tf()
        dtype = tf.nest.flatten(self._initial_state)[0].dtype
        return BasicDecoderOutput(
            tf.nest.map_structure(lambda _: dtype, self._rnn_output_size()),
            self._helper.sample_ids_dtype,
        )

    def initialize(self, name: str | None = None) -> Any:
        return (*self._helper.initialize(), self._initial_state)

    def step(self, time: Any, inputs: Any, state: Any, name: str | None = None) -> Any:
        v1 = _v1()
        with v1.name_scope(name, "BasicDecoderStep", (time, inputs, state)):
            cell_outputs, cell_state = self._cell(inputs, state)
            if self._output_layer is not None:
                cell_outputs = self._output_layer(cell_outputs)
            sample_ids = self._helper.sample(time=time, outputs=cell_outputs, state=cell_state)
            finished, next_inputs, next_state = self._helper.next_inputs(
                time=time, outputs=cell_outputs, state=cell_state, sample_ids=sample_ids
            )
        return BasicDecoderOutput(cell_outputs, sample_ids), next_state, next_inputs, finished


def _zeros(size: Any, dtype: Any, batch_size: Any) -> Any:
    v1 = _v1()
    dims = _tf.tf().TensorShape(size).as_list()
    shape = v1.concat(([batch_size], v1.constant(dims, dtype=v1.int32, shape=[len(dims)])), 0)
    return v1.zeros(shape, dtype=dtype)


def dynamic_decode(
    decoder: Any,
    output_time_major: bool = False,
    impute_finished: bool = False,
    maximum_iterations: Any = None,
    parallel_iterations: int = 32,
    swap_memory: bool = False,
    scope: Any = None,
) -> tuple[Any, Any, Any]:
    """``tf.contrib.seq2seq.dynamic_decode``: ``decoder`` stepped in a ``while_loop`` under the
    variable scope ``scope`` (``"decoder"``) until all sequences are finished (or
    ``maximum_iterations`` steps).  Returns ``(final_outputs, final_state,
    final_sequence_lengths)``, the outputs batch-major unless ``output_time_major``; with
    ``impute_finished`` a finished sequence's outputs are zeros and its state is kept."""
    tf = _tf.tf()
    v1 = tf.compat.v1
    nest = tf.nest
    if not isinstance(decoder, Decoder) and not hasattr(decoder, "step"):
        raise TypeError(f"Expected decoder to be type Decoder, but saw: {type(decoder)}")
    with v1.variable_scope(scope, "decoder") as varscope:
        if varscope.caching_device is None:
            varscope.set_caching_device(lambda op: op.device)
        if maximum_iterations is not None:
            maximum_iterations = v1.convert_to_tensor(
                maximum_iterations, dtype=v1.int32, name="maximum_iterations"
            )
            if maximum_iterations.get_shape().ndims != 0:
                raise ValueError("maximum_iterations must be a scalar")
        initial_finished, initial_inputs, initial_state = decoder.initialize()
        zero_outputs = nest.map_structure(
            lambda s, d: _zeros(s, d, decoder.batch_size),
            decoder.output_size,
            decoder.output_dtype,
        )
        if maximum_iterations is not None:
            initial_finished = v1.logical_or(initial_finished, maximum_iterations <= 0)
        initial_lengths = v1.zeros_like(initial_finished, dtype=v1.int32)
        static_batch = v1.get_static_value(v1.convert_to_tensor(decoder.batch_size))

        def create_ta(s: Any, d: Any) -> Any:
            shape = tf.TensorShape(s)
            element = None if shape.ndims == 0 else tf.TensorShape([static_batch]).concatenate(s)
            return tf.TensorArray(dtype=d, size=0, dynamic_size=True, element_shape=element)

        initial_tas = nest.map_structure(create_ta, decoder.output_size, decoder.output_dtype)

        def condition(*loop_vars: Any) -> Any:
            return v1.logical_not(v1.reduce_all(loop_vars[4]))

        def body(time: Any, tas: Any, state: Any, inputs: Any, finished: Any, lengths: Any) -> Any:
            outputs, decoder_state, next_inputs, decoder_finished = decoder.step(
                time, inputs, state
            )
            own_lengths = None
            if decoder.tracks_own_finished:
                next_finished = decoder_finished
                own_lengths = getattr(decoder_state, "lengths", None)
            else:
                next_finished = v1.logical_or(decoder_finished, finished)
            if own_lengths is not None:
                next_lengths = v1.cast(own_lengths, v1.int32)
            else:
                next_lengths = v1.where(
                    v1.logical_not(finished), v1.fill(v1.shape(lengths), time + 1), lengths
                )
            nest.assert_same_structure(state, decoder_state)
            nest.assert_same_structure(tas, outputs)
            nest.assert_same_structure(inputs, next_inputs)
            if impute_finished:
                emit = nest.map_structure(
                    lambda out, zero: v1.where(finished, zero, out), outputs, zero_outputs
                )

                def keep(new: Any, cur: Any) -> Any:
                    if isinstance(cur, tf.TensorArray):
                        return new
                    new.set_shape(cur.shape)
                    return new if new.shape.ndims == 0 else v1.where(finished, cur, new)

                next_state = nest.map_structure(keep, decoder_state, state)
            else:
                emit, next_state = outputs, decoder_state
            tas = nest.map_structure(lambda ta, out: ta.write(time, out), tas, emit)
            return time + 1, tas, next_state, next_inputs, next_finished, next_lengths

        res = v1.while_loop(
            condition,
            body,
            loop_vars=(
                v1.constant(0, dtype=v1.int32),
                initial_tas,
                initial_state,
                initial_inputs,
                initial_finished,
                initial_lengths,
            ),
            parallel_iterations=parallel_iterations,
            maximum_iterations=maximum_iterations,
            swap_memory=swap_memory,
        )
        final_outputs = nest.map_structure(lambda ta: ta.stack(), res[1])
        final_state, final_lengths = res[2], res[5]
        with contextlib.suppress(NotImplementedError):
            final_outputs, final_state = decoder.finalize(final_outputs, final_state, final_lengths)
        if not output_time_major:
            final_outputs = nest.map_structure(_transpose_batch_time, final_outputs)
    return final_outputs, final_state, final_lengths


DECODERS: dict[str, Any] = {
    "BasicDecoder": BasicDecoder,
    "BasicDecoderOutput": BasicDecoderOutput,
    "CustomHelper": CustomHelper,
    "Decoder": Decoder,
    "GreedyEmbeddingHelper": GreedyEmbeddingHelper,
    "Helper": Helper,
    "TrainingHelper": TrainingHelper,
    "dynamic_decode": dynamic_decode,
}
"""The ``tf.contrib.seq2seq`` decoder names served."""
