# TensorFlow 1: two models in one process, each session told to use its own GPU.
import numpy as np
import tensorflow as tf

g1 = tf.Graph()
with g1.as_default():
    a = tf.placeholder(tf.float32, shape=[None, 2], name="a")
    out1 = tf.reduce_sum(a * 2.0, name="out1")
g2 = tf.Graph()
with g2.as_default():
    b = tf.placeholder(tf.float32, shape=[None, 2], name="b")
    out2 = tf.reduce_sum(b * 3.0, name="out2")

gpu_options_1 = tf.GPUOptions(allow_growth=True, visible_device_list='1')
session1 = tf.Session(graph=g1, config=tf.ConfigProto(allow_soft_placement=True, gpu_options=gpu_options_1))
gpu_options_2 = tf.GPUOptions(allow_growth=True, visible_device_list='2')
session2 = tf.Session(graph=g2, config=tf.ConfigProto(allow_soft_placement=True, gpu_options=gpu_options_2))

ones = np.ones((4, 2), dtype=np.float32)
r1 = session1.run(out1, feed_dict={a: ones})
r2 = session2.run(out2, feed_dict={b: ones})

print("model 1:", r1, "on", out1.op.device, "| model 2:", r2, "on", out2.op.device)
