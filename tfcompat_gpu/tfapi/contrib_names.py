"""Where the ``tf.contrib`` modules legacy scripts reach went.

TensorFlow 2.0 removed ``tf.contrib`` (tensorflow/tools/compatibility/all_renames_v2.py maps a
few names; most modules moved to other packages or have no successor).  ``run`` names the
successor in the error of a name it does not serve (it serves ``tf.contrib.distribute``, the
core names of ``tf.contrib.rnn`` and a few of ``tf.contrib.layers``), and
``migrate`` in the warning on a ``tensorflow.contrib`` import or attribute it leaves.

Of ``tf.contrib.rnn``, the names TF1 re-exported from its core (tensorflow/contrib/rnn/__init__.py:
``from tensorflow.python.ops.rnn_cell import *`` and the static RNN functions of
tensorflow/python/ops/rnn.py) have an exact home in the v1 API (:data:`CONTRIB_RNN`).
"""

from __future__ import annotations

__all__ = [
    "CONTRIB_RNN",
    "CONTRIB_SUCCESSORS",
    "LEGACY_SEQ2SEQ_PARAMETERS",
    "RNN_CELLS",
    "SEQUENCE_LOSS_PARAMETERS",
]

_TF_SLIM = "pip install tf-slim"

CONTRIB_SUCCESSORS: dict[str, str] = {
    # google-research/tf-slim is tf.contrib.slim and the tf.contrib.layers functions it used,
    # moved out of TensorFlow; it builds v1 graphs (tf.compat.v1), which `run` gives TF1 code
    # and `migrate` writes for it.
    "slim": f"the tf-slim package ({_TF_SLIM}, then `import tf_slim as slim`)",
    "layers": (
        f"tf_slim.layers of the tf-slim package ({_TF_SLIM}), which keeps tf.contrib.layers' "
        "functions (xavier_initializer, variance_scaling_initializer, l2_regularizer, "
        "fully_connected, conv2d, batch_norm, ...)"
    ),
    "framework": (
        f"the tf-slim package ({_TF_SLIM}) for arg_scope, add_arg_scope and the variable "
        "functions; tf.compat.v1 for the rest"
    ),
    "rnn": (
        "tf.compat.v1.nn.rnn_cell for the core cells (BasicLSTMCell, LSTMCell, GRUCell, "
        "MultiRNNCell, DropoutWrapper, LSTMStateTuple; from tf_keras on TensorFlow >= 2.16: pip "
        "install tf_keras, TF_USE_LEGACY_KERAS=1) and tf.compat.v1.nn for static_rnn; "
        "tensorflow_addons' tfa.rnn (NASCell, LayerNormLSTMCell) or tf.keras.layers' RNN cells "
        "for the contrib-only ones"
    ),
    "seq2seq": (
        "tensorflow_addons' tfa.seq2seq (BasicDecoder, AttentionWrapper, dynamic_decode, "
        "sequence_loss; tensorflow_addons is no longer maintained), or tf.keras layers"
    ),
    "legacy_seq2seq": (
        "tf.keras layers (tf.contrib.legacy_seq2seq has no TF2 successor; tensorflow_addons' "
        "tfa.seq2seq is the closest)"
    ),
    "eager": (
        "tf itself: TensorFlow 2 runs eagerly (tfe.Variable is tf.Variable, tfe.defun "
        "tf.function, tfe.py_func tf.py_function, tfe.Checkpoint tf.train.Checkpoint, "
        "tfe.Iterator(dataset) iter(dataset))"
    ),
    "cudnn_rnn": "tf.keras.layers.LSTM / GRU, which use cuDNN by themselves on a GPU",
    "learn": (
        "tf.estimator (TensorFlow <= 2.15), or Keras; for learn.preprocessing."
        "VocabularyProcessor, tf.keras.layers.TextVectorization (which splits and numbers "
        "words otherwise; `tfcompat-gpu run` provides TF1's)"
    ),
    "factorization": (
        "scikit-learn's KMeans, or tf.compat.v1.estimator.experimental.KMeans (TensorFlow <= "
        "2.15); `tfcompat-gpu run` provides TF1's graph KMeans, which TensorFlow still ships "
        "privately (tensorflow.python.ops.clustering_ops)"
    ),
    "crf": (
        "a CRF of your own on tf ops (tensorflow_addons' tfa.text.crf_log_likelihood / "
        "viterbi_decode had it, no longer maintained); `tfcompat-gpu run` provides TF1's"
    ),
    "keras": "tf.keras",
    "data": "tf.data",
    "losses": "tf.losses of the v1 API (tf.compat.v1.losses)",
    "metrics": "tf.metrics of the v1 API (tf.compat.v1.metrics)",
    "summary": "tf.summary (or tf.compat.v1.summary)",
    "lite": "tf.lite",
}
"""``tf.contrib.<module>`` -> where it went, as a noun phrase (``Use ... instead``)."""

_CELL = "nn.rnn_cell."
RNN_CELLS: frozenset[str] = frozenset(
    {
        "RNNCell",
        "BasicRNNCell",
        "BasicLSTMCell",
        "GRUCell",
        "LSTMCell",
        "LSTMStateTuple",
        "DropoutWrapper",
        "MultiRNNCell",
        "DeviceWrapper",
        "ResidualWrapper",
    }
)
"""The ``tf.contrib.rnn`` cells that are ``tf.compat.v1.nn.rnn_cell``'s (TensorFlow >= 2.16 serves
them from tf_keras only)."""

CONTRIB_RNN: dict[str, str] = {
    **{name: _CELL + name for name in sorted(RNN_CELLS)},
    "static_rnn": "nn.static_rnn",
    "static_bidirectional_rnn": "nn.static_bidirectional_rnn",
    "static_state_saving_rnn": "nn.static_state_saving_rnn",
}
"""``tf.contrib.rnn.<name>`` -> its home under ``tf.compat.v1`` (the same object in TF 1.x); the
other names (``NASCell``, ``LayerNormBasicLSTMCell``, ``EmbeddingWrapper``, ``LSTMBlockCell``,
``stack_bidirectional_dynamic_rnn``, ...) were contrib's own and have none."""

SEQUENCE_LOSS_PARAMETERS: tuple[str, ...] = (
    "logits",
    "targets",
    "weights",
    "average_across_timesteps",
    "average_across_batch",
    "sum_over_timesteps",
    "sum_over_batch",
    "softmax_loss_function",
    "name",
)
"""``tf.contrib.seq2seq.sequence_loss``'s parameters in order (TF 1.15,
tensorflow/contrib/seq2seq/python/ops/loss.py): the ones ``run``'s stand-in takes and
``migrate`` reads a call's arguments by."""

LEGACY_SEQ2SEQ_PARAMETERS: dict[str, tuple[str, ...]] = {
    "rnn_decoder": ("decoder_inputs", "initial_state", "cell", "loop_function", "scope"),
    "sequence_loss_by_example": (
        "logits",
        "targets",
        "weights",
        "average_across_timesteps",
        "softmax_loss_function",
        "name",
    ),
}
"""The parameters in order of the ``tf.contrib.legacy_seq2seq`` functions ``migrate`` rewrites
(TF 1.15, tensorflow/contrib/legacy_seq2seq/python/ops/seq2seq.py)."""
