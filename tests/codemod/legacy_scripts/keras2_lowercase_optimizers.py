# Keras 2's lowercase optimizer aliases, as the early docs and many scripts wrote them.
import keras
import numpy as np
from keras.layers import Dense
from keras.models import Sequential

model = Sequential([Dense(1, input_shape=(2,))])
model.compile(loss="mse", optimizer=keras.optimizers.adam(lr=0.005))
x = np.random.rand(16, 2).astype("float32")
model.fit(x, x[:, :1], epochs=1, verbose=0)
second = Sequential([Dense(1, input_shape=(2,))])
second.compile(loss="mse", optimizer=keras.optimizers.sgd(lr=0.1, momentum=0.5))
second.fit(x, x[:, 1:], epochs=1, verbose=0)
print("ok")
