# Keras 2.0.9-2.3 data-parallel training: multi_gpu_model over two GPUs, Adam(lr=...),
# grown GPU memory set through the backend.
import numpy as np
import tensorflow as tf
from keras import backend as K
from keras.layers import Dense
from keras.models import Sequential
from keras.optimizers import Adam
from keras.utils import multi_gpu_model

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
K.set_session(tf.Session(config=config))

with tf.device("/cpu:0"):
    model = Sequential([Dense(4, activation="relu", input_shape=(4,)), Dense(1)])
parallel = multi_gpu_model(model, gpus=2)
parallel.compile(loss="mse", optimizer=Adam(lr=0.01))
x = np.random.rand(32, 4).astype("float32")
parallel.fit(x, x.sum(axis=1, keepdims=True), epochs=1, batch_size=8, verbose=0)
print("result: trained", len(model.get_weights()))
