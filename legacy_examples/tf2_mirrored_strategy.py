# TensorFlow 2: data-parallel Keras training with MirroredStrategy.
import numpy as np
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    inputs = tf.keras.layers.Input(shape=(1,))
    predictions = tf.keras.layers.Dense(1)(inputs)
    model = tf.keras.models.Model(inputs=inputs, outputs=predictions)
    model.compile(loss='mse',
                  optimizer=tf.keras.optimizers.SGD(learning_rate=0.2))

features = np.ones((100, 1), dtype=np.float32)
labels = np.ones((100, 1), dtype=np.float32)
model.fit(features, labels, epochs=1, batch_size=10, verbose=0)

print("replicas:", strategy.num_replicas_in_sync,
      "soft placement:", tf.config.get_soft_device_placement(),
      "memory growth:", [tf.config.experimental.get_memory_growth(g)
                         for g in tf.config.list_physical_devices('GPU')])
