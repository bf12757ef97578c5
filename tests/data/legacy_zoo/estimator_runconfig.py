# TF 1.x Estimator style: a custom model_fn, RunConfig(session_config=...) with grown GPU memory
# and two threads, a few training steps.
import tempfile

import numpy as np
import tensorflow as tf


def model_fn(features, labels, mode):
    w = tf.get_variable("w", [2, 1], initializer=tf.zeros_initializer())
    predictions = tf.matmul(features["x"], w)
    loss = tf.reduce_mean(tf.square(predictions - labels))
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(
        loss, global_step=tf.train.get_global_step()
    )
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def input_fn():
    x = np.ones((8, 2), "float32")
    data = tf.data.Dataset.from_tensor_slices(({"x": x}, x.sum(axis=1, keepdims=True)))
    return data.repeat().batch(4)


session_config = tf.ConfigProto(
    gpu_options=tf.GPUOptions(allow_growth=True), intra_op_parallelism_threads=2
)
run_config = tf.estimator.RunConfig(model_dir=tempfile.mkdtemp(), session_config=session_config)
estimator = tf.estimator.Estimator(model_fn=model_fn, config=run_config)
estimator.train(input_fn, steps=3)
print("result: global step", estimator.get_variable_value("global_step"))
