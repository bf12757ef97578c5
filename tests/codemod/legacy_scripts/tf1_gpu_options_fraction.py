# A memory fraction for one TF1 process through GPUOptions, a queue-free input pipeline.
import numpy as np
import tensorflow as tf

gpu_options = tf.GPUOptions(per_process_gpu_memory_fraction=0.333)
sess = tf.Session(config=tf.ConfigProto(gpu_options=gpu_options))
data = tf.data.Dataset.from_tensor_slices(np.arange(6, dtype=np.float32)).batch(2)
batch = data.make_one_shot_iterator().get_next()
total = tf.Variable(0.0)
add = tf.assign_add(total, tf.reduce_sum(batch))
sess.run(tf.global_variables_initializer())
for _ in range(3):
    sess.run(add)
print("total", sess.run(total))
