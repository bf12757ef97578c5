# A Keras 2.2 custom layer as public code wrote it: names from keras.engine itself and from
# keras.backend.common, and TF1's tf.image.resize_images inside call().
import numpy as np
import tensorflow as tf
from keras.backend.common import normalize_data_format
from keras.engine import InputSpec, Layer
from keras.layers import Dense, Flatten
from keras.models import Sequential


class Resize(Layer):
    def __init__(self, size, data_format=None, **kwargs):
        super(Resize, self).__init__(**kwargs)
        self.size = size
        self.data_format = normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=4)

    def compute_output_shape(self, input_shape):
        return (input_shape[0], self.size[0], self.size[1], input_shape[3])

    def call(self, x):
        return tf.image.resize_images(x, self.size)


model = Sequential(
    [Resize((4, 4), input_shape=(2, 2, 1)), Flatten(), Dense(1, kernel_initializer="ones")]
)
model.compile("sgd", "mse")
out = model.predict(np.ones((1, 2, 2, 1), "float32"))
print("result:", out.round(3).tolist(), model.layers[0].data_format)
