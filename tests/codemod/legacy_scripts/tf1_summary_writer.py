# Scalars logged with tf.summary and a FileWriter in a TF1 training loop.
import tempfile

import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 1])
w = tf.Variable(0.0)
loss = tf.reduce_mean(tf.square(x * w - 2 * x))
tf.summary.scalar("loss", loss)
merged = tf.summary.merge_all()
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    writer = tf.summary.FileWriter(tempfile.mkdtemp(), sess.graph)
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        summary, _ = sess.run([merged, train], feed_dict={x: np.ones((2, 1))})
        writer.add_summary(summary, i)
    writer.close()
print("w", sess.run(w) if False else "logged")
