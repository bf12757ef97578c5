# TensorFlow 2: GPU usage, memory limits and virtual GPUs.
import tensorflow as tf
import numpy as np
print(tf.__version__)
import os
# which GPU ids may be used
os.environ['CUDA_VISIBLE_DEVICES'] = '0'
# whether to fall back to the CPU in special cases
tf.config.set_soft_device_placement = False
#
tf.config.experimental.set_memory_growth = True
gpus = tf.config.experimental.list_physical_devices('GPU')
print(gpus)
if gpus:
    tf.config.experimental.set_virtual_device_configuration(gpus[0],
                                                           [tf.config.experimental.VirtualDeviceConfiguration(memory_limit=2048)])
    logical_gpus = tf.config.experimental.list_logical_devices('GPU')
    print(len(gpus), len(logical_gpus), 'Logical gpus')
with tf.device('/device:GPU:0'):
    w = tf.constant([[2, -3.4]])
    b = tf.constant([4.2])
    x = tf.random.normal([1000, 2], mean=0, stddev=10)
    e = tf.random.normal([1000, 2], mean=0, stddev=0.1)
    W = tf.Variable(tf.constant([5, 1]))
    B = tf.Variable(tf.constant([1]))

logical_gpus = tf.config.experimental.list_logical_devices('GPU')
print("physical GPUs:", len(gpus), "logical GPUs:", len(logical_gpus),
      "x on", x.device.split("/")[-1])
