# tf.keras in a TF 1.x script: session config through tf.keras.backend, Adam with lr and decay.
import numpy as np
import tensorflow as tf

config = tf.ConfigProto(allow_soft_placement=True)
config.gpu_options.per_process_gpu_memory_fraction = 0.5
tf.keras.backend.set_session(tf.Session(config=config))

model = tf.keras.models.Sequential(
    [
        tf.keras.layers.Dense(16, activation="relu", input_shape=(10,)),
        tf.keras.layers.Dense(2, activation="softmax"),
    ]
)
model.compile(
    optimizer=tf.keras.optimizers.Adam(lr=0.01, decay=1e-4),
    loss="sparse_categorical_crossentropy",
    metrics=["accuracy"],
)
x = np.random.rand(40, 10).astype("float32")
y = np.random.randint(2, size=40)
model.fit(x, y, epochs=1, batch_size=10, verbose=0)
print("accuracy", model.evaluate(x, y, verbose=0)[1])
