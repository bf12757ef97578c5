# TF1 training script that writes a summary and a checkpoint, grown GPU memory.
import os
import tempfile

import tensorflow as tf

logdir = tempfile.mkdtemp()
v = tf.get_variable("v", shape=[2], initializer=tf.zeros_initializer())
inc = tf.assign_add(v, [1.0, 2.0])
tf.summary.scalar("v0", v[0])
merged = tf.summary.merge_all()
saver = tf.train.Saver()
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
with tf.Session(config=config) as sess:
    writer = tf.summary.FileWriter(logdir, sess.graph)
    sess.run(tf.global_variables_initializer())
    for i in range(2):
        _, summary = sess.run([inc, merged])
        writer.add_summary(summary, i)
    writer.close()
    path = saver.save(sess, os.path.join(logdir, "model.ckpt"))
    print("result:", sess.run(v).tolist(), os.path.exists(path + ".index"))
