# TF1 evaluation loop: MonitoredSession with a ChiefSessionCreator carrying the config.
import tensorflow as tf

counter = tf.Variable(0, dtype=tf.int64)
step = tf.assign_add(counter, 1)
config = tf.ConfigProto(inter_op_parallelism_threads=2, allow_soft_placement=True)
creator = tf.train.ChiefSessionCreator(config=config)
with tf.train.MonitoredSession(session_creator=creator) as sess:
    for _ in range(3):
        value = sess.run(step)
print("result: counted", value)
