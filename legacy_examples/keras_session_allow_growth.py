# Keras on TensorFlow 1: let the session's GPU memory grow on demand.
import keras.backend.tensorflow_backend as KTF
import tensorflow as tf
import os
import numpy as np

os.environ["CUDA_VISIBLE_DEVICES"] = "1"
config = tf.ConfigProto()
config.gpu_options.allow_growth=True   # do not grab all GPU memory, allocate on demand
sess = tf.Session(config=config)
KTF.set_session(sess)

from keras.layers import Dense
from keras.models import Sequential

x = np.random.rand(64, 4).astype("float32")
y = x.sum(axis=1, keepdims=True)
model = Sequential([Dense(1, input_shape=(4,))])
model.compile(optimizer="sgd", loss="mse")
model.fit(x, y, epochs=1, verbose=0)

print("allow_growth:", sess._config.gpu_options.allow_growth)
