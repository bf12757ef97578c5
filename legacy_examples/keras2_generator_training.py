# Keras 2 on TensorFlow 1: a small classifier trained from a Python generator, GPU memory
# settings handed to Keras with KTF.set_session, one-hot labels from np_utils.
import numpy as np
import tensorflow as tf
import keras.backend.tensorflow_backend as KTF
from keras.layers import Dense, Dropout
from keras.models import Sequential
from keras.optimizers import Adam
from keras.utils import np_utils

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.gpu_options.per_process_gpu_memory_fraction = 0.4
config.allow_soft_placement = True
KTF.set_session(tf.Session(config=config))

num_classes = 3
x_train = np.random.rand(96, 8).astype("float32")
y_train = np_utils.to_categorical(np.random.randint(num_classes, size=(96,)), num_classes)


def batches(batch_size=16):
    while True:
        for start in range(0, len(x_train), batch_size):
            yield x_train[start:start + batch_size], y_train[start:start + batch_size]


model = Sequential()
model.add(Dense(16, activation="relu", input_dim=8))
model.add(Dropout(0.2))
model.add(Dense(num_classes, activation="softmax"))
model.compile(loss="categorical_crossentropy", optimizer=Adam(lr=0.005), metrics=["accuracy"])
history = model.fit_generator(batches(), steps_per_epoch=6, epochs=2, verbose=0)

print("epochs:", len(history.history["loss"]))
print("learning rate:", round(float(KTF.get_value(model.optimizer.lr)), 4))
