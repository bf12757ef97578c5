"""``tf.contrib.layers.conv2d`` and its pooling layers, and ``tf.contrib.slim``, under ``run``.

TF 1.15's ``convolution2d`` (tensorflow/contrib/layers/python/layers/layers.py) built a
``tf.layers.Conv2D`` in a ``variable_scope(scope, 'Conv')`` whose variable getter renamed
``kernel``/``bias`` to ``weights``/``biases``: ReLU, Xavier-uniform weights, zero biases and
``SAME`` padding by default, one weight tensor ``[kh, kw, in, out]``.  :func:`convolution2d` builds
the same graph from ``tf.compat.v1`` ops (``nn.convolution`` then ``bias_add``): the same variable
names (``Conv/weights``, ``Conv_1/biases``, ``conv1/weights`` for ``scope='conv1'``), model
variables, collections and regularization losses, and the ``normalizer_fn`` of
:mod:`._contrib_layers`.  ``conv2d_transpose`` (scope ``Conv2d_transpose``, weights
``[kh, kw, out, in]``) likewise; ``max_pool2d`` / ``avg_pool2d`` are ``nn.max_pool2d`` /
``nn.avg_pool2d`` with TF1's defaults (``stride=2``, ``VALID``) in a ``MaxPool2D`` /
``AvgPool2D`` name scope.  ``repeat`` and ``stack`` follow TF1's (scopes ``conv1/conv1_1``,
...).  Every layer function is an ``add_arg_scope`` one, so ``slim.arg_scope([slim.conv2d,
slim.fully_connected], ...)`` sets their defaults.

``tf.contrib.slim`` was ``tf.contrib.layers`` and ``tf.contrib.framework`` under one name, with
variables helpers; :data:`SLIM` is what of it is served, with ``slim.prefetch_queue`` and ``slim.model_analyzer`` (its
``learning``, ``losses``, ``nets`` and the rest of ``data`` are not).
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from tfcompat_gpu.dropin import _contrib_layers as _layers
from tfcompat_gpu.dropin._slim_analyzer import MODEL_ANALYZER
from tfcompat_gpu.tfapi import _tf

__all__ = [
    "CONV_FUNCTIONS",
    "SLIM",
    "avg_pool2d",
    "conv2d_transpose",
    "convolution2d",
    "max_pool2d",
    "one_hot_encoding",
    "repeat",
    "stack",
]

_RELU: Any = _layers._RELU
_XAVIER: Any = _layers._XAVIER
_ZEROS: Any = _layers._ZEROS


def _pair(value: Any, name: str) -> list[int]:
    """TF1's ``utils.two_element_tuple``: an int, or a list/tuple of two ints."""
    if isinstance(value, (list, tuple)):
        if len(value) != 2:
            raise ValueError(f"Must be a list with 2 elements: {value}")
        return [int(value[0]), int(value[1])]
    try:
        return [int(value), int(value)]
    except (TypeError, ValueError):
        raise ValueError(
            f"Must be an int, a list with 2 elements or a TensorShape: {name}"
        ) from None


def _padding(padding: str) -> str:
    upper = str(padding).upper()
    if upper not in ("SAME", "VALID"):
        raise ValueError(f"padding must be 'SAME' or 'VALID', got {padding!r}")
    return upper


def _channels_first(data_format: Any) -> bool:
    if data_format in (None, "NHWC", "channels_last"):
        return False
    if data_format in ("NCHW", "channels_first"):
        return True
    raise ValueError(f"data_format has to be either NCHW or NHWC, got {data_format!r}")


def _defaults(activation_fn: Any, weights_initializer: Any, biases_initializer: Any) -> Any:
    v1 = _tf.tf().compat.v1
    if activation_fn is _RELU:
        activation_fn = v1.nn.relu
    if weights_initializer is _XAVIER:
        weights_initializer = v1.glorot_uniform_initializer()  # xavier_initializer()
    if biases_initializer is _ZEROS:
        biases_initializer = v1.zeros_initializer()
    return activation_fn, weights_initializer, biases_initializer


def _finish(
    outputs: Any,
    weights: Any,
    biases: Any,
    variables_collections: Any,
    normalizer_fn: Any,
    normalizer_params: Any,
    activation_fn: Any,
    outputs_collections: Any,
    name: str,
) -> Any:
    _layers._add_to_collections(weights, variables_collections, "weights")
    if biases is not None:
        _layers._add_to_collections(biases, variables_collections, "biases")
    if normalizer_fn is not None:
        outputs = normalizer_fn(outputs, **(normalizer_params or {}))
    if activation_fn is not None:
        outputs = activation_fn(outputs)
    return _layers._collect(outputs_collections, name, outputs)


def convolution2d(
    inputs: Any,
    num_outputs: int,
    kernel_size: Any,
    stride: Any = 1,
    padding: str = "SAME",
    data_format: Any = None,
    rate: Any = 1,
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
    """``tf.contrib.layers.conv2d`` / ``slim.conv2d``: a 2-D convolution of ``inputs``
    (``NHWC`` unless ``data_format='NCHW'``) with ``weights`` ``[kh, kw, in, num_outputs]``,
    plus ``biases`` ``[num_outputs]`` (none with a ``normalizer_fn``, which is applied then),
    then ``activation_fn`` (ReLU by default); variables in the scope ``Conv`` made unique, or
    ``scope``."""
    v1 = _tf.tf().compat.v1
    activation_fn, weights_initializer, biases_initializer = _defaults(
        activation_fn, weights_initializer, biases_initializer
    )
    first = _channels_first(data_format)
    with v1.variable_scope(scope, "Conv", [inputs], reuse=reuse) as sc:
        inputs = v1.convert_to_tensor(inputs)
        if inputs.shape.ndims != 4:
            raise ValueError(f"Convolution expects input with rank 4, got {inputs.shape.ndims}")
        depth = inputs.shape[1 if first else -1]
        if depth is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found None.")
        dtype = inputs.dtype.base_dtype
        kh, kw = _pair(kernel_size, "kernel_size")
        weights = _layers._model_variable(
            "weights",
            [kh, kw, int(depth), num_outputs],
            dtype,
            weights_initializer,
            weights_regularizer,
            trainable,
        )
        biases = None
        if not normalizer_fn and biases_initializer:
            biases = _layers._model_variable(
                "biases", [num_outputs], dtype, biases_initializer, biases_regularizer, trainable
            )
        outputs = v1.nn.convolution(
            inputs,
            weights,
            padding=_padding(padding),
            strides=_pair(stride, "stride"),
            dilation_rate=_pair(rate, "rate"),
            data_format="NCHW" if first else "NHWC",
        )
        if biases is not None:
            outputs = v1.nn.bias_add(outputs, biases, data_format="NCHW" if first else "NHWC")
        return _finish(
            outputs,
            weights,
            biases,
            variables_collections,
            normalizer_fn,
            normalizer_params,
            activation_fn,
            outputs_collections,
            sc.name,
        )


def _deconv_length(size: Any, kernel: int, stride: int, padding: str) -> Any:
    # tf.layers' deconv_output_length without output_padding
    if size is None:
        return None
    if padding == "VALID":
        return size * stride + max(kernel - stride, 0)
    return size * stride


def conv2d_transpose(
    inputs: Any,
    num_outputs: int,
    kernel_size: Any,
    stride: Any = 1,
    padding: str = "SAME",
    data_format: str = "NHWC",
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
    """``tf.contrib.layers.conv2d_transpose`` / ``slim.conv2d_transpose``: weights
    ``[kh, kw, num_outputs, in]`` in the scope ``Conv2d_transpose``; ``SAME`` multiplies the
    spatial size by ``stride``."""
    tf = _tf.tf()
    v1 = tf.compat.v1
    activation_fn, weights_initializer, biases_initializer = _defaults(
        activation_fn, weights_initializer, biases_initializer
    )
    first = _channels_first(data_format)
    fmt = "NCHW" if first else "NHWC"
    with v1.variable_scope(scope, "Conv2d_transpose", [inputs], reuse=reuse) as sc:
        inputs = v1.convert_to_tensor(inputs)
        if inputs.shape.ndims != 4:
            raise ValueError(f"Inputs should have rank 4. Received input shape: {inputs.shape}")
        depth = inputs.shape[1 if first else -1]
        if depth is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found None.")
        dtype = inputs.dtype.base_dtype
        kh, kw = _pair(kernel_size, "kernel_size")
        sh, sw = _pair(stride, "stride")
        pad = _padding(padding)
        weights = _layers._model_variable(
            "weights",
            [kh, kw, num_outputs, int(depth)],
            dtype,
            weights_initializer,
            weights_regularizer,
            trainable,
        )
        biases = None
        if not normalizer_fn and biases_initializer:
            biases = _layers._model_variable(
                "biases", [num_outputs], dtype, biases_initializer, biases_regularizer, trainable
            )
        dynamic = v1.shape(inputs)
        h_axis, w_axis = (2, 3) if first else (1, 2)
        height = _deconv_length(dynamic[h_axis], kh, sh, pad)
        width = _deconv_length(dynamic[w_axis], kw, sw, pad)
        if first:
            output_shape = v1.stack([dynamic[0], num_outputs, height, width])
            strides = [1, 1, sh, sw]
        else:
            output_shape = v1.stack([dynamic[0], height, width, num_outputs])
            strides = [1, sh, sw, 1]
        outputs = v1.nn.conv2d_transpose(
            inputs, weights, output_shape, strides, padding=pad, data_format=fmt
        )
        static = inputs.shape.as_list()
        static_h = _deconv_length(static[h_axis], kh, sh, pad)
        static_w = _deconv_length(static[w_axis], kw, sw, pad)
        if first:
            outputs.set_shape([static[0], num_outputs, static_h, static_w])
        else:
            outputs.set_shape([static[0], static_h, static_w, num_outputs])
        if biases is not None:
            outputs = v1.nn.bias_add(outputs, biases, data_format=fmt)
        return _finish(
            outputs,
            weights,
            biases,
            variables_collections,
            normalizer_fn,
            normalizer_params,
            activation_fn,
            outputs_collections,
            sc.name,
        )


def _pool(
    kind: str,
    inputs: Any,
    kernel_size: Any,
    stride: Any,
    padding: str,
    data_format: str,
    outputs_collections: Any,
    scope: Any,
) -> Any:
    v1 = _tf.tf().compat.v1
    first = _channels_first(data_format)
    kh, kw = _pair(kernel_size, "kernel_size")
    sh, sw = _pair(stride, "stride")
    default = "MaxPool2D" if kind == "max" else "AvgPool2D"
    with v1.name_scope(scope, default, [inputs]) as sc:
        inputs = v1.convert_to_tensor(inputs)
        pool = v1.nn.max_pool2d if kind == "max" else v1.nn.avg_pool2d
        outputs = pool(
            inputs,
            ksize=[1, 1, kh, kw] if first else [1, kh, kw, 1],
            strides=[1, 1, sh, sw] if first else [1, sh, sw, 1],
            padding=_padding(padding),
            data_format="NCHW" if first else "NHWC",
        )
        return _layers._collect(outputs_collections, sc, outputs)


def max_pool2d(
    inputs: Any,
    kernel_size: Any,
    stride: Any = 2,
    padding: str = "VALID",
    data_format: str = "NHWC",
    outputs_collections: Any = None,
    scope: Any = None,
) -> Any:
    """``tf.contrib.layers.max_pool2d`` / ``slim.max_pool2d``: TF1's defaults, ``stride=2`` and
    ``VALID`` padding, in a ``MaxPool2D`` name scope."""
    return _pool(
        "max", inputs, kernel_size, stride, padding, data_format, outputs_collections, scope
    )


def avg_pool2d(
    inputs: Any,
    kernel_size: Any,
    stride: Any = 2,
    padding: str = "VALID",
    data_format: str = "NHWC",
    outputs_collections: Any = None,
    scope: Any = None,
) -> Any:
    """``tf.contrib.layers.avg_pool2d`` / ``slim.avg_pool2d``: as :func:`max_pool2d`, averaging."""
    return _pool(
        "avg", inputs, kernel_size, stride, padding, data_format, outputs_collections, scope
    )


def one_hot_encoding(
    labels: Any,
    num_classes: int,
    on_value: float = 1.0,
    off_value: float = 0.0,
    outputs_collections: Any = None,
    scope: Any = None,
) -> Any:
    """``slim.one_hot_encoding``: ``tf.one_hot`` in a ``OneHotEncoding`` name scope."""
    v1 = _tf.tf().compat.v1
    with v1.name_scope(scope, "OneHotEncoding", [labels, num_classes]) as sc:
        labels = v1.convert_to_tensor(labels)
        if labels.dtype == v1.int32:
            labels = v1.to_int64(labels)
        outputs = v1.one_hot(labels, num_classes, on_value=on_value, off_value=off_value)
        return _layers._collect(outputs_collections, sc, outputs)


def _layer_scope(layer: Any, default: str) -> str:
    if hasattr(layer, "__name__"):
        return str(layer.__name__)
    if hasattr(layer, "func"):
        return str(layer.func.__name__)
    return default


def repeat(inputs: Any, repetitions: int, layer: Any, *args: Any, **kwargs: Any) -> Any:
    """``slim.repeat``: ``layer`` applied ``repetitions`` times, scopes ``<scope>/<scope>_1``,
    ``<scope>/<scope>_2``, ... (``scope`` defaults to the layer's name)."""
    v1 = _tf.tf().compat.v1
    scope = kwargs.pop("scope", None)
    with v1.variable_scope(scope, "Repeat", [inputs]):
        outputs = v1.convert_to_tensor(inputs)
        name = scope if scope is not None else _layer_scope(layer, "repeat")
        for i in range(repetitions):
            kwargs["scope"] = f"{name}_{i + 1}"
            outputs = layer(outputs, *args, **kwargs)
        return outputs


def stack(inputs: Any, layer: Any, stack_args: Any, **kwargs: Any) -> Any:
    """``slim.stack``: ``layer`` applied once per item of ``stack_args`` (its arguments)."""
    if not isinstance(stack_args, (list, tuple)):
        raise ValueError("stack_args need to be a list or tuple")
    v1 = _tf.tf().compat.v1
    scope = kwargs.pop("scope", None)
    with v1.variable_scope(scope, "Stack", [inputs]):
        outputs = v1.convert_to_tensor(inputs)
        name = scope if scope is not None else _layer_scope(layer, "stack")
        for i, layer_args in enumerate(stack_args):
            kwargs["scope"] = f"{name}_{i + 1}"
            if not isinstance(layer_args, (list, tuple)):
                layer_args = [layer_args]
            outputs = layer(outputs, *layer_args, **kwargs)
        return outputs


def _variables(kind: str) -> Any:
    def get(scope: Any = None, suffix: Any = None) -> list[Any]:
        # TF1's slim.get_variables: a regular expression of scope and suffix over a collection
        v1 = _tf.tf().compat.v1
        keys = v1.GraphKeys
        key = {
            "all": keys.GLOBAL_VARIABLES,
            "model": keys.MODEL_VARIABLES,
            "trainable": keys.TRAINABLE_VARIABLES,
        }[kind]
        if scope is not None and not isinstance(scope, str):
            scope = scope.name  # a VariableScope
        if suffix is not None:
            suffix = suffix if ":" in suffix else suffix + ":"
            scope = (scope or "") + ".*" + suffix
        return list(v1.get_collection(key, scope))

    get.__name__ = {"all": "get_variables", "model": "get_model_variables"}.get(
        kind, "get_trainable_variables"
    )
    return get


def get_variables_to_restore(include: Any = None, exclude: Any = None) -> list[Any]:
    """``slim.get_variables_to_restore``: the global variables (under the ``include`` scopes
    when given) but those under an ``exclude`` scope."""
    get = _variables("all")
    variables = [v for scope in include for v in get(scope)] if include is not None else get()
    excluded = {id(v) for scope in exclude or () for v in get(scope)}
    return [v for v in variables if id(v) not in excluded]


_CONV: dict[str, Callable[..., Any]] = {
    "conv2d": convolution2d,
    "convolution2d": convolution2d,
    "convolution": convolution2d,
    "conv2d_transpose": conv2d_transpose,
    "convolution2d_transpose": conv2d_transpose,
    "max_pool2d": max_pool2d,
    "avg_pool2d": avg_pool2d,
    "one_hot_encoding": one_hot_encoding,
}
CONV_FUNCTIONS: dict[str, Any] = {}
for _name, _function in _CONV.items():
    # one add_arg_scope function per layer, so that an arg_scope over slim.conv2d also sets
    # tf.contrib.layers.conv2d's defaults (the same function in TF1)
    CONV_FUNCTIONS[_name] = next(
        (f for f in CONV_FUNCTIONS.values() if f.__wrapped__ is _function), None
    ) or _layers.add_arg_scope(_function)
CONV_FUNCTIONS["repeat"] = repeat
CONV_FUNCTIONS["stack"] = stack
"""The ``tf.contrib.layers`` names this module serves (beside :data:`._contrib_layers.FUNCTIONS`)."""


def prefetch_queue(
    tensors: Any,
    capacity: int = 8,
    num_threads: int = 1,
    dynamic_pad: bool = False,
    shared_name: str | None = None,
    name: str | None = None,
) -> Any:
    """``tf.contrib.slim.prefetch_queue.prefetch_queue``: TF 1.15's queue that prefetches a
    batch (tensorflow/contrib/slim/python/slim/data/prefetch_queue.py), which the multi-GPU
    tower scripts dequeue once per tower.

    A ``FIFOQueue`` (``PaddingFIFOQueue`` for ``dynamic_pad``) of the tensors' dtypes and
    shapes (a dict's keys as its names), filled by ``num_threads`` queue runners of one
    enqueue, with the ``fraction_of_<capacity>_full`` summary."""
    v1 = _tf.tf().compat.v1
    names = list(tensors.keys()) if isinstance(tensors, dict) else None
    tensor_list = list(tensors.values()) if isinstance(tensors, dict) else list(tensors)
    with v1.name_scope(name, "prefetch_queue", tensor_list) as scope:
        dtypes = [t.dtype for t in tensor_list]
        shapes = [t.get_shape() for t in tensor_list]
        kind = v1.PaddingFIFOQueue if dynamic_pad else v1.FIFOQueue
        queue = kind(
            capacity=capacity,
            dtypes=dtypes,
            shapes=shapes,
            names=names,
            shared_name=shared_name,
            name=scope,
        )
        enqueue = queue.enqueue(tensors)
        v1.train.add_queue_runner(v1.train.QueueRunner(queue, [enqueue] * num_threads))
        v1.summary.scalar(
            f"fraction_of_{capacity}_full",
            v1.cast(queue.size(), v1.float32) * (1.0 / capacity),
        )
        return queue


PREFETCH_QUEUE = ModuleType(
    "tensorflow.contrib.slim.prefetch_queue",
    "tf.contrib.slim.prefetch_queue of TF 1.x: prefetch_queue(tensors, capacity=...).",
)
PREFETCH_QUEUE.prefetch_queue = prefetch_queue  # type: ignore[attr-defined]

SLIM: dict[str, Any] = {
    "prefetch_queue": PREFETCH_QUEUE,
    "model_analyzer": MODEL_ANALYZER,
    **_layers.FUNCTIONS,
    **CONV_FUNCTIONS,
    **_layers.FRAMEWORK,
    "get_variables": _variables("all"),
    "get_model_variables": _variables("model"),
    "get_trainable_variables": _variables("trainable"),
    "get_variables_to_restore": get_variables_to_restore,
}
"""The ``tf.contrib.slim`` names served: its layers, ``arg_scope``, variable helpers, and the
``prefetch_queue`` module of the multi-GPU scripts, and ``model_analyzer``."""
