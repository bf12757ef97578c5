# Keras on TensorFlow 1: pick a GPU and cap its memory for the Keras session.
import os

import numpy as np
import tensorflow as tf

os.environ["CUDA_VISIBLE_DEVICES"] = "2"
from keras.backend.tensorflow_backend import set_session

config = tf.ConfigProto()
config.gpu_options.per_process_gpu_memory_fraction = 0.3
sess = tf.Session(config=config)
set_session(sess)

from keras import backend as K
from keras.layers import Dense
from keras.models import Sequential

x = np.random.rand(64, 4).astype("float32")
y = x.sum(axis=1, keepdims=True)
model = Sequential([Dense(8, activation="relu", input_shape=(4,)), Dense(1)])
model.compile(optimizer="sgd", loss="mse")
model.fit(x, y, epochs=1, batch_size=16, verbose=0)

print("per_process_gpu_memory_fraction:",
      round(sess._config.gpu_options.per_process_gpu_memory_fraction, 2))
