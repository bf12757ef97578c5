# A premade Estimator (LinearRegressor) with the session config Estimator users copied around:
# soft placement and a per-process memory fraction.
import tempfile

import numpy as np
import tensorflow as tf

config = tf.ConfigProto(allow_soft_placement=True)
config.gpu_options.per_process_gpu_memory_fraction = 0.25
columns = [tf.feature_column.numeric_column("x", shape=[2])]
regressor = tf.estimator.LinearRegressor(
    feature_columns=columns,
    config=tf.estimator.RunConfig(model_dir=tempfile.mkdtemp(), session_config=config),
)


def input_fn():
    x = np.ones((8, 2), "float32")
    return tf.data.Dataset.from_tensor_slices(({"x": x}, x[:, :1])).repeat().batch(4)


regressor.train(input_fn, steps=2)
print("result: trained", regressor.get_variable_value("global_step"))
