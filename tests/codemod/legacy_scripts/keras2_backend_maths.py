# Keras 2 backend maths in a Lambda, a custom layer and a loss (Siamese-network and
# antirectifier shapes), with the static shape read through K.int_shape.
import numpy as np
from keras import backend as K
from keras.layers import Dense, Input, Lambda, Layer
from keras.models import Model


def euclidean_distance(vects):
    x, y = vects
    sum_square = K.sum(K.square(x - y), axis=1, keepdims=True)
    return K.sqrt(K.maximum(sum_square, K.epsilon()))


def contrastive_loss(y_true, y_pred):
    margin = 1
    square_pred = K.square(y_pred)
    margin_square = K.square(K.maximum(margin - y_pred, 0))
    return K.mean(y_true * square_pred + (1 - y_true) * margin_square)


class Antirectifier(Layer):
    def call(self, inputs):
        inputs -= K.mean(inputs, axis=1, keepdims=True)
        inputs = K.l2_normalize(inputs, axis=1)
        return K.concatenate([K.relu(inputs), K.relu(-inputs)])


left, right = Input(shape=(6,)), Input(shape=(6,))
shared = Dense(4)
features = Antirectifier()(shared(left))
distance = Lambda(euclidean_distance)([shared(left), shared(right)])
model = Model([left, right], distance)
model.compile(loss=contrastive_loss, optimizer="sgd")
x = np.random.rand(16, 6).astype("float32")
model.fit([x, x[::-1]], np.random.randint(2, size=(16, 1)), epochs=1, verbose=0)
assert K.int_shape(features) == (None, 8), K.int_shape(features)
best = K.eval(K.argmax(model.predict([x, x], verbose=0)))
print("ok", best.shape)
