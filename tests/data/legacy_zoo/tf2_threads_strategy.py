# TF2 training set-up: thread pools, then a MirroredStrategy over whatever devices exist.
import numpy as np
import tensorflow as tf

tf.config.threading.set_intra_op_parallelism_threads(2)
tf.config.threading.set_inter_op_parallelism_threads(1)
strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
    model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=0.1), loss="mse")
model.fit(np.ones((4, 2), "float32"), np.ones((4, 1), "float32"), epochs=1, verbose=0)
print("result: replicas", strategy.num_replicas_in_sync)
