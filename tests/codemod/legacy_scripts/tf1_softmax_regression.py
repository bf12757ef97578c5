# The TF1 "MNIST for beginners" shape: placeholders, tf.log cross-entropy, a feed_dict loop.
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 16])
y_ = tf.placeholder(tf.float32, [None, 4])
W = tf.Variable(tf.zeros([16, 4]))
b = tf.Variable(tf.zeros([4]))
y = tf.nn.softmax(tf.matmul(x, W) + b)
cross_entropy = tf.reduce_mean(-tf.reduce_sum(y_ * tf.log(y + 1e-9), reduction_indices=[1]))
train_step = tf.train.GradientDescentOptimizer(0.5).minimize(cross_entropy)
correct = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))

sess = tf.InteractiveSession()
tf.global_variables_initializer().run()
for _ in range(5):
    batch_xs = np.random.rand(10, 16)
    batch_ys = np.eye(4)[np.random.randint(4, size=10)]
    sess.run(train_step, feed_dict={x: batch_xs, y_: batch_ys})
print(sess.run(accuracy, feed_dict={x: batch_xs, y_: batch_ys}))
