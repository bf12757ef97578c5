# tf.keras on TensorFlow 1.11-1.14: multi-GPU training by handing a DistributionStrategy to compile.
import tensorflow as tf

inputs = tf.keras.layers.Input(shape=(1,))
predictions = tf.keras.layers.Dense(1)(inputs)
model = tf.keras.models.Model(inputs=inputs, outputs=predictions)

# DistributionStrategy needs tf.data.Dataset input
features = tf.data.Dataset.from_tensors([1.]).repeat(10000).batch(10)
labels = tf.data.Dataset.from_tensors([1.]).repeat(10000).batch(10)
train_dataset = tf.data.Dataset.zip((features, labels))
eval_dataset = train_dataset.take(10)
predict_dataset = features.take(10)

# one replica per GPU
distribution = tf.contrib.distribute.MirroredStrategy()
model.compile(loss='mean_squared_error',
              optimizer=tf.train.GradientDescentOptimizer(learning_rate=0.2),
              distribute=distribution)

# fit, evaluate and predict run on every GPU
model.fit(train_dataset, epochs=5, steps_per_epoch=10, verbose=0)
loss = model.evaluate(eval_dataset, verbose=0)
prediction = model.predict(predict_dataset)
print("replicas:", distribution.num_replicas_in_sync, "loss: %.4f" % loss,
      "prediction: %.2f" % prediction[0][0])
