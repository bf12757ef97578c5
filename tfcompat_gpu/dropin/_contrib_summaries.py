"""``tf.contrib.layers``' summary functions and ``tf.contrib.framework``'s global-step functions
under ``run``, as TF 1.15 made them.

TF 1.15's summaries (tensorflow/contrib/layers/python/layers/summaries.py) were thin wrappers of
``tf.summary``: ``summarize_activation(op)`` wrote a histogram tagged ``<op name>/activation``
and, for ``Relu`` / ``Relu6`` / ``Softplus`` outputs, the fraction of negative inputs as a
scalar ``<op name>/zeros`` (``Relu6`` also the fraction above six, ``<op name>/sixes``);
``summarize_tensor(tensor, tag)`` a scalar for a rank-0 tensor, else a histogram, tagged
``<op name>_summary`` when no tag is given; ``summarize_collection`` (and ``summarize_variables``,
``summarize_weights``, ``summarize_biases``, ``summarize_activations``) each tensor of a graph
collection whose op name matches a regular expression.  The summary ops land in
``tf.GraphKeys.SUMMARIES`` as before, so ``tf.summary.merge_all()`` picks them up.

``tf.contrib.framework`` re-exported ``tf.train``'s global-step functions (``get_global_step``,
``get_or_create_global_step``, ``create_global_step``, ``assert_global_step``) and ``get_model_variables``
(``tf.compat.v1.model_variables``); they are served from there.
"""

from __future__ import annotations

import re
from typing import Any

from tfcompat_gpu.tfapi import _tf

__all__ = [
    "FRAMEWORK_V1",
    "SUMMARIES",
    "summarize_activation",
    "summarize_activations",
    "summarize_collection",
    "summarize_tensor",
    "summarize_tensors",
]

_ZERO_TYPES = ("Relu", "Softplus", "Relu6")


def _v1() -> Any:
    return _tf.tf().compat.v1


def _scalar(tensor: Any, tag: str | None = None) -> Any:
    shape = tensor.get_shape()
    if not shape.is_fully_defined() or shape.ndims != 0:
        raise ValueError(f"tf.contrib.layers: a scalar summary takes a scalar tensor, not {shape}")
    return _v1().summary.scalar(tag or f"{tensor.op.name}_summary", tensor)


def _histogram(tensor: Any, tag: str | None = None) -> Any:
    return _v1().summary.histogram(tag or f"{tensor.op.name}_summary", tensor)


def _fraction(condition: Any) -> Any:
    v1 = _v1()
    return v1.reduce_mean(v1.cast(condition, v1.float32))


def summarize_activation(op: Any) -> Any:
    """``tf.contrib.layers.summarize_activation``: a histogram of ``op``, and for ReLU-like
    ops the fraction of inputs below zero (and above six for ``Relu6``)."""
    v1 = _v1()
    kind = op.op.type
    if kind in _ZERO_TYPES:
        inputs = op.op.inputs[0]
        _scalar(_fraction(v1.less(inputs, v1.cast(0.0, inputs.dtype))), f"{op.op.name}/zeros")
    if kind == "Relu6":
        inputs = op.op.inputs[0]
        _scalar(_fraction(v1.greater(inputs, v1.cast(6.0, inputs.dtype))), f"{op.op.name}/sixes")
    return _histogram(op, f"{op.op.name}/activation")


def summarize_tensor(tensor: Any, tag: str | None = None) -> Any:
    """``tf.contrib.layers.summarize_tensor``: a scalar summary of a rank-0 tensor, a histogram
    of any other."""
    if tensor.get_shape().ndims == 0:
        return _scalar(tensor, tag)
    return _histogram(tensor, tag)


def summarize_tensors(tensors: Any, summarizer: Any = summarize_tensor) -> list[Any]:
    """``tf.contrib.layers.summarize_tensors``: ``summarizer`` of each tensor."""
    return [summarizer(tensor) for tensor in tensors]


def summarize_collection(
    collection: str, name_filter: str | None = None, summarizer: Any = summarize_tensor
) -> list[Any]:
    """``tf.contrib.layers.summarize_collection``: the tensors of a graph collection whose op
    name matches ``name_filter`` (``re.match``), summarized."""
    tensors = [
        tensor
        for tensor in _v1().get_collection(collection)
        if name_filter is None or re.match(name_filter, tensor.op.name)
    ]
    return summarize_tensors(tensors, summarizer)


def _collection_summarizer(key: str) -> Any:
    def summarize(name_filter: str | None = None, summarizer: Any = summarize_tensor) -> list[Any]:
        return summarize_collection(getattr(_v1().GraphKeys, key), name_filter, summarizer)

    summarize.__name__ = f"summarize_{key.lower()}"
    return summarize


def summarize_activations(
    name_filter: str | None = None, summarizer: Any = summarize_activation
) -> list[Any]:
    """``tf.contrib.layers.summarize_activations``: the ``activations`` collection."""
    return summarize_collection(_v1().GraphKeys.ACTIVATIONS, name_filter, summarizer)


SUMMARIES: dict[str, Any] = {
    "summarize_activation": summarize_activation,
    "summarize_activations": summarize_activations,
    "summarize_collection": summarize_collection,
    "summarize_tensor": summarize_tensor,
    "summarize_tensors": summarize_tensors,
    "summarize_variables": _collection_summarizer("GLOBAL_VARIABLES"),
    "summarize_weights": _collection_summarizer("WEIGHTS"),
    "summarize_biases": _collection_summarizer("BIASES"),
}
"""The ``tf.contrib.layers`` summary functions served."""

FRAMEWORK_V1: dict[str, str] = {
    "get_global_step": "train.get_global_step",
    "get_or_create_global_step": "train.get_or_create_global_step",
    "create_global_step": "train.create_global_step",
    "assert_global_step": "train.assert_global_step",
    "get_model_variables": "model_variables",
}
"""``tf.contrib.framework`` names -> their ``tf.compat.v1`` homes (the same functions)."""


def framework_function(name: str) -> Any:
    """The ``tf.compat.v1`` function ``tf.contrib.framework.<name>`` was."""
    target: Any = _v1()
    for part in FRAMEWORK_V1[name].split("."):
        target = getattr(target, part)
    return target
