# Keras 2.0.9-2.3: data-parallel training on two GPUs with multi_gpu_model; the template is saved.
import os
import tempfile

import numpy as np
import tensorflow as tf
from keras import backend as K
from keras.layers import Dense
from keras.models import Sequential, load_model
from keras.utils import multi_gpu_model

print("GPUs:", K.tensorflow_backend._get_available_gpus())

# the template lives on the CPU, its replicas on the GPUs
with tf.device("/cpu:0"):
    model = Sequential([Dense(8, activation="relu", input_shape=(4,)), Dense(1)])

parallel_model = multi_gpu_model(model, gpus=2)
parallel_model.compile(loss="mse", optimizer="sgd")

x = np.random.rand(256, 4).astype("float32")
y = x.sum(axis=1, keepdims=True)
parallel_model.fit(x, y, epochs=3, batch_size=32, verbose=0)

# save the template, not the parallel model
path = os.path.join(tempfile.mkdtemp(), "my_model.h5")
model.save(path)
restored = load_model(path, compile=False)
trained = all(np.allclose(a, b) for a, b in zip(restored.get_weights(),
                                                 parallel_model.get_weights()))
print("saved template holds the trained weights:", trained)
