# A TF1 command-line script: tf.app.flags and tf.app.run, a momentum optimizer.
import numpy as np
import tensorflow as tf

flags = tf.app.flags
flags.DEFINE_integer("steps", 3, "training steps")
flags.DEFINE_float("learning_rate", 0.01, "learning rate")
FLAGS = flags.FLAGS


def main(_):
    x = tf.placeholder(tf.float32, [None, 2])
    w = tf.Variable(tf.random_normal([2, 1], stddev=0.1))
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
    step = tf.train.MomentumOptimizer(FLAGS.learning_rate, 0.9).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(FLAGS.steps):
            sess.run(step, {x: np.ones((4, 2))})
        tf.logging.info("loss %s", sess.run(loss, {x: np.ones((4, 2))}))
    print("done")


if __name__ == "__main__":
    tf.logging.set_verbosity(tf.logging.INFO)
    tf.app.run(main)
