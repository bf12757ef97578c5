"""The `keras_session_*.py` examples with the facade: the Keras ``set_session`` recipes as one ``configure()`` call.

The original used ``config.gpu_options.per_process_gpu_memory_fraction = 0.3`` and
``set_session(tf.Session(config=config))``, or ``allow_growth``, or thread counts with
``device_count={'CPU': 4}``.  Keras 3 has no sessions; the process config is what counts.
"""

import os

import tfcompat_gpu

os.environ.setdefault("CUDA_VISIBLE_DEVICES", "0")
num_cores = 2
effective = tfcompat_gpu.configure(
    per_process_gpu_memory_fraction=0.3,
    intra_op_parallelism_threads=num_cores,
    inter_op_parallelism_threads=num_cores,
    allow_soft_placement=True,
    device_count={"CPU": num_cores},
)

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
x = np.random.rand(32, 4).astype("float32")
model.fit(x, x.sum(axis=1, keepdims=True), epochs=1, verbose=0)
print("logical CPUs:", len(tf.config.list_logical_devices("CPU")))
print("effective:", effective.to_dict())
