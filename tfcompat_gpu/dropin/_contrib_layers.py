"""``tf.contrib.layers`` under ``run``: ``fully_connected``, ``flatten``, the initializers and
regularizers TF1 scripts hand to ``tf.get_variable``, each computing what TF 1.15's did.

TF 1.15's ``fully_connected`` (tensorflow/contrib/layers/python/layers/layers.py) built a
``tf.layers.Dense`` in a ``variable_scope(scope, 'fully_connected')`` whose variable getter
renamed ``kernel``/``bias`` to ``weights``/``biases`` and made them model variables; its
``flatten`` reshaped to ``[batch, -1]`` in a ``name_scope(scope, 'Flatten')``.  TensorFlow 2 has
neither ``tf.contrib`` nor, from 2.16 on, ``tf.compat.v1.layers`` without tf_keras, so
:func:`fully_connected` builds the same graph from ``tf.compat.v1`` ops: the same variable names
(``fully_connected/weights``, ``fully_connected_1/biases``, ... as checkpoints have them), the
same collections, initializers, regularization losses and output.  The modules themselves are
made in :mod:`tfcompat_gpu.dropin._contrib`.
"""

from __future__ import annotations

from typing import Any

from tfcompat_gpu.tfapi import _tf

__all__ = [
    "FUNCTIONS",
    "flatten",
    "fully_connected",
    "l1_regularizer",
    "l2_regularizer",
    "variance_scaling_initializer",
    "xavier_initializer",
]

_RELU: Any = object()  # the default activation_fn, tf.nn.relu (TF is imported only when called)
_XAVIER: Any = object()  # the default weights_initializer, xavier_initializer()
_ZEROS: Any = object()  # the default biases_initializer, tf.zeros_initializer()


def _collect(collections: Any, alias: str, outputs: Any) -> Any:
    """TF1's ``utils.collect_named_outputs``: an ``aliases`` list on the tensor, then the
    collections (a name or a list of names)."""
    if collections:
        alias = alias[:-1] if alias.endswith("/") else alias
        aliases = getattr(outputs, "aliases", None)
        if aliases is None:
            outputs.aliases = [alias]
        else:
            aliases.append(alias)
        _tf.tf().compat.v1.add_to_collections(collections, outputs)
    return outputs


def _add_to_collections(variable: Any, collections: Any, key: str) -> None:
    """``variables_collections``: a list of collections for every variable, or a dict of lists
    keyed ``weights`` / ``biases``."""
    if isinstance(collections, dict):
        collections = collections.get(key)
    if not collections:
        return
    v1 = _tf.tf().compat.v1
    for name in [collections] if isinstance(collections, str) else collections:
        if variable not in v1.get_collection(name):
            v1.add_to_collection(name, variable)


def _model_variable(
    name: str,
    shape: list[int],
    dtype: Any,
    initializer: Any,
    regularizer: Any,
    trainable: bool,
) -> Any:
    v1 = _tf.tf().compat.v1
    keys = v1.GraphKeys
    return v1.get_variable(
        name,
        shape=shape,
        dtype=dtype,
        initializer=initializer,
        regularizer=regularizer,
        trainable=trainable,
        collections=[keys.GLOBAL_VARIABLES, keys.MODEL_VARIABLES],
    )


def fully_connected(
    inputs: Any,
    num_outputs: int,
    activation_fn: Any = _RELU,
    normalizer_fn: Any = None,
    normalizer_params: dict[str, Any] | None = None,
    weights_initializer: Any = _XAVIER,
    weights_regularizer: Any = None,
    biases_initializer: Any = _ZEROS,
    biases_regularizer: Any = None,
    reuse: bool | None = None,
    variables_collections: Any = None,
    outputs_collections: Any = None,
    trainable: bool = True,
    scope: Any = None,
) -> Any:
    """``tf.contrib.layers.fully_connected``: ``activation_fn(inputs @ weights + biases)``.

    ``weights`` ``[depth, num_outputs]`` (``depth`` the last dimension of ``inputs``, which must
    be known; Xavier uniform by default) and ``biases`` ``[num_outputs]`` (zeros; none when
    ``biases_initializer`` is None or a ``normalizer_fn`` is given, which is then applied with
    ``normalizer_params``) are model variables ``<scope>/weights`` and ``<scope>/biases``, the
    default scope ``fully_connected`` made unique (``fully_connected_1``, ...).  Their
    regularizers' losses go to ``REGULARIZATION_LOSSES``.  An input of rank > 2 is contracted
    over its last axis (``[batch, steps, depth]`` gives ``[batch, steps, num_outputs]``).  The
    default activation is ReLU; ``activation_fn=None`` keeps the layer linear.
    """
    if not isinstance(num_outputs, int):
        raise ValueError(
            f"num_outputs type should be one of [<class 'int'>], got {type(num_outputs)}."
        )
    tf = _tf.tf()
    v1 = tf.compat.v1
    if activation_fn is _RELU:
        activation_fn = tf.nn.relu
    if weights_initializer is _XAVIER:
        # xavier_initializer(): variance scaling of factor 1 over FAN_AVG, uniform, which is
        # Glorot uniform, U(-sqrt(6 / (fan_in + fan_out)), +...)
        weights_initializer = v1.glorot_uniform_initializer()
    if biases_initializer is _ZEROS:
        biases_initializer = v1.zeros_initializer()
    with v1.variable_scope(scope, "fully_connected", [inputs], reuse=reuse) as sc:
        inputs = v1.convert_to_tensor(inputs)
        dtype = inputs.dtype.base_dtype
        rank = inputs.shape.ndims
        if rank is None or rank < 2:
            found = "its rank is undefined" if rank is None else f"found ndim={rank}"
            raise ValueError(
                f"Input 0 of layer {sc.name} is incompatible with the layer: expected "
                f"min_ndim=2, {found}. Full shape received: {inputs.shape}"
            )
        depth = inputs.shape[-1]
        if depth is None:
            raise ValueError(
                "The last dimension of the inputs to `Dense` should be defined. Found `None`."
            )
        if not (dtype.is_floating or dtype.is_complex):
            raise TypeError(f"Unable to build `Dense` layer with non-floating point dtype {dtype}")
        weights = _model_variable(
            "weights",
            [depth, num_outputs],
            dtype,
            weights_initializer,
            weights_regularizer,
            trainable,
        )
        biases = None
        if not normalizer_fn and biases_initializer:
            biases = _model_variable(
                "biases", [num_outputs], dtype, biases_initializer, biases_regularizer, trainable
            )
        if rank > 2:
            outputs = v1.tensordot(inputs, weights, [[rank - 1], [0]])
            outputs.set_shape(inputs.shape[:-1].concatenate([num_outputs]))
        else:
            outputs = v1.matmul(inputs, weights)
        if biases is not None:
            outputs = v1.nn.bias_add(outputs, biases)
        _add_to_collections(weights, variables_collections, "weights")
        if biases is not None:
            _add_to_collections(biases, variables_collections, "biases")
        if normalizer_fn is not None:
            outputs = normalizer_fn(outputs, **(normalizer_params or {}))
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return _collect(outputs_collections, sc.name, outputs)


def flatten(inputs: Any, outputs_collections: Any = None, scope: Any = None) -> Any:
    """``tf.contrib.layers.flatten``: ``inputs`` of rank >= 2 reshaped to ``[batch, k]``, ``k``
    the product of the other dimensions (``None`` when one of them is unknown)."""
    tf = _tf.tf()
    v1 = tf.compat.v1
    with v1.name_scope(scope, "Flatten", [inputs]) as sc:
        inputs = v1.convert_to_tensor(inputs)
        shape = inputs.shape
        if shape.ndims is None or shape.ndims < 2:
            raise ValueError(
                f"Inputs must have a least 2 dimensions (flatten). Received: shape {shape}"
            )
        batch = shape[0]
        inner = shape[1:].num_elements()  # None when a dimension is unknown
        if inner is not None:
            outputs = v1.reshape(inputs, [-1, inner])
        else:
            outputs = v1.reshape(inputs, [batch if batch is not None else v1.shape(inputs)[0], -1])
        outputs.set_shape([batch, inner])
        return _collect(outputs_collections, sc, outputs)


# tensorflow/contrib/layers/python/layers/initializers.py: a truncated normal of standard
# deviation sqrt(1.3 * factor / n); tf.compat.v1's truncated normal divides sqrt(scale / n) by
# this constant (tensorflow/python/ops/init_ops.py, VarianceScaling), so scale = 1.3 * factor * c**2
_TRUNCATED = 0.87962566103423978
_MODES = {"FAN_IN": "fan_in", "FAN_OUT": "fan_out", "FAN_AVG": "fan_avg"}


def variance_scaling_initializer(
    factor: float = 2.0,
    mode: str = "FAN_IN",
    uniform: bool = False,
    seed: int | None = None,
    dtype: Any = None,
) -> Any:
    """``tf.contrib.layers.variance_scaling_initializer`` as ``tf.compat.v1``'s VarianceScaling.

    Uniform: a limit of ``sqrt(3 * factor / n)`` (``scale=factor``); else a truncated normal of
    standard deviation ``sqrt(1.3 * factor / n)``; ``n`` the fan ``mode`` names.
    """
    tf = _tf.tf()
    dtype = tf.float32 if dtype is None else dtype
    if not tf.as_dtype(dtype).is_floating:
        raise TypeError("Cannot create initializer for non-floating point type.")
    if mode not in _MODES:
        raise TypeError(f"Unknown mode {mode} [FAN_IN, FAN_OUT, FAN_AVG]")
    if uniform:
        scale, distribution = factor, "uniform"
    else:
        scale, distribution = 1.3 * factor * _TRUNCATED**2, "truncated_normal"
    return tf.compat.v1.variance_scaling_initializer(
        scale=scale, mode=_MODES[mode], distribution=distribution, seed=seed, dtype=dtype
    )


def xavier_initializer(uniform: bool = True, seed: int | None = None, dtype: Any = None) -> Any:
    """``tf.contrib.layers.xavier_initializer`` (Glorot): ``factor=1.0``, ``mode='FAN_AVG'``."""
    return variance_scaling_initializer(1.0, "FAN_AVG", uniform, seed, dtype)


def _regularizer(scale: float, scope: str | None, kind: str) -> Any:
    import numbers

    if isinstance(scale, numbers.Integral):
        raise ValueError(f"scale cannot be an integer: {scale}")
    if isinstance(scale, numbers.Real):
        if scale < 0.0:
            raise ValueError(f"Setting a scale less than 0 on a regularizer: {scale}.")
        if scale == 0.0:
            return lambda _: None
    tf = _tf.tf()

    def regularize(weights: Any) -> Any:
        with tf.compat.v1.name_scope(scope, f"{kind}_regularizer", [weights]) as name:
            my_scale = tf.convert_to_tensor(scale, dtype=weights.dtype.base_dtype, name="scale")
            if kind == "l2":
                return tf.multiply(my_scale, tf.nn.l2_loss(weights), name=name)
            return tf.multiply(my_scale, tf.reduce_sum(tf.abs(weights)), name=name)

    return regularize


def l2_regularizer(scale: float, scope: str | None = None) -> Any:
    """``tf.contrib.layers.l2_regularizer``: ``scale * tf.nn.l2_loss(weights)`` (half the sum of
    squares); ``scale == 0`` gives a function returning None, as TF1's did."""
    return _regularizer(scale, scope, "l2")


def l1_regularizer(scale: float, scope: str | None = None) -> Any:
    """``tf.contrib.layers.l1_regularizer``: ``scale * sum(|weights|)``."""
    return _regularizer(scale, scope, "l1")


FUNCTIONS: dict[str, Any] = {
    "flatten": flatten,
    "fully_connected": fully_connected,
    "xavier_initializer": xavier_initializer,
    "xavier_initializer_conv2d": xavier_initializer,
    "variance_scaling_initializer": variance_scaling_initializer,
    "l2_regularizer": l2_regularizer,
    "l1_regularizer": l1_regularizer,
}
"""The ``tf.contrib.layers`` names served; the others (``conv2d``, ``batch_norm``, ``dropout``,
...) are tf-slim's (the error names it)."""
