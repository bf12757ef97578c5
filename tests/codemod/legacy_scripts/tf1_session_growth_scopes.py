# TF1 graph with variable scopes, get_variable and an Adam loop in a growth-configured session.
import numpy as np
import tensorflow as tf


def dense(inputs, units, name):
    with tf.variable_scope(name):
        w = tf.get_variable(
            "w", [inputs.shape[1], units], initializer=tf.truncated_normal_initializer(stddev=0.1)
        )
        b = tf.get_variable("b", [units], initializer=tf.zeros_initializer())
        return tf.matmul(inputs, w) + b


inputs = tf.placeholder(tf.float32, shape=(None, 3), name="inputs")
targets = tf.placeholder(tf.float32, shape=(None, 1), name="targets")
hidden = tf.nn.relu(dense(inputs, 8, "hidden"))
loss = tf.reduce_mean(tf.square(dense(hidden, 1, "out") - targets))
train_op = tf.train.AdamOptimizer(learning_rate=1e-3).minimize(loss)

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
with tf.Session(config=config) as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        data = np.random.rand(4, 3)
        _, value = sess.run([train_op, loss], feed_dict={inputs: data, targets: data[:, :1]})
    print("loss", value)
