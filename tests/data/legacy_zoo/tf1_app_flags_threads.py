# TF1 command-line style: tf.app.flags, tf.app.run, variable scopes, thread counts in the config.
import tensorflow as tf

FLAGS = tf.app.flags.FLAGS
tf.app.flags.DEFINE_integer("hidden", 4, "units in the hidden layer")
tf.app.flags.DEFINE_integer("threads", 2, "intra/inter op threads")


def build(inputs):
    with tf.variable_scope("dense"):
        w = tf.get_variable("w", [3, FLAGS.hidden], initializer=tf.ones_initializer())
        return tf.reduce_sum(tf.matmul(inputs, w))


def main(_):
    config = tf.ConfigProto(
        intra_op_parallelism_threads=FLAGS.threads, inter_op_parallelism_threads=FLAGS.threads
    )
    out = build(tf.ones([2, 3]))
    with tf.Session(config=config) as sess:
        sess.run(tf.global_variables_initializer())
        print("result:", sess.run(out))


if __name__ == "__main__":
    tf.app.run()
