"""`tf2_virtual_gpus.py` with the facade: cap GPU memory and split one GPU into two virtual GPUs.

The original sets ``tf.config.set_soft_device_placement = False`` and
``tf.config.experimental.set_memory_growth = True`` (assignments that do nothing), then
``set_virtual_device_configuration`` on gpus[0].  Here one call says what was meant.
"""

import tfcompat_gpu

# Two virtual GPUs of 2 GB on every visible GPU; soft placement keeps the script running on a
# machine without a GPU.
effective = tfcompat_gpu.configure(memory_limit_mb=[2048, 2048], allow_soft_placement=True)

import tensorflow as tf  # noqa: E402

print("physical GPUs:", len(tf.config.list_physical_devices("GPU")))
with tf.device("/device:GPU:0"):
    w = tf.constant([[2.0, -3.4]])
    b = tf.constant([4.2])
    x = tf.random.normal([1000, 2], mean=0, stddev=10)
    y = tf.matmul(x, tf.transpose(w)) + b
print("logical GPUs:", len(tf.config.list_logical_devices("GPU")))
print("mean:", float(tf.reduce_mean(y)) is not None)
print("effective:", effective.to_dict())
