"""`tf1_two_sessions_two_gpus.py` with the facade: two models on two GPUs in one process, one process config.

The original gave each ``tf.Session`` its own ``visible_device_list`` ('1', then '2'), which
TensorFlow refuses (the GPU options are process-wide).  One device list for the process, and
each graph placed on its GPU, is what works.
"""

import numpy as np

import tfcompat_gpu
import tensorflow as tf

tf.compat.v1.disable_eager_execution()
effective = tfcompat_gpu.configure(allow_growth=True, allow_soft_placement=True)

v = np.ones([10, 100, 100])
g1 = tf.Graph()
g2 = tf.Graph()
with g1.as_default(), g1.device("/device:GPU:0"):
    a = tf.reduce_sum(tf.constant(v))
with g2.as_default(), g2.device("/device:GPU:1"):
    b = tf.reduce_sum(tf.constant(v))
sess1 = tfcompat_gpu.session(graph=g1)
sess2 = tfcompat_gpu.session(graph=g2)
print("placed:", a.op.device, b.op.device)
print("sums:", sess1.run(a), sess2.run(b))
print("effective:", effective.to_dict())
