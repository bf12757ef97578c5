# tf.keras code of the TF 1.x/2.0-2.10 era: Adam(lr=...), fit_generator on a tf.keras model.
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
model.compile(optimizer=tf.keras.optimizers.Adam(lr=0.005), loss="mse")


def gen():
    while True:
        yield np.ones((4, 3), "float32"), np.zeros((4, 2), "float32")


model.fit_generator(gen(), steps_per_epoch=2, epochs=1, verbose=0)
print("result: lr", round(float(model.optimizer.learning_rate.numpy()), 6))
