# Keras 2.0-2.3 imports from the modules layers lived in before Keras split them into packages,
# a custom layer on engine.topology, and the session's threads set the Keras 2 way.
import numpy as np
import tensorflow as tf
from keras import backend as K
from keras.engine.topology import Layer
from keras.engine.training import Model
from keras.layers import Input
from keras.layers.advanced_activations import LeakyReLU
from keras.layers.convolutional import Conv1D, UpSampling1D
from keras.layers.embeddings import Embedding
from keras.layers.merge import concatenate
from keras.layers.normalization import BatchNormalization
from keras.layers.pooling import GlobalMaxPooling1D
from keras.layers.recurrent import LSTM
from keras.layers.wrappers import Bidirectional, TimeDistributed

K.set_session(
    tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=2, inter_op_parallelism_threads=2))
)


class Scale(Layer):
    def build(self, input_shape):
        self.scale = self.add_weight(name="scale", shape=(1,), initializer="ones")
        super(Scale, self).build(input_shape)

    def call(self, x):
        return x * self.scale


tokens = Input(shape=(6,))
embedded = Embedding(20, 4)(tokens)
conv = LeakyReLU(0.1)(BatchNormalization()(Conv1D(4, 3, padding="same")(UpSampling1D(1)(embedded))))
rnn = Bidirectional(LSTM(3, return_sequences=True))(embedded)
merged = concatenate([conv, TimeDistributed(Scale())(rnn)])
model = Model(inputs=tokens, outputs=GlobalMaxPooling1D()(merged))
print("result:", model.predict(np.zeros((2, 6)), verbose=0).shape)
