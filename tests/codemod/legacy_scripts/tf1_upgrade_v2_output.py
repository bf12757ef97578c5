# What tf_upgrade_v2 leaves: tf.compat.v1 names under "import tensorflow as tf", no graph mode.
import numpy as np
import tensorflow as tf

x = tf.compat.v1.placeholder(tf.float32, shape=[None, 2])
w = tf.compat.v1.get_variable("w", shape=[2, 1])
y = tf.matmul(x, w)
with tf.compat.v1.Session() as sess:
    sess.run(tf.compat.v1.global_variables_initializer())
    print(sess.run(y, feed_dict={x: np.ones((1, 2))}).shape)
