# TF1 graph code that binds tf.keras to a short name and calls a Keras model on a placeholder.
import numpy as np
import tensorflow as tf

ks = tf.keras
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
model = ks.models.Sequential([ks.layers.Dense(2, kernel_initializer="ones", input_shape=(3,))])
x = tf.placeholder(tf.float32, shape=(None, 3))
with tf.Session(config=config) as sess:
    y = model(x)
    sess.run(tf.global_variables_initializer())
    print("result:", sess.run(y, {x: np.ones((1, 3), "float32")}).tolist())
