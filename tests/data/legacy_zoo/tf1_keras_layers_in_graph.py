# TF1 graph code that borrows Keras 2 layers and hands Keras its session.
import numpy as np
import tensorflow as tf
from keras import backend as K
from keras.layers import Dense

config = tf.ConfigProto()
config.gpu_options.per_process_gpu_memory_fraction = 0.3
sess = tf.Session(config=config)
K.set_session(sess)
x = tf.placeholder(tf.float32, [None, 3])
y = Dense(2, kernel_initializer="ones")(x)
sess.run(tf.global_variables_initializer())
print("result:", sess.run(y, {x: np.ones((1, 3), "float32")}).tolist())
