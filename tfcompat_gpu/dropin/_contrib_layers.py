"""``tf.contrib.layers`` under ``run``: ``fully_connected``, ``flatten``, ``batch_norm``,
``dropout``, the initializers and regularizers TF1 scripts hand to ``tf.get_variable``, each
computing what TF 1.15's did, and ``tf.contrib.framework.arg_scope`` over the layer functions.

TF 1.15's ``fully_connected`` (tensorflow/contrib/layers/python/layers/layers.py) built a
``tf.layers.Dense`` in a ``variable_scope(scope, 'fully_connected')`` whose variable getter
renamed ``kernel``/``bias`` to ``weights``/``biases`` and made them model variables; its
``flatten`` reshaped to ``[batch, -1]`` in a ``name_scope(scope, 'Flatten')``.  TensorFlow 2 has
neither ``tf.contrib`` nor, from 2.16 on, ``tf.compat.v1.layers`` without tf_keras, so
:func:`fully_connected` builds the same graph from ``tf.compat.v1`` ops: the same variable names
(``fully_connected/weights``, ``fully_connected_1/biases``, ... as checkpoints have them), the
same collections, initializers, regularization losses and output.  The modules themselves are
made in :mod:`tfcompat_gpu.dropin._contrib`.

``batch_norm`` builds TF 1.15's layer, ``tf.compat.v1.layers.BatchNormalization`` (tf_keras from
TensorFlow 2.16 on; auto mode picks it for a script that names ``batch_norm``), in TF1's
``BatchNorm`` variable scope; ``dropout`` is ``tf.compat.v1.nn.dropout`` when training.
``arg_scope`` follows tensorflow/contrib/framework/python/ops/arg_scope.py: the layer functions
served here are the ``add_arg_scope`` ones.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import Any

from tfcompat_gpu.tfapi import _tf

__all__ = [
    "FRAMEWORK",
    "FUNCTIONS",
    "add_arg_scope",
    "arg_scope",
    "batch_norm",
    "dropout",
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


_UPDATE_OPS = "update_ops"  # tf.GraphKeys.UPDATE_OPS, batch_norm's default updates_collections
_TF_SLIM = "tf_slim.layers.batch_norm of the tf-slim package (pip install tf-slim)"


def _refuse(argument: str, value: Any, why: str) -> ValueError:
    return ValueError(
        f"tf.contrib.layers.batch_norm({argument}={value!r}): {why}, which the drop-in does not "
        f"reproduce. Leave {argument} at its default, or use {_TF_SLIM}."
    )


def batch_norm(
    inputs: Any,
    decay: float = 0.999,
    center: bool = True,
    scale: bool = False,
    epsilon: float = 0.001,
    activation_fn: Any = None,
    param_initializers: Any = None,
    param_regularizers: Any = None,
    updates_collections: Any = _UPDATE_OPS,
    is_training: Any = True,
    reuse: bool | None = None,
    variables_collections: Any = None,
    outputs_collections: Any = None,
    trainable: bool = True,
    batch_weights: Any = None,
    fused: bool | None = None,
    data_format: str = "NHWC",
    zero_debias_moving_mean: bool = False,
    scope: Any = None,
    renorm: bool = False,
    renorm_clipping: Any = None,
    renorm_decay: float = 0.99,
    adjustment: Any = None,
) -> Any:
    """``tf.contrib.layers.batch_norm``: TF 1.15's ``BatchNormalization`` layer over the last axis.

    Variables ``<scope>/beta`` (``center``), ``gamma`` (``scale``), ``moving_mean`` and
    ``moving_variance`` are model variables in the scope ``BatchNorm`` made unique; with
    ``is_training`` (a bool or a boolean tensor) the batch's moments normalize and the moving
    averages decay by ``decay``, their updates in ``updates_collections`` (``UPDATE_OPS``; a
    control dependency of the output when None, as TF1 forced them in place).  A rank-2 input
    goes through the fused kernel reshaped to ``[-1, 1, 1, C]`` unless ``fused=False``, as
    TF1's did.  ``param_initializers``, ``param_regularizers``, ``batch_weights``, ``renorm``,
    ``adjustment``, ``zero_debias_moving_mean`` and a ``data_format`` other than ``NHWC``
    raise a ``ValueError`` naming the argument.
    """
    refused = {
        "param_initializers": (param_initializers, "initializers of beta, gamma and the moments"),
        "param_regularizers": (param_regularizers, "regularizers of beta and gamma"),
        "batch_weights": (batch_weights, "weighted moments"),
        "renorm": (renorm, "batch renormalization"),
        "renorm_clipping": (renorm_clipping, "batch renormalization"),
        "adjustment": (adjustment, "an adjusted normalization"),
        "zero_debias_moving_mean": (zero_debias_moving_mean, "a zero-debiased moving mean"),
    }
    for argument, (value, why) in refused.items():
        if value:
            raise _refuse(argument, value, why)
    if data_format != "NHWC":
        raise _refuse("data_format", data_format, "channels-first normalization")
    v1 = _tf.tf().compat.v1
    with v1.variable_scope(scope, "BatchNorm", [inputs], reuse=reuse) as sc:
        inputs = v1.convert_to_tensor(inputs)
        shape = inputs.shape
        if shape.ndims is None:
            raise ValueError(f"Inputs {inputs.name} has undefined rank")
        if shape[-1] is None:
            raise ValueError("`C` dimension must be known but is None")
        reshaped = shape.ndims == 2 and fused is not False
        x = v1.reshape(inputs, [-1, 1, 1, shape[-1]]) if reshaped else inputs
        layer = _batch_normalization(v1)(
            momentum=decay,
            epsilon=epsilon,
            center=center,
            scale=scale,
            trainable=trainable,
            fused=False if fused is False else (True if x.shape.ndims == 4 else None),
            name=sc.name,
            _scope=sc,
            _reuse=reuse,
        )
        outputs = layer.apply(x, training=is_training)
        if reshaped:
            outputs = v1.reshape(outputs, v1.shape(inputs))
            outputs.set_shape(shape)
        keys = v1.GraphKeys
        for key in ("beta", "gamma", "moving_mean", "moving_variance"):
            variable = getattr(layer, key, None)
            if variable is None:
                continue
            _add_to_collections(variable, [keys.MODEL_VARIABLES], key)
            _add_to_collections(variable, variables_collections, key)
        if updates_collections != _UPDATE_OPS:
            updates = list(layer.updates)
            listed = v1.get_collection_ref(keys.UPDATE_OPS)
            listed[:] = [op for op in listed if op not in updates]
            if updates_collections is None:
                with v1.control_dependencies(updates):
                    outputs = v1.identity(outputs)
            else:
                for update in updates:
                    v1.add_to_collections(updates_collections, update)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return _collect(outputs_collections, sc.name, outputs)


def _batch_normalization(v1: Any) -> Any:
    try:
        return v1.layers.BatchNormalization
    except (AttributeError, ImportError) as error:  # Keras 3: "not available with Keras 3"
        raise AttributeError(
            "tf.contrib.layers.batch_norm is built on tf.compat.v1.layers.BatchNormalization, "
            "which TensorFlow >= 2.16 serves from tf_keras (Keras 2) only: pip install tf_keras "
            "and run with --legacy-keras (auto mode does so for TF1 graph code that uses "
            f"tf.contrib.layers.batch_norm). ({error})"
        ) from None


def dropout(
    inputs: Any,
    keep_prob: Any = 0.5,
    noise_shape: Any = None,
    is_training: Any = True,
    outputs_collections: Any = None,
    scope: Any = None,
    seed: int | None = None,
) -> Any:
    """``tf.contrib.layers.dropout``: with ``is_training`` (a bool or a boolean tensor), each
    element kept with probability ``keep_prob`` and scaled by ``1 / keep_prob``; else the
    input unchanged (TF1's ``Dropout`` layer, ``rate = 1 - keep_prob``)."""
    tf = _tf.tf()
    v1 = tf.compat.v1
    with v1.variable_scope(scope, "Dropout", [inputs]) as sc:
        inputs = v1.convert_to_tensor(inputs)

        def drop() -> Any:
            return v1.nn.dropout(inputs, rate=1 - keep_prob, noise_shape=noise_shape, seed=seed)

        if isinstance(is_training, bool):
            outputs = drop() if is_training else v1.identity(inputs)
        else:
            outputs = v1.cond(is_training, drop, lambda: v1.identity(inputs))
        return _collect(outputs_collections, sc.name, outputs)


# tensorflow/contrib/framework/python/ops/arg_scope.py: a stack of {function key: defaults}
_ARG_STACK: list[dict[str, dict[str, Any]]] = [{}]


def _key(func: Any) -> str:
    return getattr(func, "_key_op", str(func))


def add_arg_scope(func: Callable[..., Any]) -> Callable[..., Any]:
    """``tf.contrib.framework.add_arg_scope``: ``func`` takes the keyword defaults an enclosing
    :func:`arg_scope` set for it; keywords given in the call win."""

    @functools.wraps(func)
    def scoped(*args: Any, **kwargs: Any) -> Any:
        key = _key(scoped)
        defaults = _ARG_STACK[-1].get(key)
        if defaults is not None:
            kwargs = {**defaults, **kwargs}
        return func(*args, **kwargs)

    scoped._key_op = f"{func.__module__}.{func.__qualname__}"  # type: ignore[attr-defined]
    scoped._add_arg_scope = True  # type: ignore[attr-defined]
    return scoped


@contextlib.contextmanager
def arg_scope(list_ops_or_scope: Any, **kwargs: Any) -> Iterator[dict[str, dict[str, Any]]]:
    """``tf.contrib.framework.arg_scope``: inside the block, the listed functions take
    ``kwargs`` as defaults, merged over an enclosing scope's; a scope yielded by an earlier
    ``arg_scope`` may be passed instead of the list to enter it again."""
    if isinstance(list_ops_or_scope, dict):
        if kwargs:
            raise ValueError("When re-using a scope by passing a dictionary, kwargs must be empty.")
        scope = list_ops_or_scope
    else:
        if not isinstance(list_ops_or_scope, (list, tuple)):
            raise TypeError(
                "list_ops_or_scope must either be a list/tuple or reused scope (i.e. dict)"
            )
        scope = dict(_ARG_STACK[-1])
        for op in list_ops_or_scope:
            if not getattr(op, "_add_arg_scope", False):
                raise ValueError(f"{op} is not decorated with @add_arg_scope")
            key = _key(op)
            scope[key] = {**scope.get(key, {}), **kwargs}
    _ARG_STACK.append(scope)
    try:
        yield scope
    finally:
        _ARG_STACK.pop()


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
    "batch_norm": add_arg_scope(batch_norm),
    "dropout": add_arg_scope(dropout),
    "flatten": add_arg_scope(flatten),
    "fully_connected": add_arg_scope(fully_connected),
    "xavier_initializer": xavier_initializer,
    "xavier_initializer_conv2d": xavier_initializer,
    "variance_scaling_initializer": variance_scaling_initializer,
    "l2_regularizer": l2_regularizer,
    "l1_regularizer": l1_regularizer,
}
"""The ``tf.contrib.layers`` names served, the layer functions as ``add_arg_scope`` made them;
the others (``conv2d``, ``max_pool2d``, ...) are tf-slim's (the error names it)."""

FRAMEWORK: dict[str, Any] = {"arg_scope": arg_scope, "add_arg_scope": add_arg_scope}
"""The ``tf.contrib.framework`` names served (TF1 exported ``arg_scope`` there only)."""
