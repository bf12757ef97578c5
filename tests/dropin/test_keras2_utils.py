"""Keras 2 helpers of ImageNet model files under ``run`` (:mod:`dropin._keras2_utils`).

A child runs a small ResNet-style model file written the way deep-learning-models' era wrote
them (``_obtain_input_shape(..., include_top=...)``, ``layer_utils.convert_all_kernels_in_model``,
``conv_utils.convert_kernel``) under ``tfcompat-gpu run`` with no flags, with real tf_keras.
"""

from __future__ import annotations

import pytest

from tests._child import run_script
from tests._keras import needs_tf_keras

pytestmark = pytest.mark.tf


MODEL_FILE = """
import numpy as np
from keras.layers import Input, Conv2D, Flatten, Dense
from keras.models import Model
from keras import backend as K
from keras.utils import layer_utils
from keras.utils.conv_utils import convert_kernel
from keras.applications.imagenet_utils import _obtain_input_shape
from tests._child import emit


def TinyNet(include_top=True, input_shape=None):
    input_shape = _obtain_input_shape(input_shape, default_size=32, min_size=16,
                                      data_format=K.image_data_format(),
                                      include_top=include_top)
    img = Input(shape=input_shape)
    x = Conv2D(2, (3, 2), name='conv')(img)
    x = Dense(1)(Flatten()(x))
    return Model(img, x)


model = TinyNet(include_top=False, input_shape=(20, 20, 3))
kernel = model.get_layer('conv').get_weights()[0]
layer_utils.convert_all_kernels_in_model(model)
flipped = model.get_layer('conv').get_weights()[0]
try:
    TinyNet(include_top=True, input_shape=(20, 20, 3))
    refused = None
except ValueError as exc:
    refused = str(exc)
emit({
    "shape": list(model.input_shape[1:]),
    "flipped": bool(np.array_equal(flipped, kernel[::-1, ::-1])),
    "helper": bool(np.array_equal(convert_kernel(kernel), kernel[::-1, ::-1])),
    "refused": refused,
})
"""


@needs_tf_keras
def test_model_file_helpers_run_as_keras_2_had_them(tmp_path):
    run = run_script(tmp_path, MODEL_FILE)
    assert run.rc == 0, run.err
    assert run.result["shape"] == [20, 20, 3]
    assert run.result["flipped"] is True
    assert run.result["helper"] is True
    # include_top=True asks for the default size, as Keras 2.0's include_top did
    assert "should be (32, 32, 3)" in run.result["refused"]


ACTIVATIONS = """
import numpy as np
from keras.layers import Input, Dense
from keras.models import Model
import keras.backend as K
from tests._child import emit

inputs = Input(shape=(4,))
model = Model(inputs, Dense(2, name='probs')(inputs))
# keras-visualize-activations: every layer's output, the InputLayer's (the fed input) first
funcs = [K.function([model.input, K.learning_phase()], [layer.output]) for layer in model.layers]
x = np.arange(4, dtype='float32').reshape(1, 4)
outs = [f([x, 1.])[0] for f in funcs]
both = K.function([model.input], [model.input, model.output])([x])
emit({"first": outs[0].tolist(), "shapes": [list(o.shape) for o in outs],
      "both": [list(o.shape) for o in both], "mode": K.get_session() is not None})
"""


@needs_tf_keras
def test_k_function_fetches_an_output_that_is_its_input(tmp_path):
    run = run_script(tmp_path, ACTIVATIONS)
    assert run.rc == 0, run.err
    assert "using the v1 API and tf_keras" in run.err
    assert run.result["first"] == [[0.0, 1.0, 2.0, 3.0]]
    assert run.result["shapes"] == [[1, 4], [1, 2]]
    assert run.result["both"] == [[1, 4], [1, 2]]


COMPANION_MODEL_FILE = """
from keras_applications.imagenet_utils import _obtain_input_shape
from keras.layers import Input, Conv2D, GlobalAveragePooling2D
from keras.models import Model
from keras import backend as K
from tests._child import emit


def FaceNet(input_shape=None):
    input_shape = _obtain_input_shape(input_shape, default_size=32, min_size=16,
                                      data_format=K.image_data_format(),
                                      require_flatten=False)
    img = Input(shape=input_shape)
    return Model(img, GlobalAveragePooling2D()(Conv2D(3, (3, 3))(img)))


emit({"shape": list(FaceNet(input_shape=(24, 24, 3)).output_shape)})
"""


@needs_tf_keras
def test_keras_2_2_companion_package_imports_are_served(tmp_path):
    # Keras 2.2-2.3 installed keras_applications beside itself; face and detection model
    # files import its private helper directly
    run = run_script(tmp_path, COMPANION_MODEL_FILE)
    assert run.rc == 0, run.err
    assert run.result["shape"] == [None, 3]


COMPANION_PREPROCESSING = """
import numpy as np
import keras_preprocessing
from keras_preprocessing import sequence
from keras_preprocessing.image import ImageDataGenerator, img_to_array, load_img
from keras_preprocessing.sequence import pad_sequences
from keras_preprocessing.text import Tokenizer
from tests._child import emit

tokenizer = Tokenizer(num_words=10)
tokenizer.fit_on_texts(["a b c", "b c"])
padded = sequence.pad_sequences(tokenizer.texts_to_sequences(["a b", "c"]), maxlen=3)
image = img_to_array(np.zeros((4, 4, 3)))  # load_img and array_to_img need Pillow
emit({
    "padded": padded.tolist(),
    "again": pad_sequences([[5]], maxlen=2).tolist(),
    "image": list(image.shape),
    "load_img": load_img.__name__,
    "generator": ImageDataGenerator.__name__,
    "package": keras_preprocessing.__name__,
})
"""


@needs_tf_keras
def test_keras_preprocessing_names_moved_to_the_api_modules_are_served(tmp_path):
    # keras_preprocessing had pad_sequences and load_img / img_to_array in its own modules;
    # tf_keras keeps them in its API modules only, not in the src modules the package maps to
    run = run_script(tmp_path, COMPANION_PREPROCESSING)
    assert run.rc == 0, run.err
    assert run.result == {
        "padded": [[0, 3, 1], [0, 0, 2]],
        "again": [[0, 5]],
        "image": [4, 4, 3],
        "load_img": "load_img",
        "generator": "ImageDataGenerator",
        "package": "keras_preprocessing",
    }


MOBILENET_CUSTOM_OBJECTS = """
import numpy as np
from keras.applications.mobilenet import relu6, DepthwiseConv2D
from keras.layers import Activation
from keras.models import Sequential, load_model
from keras.utils.generic_utils import CustomObjectScope, Progbar
from tests._child import emit

model = Sequential([DepthwiseConv2D((3, 3), input_shape=(6, 6, 2), padding='same'),
                    Activation(relu6)])
model.save('mobilenet.h5')
with CustomObjectScope({'relu6': relu6, 'DepthwiseConv2D': DepthwiseConv2D}):
    loaded = load_model('mobilenet.h5')
out = loaded.predict(np.full((1, 6, 6, 2), 100.0), verbose=0)
emit({"max": float(out.max()), "min": float(out.min()), "progbar": Progbar.__name__})
"""


@needs_tf_keras
def test_mobilenet_custom_objects_and_generic_utils_scope_are_served(tmp_path):
    # Keras 2.0-2.1 MobileNet files are loaded with relu6 and DepthwiseConv2D imported from
    # keras.applications.mobilenet, in the CustomObjectScope of keras.utils.generic_utils
    run = run_script(tmp_path, MOBILENET_CUSTOM_OBJECTS)
    assert run.rc == 0, run.err
    assert run.result["max"] <= 6.0
    assert run.result["min"] >= 0.0
    assert run.result["progbar"] == "Progbar"


LAYER_MODULE_ATTRIBUTES = """
import keras
from tests._child import emit


def block(x, filters):
    x = keras.layers.convolutional.Conv2D(filters, (3, 3), padding='same')(x)
    x = keras.layers.normalization.BatchNormalization()(x)
    return keras.layers.core.Activation('relu')(x)


img = keras.layers.Input(shape=(8, 8, 1))
model = keras.models.Model(img, keras.layers.merge.add([img, block(img, 1)]))
emit({"shape": list(model.output_shape), "missing": hasattr(keras.layers, "nothing_here")})
"""


@needs_tf_keras
def test_keras_2_layer_modules_are_attributes_of_keras_layers(tmp_path):
    run = run_script(tmp_path, LAYER_MODULE_ATTRIBUTES)
    assert run.rc == 0, run.err
    assert run.result == {"shape": [None, 8, 8, 1], "missing": False}


KERAS20_LAYER = """
import numpy as np
from keras.engine.topology import Layer
from keras import initializers
from keras.layers import Input
from keras.models import Model
from tests._child import emit


class FrozenScale(Layer):
    def build(self, input_shape):
        shape = (input_shape[-1],)
        self.gamma = self.add_weight(shape, initializer=initializers.get('one'),
                                     name='{}_gamma'.format(self.name), trainable=False)
        self.beta = self.add_weight(shape, 'zero', '{}_beta'.format(self.name), False)
        self.built = True

    def call(self, x, mask=None):
        return x * self.gamma + self.beta


inputs = Input(shape=(3,))
layer = FrozenScale(name='bn')
model = Model(inputs, layer(inputs))
out = model.predict(np.ones((2, 3), dtype='float32'), verbose=0)
emit({"names": sorted(w.name.split('/')[-1].split(':')[0] for w in layer.weights),
      "trainable": len(layer.trainable_weights), "out": out.tolist()})
"""


@needs_tf_keras
def test_keras_2_0_add_weight_order_is_read(tmp_path):
    # keras-frcnn's FixedBatchNormalization: add_weight(shape, initializer=..., name=...)
    run = run_script(tmp_path, KERAS20_LAYER)
    assert run.rc == 0, run.err
    assert run.result == {
        "names": ["bn_beta", "bn_gamma"],
        "trainable": 0,
        "out": [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]],
    }


ASSIGNED_WEIGHTS = """
import numpy as np
from keras import backend as K
from keras import initializers
from keras.engine.topology import Layer
from keras.layers import Input, LSTM, Dense
from keras.models import Model
from tests._child import emit


class Pooling(Layer):
    # the hierarchical attention networks' layer: a K.variable listed by hand
    def build(self, input_shape):
        self.W = K.variable(initializers.get('normal')((input_shape[-1], 1)))
        self.trainable_weights = [self.W]
        super(Pooling, self).build(input_shape)

    def call(self, x, mask=None):
        weights = K.softmax(K.squeeze(K.dot(x, self.W), -1))
        return K.sum(x * K.expand_dims(weights), axis=1)

    def compute_output_shape(self, input_shape):
        return (input_shape[0], input_shape[-1])


class Average(Layer):
    # DeepMoji's: an add_weight listed again, and a frozen one
    def build(self, input_shape):
        self.W = self.add_weight(shape=(input_shape[2], 1), name='{}_W'.format(self.name),
                                 initializer='uniform')
        self.trainable_weights = [self.W]
        self.scale = K.variable(np.ones((1,)))
        self.non_trainable_weights = [self.scale]
        super(Average, self).build(input_shape)

    def call(self, x, mask=None):
        return K.sum(x * K.softmax(K.dot(x, self.W), axis=1), axis=1) * self.scale

    def compute_output_shape(self, input_shape):
        return (input_shape[0], input_shape[2])


inputs = Input(shape=(5, 3))
states = LSTM(4, return_sequences=True)(inputs)
pooling, average = Pooling(), Average()
model = Model(inputs, Dense(1)(pooling(states)) + Dense(1)(average(states)))
model.compile(loss='mse', optimizer='sgd')
before = K.get_value(pooling.W).copy()
model.fit(np.ones((4, 5, 3)), np.full((4, 1), 10.), epochs=1, verbose=0)
emit({"pooling": len(pooling.trainable_weights), "average": len(average.trainable_weights),
      "frozen": len(average.non_trainable_weights),
      "trained": bool(not np.allclose(before, K.get_value(pooling.W)))})
"""


@needs_tf_keras
def test_weights_listed_in_build_are_the_layers(tmp_path):
    run = run_script(tmp_path, ASSIGNED_WEIGHTS)
    assert run.rc == 0, run.err
    assert run.result == {"pooling": 1, "average": 1, "frozen": 1, "trained": True}
