# Keras 2.0-2.2 example style: old module paths, np_utils, RMSprop(lr=...), the session set
# through keras.backend.tensorflow_backend with grown GPU memory.
import numpy as np
import tensorflow as tf
from keras.backend.tensorflow_backend import set_session
from keras.layers.core import Activation, Dense, Dropout
from keras.models import Sequential
from keras.optimizers import RMSprop
from keras.utils import np_utils

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
set_session(tf.Session(config=config))

x_train = np.random.rand(32, 16).astype("float32")
y_train = np_utils.to_categorical(np.random.randint(0, 3, 32), 3)
model = Sequential()
model.add(Dense(8, input_shape=(16,)))
model.add(Activation("relu"))
model.add(Dropout(0.2))
model.add(Dense(3, activation="softmax"))
model.compile(loss="categorical_crossentropy", optimizer=RMSprop(lr=0.001), metrics=["accuracy"])
history = model.fit(x_train, y_train, batch_size=16, epochs=1, verbose=0)
print("result: lr", round(float(model.optimizer.learning_rate.numpy()), 6), "epochs", len(history.epoch))
