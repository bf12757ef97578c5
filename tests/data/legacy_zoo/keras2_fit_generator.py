# Keras 2 training from a Python generator: fit_generator, SGD with lr/decay/momentum, and the
# session's memory fraction set the Keras 2 way.
import numpy as np
import tensorflow as tf
from keras import backend as K
from keras.layers import Dense
from keras.models import Sequential
from keras.optimizers import SGD

config = tf.ConfigProto()
config.gpu_options.per_process_gpu_memory_fraction = 0.3
K.set_session(tf.Session(config=config))


def batches(batch_size=8):
    while True:
        x = np.random.rand(batch_size, 4).astype("float32")
        yield x, x.sum(axis=1, keepdims=True)


model = Sequential([Dense(4, activation="relu", input_shape=(4,)), Dense(1)])
sgd = SGD(lr=0.01, decay=1e-6, momentum=0.9, nesterov=True)
model.compile(loss="mse", optimizer=sgd)
model.fit_generator(batches(), steps_per_epoch=3, epochs=2, verbose=0)
loss = model.evaluate_generator(batches(), steps=2)
print("result: evaluated", np.isfinite(loss))
