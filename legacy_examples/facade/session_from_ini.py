"""`tf1_session_from_ini.py` with the facade: GPU options read from an INI file, applied to a v1 session.

The original read ``[gpu]`` with configparser into a ``tf.ConfigProto`` by hand.
"""

from pathlib import Path

import tfcompat_gpu
import tensorflow as tf

tf.compat.v1.disable_eager_execution()
cfg = tfcompat_gpu.GPUConfig.from_file(Path(__file__).with_name("gpu_settings.ini"))
effective = tfcompat_gpu.configure(cfg)

a = tf.compat.v1.placeholder(tf.float32, shape=[None, 3])
with tf.device("/gpu:0"):  # soft placement moves it to the CPU when there is no GPU
    total = tf.reduce_sum(a * 2.0)
with tfcompat_gpu.session() as sess:
    print("sum:", sess.run(total, feed_dict={a: [[1.0, 2.0, 3.0]]}))
    print("session fraction:", round(sess._config.gpu_options.per_process_gpu_memory_fraction, 3))
print("effective:", effective.to_dict())
