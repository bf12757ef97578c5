# TensorFlow 1: GPU options for the session come from a configuration file.
import configparser
import os

import numpy as np
import tensorflow as tf

config = configparser.ConfigParser()
config.read(os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpu_settings.ini"))


def GPU_config():
    gpuConfig = tf.ConfigProto()
    gpuConfig.allow_soft_placement = config.getboolean('gpu', 'allow_soft_placement')
    gpuConfig.gpu_options.allow_growth = config.getboolean('gpu', 'allow_growth')
    gpuConfig.gpu_options.per_process_gpu_memory_fraction = config.getfloat('gpu', 'rate')
    return gpuConfig


x = tf.placeholder(tf.float32, shape=[None, 3])
w = tf.Variable(tf.ones([3, 1]))
y = tf.matmul(x, w)

sess = tf.Session(config=GPU_config())
sess.run(tf.global_variables_initializer())
out = sess.run(y, feed_dict={x: np.ones((2, 3), dtype=np.float32)})

c = sess._config
print("result:", out.ravel().tolist(), "allow_growth:", c.gpu_options.allow_growth,
      "rate:", round(c.gpu_options.per_process_gpu_memory_fraction, 2),
      "soft placement:", c.allow_soft_placement)
