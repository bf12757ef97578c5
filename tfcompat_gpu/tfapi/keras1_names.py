"""The Keras 1 layer arguments Keras 2.0-2.2 still took, and what it read them as.

Keras 2 translated them with a warning (the ``legacy_*_support`` decorators of
keras/legacy/interfaces.py, Keras 2.2.4); Keras 3 and tf_keras reject them.  Tables only, read
by the codemod without importing Keras.
"""

from __future__ import annotations

__all__ = [
    "CHANNELS",
    "CONSUME_LESS",
    "DROPPED",
    "KERAS1_CLASSES",
    "KERAS1_KEYWORDS",
    "KERAS1_REGULARIZERS",
    "KERNEL_DIMS",
    "LAYER_CLASSES",
    "MERGE_FUNCTIONS",
    "MERGE_MODES",
]

_WEIGHTS = {
    "init": "kernel_initializer",
    "W_regularizer": "kernel_regularizer",
    "b_regularizer": "bias_regularizer",
    "W_constraint": "kernel_constraint",
    "b_constraint": "bias_constraint",
    "bias": "use_bias",
}
_DIM_ORDERING = {"dim_ordering": "data_format"}
_CONV = {
    "nb_filter": "filters",
    "subsample": "strides",
    "border_mode": "padding",
    **_DIM_ORDERING,
    **_WEIGHTS,
}
_RECURRENT = {
    "output_dim": "units",
    "init": "kernel_initializer",
    "inner_init": "recurrent_initializer",
    "inner_activation": "recurrent_activation",
    "W_regularizer": "kernel_regularizer",
    "b_regularizer": "bias_regularizer",
    "U_regularizer": "recurrent_regularizer",
    "dropout_W": "dropout",
    "dropout_U": "recurrent_dropout",
}
_POOLING_1D = {"pool_length": "pool_size", "stride": "strides", "border_mode": "padding"}
_POOLING = {"border_mode": "padding", **_DIM_ORDERING}

KERAS1_KEYWORDS: dict[str, dict[str, str]] = {
    "Dense": {"output_dim": "units", **_WEIGHTS},
    "Dropout": {"p": "rate"},
    "SpatialDropout1D": {"p": "rate"},
    "SpatialDropout2D": {"p": "rate", **_DIM_ORDERING},
    "SpatialDropout3D": {"p": "rate", **_DIM_ORDERING},
    "GaussianDropout": {"p": "rate"},
    "GaussianNoise": {"sigma": "stddev"},
    "Embedding": {
        "init": "embeddings_initializer",
        "W_regularizer": "embeddings_regularizer",
        "W_constraint": "embeddings_constraint",
    },
    "PReLU": {"init": "alpha_initializer"},
    "BatchNormalization": {"beta_init": "beta_initializer", "gamma_init": "gamma_initializer"},
    "MaxPooling1D": _POOLING_1D,
    "AveragePooling1D": _POOLING_1D,
    "MaxPooling2D": _POOLING,
    "AveragePooling2D": _POOLING,
    "MaxPooling3D": _POOLING,
    "AveragePooling3D": _POOLING,
    "GlobalMaxPooling2D": _DIM_ORDERING,
    "GlobalAveragePooling2D": _DIM_ORDERING,
    "GlobalMaxPooling3D": _DIM_ORDERING,
    "GlobalAveragePooling3D": _DIM_ORDERING,
    "UpSampling1D": {"length": "size"},
    "UpSampling2D": _DIM_ORDERING,
    "UpSampling3D": _DIM_ORDERING,
    "ZeroPadding2D": _DIM_ORDERING,
    "ZeroPadding3D": _DIM_ORDERING,
    "Cropping2D": _DIM_ORDERING,
    "Cropping3D": _DIM_ORDERING,
    "Conv1D": {
        "nb_filter": "filters",
        "filter_length": "kernel_size",
        "subsample_length": "strides",
        "border_mode": "padding",
        **_WEIGHTS,
    },
    "Conv2D": _CONV,
    "Conv3D": _CONV,
    "Conv2DTranspose": _CONV,
    # ``init`` sets both the depthwise and the pointwise initializer (the command's own case)
    "SeparableConv2D": {
        key: value
        for key, value in _CONV.items()
        if key not in ("init", "W_regularizer", "W_constraint")
    },
    "ConvLSTM2D": {
        **_CONV,
        **{key: value for key, value in _RECURRENT.items() if key not in ("output_dim",)},
    },
    "LSTM": {**_RECURRENT, "consume_less": "implementation"},
    "GRU": {**_RECURRENT, "consume_less": "implementation"},
    "SimpleRNN": {**_RECURRENT, "consume_less": "implementation"},
    "Model": {"input": "inputs", "output": "outputs"},
    "Input": {"input_dtype": "dtype"},
}
"""Keras 2 class -> {Keras 1 keyword: Keras 2 keyword}, as keras/legacy/interfaces.py renames."""

# the other names Keras 2 gave the classes above (keras/layers/*.py, keras/legacy/layers.py):
# name -> (class whose table applies, the name Keras 3 has for it)
LAYER_CLASSES: dict[str, tuple[str, str]] = {
    **{name: (name, name) for name in KERAS1_KEYWORDS},
    "Convolution1D": ("Conv1D", "Convolution1D"),
    "Convolution2D": ("Conv2D", "Convolution2D"),
    "Convolution3D": ("Conv3D", "Convolution3D"),
    "SeparableConvolution2D": ("SeparableConv2D", "SeparableConvolution2D"),
    "Convolution2DTranspose": ("Conv2DTranspose", "Convolution2DTranspose"),
    "Deconvolution2D": ("Conv2DTranspose", "Conv2DTranspose"),
    "Deconv2D": ("Conv2DTranspose", "Conv2DTranspose"),
    "AtrousConvolution1D": ("Conv1D", "Conv1D"),
    "AtrousConvolution2D": ("Conv2D", "Conv2D"),
    "MaxPool1D": ("MaxPooling1D", "MaxPool1D"),
    "AvgPool1D": ("AveragePooling1D", "AvgPool1D"),
    "MaxPool2D": ("MaxPooling2D", "MaxPool2D"),
    "AvgPool2D": ("AveragePooling2D", "AvgPool2D"),
    "MaxPool3D": ("MaxPooling3D", "MaxPool3D"),
    "AvgPool3D": ("AveragePooling3D", "AvgPool3D"),
    "GlobalMaxPool2D": ("GlobalMaxPooling2D", "GlobalMaxPool2D"),
    "GlobalAvgPool2D": ("GlobalAveragePooling2D", "GlobalAvgPool2D"),
    "GlobalMaxPool3D": ("GlobalMaxPooling3D", "GlobalMaxPool3D"),
    "GlobalAvgPool3D": ("GlobalAveragePooling3D", "GlobalAvgPool3D"),
}
"""Every layer name the command reads: name -> (its keyword table, its Keras 3 name)."""

KERAS1_CLASSES = frozenset(
    {
        "Convolution1D",
        "Convolution2D",
        "Convolution3D",
        "SeparableConvolution2D",
        "Deconvolution2D",
        "AtrousConvolution1D",
        "AtrousConvolution2D",
    }
)
"""Names Keras 1 spelled its layers with: a call of one is Keras 1 code."""

KERNEL_DIMS: dict[str, tuple[str, ...]] = {
    "Conv2D": ("nb_row", "nb_col"),
    "Conv2DTranspose": ("nb_row", "nb_col"),
    "SeparableConv2D": ("nb_row", "nb_col"),
    "ConvLSTM2D": ("nb_row", "nb_col"),
    "Conv3D": ("kernel_dim1", "kernel_dim2", "kernel_dim3"),
}
"""Layers whose kernel Keras 1 took one size at a time, positionally or by these keywords."""

CHANNELS: dict[str, str | None] = {"tf": "channels_last", "th": "channels_first", "default": None}
"""``dim_ordering=`` values -> ``data_format=`` values."""

CONSUME_LESS: dict[str, int] = {"cpu": 0, "mem": 1, "gpu": 2}
"""``consume_less=`` values -> ``implementation=`` values."""

DROPPED: dict[str, tuple[str, ...]] = {
    "Embedding": ("dropout",),
    "Conv2DTranspose": ("output_shape",),
}
"""Keras 1 keywords Keras 2 accepted and ignored, per Keras 2 class (interfaces.py)."""

MERGE_FUNCTIONS = frozenset(
    {"keras.layers.merge", "keras.engine.merge", "keras.engine.topology.merge"}
)
"""Where Keras 1 code imports ``merge()`` from (keras/layers/__init__.py of Keras 1.2 exported
the function of keras/engine/topology.py)."""

MERGE_MODES: dict[str, tuple[str, str | None]] = {
    "sum": ("add", None),
    "mul": ("multiply", None),
    "ave": ("average", None),
    "max": ("maximum", None),
    "concat": ("concatenate", "axis"),
    "dot": ("dot", "axes"),
    "cos": ("dot", "axes"),
}
"""Keras 1 ``merge()`` modes -> (the Keras 2 merge function, its keyword for the axis argument:
``concat_axis`` -> ``axis``, ``dot_axes`` -> ``axes``); ``'cos'`` is ``dot(normalize=True)``."""

KERAS1_REGULARIZERS: dict[str, str] = {
    "activity_l1": "l1",
    "activity_l2": "l2",
    "activity_l1l2": "l1_l2",
    "l1l2": "l1_l2",
}
"""Keras 1's regularizer functions (keras/regularizers.py of Keras 1.2) -> the Keras 2 / 3 function
that adds the same: ``activity_l2(l)`` was an ActivityRegularizer adding l * sum(square(output)),
which ``l2(l)`` adds as an ``activity_regularizer=``; ``l1l2`` became ``l1_l2`` in Keras 2.0."""
