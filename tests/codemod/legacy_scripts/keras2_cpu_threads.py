# Keras on the CPU with fixed thread pools, set through a session (Keras 2 posts).
import numpy as np
import tensorflow as tf
from keras import backend as K
from keras.layers import Dense
from keras.models import Sequential
from keras.optimizers import SGD

config = tf.ConfigProto(
    intra_op_parallelism_threads=2,
    inter_op_parallelism_threads=1,
    allow_soft_placement=True,
    device_count={"CPU": 1, "GPU": 0},
)
session = tf.Session(config=config)
K.set_session(session)

model = Sequential([Dense(4, activation="tanh", input_shape=(3,)), Dense(1)])
model.compile(optimizer=SGD(lr=0.05), loss="mse")
x = np.random.rand(24, 3).astype("float32")
model.fit(x, x.mean(axis=1), epochs=1, verbose=0)
print("ok")
