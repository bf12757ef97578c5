# Keras 2 learning-rate step decay in a callback through the backend's get_value/set_value.
import numpy as np
from keras import backend as K
from keras.callbacks import Callback
from keras.layers import Dense
from keras.models import Sequential
from keras.optimizers import SGD


class StepDecay(Callback):
    def on_epoch_end(self, epoch, logs=None):
        lr = float(K.get_value(self.model.optimizer.lr))
        K.set_value(self.model.optimizer.lr, lr * 0.5)


model = Sequential()
model.add(Dense(8, activation="relu", input_dim=4))
model.add(Dense(1))
model.compile(loss="mse", optimizer=SGD(lr=0.1))
x = np.random.rand(32, 4).astype("float32")
y = np.random.rand(32, 1).astype("float32")
model.fit(x, y, epochs=2, batch_size=8, verbose=0, callbacks=[StepDecay()])
lr = K.get_value(model.optimizer.lr)
assert abs(lr - 0.025) < 1e-6, lr
print("lr", lr)
