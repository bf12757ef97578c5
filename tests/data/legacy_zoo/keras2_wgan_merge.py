# Keras 2 WGAN-GP style: a random weighted average built on keras.layers.merge._Merge.
import numpy as np
from keras import backend as K
from keras.layers import Input
from keras.layers.merge import _Merge
from keras.models import Model

BATCH_SIZE = 4


class RandomWeightedAverage(_Merge):
    """A random point between each real and generated sample."""

    def _merge_function(self, inputs):
        alpha = K.random_uniform((BATCH_SIZE, 1))
        return (alpha * inputs[0]) + ((1 - alpha) * inputs[1])


real = Input(shape=(3,))
fake = Input(shape=(3,))
averaged = RandomWeightedAverage()([real, fake])
model = Model(inputs=[real, fake], outputs=averaged)
out = model.predict([np.zeros((BATCH_SIZE, 3)), np.zeros((BATCH_SIZE, 3))], verbose=0)
print("result:", out.shape, float(out.sum()))
