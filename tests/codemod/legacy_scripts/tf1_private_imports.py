# TF1 graph code that takes Session and the session config from TensorFlow's private modules.
import numpy as np
import tensorflow as tf
from tensorflow.core.protobuf import config_pb2
from tensorflow.python.client.session import Session

x = tf.placeholder(tf.float32, shape=[None, 3])
w = tf.Variable(tf.ones([3, 1]))
y = tf.matmul(x, w)

config = config_pb2.ConfigProto(allow_soft_placement=True)
config.gpu_options.allow_growth = True
with Session(config=config) as sess:
    sess.run(tf.global_variables_initializer())
    out = sess.run(y, feed_dict={x: np.ones((2, 3), dtype=np.float32)})
print("sum", float(out.sum()))
