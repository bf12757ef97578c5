# A binary classifier trained, evaluated through evaluate_generator and saved to an .h5 file.
import os
import tempfile

import numpy as np
from keras.layers import Dense
from keras.models import Sequential, load_model
from keras.optimizers import Adam


def pairs():
    while True:
        x = np.random.rand(8, 2).astype("float32")
        yield x, (x[:, 0] > x[:, 1]).astype("float32")


model = Sequential([Dense(4, activation="relu", input_dim=2), Dense(1, activation="sigmoid")])
model.compile(Adam(lr=0.01), "binary_crossentropy", metrics=["accuracy"])
model.fit_generator(pairs(), 5, 1, verbose=0)
print(model.evaluate_generator(pairs(), 3))
path = os.path.join(tempfile.mkdtemp(), "model.h5")
model.save(path)
print(load_model(path).predict(np.ones((1, 2), "float32"), verbose=0))
