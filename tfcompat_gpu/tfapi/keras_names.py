"""Names of the Keras 2 API that the migration rewrites, and Keras 3's public names, as tables.

Shared by the lint and the codemod, which import neither TensorFlow nor Keras.  The name sets
were listed from the installed packages (``dir()`` of ``keras.layers``, ``keras.utils``,
``keras.models``) of Keras 3.15.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # (ast stays unloaded: `run` reads the tables here at every start)
if TYPE_CHECKING:
    import ast

__all__ = [
    "GENERATOR_METHODS",
    "KERAS2_BACKEND_ONLY",
    "KERAS2_CALLBACK_KEYWORDS",
    "KERAS2_GRAPH_BACKEND",
    "KERAS2_METRIC_KEYS",
    "KERAS2_RENAMED",
    "KERAS2_STAR_ALIASES",
    "KERAS3_IMAGE",
    "KERAS3_SEQUENCE",
    "KERAS3_UNKNOWN_METRICS",
    "KERAS_INT_SIZES",
    "KERAS_LAYERS",
    "KERAS_LOSSES",
    "KERAS_MODELS",
    "KERAS_MOVED_MODULES",
    "KERAS_ROOTS",
    "KERAS_STAR_EXPORTS",
    "KERAS_UTILS",
    "OPTIMIZER_ALIASES",
    "OPTIMIZER_CLASSES",
    "OPTIMIZER_MODULES",
    "TF_KERAS_PREPROCESSING",
    "keras2_backend_function",
    "metric_keys",
    "metric_renames",
    "reads_new_metric_key",
    "reads_old_metric_key",
]

# Keras 2 optimizers (keras/optimizers.py of Keras 2.2: SGD, RMSprop, Adagrad, Adadelta, Adam,
# Adamax, Nadam, and the lowercase aliases ``sgd = SGD`` ... at its end); Keras 3 keeps the
# classes (keras/src/optimizers/__init__.py) and drops the aliases.
OPTIMIZER_MODULES = ("keras.optimizers", "tensorflow.keras.optimizers")
OPTIMIZER_CLASSES = frozenset(
    {"SGD", "RMSprop", "Adagrad", "Adadelta", "Adam", "Adamax", "Nadam", "Ftrl"}
)
OPTIMIZER_ALIASES: dict[str, str] = {
    "sgd": "SGD",
    "rmsprop": "RMSprop",
    "adagrad": "Adagrad",
    "adadelta": "Adadelta",
    "adam": "Adam",
    "adamax": "Adamax",
    "nadam": "Nadam",
}

# the Keras packages a Keras 3 migration reads layer names under
KERAS_ROOTS = ("keras", "tensorflow.keras")

# Keras 3 layers that check ``isinstance(size, int)`` (a NumPy integer fails it): class ->
# (how many leading positional arguments are such sizes, their keywords).  Dense
# (keras/src/layers/core/dense.py), Embedding (core/embedding.py), MultiHeadAttention
# (attention/multi_head_attention.py), GroupNormalization (normalization/group_normalization.py)
KERAS_INT_SIZES: dict[str, tuple[int, frozenset[str]]] = {
    "Dense": (1, frozenset({"units"})),
    "Embedding": (2, frozenset({"input_dim", "output_dim"})),
    "MultiHeadAttention": (2, frozenset({"num_heads", "key_dim", "value_dim"})),
    "GroupNormalization": (1, frozenset({"groups"})),
}

# Keras 2 preprocessing modules -> the names TensorFlow's ``tf.keras`` still exports from them
# with Keras 3 installed (keras/_tf_keras/keras/preprocessing/*/__init__.py: Keras 3's legacy
# copies, keras/src/legacy/preprocessing/); Keras 3's own keras.preprocessing has no ``text`` and
# only the image functions (keras/preprocessing/image/__init__.py)
TF_KERAS_PREPROCESSING: dict[str, frozenset[str]] = {
    "keras.preprocessing.text": frozenset(
        {"Tokenizer", "hashing_trick", "one_hot", "text_to_word_sequence", "tokenizer_from_json"}
    ),
    "keras.preprocessing.image": frozenset(
        {
            "DirectoryIterator",
            "ImageDataGenerator",
            "Iterator",
            "NumpyArrayIterator",
            "apply_affine_transform",
            "apply_brightness_shift",
            "apply_channel_shift",
            "array_to_img",
            "img_to_array",
            "load_img",
            "random_brightness",
            "random_channel_shift",
            "random_rotation",
            "random_shear",
            "random_shift",
            "random_zoom",
            "save_img",
            "smart_resize",
        }
    ),
    "keras.preprocessing.sequence": frozenset(
        {"TimeseriesGenerator", "make_sampling_table", "pad_sequences", "skipgrams"}
    ),
}
KERAS3_IMAGE = frozenset({"array_to_img", "img_to_array", "load_img", "save_img", "smart_resize"})
KERAS3_SEQUENCE = frozenset({"pad_sequences"})

# Model methods Keras 3 removed (keras/src/trainers/trainer.py has only fit/evaluate/predict)
GENERATOR_METHODS: dict[str, str] = {
    "fit_generator": "fit",
    "evaluate_generator": "evaluate",
    "predict_generator": "predict",
}

# Keras 2 modules Keras 3 removed -> the public module that holds their public names
KERAS_MOVED_MODULES: dict[str, str] = {
    **{
        f"keras.layers.{name}": "keras.layers"
        for name in (
            "core",
            "convolutional",
            "convolutional_recurrent",
            "pooling",
            "merge",
            "recurrent",
            "normalization",
            "advanced_activations",
            "embeddings",
            "noise",
            "wrappers",
            "local",
            "cudnn_recurrent",
        )
    },
    "keras.engine": "keras.layers",
    "keras.engine.topology": "keras.layers",
    "keras.engine.base_layer": "keras.layers",
    "keras.engine.input_layer": "keras.layers",
    "keras.engine.input_spec": "keras.layers",
    "keras.engine.training": "keras.models",
    "keras.engine.sequential": "keras.models",
    "keras.engine.functional": "keras.models",
    "keras.utils.np_utils": "keras.utils",
    "keras.utils.generic_utils": "keras.utils",
    "keras.utils.data_utils": "keras.utils",
    "keras.utils.vis_utils": "keras.utils",
    "keras.utils.layer_utils": "keras.utils",
    "keras.utils.training_utils": "keras.utils",
    "keras.objectives": "keras.losses",  # Keras 1's name, an alias in Keras 2.0-2.2
}

KERAS_LAYERS = frozenset(
    {
        "Activation",
        "ActivityRegularization",
        "AdaptiveAveragePooling1D",
        "AdaptiveAveragePooling2D",
        "AdaptiveAveragePooling3D",
        "AdaptiveMaxPooling1D",
        "AdaptiveMaxPooling2D",
        "AdaptiveMaxPooling3D",
        "Add",
        "AdditiveAttention",
        "AlphaDropout",
        "Attention",
        "AugMix",
        "AutoContrast",
        "Average",
        "AveragePooling1D",
        "AveragePooling2D",
        "AveragePooling3D",
        "AvgPool1D",
        "AvgPool2D",
        "AvgPool3D",
        "BatchNormalization",
        "Bidirectional",
        "CategoryEncoding",
        "CenterCrop",
        "Concatenate",
        "ContrastLimitedAdaptiveHistogramEqualization",
        "Conv1D",
        "Conv1DTranspose",
        "Conv2D",
        "Conv2DTranspose",
        "Conv3D",
        "Conv3DTranspose",
        "ConvLSTM1D",
        "ConvLSTM2D",
        "ConvLSTM3D",
        "Convolution1D",
        "Convolution1DTranspose",
        "Convolution2D",
        "Convolution2DTranspose",
        "Convolution3D",
        "Convolution3DTranspose",
        "Cropping1D",
        "Cropping2D",
        "Cropping3D",
        "CutMix",
        "Dense",
        "DepthwiseConv1D",
        "DepthwiseConv2D",
        "Discretization",
        "Dot",
        "Dropout",
        "ELU",
        "EinsumDense",
        "Embedding",
        "Equalization",
        "Flatten",
        "FlaxLayer",
        "GRU",
        "GRUCell",
        "GaussianDropout",
        "GaussianNoise",
        "GlobalAveragePooling1D",
        "GlobalAveragePooling2D",
        "GlobalAveragePooling3D",
        "GlobalAvgPool1D",
        "GlobalAvgPool2D",
        "GlobalAvgPool3D",
        "GlobalMaxPool1D",
        "GlobalMaxPool2D",
        "GlobalMaxPool3D",
        "GlobalMaxPooling1D",
        "GlobalMaxPooling2D",
        "GlobalMaxPooling3D",
        "GroupNormalization",
        "GroupQueryAttention",
        "HashedCrossing",
        "Hashing",
        "Identity",
        "Input",
        "InputLayer",
        "InputSpec",
        "IntegerLookup",
        "JaxLayer",
        "LSTM",
        "LSTMCell",
        "Lambda",
        "Layer",
        "LayerNormalization",
        "LeakyReLU",
        "Masking",
        "MaxNumBoundingBoxes",
        "MaxPool1D",
        "MaxPool2D",
        "MaxPool3D",
        "MaxPooling1D",
        "MaxPooling2D",
        "MaxPooling3D",
        "Maximum",
        "MelSpectrogram",
        "Minimum",
        "MixUp",
        "MultiHeadAttention",
        "Multiply",
        "Normalization",
        "PReLU",
        "Permute",
        "Pipeline",
        "RMSNormalization",
        "RNN",
        "RandAugment",
        "RandomBrightness",
        "RandomColorDegeneration",
        "RandomColorJitter",
        "RandomContrast",
        "RandomCrop",
        "RandomElasticTransform",
        "RandomErasing",
        "RandomFlip",
        "RandomGaussianBlur",
        "RandomGrayscale",
        "RandomHue",
        "RandomInvert",
        "RandomPerspective",
        "RandomPosterization",
        "RandomRotation",
        "RandomSaturation",
        "RandomSharpness",
        "RandomShear",
        "RandomTranslation",
        "RandomZoom",
        "ReLU",
        "RepeatVector",
        "Rescaling",
        "Reshape",
        "Resizing",
        "ReversibleEmbedding",
        "STFTSpectrogram",
        "SeparableConv1D",
        "SeparableConv2D",
        "SeparableConvolution1D",
        "SeparableConvolution2D",
        "SimpleRNN",
        "SimpleRNNCell",
        "Softmax",
        "Solarization",
        "SpatialDropout1D",
        "SpatialDropout2D",
        "SpatialDropout3D",
        "SpectralNormalization",
        "StackedRNNCells",
        "StringLookup",
        "Subtract",
        "TFSMLayer",
        "TextVectorization",
        "TimeDistributed",
        "TorchModuleWrapper",
        "UnitNormalization",
        "UpSampling1D",
        "UpSampling2D",
        "UpSampling3D",
        "Wrapper",
        "ZeroPadding1D",
        "ZeroPadding2D",
        "ZeroPadding3D",
        "add",
        "average",
        "concatenate",
        "deserialize",
        "dot",
        "maximum",
        "minimum",
        "multiply",
        "serialize",
        "subtract",
    }
)
"""Public names of ``keras.layers`` in Keras 3."""

KERAS_UTILS = frozenset(
    {
        "Config",
        "CustomObjectScope",
        "FeatureSpace",
        "Progbar",
        "PyDataset",
        "Sequence",
        "array_to_img",
        "audio_dataset_from_directory",
        "bounding_boxes",
        "clear_session",
        "custom_object_scope",
        "deserialize_keras_object",
        "disable_interactive_logging",
        "enable_interactive_logging",
        "get_custom_objects",
        "get_file",
        "get_registered_name",
        "get_registered_object",
        "get_source_inputs",
        "image_dataset_from_directory",
        "img_to_array",
        "is_interactive_logging_enabled",
        "is_keras_tensor",
        "legacy",
        "load_img",
        "model_to_dot",
        "normalize",
        "pack_x_y_sample_weight",
        "pad_sequences",
        "plot_model",
        "register_keras_serializable",
        "save_img",
        "serialize_keras_object",
        "set_random_seed",
        "split_dataset",
        "standardize_dtype",
        "text_dataset_from_directory",
        "timeseries_dataset_from_array",
        "to_categorical",
        "unpack_x_y_sample_weight",
    }
)
"""Public names of ``keras.utils`` in Keras 3."""

KERAS_MODELS = frozenset({"Model", "Sequential", "clone_model", "load_model", "model_from_json"})

KERAS_LOSSES = frozenset(
    {
        "BinaryCrossentropy", "BinaryFocalCrossentropy", "CTC", "CategoricalCrossentropy",
        "CategoricalFocalCrossentropy", "CategoricalGeneralizedCrossEntropy", "CategoricalHinge",
        "Circle", "CosineSimilarity", "Dice", "Hinge", "Huber", "KLDivergence", "LogCosh", "Loss",
        "MeanAbsoluteError", "MeanAbsolutePercentageError", "MeanSquaredError",
        "MeanSquaredLogarithmicError", "Poisson", "SparseCategoricalCrossentropy", "SquaredHinge",
        "Tversky", "binary_crossentropy", "binary_focal_crossentropy", "categorical_crossentropy",
        "categorical_focal_crossentropy", "categorical_generalized_cross_entropy",
        "categorical_hinge", "circle", "cosine_similarity", "ctc", "deserialize", "dice", "get",
        "hinge", "huber", "kl_divergence", "log_cosh", "mean_absolute_error",
        "mean_absolute_percentage_error", "mean_squared_error", "mean_squared_logarithmic_error",
        "poisson", "serialize", "sparse_categorical_crossentropy", "squared_hinge", "tversky",
    }
)  # fmt: skip
"""``dir(keras.losses)`` of Keras 3.15."""

# Keras 2 names Keras 3 has under another name with the same meaning: the loss aliases at the
# end of Keras 2's keras/losses.py (``mse = MSE = mean_squared_error``, ...), and the cuDNN-only
# recurrent layers, whose job ``LSTM`` / ``GRU`` do on a GPU with the same defaults
# (keras/src/layers/rnn/lstm.py picks the cuDNN kernel itself).
KERAS2_RENAMED: dict[str, str] = {
    **{
        f"keras.losses.{alias}": name
        for name, aliases in (
            ("mean_squared_error", ("mse", "MSE")),
            ("mean_absolute_error", ("mae", "MAE")),
            ("mean_absolute_percentage_error", ("mape", "MAPE")),
            ("mean_squared_logarithmic_error", ("msle", "MSLE")),
            ("kl_divergence", ("kld", "KLD", "kullback_leibler_divergence")),
            ("log_cosh", ("logcosh",)),
        )
        for alias in aliases
    },
    "keras.layers.CuDNNLSTM": "LSTM",
    "keras.layers.CuDNNGRU": "GRU",
}
"""Public names of ``keras.models`` in Keras 3."""


# What a metric asked for by a string is logged as.  Keras 2.0-2.2 (keras/engine/training.py,
# `compile`) logged `'accuracy'`/`'acc'` as `acc`, `'crossentropy'`/`'ce'` as `ce`, and any other
# string under the `__name__` of the function `keras.metrics.get()` returned for it, so the
# aliases at the end of keras/metrics.py (`mae = MAE = mean_absolute_error`, ...) were logged
# under the full name.  Keras 2.3 and later, tf.keras 2, tf_keras and Keras 3 log a string
# metric under the string itself (`mae` / `val_mae`), and log a full name under that name.
KERAS2_METRIC_KEYS = {
    "accuracy": "acc",
    "crossentropy": "ce",
    "mae": "mean_absolute_error",
    "MAE": "mean_absolute_error",
    "mse": "mean_squared_error",
    "MSE": "mean_squared_error",
    "mape": "mean_absolute_percentage_error",
    "MAPE": "mean_absolute_percentage_error",
    "msle": "mean_squared_logarithmic_error",
    "MSLE": "mean_squared_logarithmic_error",
    "cosine": "cosine_proximity",
}
"""A metric string of ``compile(metrics=[...])`` -> the key Keras 2.0-2.2 logged it under
(``val_`` + it for the validation data); later Keras logs the string itself."""
KERAS3_UNKNOWN_METRICS = frozenset({"ce", "cosine_proximity"})
"""Keys of :data:`KERAS2_METRIC_KEYS` that Keras 3.15 takes no metric by (``'ce'`` and
``'cosine_proximity'`` raise "Could not interpret metric identifier"), so asking for them does
not bring the key back."""
_METRIC_KEYS = frozenset(
    key
    for given, old in KERAS2_METRIC_KEYS.items()
    for name in (given, old)
    for key in (name, f"val_{name}")
)
_FORMAT_KEY = re.compile(r"\{(\w+)[:!}]")


def metric_keys(tree: ast.AST) -> set[str]:
    """The metric keys of :data:`KERAS2_METRIC_KEYS` (old and new) a parsed module reads:
    subscripts (``history['acc']``, ``pd.DataFrame(history.history)['val_acc']``),
    ``.get('acc')``, ``monitor=`` values and names inside format strings
    (``'weights.{epoch:02d}-{val_acc:.2f}.h5'``)."""
    import ast

    found: set[str] = set()
    for node in ast.walk(tree):
        read: ast.AST | None = None
        if isinstance(node, ast.Subscript):
            read = node.slice
        elif isinstance(node, ast.keyword) and node.arg == "monitor":
            read = node.value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and node.args
        ):
            read = node.args[0]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "{" in node.value:
            found.update(_METRIC_KEYS.intersection(_FORMAT_KEY.findall(node.value)))
        if isinstance(read, ast.Constant) and read.value in _METRIC_KEYS:
            found.add(read.value)
    return found


def reads_old_metric_key(keys: set[str], given: str) -> bool:
    """Whether ``keys`` (of :func:`metric_keys`) hold the key Keras 2.0-2.2 logged the metric
    string ``given`` under."""
    old = KERAS2_METRIC_KEYS.get(given)
    return old is not None and bool(keys & {old, f"val_{old}"})


def reads_new_metric_key(keys: set[str], given: str) -> bool:
    """Whether ``keys`` hold the key later Keras logs the metric string ``given`` under."""
    return bool(keys & {given, f"val_{given}"})


def metric_renames(keys: set[str]) -> dict[str, str]:
    """The metric strings to ask for by their Keras 2.0-2.2 key in a module that reads ``keys``
    (of :func:`metric_keys`): ``{'mae': 'mean_absolute_error'}`` where it reads
    ``val_mean_absolute_error`` and never ``mae`` / ``val_mae``; none whose key Keras 3 does not
    take as a metric (:data:`KERAS3_UNKNOWN_METRICS`)."""
    return {
        given: old
        for given, old in KERAS2_METRIC_KEYS.items()
        if old not in KERAS3_UNKNOWN_METRICS
        and reads_old_metric_key(keys, given)
        and not reads_new_metric_key(keys, given)
    }


# Keras 2's backend functions (`keras.backend` of Keras 2.2-2.15, `tf_keras.backend`) that Keras
# 3's `keras.backend` dropped: most moved to `keras.ops` (keras/src/ops), the graph-mode ones
# (`gradients`, `learning_phase`, `placeholder`, `function`) have no Keras 3 form.  Listed from
# `dir(tf_keras.backend)` minus `dir(keras.backend)` of tf_keras 2.21 and Keras 3.15 (a test
# checks the list against the installed packages).
KERAS2_BACKEND_ONLY = frozenset(
    {
        "abs", "all", "any", "arange", "argmax", "argmin", "batch_dot", "batch_flatten",
        "batch_get_value", "batch_normalization", "batch_set_value", "bias_add",
        "binary_crossentropy", "binary_focal_crossentropy", "cast", "cast_to_floatx",
        "categorical_crossentropy", "categorical_focal_crossentropy", "clip",
        "concatenate", "constant", "conv1d", "conv2d", "conv2d_transpose", "conv3d", "cos",
        "count_params", "ctc_batch_cost", "ctc_decode", "ctc_label_dense_to_sparse", "cumprod",
        "cumsum", "depthwise_conv2d", "dot", "dropout", "dtype", "elu", "equal", "eval", "exp",
        "expand_dims", "eye", "flatten", "foldl", "foldr", "function", "gather", "get_value",
        "gradients", "greater", "greater_equal", "hard_sigmoid", "in_test_phase", "in_top_k",
        "in_train_phase", "int_shape", "is_sparse", "l2_normalize", "learning_phase",
        "learning_phase_scope", "less", "less_equal", "local_conv1d", "local_conv2d", "log",
        "manual_variable_initialization", "map_fn", "max", "maximum", "mean", "min", "minimum",
        "moving_average_update", "name_scope", "ndim", "normalize_batch_in_training",
        "not_equal", "one_hot", "ones", "ones_like", "permute_dimensions", "placeholder",
        "pool2d", "pool3d", "pow", "print_tensor", "prod", "random_bernoulli",
        "random_binomial", "random_normal", "random_normal_variable", "random_uniform",
        "random_uniform_variable", "relu", "repeat", "repeat_elements", "reset_uids",
        "reshape", "resize_images", "resize_volumes", "reverse", "rnn", "round",
        "separable_conv2d", "set_learning_phase", "set_value", "shape", "sigmoid", "sign",
        "sin", "softmax", "softplus", "softsign", "sparse_categorical_crossentropy",
        "spatial_2d_padding", "spatial_3d_padding", "sqrt", "square", "squeeze", "stack",
        "std", "stop_gradient", "sum", "switch", "tanh", "temporal_padding", "tile",
        "to_dense", "transpose", "truncated_normal", "update", "update_add", "update_sub",
        "var", "variable", "zeros", "zeros_like",
    }
)  # fmt: skip
KERAS2_CALLBACK_KEYWORDS: dict[str, frozenset[str]] = {
    # keras/callbacks.py of Keras 2.2; tf_keras takes them (TensorBoard's **kwargs, warned;
    # ModelCheckpoint's period=), Keras 3's callbacks raise TypeError
    "TensorBoard": frozenset(
        {"batch_size", "write_grads", "embeddings_layer_names", "embeddings_data"}
    ),
    "ModelCheckpoint": frozenset({"period"}),
}
"""Keras 2 callback keywords Keras 3 rejects: callback class -> its keywords."""

KERAS2_GRAPH_BACKEND = frozenset({"gradients", "learning_phase", "placeholder"})
"""Backend functions that work only in a v1 graph (tf_keras in eager mode has no gradients
of symbolic tensors, and a learning-phase placeholder is not an eager input)."""
_BACKENDS = ("keras.backend.", "tensorflow.keras.backend.", "keras.backend.tensorflow_backend.")


def keras2_backend_function(name: str) -> str | None:
    """``"sum"`` for ``keras.backend.sum`` (any Keras backend path) when Keras 3 lacks it."""
    for prefix in _BACKENDS:
        if name.startswith(prefix):
            rest = name[len(prefix) :]
            return rest if rest in KERAS2_BACKEND_ONLY else None
    return None


def _star_exports() -> dict[str, frozenset[str]]:
    exports: dict[str, frozenset[str]] = {}
    optimizers = OPTIMIZER_CLASSES | frozenset(OPTIMIZER_ALIASES)
    for root in ("keras", "tensorflow.keras"):
        exports[f"{root}.models"] = KERAS_MODELS
        exports[f"{root}.layers"] = KERAS_LAYERS
        exports[f"{root}.optimizers"] = optimizers
        exports[f"{root}.losses"] = KERAS_LOSSES
        exports[f"{root}.utils"] = KERAS_UTILS
    for old, new in KERAS_MOVED_MODULES.items():
        if new in exports and old.startswith("keras.layers."):
            exports[old] = exports[new]
    return exports


KERAS_STAR_EXPORTS: dict[str, frozenset[str]] = _star_exports()
"""Keras module -> the names a ``from module import *`` of it binds that the migration's
rewrites look for: the Keras 3 names of the module, which Keras 2's module exported too under
the same names (its layer classes, ``Model``, the optimizers, losses and utilities); the Keras 2
``keras.layers.<submodule>`` modules bind the layers of theirs, a subset of ``keras.layers``."""

KERAS2_STAR_ALIASES: dict[str, str] = {"K": "keras.backend", "np": "numpy"}
"""Module aliases that a star import of a Keras 2 ``keras.layers.<submodule>`` bound too: each
such module did ``import numpy as np`` and ``from .. import backend as K`` (keras/layers/core.py,
recurrent.py, convolutional.py, ... of Keras 2.0-2.3), and scripts read ``K.`` and ``np.``
through ``from keras.layers.core import *``."""
