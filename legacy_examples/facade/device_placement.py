"""`tf2_device_placement.py` and `tf2_mirrored_strategy.py` with the facade: log device placement, manual placement and MirroredStrategy."""

import tfcompat_gpu

effective = tfcompat_gpu.configure(allow_growth=True, log_device_placement=True)

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

with tf.device("/CPU:0"):
    a = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    b = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
c = tf.matmul(a, b)
print("matmul:", c.numpy().tolist())

strategy = tf.distribute.MirroredStrategy()
print("replicas:", strategy.num_replicas_in_sync)
with strategy.scope():
    inputs = tf.keras.layers.Input(shape=(1,))
    predictions = tf.keras.layers.Dense(1)(inputs)
    model = tf.keras.models.Model(inputs=inputs, outputs=predictions)
    model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(learning_rate=0.2))
x = np.ones((64, 1), dtype="float32")
model.fit(x, x, epochs=1, batch_size=16, verbose=0)
print("effective:", effective.to_dict())
