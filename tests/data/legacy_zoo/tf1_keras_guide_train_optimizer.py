# The TF 1.x tf.keras guide: tf.keras.__version__, and a tf.train optimizer given to compile.
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers

print(tf.VERSION, tf.keras.__version__)
model = tf.keras.Sequential([layers.Dense(1, input_shape=(2,))])
model.compile(optimizer=tf.train.GradientDescentOptimizer(0.1), loss="mse")
data = np.ones((8, 2), "float32")
history = model.fit(data, np.ones((8, 1)), epochs=2, batch_size=4, verbose=0)
print("result: keras", tf.keras.__version__.split(".")[0], "epochs", len(history.history["loss"]))
