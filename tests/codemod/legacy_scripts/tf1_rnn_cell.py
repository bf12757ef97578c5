# A TF1 recurrent graph: an LSTM cell unrolled with tf.nn.dynamic_rnn.
import numpy as np
import tensorflow as tf

inputs = tf.placeholder(tf.float32, [None, 5, 3])
cell = tf.nn.rnn_cell.LSTMCell(4)
outputs, state = tf.nn.dynamic_rnn(cell, inputs, dtype=tf.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(outputs, {inputs: np.zeros((2, 5, 3))}).shape)
