# Ops pinned to a GPU run on the CPU through soft placement; device placement logged off.
import tensorflow as tf

with tf.device("/gpu:0"):
    a = tf.random_normal([2, 3], seed=1)
    b = tf.truncated_normal([3, 2], seed=2)
    c = tf.matmul(a, b)

config = tf.ConfigProto(log_device_placement=False, allow_soft_placement=True)
sess = tf.Session(config=config)
print(sess.run(c).shape)
sess.close()
