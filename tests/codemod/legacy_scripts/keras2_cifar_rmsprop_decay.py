# cifar10_cnn-style training: RMSprop with decay, batch normalization and LeakyReLU modules.
import numpy as np
from keras.layers import Conv2D, Dense, Flatten
from keras.layers.advanced_activations import LeakyReLU
from keras.layers.normalization import BatchNormalization
from keras.models import Sequential
from keras.optimizers import RMSprop
from keras.utils import np_utils

num_classes = 4
x_train = np.random.rand(48, 8, 8, 3).astype("float32")
y_train = np_utils.to_categorical(np.random.randint(num_classes, size=48), num_classes)

model = Sequential()
model.add(Conv2D(8, (3, 3), padding="same", input_shape=x_train.shape[1:]))
model.add(BatchNormalization())
model.add(LeakyReLU(0.1))
model.add(Flatten())
model.add(Dense(num_classes, activation="softmax"))

opt = RMSprop(lr=0.0001, decay=1e-6)
model.compile(loss="categorical_crossentropy", optimizer=opt, metrics=["accuracy"])
model.fit(x_train, y_train, batch_size=16, epochs=1, shuffle=True, verbose=0)
print("done")
