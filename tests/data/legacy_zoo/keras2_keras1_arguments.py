# Early Keras 2 code that still uses the Keras 1 argument names Keras 2 translated with a
# warning: nb_epoch=, samples_per_epoch=, nb_val_samples=, nb_worker=, and the Keras 1 module
# path of Dense.
import numpy as np
from keras.layers.core import Activation, Dense
from keras.models import Sequential


class Batches:
    batch_size = 8

    def __iter__(self):
        return self

    def __next__(self):
        x = np.random.rand(self.batch_size, 4).astype("float32")
        return x, x.sum(axis=1, keepdims=True)


model = Sequential()
model.add(Dense(8, input_shape=(4,)))
model.add(Activation("relu"))
model.add(Dense(1))
model.compile(loss="mse", optimizer="sgd")
model.fit(np.random.rand(16, 4), np.random.rand(16, 1), nb_epoch=2, batch_size=8, verbose=0)
history = model.fit_generator(
    Batches(),
    samples_per_epoch=24,
    nb_epoch=2,
    validation_data=Batches(),
    nb_val_samples=2,
    nb_worker=1,
    verbose=0,
)
print("result: epochs", len(history.history["loss"]), "steps", history.params["steps"])
