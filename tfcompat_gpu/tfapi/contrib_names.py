"""Where the ``tf.contrib`` modules legacy scripts reach went.

TensorFlow 2.0 removed ``tf.contrib`` (tensorflow/tools/compatibility/all_renames_v2.py maps a
few names; most modules moved to other packages or have no successor).  ``run`` names the
successor in the error of a module it does not serve (only ``tf.contrib.distribute`` is), and
``migrate`` in the warning on a ``tensorflow.contrib`` import or attribute it leaves.
"""

from __future__ import annotations

__all__ = ["CONTRIB_SUCCESSORS"]

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
        "tf.nn.rnn_cell of the v1 API (BasicLSTMCell, LSTMCell, GRUCell, MultiRNNCell, "
        "DropoutWrapper; from tf_keras on TensorFlow >= 2.16: pip install tf_keras, "
        "TF_USE_LEGACY_KERAS=1), or tf.keras.layers' RNN cells"
    ),
    "eager": (
        "tf itself: TensorFlow 2 runs eagerly (tfe.Variable is tf.Variable, tfe.defun "
        "tf.function, tfe.py_func tf.py_function, tfe.Checkpoint tf.train.Checkpoint, "
        "tfe.Iterator(dataset) iter(dataset))"
    ),
    "cudnn_rnn": "tf.keras.layers.LSTM / GRU, which use cuDNN by themselves on a GPU",
    "learn": "tf.estimator (TensorFlow <= 2.15), or Keras",
    "keras": "tf.keras",
    "data": "tf.data",
    "losses": "tf.losses of the v1 API (tf.compat.v1.losses)",
    "metrics": "tf.metrics of the v1 API (tf.compat.v1.metrics)",
    "summary": "tf.summary (or tf.compat.v1.summary)",
    "lite": "tf.lite",
}
"""``tf.contrib.<module>`` -> where it went, as a noun phrase (``Use ... instead``)."""
