# Keras 2 MLP in the style of the mnist_mlp examples: growth through set_session, SGD with decay.
import numpy as np
import tensorflow as tf
from keras.backend.tensorflow_backend import set_session
from keras.layers.core import Activation, Dense, Dropout
from keras.models import Sequential
from keras.optimizers import SGD
from keras.utils import np_utils

config = tf.ConfigProto()
config.gpu_options.allow_growth = True  # grab memory as needed
set_session(tf.Session(config=config))

x_train = np.random.rand(128, 20).astype("float32")
y_train = np_utils.to_categorical(np.random.randint(10, size=128), 10)

model = Sequential()
model.add(Dense(32, input_dim=20))
model.add(Activation("relu"))
model.add(Dropout(0.5))
model.add(Dense(10, activation="softmax"))

sgd = SGD(lr=0.01, decay=1e-6, momentum=0.9, nesterov=True)
model.compile(loss="categorical_crossentropy", optimizer=sgd, metrics=["accuracy"])
model.fit(x_train, y_train, nb_epoch=1, batch_size=32, verbose=0)
score = model.evaluate(x_train, y_train, batch_size=32, verbose=0)
print("score", score)
