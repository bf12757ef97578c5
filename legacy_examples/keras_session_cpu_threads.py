# Keras on TensorFlow 1: use all CPU cores (thread pools, 4 CPU devices, soft placement).
import numpy as np
import tensorflow as tf
from keras import backend as K

num_cores = 4
config = tf.ConfigProto(intra_op_parallelism_threads=num_cores, inter_op_parallelism_threads=num_cores,
                        allow_soft_placement=True, device_count={'CPU': 4})
session = tf.Session(config=config)
K.set_session(session)

from keras.layers import Dense
from keras.models import Sequential

x = np.random.rand(32, 3).astype("float32")
y = x.mean(axis=1, keepdims=True)
model = Sequential([Dense(1, input_shape=(3,))])
model.compile(optimizer="sgd", loss="mse")
model.fit(x, y, epochs=1, verbose=0)

c = session._config
print("threads intra/inter:", c.intra_op_parallelism_threads, c.inter_op_parallelism_threads,
      "CPUs:", c.device_count["CPU"], "soft placement:", c.allow_soft_placement)
