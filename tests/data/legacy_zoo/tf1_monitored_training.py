# TF1 training loop on a MonitoredTrainingSession with hooks and a GPU config.
import tensorflow as tf

global_step = tf.train.get_or_create_global_step()
w = tf.Variable(3.0)
loss = tf.square(w)
train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=global_step)
hooks = [tf.train.StopAtStepHook(last_step=3)]
config = tf.ConfigProto(
    gpu_options=tf.GPUOptions(allow_growth=True, per_process_gpu_memory_fraction=0.5)
)
steps = 0
with tf.train.MonitoredTrainingSession(hooks=hooks, config=config) as mon_sess:
    while not mon_sess.should_stop():
        mon_sess.run(train_op)
        steps += 1
print("result: steps", steps)
