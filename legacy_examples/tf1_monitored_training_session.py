# TensorFlow 1: a training loop in MonitoredTrainingSession, its GPU options in the session config.
import tempfile

import tensorflow as tf

x = tf.placeholder(tf.float32, shape=[None, 1])
y = tf.placeholder(tf.float32, shape=[None, 1])
w = tf.Variable(tf.zeros([1, 1]))
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
global_step = tf.train.get_or_create_global_step()
train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=global_step)

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.gpu_options.per_process_gpu_memory_fraction = 0.4

hooks = [tf.train.StopAtStepHook(last_step=20)]
with tf.train.MonitoredTrainingSession(checkpoint_dir=tempfile.mkdtemp(), hooks=hooks,
                                       config=config) as sess:
    while not sess.should_stop():
        _, step = sess.run([train_op, global_step], feed_dict={x: [[1.0]], y: [[2.0]]})
    options = sess._tf_sess()._config.gpu_options   # the config the session really got

print("steps:", step, "allow_growth:", options.allow_growth,
      "fraction:", options.per_process_gpu_memory_fraction)
