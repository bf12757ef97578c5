# A small mnist_cnn-style convnet with the Keras 2 module paths and Adam(lr=...).
import numpy as np
from keras import backend as K
from keras.layers.convolutional import Conv2D
from keras.layers.core import Dense, Dropout, Flatten
from keras.layers.pooling import MaxPooling2D
from keras.models import Sequential
from keras.optimizers import Adam
from keras.utils.np_utils import to_categorical

img_rows, img_cols = 12, 12
x = np.random.rand(64, img_rows, img_cols, 1).astype("float32")
y = to_categorical(np.random.randint(3, size=64), 3)
print("data format", K.image_data_format())

model = Sequential()
model.add(Conv2D(4, kernel_size=(3, 3), activation="relu", input_shape=(img_rows, img_cols, 1)))
model.add(MaxPooling2D(pool_size=(2, 2)))
model.add(Dropout(0.25))
model.add(Flatten())
model.add(Dense(3, activation="softmax"))
model.compile(Adam(lr=0.001), loss="categorical_crossentropy", metrics=["accuracy"])
model.fit(x, y, batch_size=16, epochs=1, verbose=0, validation_data=(x, y))
print("test loss", model.evaluate(x, y, verbose=0)[0])
