# A keras.utils Sequence fed to fit_generator with a memory fraction set through set_session.
import math

import numpy as np
import tensorflow as tf
from keras.backend.tensorflow_backend import set_session
from keras.layers import Dense
from keras.models import Sequential
from keras.utils.data_utils import Sequence

gpu_options = tf.GPUOptions(per_process_gpu_memory_fraction=0.4)
set_session(tf.Session(config=tf.ConfigProto(gpu_options=gpu_options)))


class Batches(Sequence):
    def __init__(self, x, y, batch_size):
        super().__init__()
        self.x, self.y, self.batch_size = x, y, batch_size

    def __len__(self):
        return math.ceil(len(self.x) / self.batch_size)

    def __getitem__(self, index):
        part = slice(index * self.batch_size, (index + 1) * self.batch_size)
        return self.x[part], self.y[part]


x = np.random.rand(40, 3).astype("float32")
model = Sequential([Dense(1, input_shape=(3,))])
model.compile(optimizer="sgd", loss="mse")
model.fit_generator(Batches(x, x.sum(axis=1), 8), epochs=1, verbose=0, workers=1)
print("ok")
