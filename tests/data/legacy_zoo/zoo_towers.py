# A model module beside the training script, TF1 style (read by auto mode, given the v1 API).
import tensorflow as tf


def inference(images):
    with tf.variable_scope("linear", reuse=tf.AUTO_REUSE):
        w = tf.get_variable("w", [4, 1], initializer=tf.constant_initializer(0.5))
    return tf.matmul(images, w)


def tower_loss(images, labels):
    return tf.reduce_mean(tf.square(inference(images) - labels))
