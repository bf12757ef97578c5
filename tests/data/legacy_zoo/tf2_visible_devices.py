# TF2: use only the second GPU of the machine.
import tensorflow as tf

gpus = tf.config.list_physical_devices("GPU")
tf.config.set_visible_devices(gpus[1], "GPU")
print("result: visible", [d.name for d in tf.config.get_visible_devices("GPU")])
