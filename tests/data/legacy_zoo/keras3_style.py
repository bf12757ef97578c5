# Current Keras code: learning_rate=, fit on arrays, memory growth through tf.config.
import numpy as np
import keras
import tensorflow as tf

for gpu in tf.config.list_physical_devices("GPU"):
    tf.config.experimental.set_memory_growth(gpu, True)
model = keras.Sequential([keras.Input(shape=(3,)), keras.layers.Dense(1)])
model.compile(optimizer=keras.optimizers.Adam(learning_rate=0.01), loss="mse")
model.fit(np.ones((4, 3), "float32"), np.ones((4, 1), "float32"), epochs=1, verbose=0)
print("result: keras", keras.__version__.split(".")[0])
