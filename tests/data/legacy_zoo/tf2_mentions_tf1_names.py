# A TF2 script whose strings, comments and docstrings speak of TF1 (a migration note, a help text).
import tensorflow as tf

HELP = "Migrated from tf.placeholder / tf.Session / tf.train.AdamOptimizer; now tf.function."
# Before: x = tf.placeholder(tf.float32); sess.run(y, {x: 1.0}); SGD(lr=0.1); fit_generator(...)


@tf.function
def double(x):
    """Replaces the old tf.placeholder + sess.run pair."""
    return x * 2.0


gpus = tf.config.list_physical_devices("GPU")
for gpu in gpus:
    tf.config.experimental.set_memory_growth(gpu, True)
print("result:", float(double(tf.constant(1.5))), tf.executing_eagerly())
