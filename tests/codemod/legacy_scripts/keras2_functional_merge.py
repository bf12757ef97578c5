# A two-branch functional model with the Keras 2 merge and engine modules.
import numpy as np
from keras.engine.input_layer import Input
from keras.engine.training import Model
from keras.layers.core import Dense
from keras.layers.merge import concatenate
from keras.optimizers import Adam

left = Input(shape=(3,))
right = Input(shape=(5,))
merged = concatenate([Dense(4, activation="relu")(left), Dense(4, activation="relu")(right)])
output = Dense(1)(merged)
model = Model(inputs=[left, right], outputs=output)
model.compile(optimizer=Adam(lr=1e-3, decay=1e-5), loss="mse")
a = np.random.rand(32, 3).astype("float32")
b = np.random.rand(32, 5).astype("float32")
model.fit([a, b], a.sum(axis=1) + b.sum(axis=1), epochs=1, batch_size=8, verbose=0)
print(model.predict([a, b], verbose=0).shape)
