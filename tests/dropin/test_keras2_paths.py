"""Keras 2.0-2.15 module paths resolve under ``--legacy-keras``, in every import order.

Parametrized over the table itself (:data:`MOVED`, :data:`RENAMED`): each old path is imported
in a child under ``tfcompat-gpu run --legacy-keras`` and must hold the names Keras 2 published
there (listed below from Keras 2's own modules), the very objects tf_keras (or Keras 2 itself,
on TensorFlow <= 2.15) defines.
"""

from __future__ import annotations

import pytest

from tests._child import run_script
from tfcompat_gpu.dropin._keras2_paths import MOVED, RENAMED

pytestmark = pytest.mark.tf

# What each old module held, as Keras 2 code imported it (a sample of each, private bases
# that custom layers subclass included).
OLD_NAMES: dict[str, tuple[str, ...]] = {
    "engine.topology": (
        "Layer",
        "InputLayer",
        "Input",
        "InputSpec",
        "Node",
        "get_source_inputs",
        "Container",
    ),
    "engine.network": ("Network",),
    "layers.merge": (
        "concatenate",
        "Concatenate",
        "add",
        "Add",
        "multiply",
        "average",
        "dot",
        "subtract",
        "_Merge",
    ),
    "layers.core": (
        "Dense",
        "Dropout",
        "Activation",
        "Flatten",
        "Reshape",
        "Permute",
        "RepeatVector",
        "Lambda",
        "Masking",
        "ActivityRegularization",
        "SpatialDropout2D",
    ),
    "layers.convolutional": (
        "Conv1D",
        "Conv2D",
        "Conv3D",
        "Conv2DTranspose",
        "SeparableConv2D",
        "UpSampling2D",
        "ZeroPadding2D",
        "Cropping2D",
        "Convolution2D",
        "_Conv",
    ),
    "layers.pooling": (
        "MaxPooling2D",
        "AveragePooling1D",
        "GlobalAveragePooling2D",
        "MaxPool2D",
        "_Pooling2D",
        "_GlobalPooling1D",
    ),
    "layers.normalization": ("BatchNormalization",),
    "layers.normalization_v2": ("BatchNormalization",),
    "layers.recurrent": (
        "LSTM",
        "GRU",
        "SimpleRNN",
        "RNN",
        "LSTMCell",
        "StackedRNNCells",
        "Recurrent",
    ),
    "layers.recurrent_v2": ("LSTM", "GRU"),
    "layers.cudnn_recurrent": ("CuDNNLSTM", "CuDNNGRU"),
    "layers.convolutional_recurrent": ("ConvLSTM2D",),
    "layers.wrappers": ("Bidirectional", "TimeDistributed", "Wrapper"),
    "layers.embeddings": ("Embedding",),
    "layers.advanced_activations": (
        "LeakyReLU",
        "PReLU",
        "ELU",
        "ThresholdedReLU",
        "Softmax",
        "ReLU",
    ),
    "layers.noise": ("GaussianNoise", "GaussianDropout", "AlphaDropout"),
    "layers.local": ("LocallyConnected1D", "LocallyConnected2D"),
    "layers.dense_attention": ("Attention", "AdditiveAttention"),
    "layers.multi_head_attention": ("MultiHeadAttention",),
    "layers.einsum_dense": ("EinsumDense",),
    "optimizers.optimizer_v2": ("adam",),
    "optimizers.optimizer_v2.adam": ("Adam",),
    "optimizers.optimizer_v2.optimizer_v2": ("OptimizerV2",),
    "applications.resnet50": ("ResNet50", "preprocess_input", "decode_predictions"),
    "objectives": ("categorical_crossentropy", "mse", "binary_crossentropy"),
    "backend.common": (
        "epsilon",
        "floatx",
        "set_floatx",
        "image_data_format",
        "set_image_data_format",
        "normalize_data_format",
        "cast_to_floatx",
    ),
    # keras/engine/__init__.py of Keras 2.0-2.2 exported these (from keras.engine import Layer)
    "engine": ("Layer", "InputSpec", "Input", "InputLayer", "get_source_inputs", "Model"),
    # kept by tf_keras under src: mapped without a table entry
    "engine.training": ("Model",),
    "utils.np_utils": ("to_categorical",),
    "utils.generic_utils": ("Progbar", "to_list"),
}

CHECK = """
import importlib
import keras
from tests._child import emit

missing = {}
for old, names in OLD_NAMES.items():
    try:
        module = importlib.import_module("keras." + old)
    except ImportError as exc:
        missing[old] = repr(exc)
        continue
    lacking = [n for n in names if not hasattr(module, n)]
    if lacking:
        missing[old] = lacking
layers = importlib.import_module("keras.layers")
same = importlib.import_module("keras.layers.merge").Concatenate is layers.Concatenate
star = {}
exec("from keras.layers.merge import *", star)
same = same and importlib.import_module("keras.engine").Layer is layers.Layer
emit({"missing": missing, "same": same, "star": "concatenate" in star and "_Merge" not in star})
"""


def test_the_table_is_covered():
    assert set(MOVED) | set(RENAMED) <= set(OLD_NAMES)


def test_every_old_path_resolves_with_its_names(tmp_path):
    code = f"OLD_NAMES = {OLD_NAMES!r}\n{CHECK}"
    run = run_script(tmp_path, code, "--legacy-keras", "--no-auto")
    assert run.rc == 0, run.err
    assert run.result == {"missing": {}, "same": True, "star": True}


ORDERS = {
    "keras-first": "import keras\nfrom keras.optimizers import SGD\nimport tensorflow as tf\n",
    "tensorflow-first": "import tensorflow as tf\nimport keras\nfrom keras.optimizers import SGD\n",
    "old-path-first": "from keras.layers.merge import concatenate\nimport keras\n"
    "from keras.optimizers import SGD\nimport tensorflow as tf\n",
}
TAIL = """
from tests._child import emit
x = tf.placeholder(tf.float32, [None, 2])
y = keras.layers.Dense(1, kernel_initializer="ones")(x)
opt = SGD(lr=0.1)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    emit({"y": sess.run(y, {x: [[1.0, 2.0]]}).tolist(), "optimizer": type(opt).__name__})
"""


@pytest.mark.parametrize("order", list(ORDERS))
def test_legacy_keras_and_tf1_in_every_import_order(tmp_path, order):
    run = run_script(tmp_path, ORDERS[order] + TAIL, "--legacy-keras", "--tf1")
    assert run.rc == 0, run.err
    assert run.result == {"y": [[3.0]], "optimizer": "SGD"}


CONTROL_FLOW = """
import tensorflow as tf
from keras import backend as K
from tests._child import emit

i, total = K.control_flow_ops.while_loop(
    lambda i, total: i < 4, lambda i, total: [i + 1, total + i], [tf.constant(0), tf.constant(0)]
)
picked = K.control_flow_ops.cond(tf.constant(True), lambda: tf.constant(1), lambda: tf.constant(2))
emit({"loop": [int(i), int(total)], "cond": int(picked), "group": callable(K.control_flow_ops.group)})
"""


@pytest.mark.parametrize(
    "flags", [("--legacy-keras", "--no-auto"), ("--no-auto",)], ids=["tf_keras", "keras3"]
)
def test_keras2_backend_control_flow_ops(tmp_path, flags):
    # keras-yolo3's loss loops with K.control_flow_ops.while_loop (Keras 2.0-2.2's backend)
    run = run_script(tmp_path, CONTROL_FLOW, *flags)
    assert run.rc == 0, run.err
    assert run.result == {"loop": [4, 6], "cond": 1, "group": True}


BACKEND_TF = """
import numpy as np
from keras import backend as K
from keras.layers import Input, Lambda
from keras.models import Model
from tests._child import emit

inp = Input(shape=(2, 2, 1))
out = Lambda(lambda t: K.tf.reduce_sum(t, axis=[1, 2]))(inp)
model = Model(inp, out)
emit({
    "sum": model.predict(np.ones((1, 2, 2, 1)), verbose=0).tolist(),
    "session": K.tf.Session.__module__.startswith("tensorflow"),
})
"""


@pytest.mark.parametrize(
    "flags", [("--legacy-keras", "--no-auto"), ("--no-auto",)], ids=["tf_keras", "keras3"]
)
def test_keras2_backend_tf_is_tensorflow(tmp_path, flags):
    # Keras 2.0-2.3's backend star-imported its `import tensorflow as tf`: scripts wrote
    # K.tf.Session(...) and TensorFlow ops in Lambda layers as K.tf.X
    run = run_script(tmp_path, BACKEND_TF, *flags)
    assert run.rc == 0, run.err
    assert run.result == {"sum": [[4.0]], "session": True}


def test_keras2_backend_tf_under_tf1_is_the_v1_api(tmp_path):
    code = (
        "from keras import backend as K\nfrom tests._child import emit\n"
        "emit(K.tf.image.resize_images.__module__ + ' ' + str(K.tf.placeholder is not None))\n"
    )
    run = run_script(tmp_path, code, "--legacy-keras", "--tf1", "--no-auto")
    assert run.rc == 0, run.err
    assert run.result.endswith(" True")


KERAS1_MERGE = """
import numpy as np
from keras.layers import Input, merge
from keras.models import Model
from tests._child import emit

a, b = Input((3,)), Input((3,))
outs = [merge([a, b], mode=m) for m in ("sum", "mul", "concat", "ave", "max")]
outs.append(merge([a, b], mode="cos", dot_axes=1))
outs.append(merge([a, b], mode=lambda p: p[0] - p[1], output_shape=lambda s: s[0]))
model = Model([a, b], outs)
got = model.predict([np.ones((1, 3)), 2 * np.ones((1, 3))], verbose=0)
emit([np.round(x, 4).tolist() for x in got])
"""


def test_keras1_merge_function_builds_what_its_mode_meant(tmp_path):
    # Keras 1's merge([a, b], mode=...) (adversarial autoencoders sample with a lambda mode);
    # Keras 2 kept only the module of that name, which is not callable
    run = run_script(tmp_path, KERAS1_MERGE, "--legacy-keras", "--no-auto")
    assert run.rc == 0, run.err
    assert run.result == [
        [[3.0, 3.0, 3.0]],
        [[2.0, 2.0, 2.0]],
        [[1.0, 1.0, 1.0, 2.0, 2.0, 2.0]],
        [[1.5, 1.5, 1.5]],
        [[2.0, 2.0, 2.0]],
        [[1.0]],
        [[-1.0, -1.0, -1.0]],
    ]
