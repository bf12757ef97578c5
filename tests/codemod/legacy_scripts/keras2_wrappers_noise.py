# TimeDistributed and GaussianNoise from keras.layers.wrappers / noise, Nadam-free SGD decay.
import numpy as np
from keras import optimizers
from keras.layers.core import Dense
from keras.layers.noise import GaussianNoise
from keras.layers.pooling import GlobalAveragePooling1D
from keras.layers.wrappers import TimeDistributed
from keras.models import Sequential

model = Sequential()
model.add(GaussianNoise(0.1, input_shape=(5, 4)))
model.add(TimeDistributed(Dense(3)))
model.add(GlobalAveragePooling1D())
model.add(Dense(1))
model.compile(loss="mse", optimizer=optimizers.SGD(decay=1e-5))
x = np.random.rand(20, 5, 4).astype("float32")
model.fit(x, x.sum(axis=(1, 2)), epochs=1, verbose=0)
print("ok")
