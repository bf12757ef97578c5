# tf.layers and tf.losses, the TF 1.4+ high-level graph API, trained with RMSProp.
import numpy as np
import tensorflow as tf

features = tf.placeholder(tf.float32, [None, 4])
labels = tf.placeholder(tf.int64, [None])
training = tf.placeholder_with_default(False, shape=())
net = tf.layers.dense(features, 16, activation=tf.nn.relu)
net = tf.layers.dropout(net, rate=0.2, training=training)
logits = tf.layers.dense(net, 3)
loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
optimizer = tf.train.RMSPropOptimizer(0.01)
train = optimizer.minimize(loss, global_step=tf.train.get_or_create_global_step())

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {features: np.random.rand(12, 4), labels: np.random.randint(3, size=12)}
    sess.run(train, feed_dict={**feed, training: True})
    print("loss", sess.run(loss, feed_dict=feed))
