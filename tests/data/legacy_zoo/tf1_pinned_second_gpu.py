# TF1 code written for a two-GPU box: the big matmul pinned to the second GPU.
import tensorflow as tf

a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
with tf.device("/gpu:1"):
    c = tf.matmul(a, a)
config = tf.ConfigProto(gpu_options=tf.GPUOptions(allow_growth=True))
with tf.Session(config=config) as sess:
    print("result:", sess.run(c).tolist())
