# TF1 tutorial style: softmax regression on placeholders, a session with a memory fraction.
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 8])
y_ = tf.placeholder(tf.float32, [None, 2])
W = tf.Variable(tf.zeros([8, 2]))
b = tf.Variable(tf.zeros([2]))
y = tf.matmul(x, W) + b
cross_entropy = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y_, logits=y))
train_step = tf.train.GradientDescentOptimizer(0.5).minimize(cross_entropy)

gpu_options = tf.GPUOptions(per_process_gpu_memory_fraction=0.4)
sess = tf.Session(config=tf.ConfigProto(gpu_options=gpu_options))
sess.run(tf.global_variables_initializer())
xs = np.random.rand(16, 8).astype("float32")
ys = np.eye(2)[np.random.randint(0, 2, 16)].astype("float32")
for _ in range(3):
    sess.run(train_step, feed_dict={x: xs, y_: ys})
print("result: trained", sess.run(tf.shape(W)).tolist())
