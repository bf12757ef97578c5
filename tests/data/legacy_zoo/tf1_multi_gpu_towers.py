# Multi-GPU tower training in the style of the TF1 CIFAR-10 multi-GPU example: one tower per
# GPU under tf.device('/gpu:%d' % i), gradients averaged on the CPU; the model lives beside it.
import numpy as np
import tensorflow as tf

import zoo_towers

NUM_GPUS = 2


def average_gradients(tower_grads):
    averaged = []
    for grads_and_vars in zip(*tower_grads):
        grads = tf.stack([g for g, _ in grads_and_vars])
        averaged.append((tf.reduce_mean(grads, 0), grads_and_vars[0][1]))
    return averaged


with tf.device("/cpu:0"):
    opt = tf.train.GradientDescentOptimizer(0.1)
    images = tf.placeholder(tf.float32, [None, 4])
    labels = tf.placeholder(tf.float32, [None, 1])
    tower_grads = []
    for i in range(NUM_GPUS):
        with tf.device("/gpu:%d" % i), tf.name_scope("tower_%d" % i):
            loss = zoo_towers.tower_loss(images, labels)
            tower_grads.append(opt.compute_gradients(loss))
    train_op = opt.apply_gradients(average_gradients(tower_grads))

config = tf.ConfigProto(log_device_placement=False)
config.gpu_options.allow_growth = True
with tf.Session(config=config) as sess:
    sess.run(tf.global_variables_initializer())
    feed = {images: np.ones((8, 4), "float32"), labels: np.ones((8, 1), "float32")}
    for _ in range(2):
        sess.run(train_op, feed_dict=feed)
    print("result: towers", NUM_GPUS, "loss", round(float(sess.run(loss, feed_dict=feed)), 4))
