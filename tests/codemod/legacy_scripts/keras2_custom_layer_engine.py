# A custom layer on keras.engine.topology.Layer, labels through keras.utils.np_utils.
import keras
import numpy as np
from keras import backend as K
from keras.engine.topology import Layer
from keras.layers import Dense
from keras.models import Sequential


class Scale(Layer):
    def build(self, input_shape):
        self.scale = self.add_weight(
            name="scale", shape=(input_shape[-1],), initializer="ones", trainable=True
        )
        super().build(input_shape)

    def call(self, inputs):
        return inputs * self.scale


x = np.random.rand(32, 5).astype("float32")
y = keras.utils.np_utils.to_categorical(np.random.randint(2, size=32), 2)
model = Sequential([Dense(5, input_shape=(5,)), Scale(), Dense(2, activation="softmax")])
model.compile(loss="categorical_crossentropy", optimizer=keras.optimizers.Adam(lr=0.01))
model.fit(x, y, epochs=1, verbose=0)
print("epsilon", K.epsilon())
