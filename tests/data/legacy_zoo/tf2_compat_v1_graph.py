# TF1 code already ported with tf.compat.v1 and eager turned off by the script itself.
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
x = tf.placeholder(tf.float32, [2])
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
with tf.Session(config=config) as sess:
    print("result:", sess.run(x * 3.0, {x: [1.0, 2.0]}).tolist())
