# Save a TF1 graph's variables with tf.train.Saver and restore them in a second session.
import os
import tempfile

import tensorflow as tf

v = tf.Variable(tf.random_uniform([3], 0, 1), name="v")
double = tf.assign(v, v * 2)
saver = tf.train.Saver()
path = os.path.join(tempfile.mkdtemp(), "model.ckpt")
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(double)
    saved = sess.run(v)
    saver.save(sess, path)
with tf.Session() as sess:
    saver.restore(sess, path)
    assert (sess.run(v) == saved).all()
print("restored")
