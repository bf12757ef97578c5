# TF1 notebook style: an InteractiveSession that grows its GPU memory, .eval() and .run().
import tensorflow as tf

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
sess = tf.InteractiveSession(config=config)
a = tf.Variable(tf.random_normal([2, 2], seed=1))
tf.global_variables_initializer().run()
total = tf.reduce_sum(a * 0.0 + 1.0)
print("result:", total.eval())
sess.close()
