# TensorFlow 1 between-graph replication: one parameter server and two workers, one process each.
#
#   python tf1_parameter_server.py --ps_hosts=host0:2222 --worker_hosts=host1:2222,host2:2222 \
#       --job_name=ps --task_index=0           # and --job_name=worker --task_index=0 / 1
#
# Written for TF1 (tf.train.Server, replica_device_setter, MonitoredTrainingSession); on TF2 run it
# unmodified with `tfcompat-gpu run --tf1 tf1_parameter_server.py ...`.
import argparse
import json

import numpy as np
import tensorflow as tf

parser = argparse.ArgumentParser()
parser.add_argument("--ps_hosts", required=True)
parser.add_argument("--worker_hosts", required=True)
parser.add_argument("--job_name", choices=("ps", "worker"), required=True)
parser.add_argument("--task_index", type=int, default=0)
parser.add_argument("--steps", type=int, default=30)
FLAGS = parser.parse_args()

cluster = tf.train.ClusterSpec(
    {"ps": FLAGS.ps_hosts.split(","), "worker": FLAGS.worker_hosts.split(",")}
)
config = tf.ConfigProto(allow_soft_placement=True)
config.gpu_options.allow_growth = True
# Each worker sees the parameter servers and itself, not the other workers.
config.device_filters.extend(["/job:ps", "/job:worker/task:%d" % FLAGS.task_index])
server = tf.train.Server(
    cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index, config=config
)

if FLAGS.job_name == "ps":
    server.join()
else:
    worker_device = "/job:worker/task:%d" % FLAGS.task_index
    with tf.device(tf.train.replica_device_setter(worker_device=worker_device, cluster=cluster)):
        global_step = tf.train.get_or_create_global_step()
        x = tf.placeholder(tf.float32, [None, 1])
        y = tf.placeholder(tf.float32, [None, 1])
        w = tf.Variable(tf.zeros([1, 1]), name="w")
        b = tf.Variable(tf.zeros([1]), name="b")
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=global_step)

    features = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(-1, 1)
    feed = {x: features, y: 3.0 * features + 1.0}
    with tf.train.MonitoredTrainingSession(
        master=server.target, is_chief=(FLAGS.task_index == 0), config=config
    ) as sess:
        print("worker %d: session ready" % FLAGS.task_index, flush=True)
        first = sess.run(loss, feed_dict=feed)
        for _ in range(FLAGS.steps):
            sess.run(train_op, feed_dict=feed)
        last, step = sess.run([loss, global_step], feed_dict=feed)
    print(
        json.dumps(
            {
                "task": FLAGS.task_index,
                "first_loss": float(first),
                "last_loss": float(last),
                "global_step": int(step),
                "variables_on": sorted({w.device, b.device, global_step.device}),
            }
        ),
        flush=True,
    )
