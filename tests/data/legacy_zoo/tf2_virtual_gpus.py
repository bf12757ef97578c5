# TF2: split the first GPU into two logical GPUs with a memory limit each.
import tensorflow as tf

gpus = tf.config.list_physical_devices("GPU")
tf.config.set_logical_device_configuration(
    gpus[0],
    [tf.config.LogicalDeviceConfiguration(memory_limit=1024)] * 2,
)
print("result: logical", len(tf.config.get_logical_device_configuration(gpus[0])))
