"""Before/after pairs of the Keras 2 → Keras 3 and TF1 → TF2 API rewrites (``upgrade=True``).

Modelled on public Keras 2 / TF1 scripts (mnist_cnn, cifar10_cnn, fit_generator training
loops, tf.Session graph loops).  Each case: ``(id, before, after, [(line, warning text)])``.
"""

from __future__ import annotations

# what tf1_legacy_keras puts at the top of a file that uses tf.layers or tf.nn.rnn_cell
TF_KERAS = (
    "# tf.layers / tf.nn.rnn_cell come from tf_keras on TensorFlow >= 2.16: pip install tf_keras\n"
    "import os\n"
    'os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")\n'
)

UPGRADE_CASES: list[tuple[str, str, str, list[tuple[int, str]]]] = [
    (
        # the Chebyshev polynomials of a graph convolutional network's utils module
        "scipy-arpack-path",
        "import numpy as np\n"
        "import scipy.sparse as sp\n"
        "from scipy.sparse.linalg.eigen.arpack import eigsh, ArpackNoConvergence\n"
        "import scipy.sparse.linalg.eigen.lobpcg as lob\n"
        "from scipy.sparse.linalg.isolve.iterative import cg, some_private_helper\n"
        "import scipy.sparse.linalg.dsolve.linsolve\n"
        "largest = eigsh(sp.eye(4), 1, which='LM', return_eigenvectors=False)[0]\n",
        "import numpy as np\n"
        "import scipy.sparse as sp\n"
        "from scipy.sparse.linalg import eigsh, ArpackNoConvergence\n"
        "import scipy.sparse.linalg as lob\n"
        "from scipy.sparse.linalg.isolve.iterative import cg, some_private_helper\n"
        "import scipy.sparse.linalg.dsolve.linsolve\n"
        "largest = eigsh(sp.eye(4), 1, which='LM', return_eigenvectors=False)[0]\n",
        [
            (5, "scipy.sparse.linalg has no some_private_helper"),
            (6, "the import binds scipy, read further on"),
        ],
    ),
    (
        # a model module of a research repository: tf reaches it through the star import of
        # the project's layers module (whose own migration makes it compat.v1, until a later
        # star import of a module still on TF2 names binds the real one)
        "tf1-tf-from-a-star-import",
        "from project.layers import *\n"
        "from project.metrics import *\n"
        "\n"
        "FLAGS = tf.app.flags.FLAGS\n"
        "\n"
        "class Model(object):\n"
        "    def build(self):\n"
        "        self.inputs = tf.placeholder(tf.float32, [None, FLAGS.input_dim])\n",
        "from project.layers import *\n"
        "from project.metrics import *\n"
        "import tensorflow.compat.v1 as tf\n"
        "\n"
        "tf.disable_v2_behavior()\n"
        "\n"
        "FLAGS = tf.app.flags.FLAGS\n"
        "\n"
        "class Model(object):\n"
        "    def build(self):\n"
        "        self.inputs = tf.placeholder(tf.float32, [None, FLAGS.input_dim])\n",
        [],
    ),
    (
        # tf bound by the file itself (a parameter here): not the star import's, left alone
        "tf1-tf-bound-beside-a-star-import",
        "from helpers import *\ndef build(tf):\n    return tf.placeholder(tf.float32)\n",
        "from helpers import *\ndef build(tf):\n    return tf.placeholder(tf.float32)\n",
        [],
    ),
    (
        # TF1's MNIST tutorials and book chapters: the loader comes from tfcompat_gpu
        "tensorflow-examples-mnist-loader",
        "from tensorflow.examples.tutorials.mnist import input_data\n"
        "import tensorflow.examples.tutorials.mnist.input_data as mnist_data\n"
        "from tensorflow.examples.tutorials.mnist import input_data as mnist_input\n"
        "mnist = input_data.read_data_sets('MNIST_data/', one_hot=True)\n",
        "from tfcompat_gpu.dropin import mnist_input_data as input_data\n"
        "from tfcompat_gpu.dropin import mnist_input_data as mnist_data\n"
        "from tfcompat_gpu.dropin import mnist_input_data as mnist_input\n"
        "mnist = input_data.read_data_sets('MNIST_data/', one_hot=True)\n",
        [],
    ),
    (
        "tensorflow-examples-left",
        "from tensorflow.examples.speech_commands import input_data\n"
        "import tensorflow.examples.tutorials.word2vec.word2vec_basic as w2v\n",
        "from tensorflow.examples.speech_commands import input_data\n"
        "import tensorflow.examples.tutorials.word2vec.word2vec_basic as w2v\n",
        [(1, "[tensorflow.examples removed]"), (2, "[tensorflow.examples removed]")],
    ),
    (
        # the TensorFlow-Examples bidirectional_rnn / basic_eager_api imports: TF 2 has no
        # tensorflow.contrib, so the import fails whatever the rest of the file becomes (tfe,
        # never read, goes: contrib_eager has nothing to rewrite through it)
        "tensorflow-contrib-imports-left",
        "import tensorflow as tf\n"
        "from tensorflow.contrib import rnn\n"
        "import tensorflow.contrib.eager as tfe\n"
        "from tensorflow.contrib.layers import batch_norm\n"
        "x = tf.placeholder(tf.float32, [None, 4])\n"
        "cell = rnn.LayerNormBasicLSTMCell(8)\n",
        "import tensorflow.compat.v1 as tf\n"
        "from tensorflow.contrib import rnn\n"
        "from tensorflow.contrib.layers import batch_norm\n\n"
        "tf.disable_v2_behavior()\n"
        "x = tf.placeholder(tf.float32, [None, 4])\n"
        "cell = rnn.LayerNormBasicLSTMCell(8)\n",
        [
            (2, "rnn.LayerNormBasicLSTMCell has no TF2 home: use tf.compat.v1.nn.rnn_cell"),
            (4, "from tensorflow.contrib.layers import ... left unchanged"),
        ],
    ),
    (
        # a VAE encoder written with TensorFlow-Slim: slim's fully_connected is
        # tf.contrib.layers', read through the module imported in a function; the import goes
        "tf1-contrib-slim-module-import",
        "import tensorflow as tf\n"
        "from tensorflow.contrib import slim\n"
        "def encoder(x):\n"
        "    h = slim.fully_connected(x, 64, scope='enc')\n"
        "    return slim.fully_connected(h, 8, activation_fn=None)\n"
        "z = encoder(tf.placeholder(tf.float32, [None, 784]))\n",
        TF_KERAS + "import tensorflow.compat.v1 as tf\n\n"
        "tf.disable_v2_behavior()\n"
        "def encoder(x):\n"
        "    h = tf.compat.v1.layers.dense(x, 64, activation=tf.nn.relu, name='enc')\n"
        "    return tf.compat.v1.layers.dense(h, 8, activation=None)\n"
        "z = encoder(tf.placeholder(tf.float32, [None, 784]))\n",
        [(4, "tf.layers.dense comes from tf_keras")],
    ),
    (
        # a script of copied blocks imports tensorflow twice, reading the second import: both
        # become tensorflow.compat.v1 (before, the second kept TF2's tf, without the TF1 names)
        "tf1-tensorflow-imported-twice",
        "import tensorflow as tf\n"
        "import numpy as np\n"
        "import tensorflow as tf\n"
        "x = tf.placeholder(tf.float32)\n",
        "import tensorflow.compat.v1 as tf\n"
        "import numpy as np\n"
        "import tensorflow.compat.v1 as tf\n\n"
        "tf.disable_v2_behavior()\n"
        "x = tf.placeholder(tf.float32)\n",
        [],
    ),
    (
        # tf.keras of TF 1.10-1.14: a one-shot iterator of the dataset handed to fit
        "tf1-keras-fit-on-one-shot-iterator",
        "import tensorflow as tf\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
        "model.compile(optimizer='adam', loss='mse')\n"
        "model.fit(dataset.make_one_shot_iterator(), verbose=1, steps_per_epoch=10, epochs=5)\n",
        "import tensorflow as tf\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
        "model.compile(optimizer='adam', loss='mse')\n"
        "model.fit(dataset, verbose=1, steps_per_epoch=10, epochs=5)\n",
        [],
    ),
    (
        # TF 1.x Keras guide: a tf.train optimizer compiled into a tf.keras model
        "tf1-train-optimizer-in-keras-compile",
        "import tensorflow as tf\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(10, activation='softmax')])\n"
        "model.compile(optimizer=tf.train.AdamOptimizer(0.001),\n"
        "              loss='categorical_crossentropy', metrics=['accuracy'])\n",
        "import tensorflow as tf\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(10, activation='softmax')])\n"
        "model.compile(optimizer=tf.keras.optimizers.Adam(0.001, epsilon=1e-08),\n"
        "              loss='categorical_crossentropy', metrics=['accuracy'])\n",
        [],
    ),
    (
        # TF 1.x eager-guide style: tfe bound as tf.contrib.eager, its Variable, Iterator,
        # GradientTape, metrics and Checkpoint read through it; the binding goes
        "tf1-contrib-eager-names",
        "import tensorflow as tf\n"
        "tfe = tf.contrib.eager\n"
        "tf.enable_eager_execution()\n"
        "w = tfe.Variable(tf.zeros([4, 1]), name='w')\n"
        "batches = tf.data.Dataset.from_tensor_slices(tf.ones([8, 4])).batch(4)\n"
        "mean = tfe.metrics.Mean()\n"
        "for x in tfe.Iterator(batches):\n"
        "    with tfe.GradientTape() as tape:\n"
        "        loss = tf.reduce_sum(tf.matmul(x, w))\n"
        "    mean(loss)\n"
        "root = tfe.Checkpoint(w=w)\n",
        "import tensorflow.compat.v1 as tf\n"
        "tf.enable_eager_execution()\n"
        "w = tf.Variable(tf.zeros([4, 1]), name='w')\n"
        "batches = tf.data.Dataset.from_tensor_slices(tf.ones([8, 4])).batch(4)\n"
        "mean = tf.keras.metrics.Mean()\n"
        "for x in iter(batches):\n"
        "    with tf.GradientTape() as tape:\n"
        "        loss = tf.reduce_sum(tf.matmul(x, w))\n"
        "    mean(loss)\n"
        "root = tf.train.Checkpoint(w=w)\n",
        [],
    ),
    (
        # nlintz/TensorFlow-Tutorials 07_lstm.py: the module imported, its cells and static_rnn
        # read through it (in a function too); the import goes, the tf_keras warning stays
        "tf1-contrib-rnn-module-import",
        "import tensorflow as tf\n"
        "from tensorflow.contrib import rnn\n"
        "X = tf.placeholder('float', [None, 28, 28])\n"
        "def model(X, lstm_size):\n"
        "    lstm = rnn.BasicLSTMCell(lstm_size, forget_bias=1.0, state_is_tuple=True)\n"
        "    outputs, _states = rnn.static_rnn(lstm, tf.split(X, 28, 0), dtype=tf.float32)\n"
        "    return outputs[-1], lstm.state_size\n"
        "cells = rnn.MultiRNNCell([rnn.DropoutWrapper(rnn.GRUCell(8))], state_is_tuple=True)\n",
        TF_KERAS + "import tensorflow.compat.v1 as tf\n\n"
        "tf.disable_v2_behavior()\n"
        "X = tf.placeholder('float', [None, 28, 28])\n"
        "def model(X, lstm_size):\n"
        "    lstm = tf.compat.v1.nn.rnn_cell.BasicLSTMCell(lstm_size, forget_bias=1.0, "
        "state_is_tuple=True)\n"
        "    outputs, _states = tf.compat.v1.nn.static_rnn(lstm, tf.split(X, 28, 0), "
        "dtype=tf.float32)\n"
        "    return outputs[-1], lstm.state_size\n"
        "cells = tf.compat.v1.nn.rnn_cell.MultiRNNCell([tf.compat.v1.nn.rnn_cell.DropoutWrapper("
        "tf.compat.v1.nn.rnn_cell.GRUCell(8))], state_is_tuple=True)\n",
        [(5, "tf.contrib.rnn.BasicLSTMCell comes from tf_keras on TensorFlow >= 2.16")],
    ),
    (
        # the cells imported by name (TensorFlow-Examples' bidirectional_rnn.py imports the
        # module; some forks import the names), one aliased
        "tf1-contrib-rnn-names-imported",
        "import tensorflow as tf\n"
        "from tensorflow.contrib.rnn import LSTMCell as Cell, static_bidirectional_rnn\n"
        "x = tf.placeholder(tf.float32, [None, 5, 3])\n"
        "out = static_bidirectional_rnn(Cell(4), Cell(4), tf.unstack(x, 5, 1), dtype=tf.float32)\n",
        TF_KERAS + "import tensorflow.compat.v1 as tf\n\n"
        "tf.disable_v2_behavior()\n"
        "x = tf.placeholder(tf.float32, [None, 5, 3])\n"
        "out = tf.compat.v1.nn.static_bidirectional_rnn(tf.compat.v1.nn.rnn_cell.LSTMCell(4), "
        "tf.compat.v1.nn.rnn_cell.LSTMCell(4), tf.unstack(x, 5, 1), dtype=tf.float32)\n",
        [(4, "LSTMCell comes from tf_keras")],
    ),
    (
        # sherjilozair/char-rnn-tensorflow's model.py: NASCell (contrib's own) beside the core
        # cells: the import stays, and every read with it
        "tf1-contrib-rnn-import-with-a-cell-without-home",
        "import tensorflow as tf\n"
        "from tensorflow.contrib import rnn\n"
        "if model == 'gru':\n"
        "    cell_fn = rnn.GRUCell\n"
        "elif model == 'nas':\n"
        "    cell_fn = rnn.NASCell\n"
        "cell = rnn.MultiRNNCell([cell_fn(128) for _ in range(2)], state_is_tuple=True)\n"
        "x = tf.placeholder(tf.int32, [50, 50])\n",
        "import tensorflow.compat.v1 as tf\n"
        "from tensorflow.contrib import rnn\n\n"
        "tf.disable_v2_behavior()\n"
        "if model == 'gru':\n"
        "    cell_fn = rnn.GRUCell\n"
        "elif model == 'nas':\n"
        "    cell_fn = rnn.NASCell\n"
        "cell = rnn.MultiRNNCell([cell_fn(128) for _ in range(2)], state_is_tuple=True)\n"
        "x = tf.placeholder(tf.int32, [50, 50])\n",
        [(2, "rnn.NASCell has no TF2 home: use tf.compat.v1.nn.rnn_cell for the core cells")],
    ),
    (
        # the name's last piece is a literal: it gets the ending, and the load follows the save
        "weight-file-names-built-from-pieces",
        "import os\nfrom keras.callbacks import ModelCheckpoint\n"
        "ckpt = ModelCheckpoint(log_dir + 'ep{epoch:03d}-loss{loss:.3f}.h5', "
        "save_weights_only=True)\n"
        "model.save_weights(log_dir + 'trained_weights_stage_1.h5')\n"
        "model.load_weights(log_dir + 'trained_weights_stage_1.h5')\n"
        "model.save_weights(os.path.join(out, 'final.hdf5'))\n"
        "model.save_weights(f'{out}/w_{epoch}.h5')\n"
        "model.save_weights('w{}.h5'.format(3))\n"
        "model.load_weights(other + 'pretrained.h5')\n",
        "import os\nfrom keras.callbacks import ModelCheckpoint\n"
        "ckpt = ModelCheckpoint(log_dir + 'ep{epoch:03d}-loss{loss:.3f}.weights.h5', "
        "save_weights_only=True)\n"
        "model.save_weights(log_dir + 'trained_weights_stage_1.weights.h5')\n"
        "model.load_weights(log_dir + 'trained_weights_stage_1.weights.h5')\n"
        "model.save_weights(os.path.join(out, 'final.weights.h5'))\n"
        "model.save_weights(f'{out}/w_{epoch}.weights.h5')\n"
        "model.save_weights('w{}.weights.h5'.format(3))\n"
        "model.load_weights(other + 'pretrained.h5')\n",
        [
            (3, "now named log_dir + 'ep{epoch:03d}-loss{loss:.3f}.weights.h5'"),
            (4, "now named log_dir + 'trained_weights_stage_1.weights.h5'"),
            (6, "now named os.path.join(out, 'final.weights.h5')"),
            (7, "now named f'{out}/w_{epoch}.weights.h5'"),
            (8, "now named 'w{}.weights.h5'.format(3)"),
        ],
    ),
    (
        # Keras 2.2's TensorBoard(log_dir, histogram_freq, batch_size, write_graph, write_grads,
        # write_images, ...): Keras 3 raises TypeError on batch_size / write_grads
        "tensorboard-keras2-arguments",
        "from keras.callbacks import TensorBoard\n"
        "import tensorflow as tf\n"
        "a = TensorBoard('./logs', 0, 32, True, write_grads=False, write_images=False)\n"
        "b = TensorBoard(log_dir='logs', histogram_freq=1, batch_size=32, write_graph=True,\n"
        "                write_grads=True, write_images=True)\n"
        "c = tf.keras.callbacks.TensorBoard('logs', 0, True, True, 1, ['emb'])\n"
        "d = TensorBoard('logs', 0, batch, True)\n"
        "e = TensorBoard(log_dir='logs', histogram_freq=0, write_graph=False)\n",
        "from keras.callbacks import TensorBoard\n"
        "import tensorflow as tf\n"
        "a = TensorBoard('./logs', 0, write_graph=True, write_images=False)\n"
        "b = TensorBoard(log_dir='logs', histogram_freq=1, write_graph=True,\n"
        "                write_images=True)\n"
        "c = tf.keras.callbacks.TensorBoard('logs', 0, True, True, embeddings_freq=1)\n"
        "d = TensorBoard('logs', 0, batch, True)\n"
        "e = TensorBoard(log_dir='logs', histogram_freq=0, write_graph=False)\n",
        [
            (4, "dropped write_grads=True (Keras 3 writes no gradient histograms)"),
            (6, "dropped embeddings_layer_names=['emb']"),
            (7, "[TensorBoard arguments by position]"),
        ],
    ),
    (
        "checkpoint-period",
        "from keras.callbacks import ModelCheckpoint\n"
        "a = ModelCheckpoint('m.h5', monitor='val_loss', period=1)\n"
        "b = ModelCheckpoint('m.h5', period=3)\n",
        "from keras.callbacks import ModelCheckpoint\n"
        "import keras\n"
        "\n"
        "\n"
        "class _PeriodicCheckpoint(keras.callbacks.ModelCheckpoint):\n"
        '    """Keras 2\'s ModelCheckpoint(period=N) on Keras 3: saves on every N-th epoch\'s end."""\n'
        "\n"
        "    def __init__(self, *args, period=1, **kwargs):\n"
        "        super().__init__(*args, **kwargs)\n"
        "        self.period = period\n"
        "        self.epochs_since_last_save = 0\n"
        "\n"
        "    def on_epoch_end(self, epoch, logs=None):\n"
        "        self.epochs_since_last_save += 1\n"
        "        if self.epochs_since_last_save >= self.period:\n"
        "            self.epochs_since_last_save = 0\n"
        "            super().on_epoch_end(epoch, logs)\n"
        "\n"
        "\n"
        "a = ModelCheckpoint('m.h5', monitor='val_loss')\n"
        "b = _PeriodicCheckpoint('m.h5', period=3)\n",
        [],
    ),
    (
        # a detection trainer's checkpoint every few epochs, its name built from the log folder
        "checkpoint-period-in-a-function",
        "import keras\n"
        "def train(model, log_dir, every):\n"
        "    ckpt = keras.callbacks.ModelCheckpoint(\n"
        "        log_dir + 'e{epoch:03d}-{val_loss:.2f}.h5', save_weights_only=True,\n"
        "        save_best_only=True, period=every)\n"
        "    return ckpt\n",
        "import keras\n"
        "\n"
        "\n"
        "class _PeriodicCheckpoint(keras.callbacks.ModelCheckpoint):\n"
        '    """Keras 2\'s ModelCheckpoint(period=N) on Keras 3: saves on every N-th epoch\'s end."""\n'
        "\n"
        "    def __init__(self, *args, period=1, **kwargs):\n"
        "        super().__init__(*args, **kwargs)\n"
        "        self.period = period\n"
        "        self.epochs_since_last_save = 0\n"
        "\n"
        "    def on_epoch_end(self, epoch, logs=None):\n"
        "        self.epochs_since_last_save += 1\n"
        "        if self.epochs_since_last_save >= self.period:\n"
        "            self.epochs_since_last_save = 0\n"
        "            super().on_epoch_end(epoch, logs)\n"
        "\n"
        "\n"
        "def train(model, log_dir, every):\n"
        "    ckpt = _PeriodicCheckpoint(\n"
        "        log_dir + 'e{epoch:03d}-{val_loss:.2f}.weights.h5', save_weights_only=True,\n"
        "        save_best_only=True, period=every)\n"
        "    return ckpt\n",
        [(3, "the file is now named log_dir + 'e{epoch:03d}-{val_loss:.2f}.weights.h5'")],
    ),
    (
        # Keras 2.0-2.2's legacy layout functions (keras/backend/common.py)
        "image-dim-ordering",
        "from keras import backend as K\nK.set_image_dim_ordering('th')\n"
        "if K.image_dim_ordering() == 'th':\n    shape = (1, 28, 28)\n",
        "from keras import backend as K\nK.set_image_data_format('channels_first')\n"
        'if ("th" if K.image_data_format() == "channels_first" else "tf") == \'th\':\n'
        "    shape = (1, 28, 28)\n",
        [],
    ),
    (
        "image-dim-ordering-not-a-literal-left",
        "import keras\nkeras.backend.set_image_dim_ordering(mode)\n",
        "import keras\nkeras.backend.set_image_dim_ordering(mode)\n",
        [(2, "[image_dim_ordering not a literal]")],
    ),
    (
        # tf.Session was the file's only TF1 name; the kept session still runs graph tensors
        "session-run-is-graph-code",
        "import tensorflow as tf\n\nwith tf.device('/gpu:0'):\n"
        "    a = tf.constant([1.0, 2.0], name='a')\n    c = a * 2\n"
        "sess = tf.Session(config=tf.ConfigProto(log_device_placement=True))\n"
        "print(sess.run(c))\n",
        "import tensorflow as tf\nimport tfcompat_gpu\n\ntf.compat.v1.disable_v2_behavior()\n"
        "\nwith tf.device('/gpu:0'):\n    a = tf.constant([1.0, 2.0], name='a')\n"
        "    c = a * 2\ntfcompat_gpu.configure(log_device_placement=True)\n"
        "sess = tfcompat_gpu.session(tfcompat_gpu.GPUConfig(allow_soft_placement=True))\n"
        "print(sess.run(c))\n",
        [],
    ),
    (
        # tf.compat.v1.Session: TF2 code that asked for a v1 session itself (its own graph)
        "compat-v1-session-run-stays-eager",
        "import tensorflow as tf\n\nconfig = tf.compat.v1.ConfigProto()\n"
        "config.gpu_options.allow_growth = True\nwith tf.Graph().as_default():\n"
        "    x = tf.constant(3.0)\n    sess = tf.compat.v1.Session(config=config)\n"
        "    print(sess.run(x))\n",
        "import tensorflow as tf\nimport tfcompat_gpu\n\n"
        "tfcompat_gpu.configure(allow_growth=True)\nwith tf.Graph().as_default():\n"
        "    x = tf.constant(3.0)\n    sess = tfcompat_gpu.session()\n    print(sess.run(x))\n",
        [],
    ),
    (
        "with-session-run-is-graph-code",
        "import tensorflow as tf\n\nx = tf.constant(3.0)\nconfig = tf.ConfigProto()\n"
        "config.gpu_options.allow_growth = True\nwith tf.Session(config=config) as sess:\n"
        "    print(sess.run(x * 2))\n",
        "import tensorflow as tf\nimport tfcompat_gpu\n\ntf.compat.v1.disable_v2_behavior()\n"
        "\nx = tf.constant(3.0)\ntfcompat_gpu.configure(allow_growth=True)\n"
        "with tfcompat_gpu.session() as sess:\n    print(sess.run(x * 2))\n",
        [],
    ),
    (
        # the config command replaces the set_session call by None: the optimizer command's
        # leave_Call, next in the same walk, must not see it
        "return-set-session-then-optimizer",
        "import keras\nimport tensorflow as tf\n\n\ndef get_session():\n"
        "    config = tf.ConfigProto()\n    config.gpu_options.allow_growth = True\n"
        "    return keras.backend.tensorflow_backend.set_session(tf.Session(config=config))\n"
        "\n\nget_session()\nopt = keras.optimizers.Adam(lr=1e-3)\n",
        "import keras\nimport tensorflow as tf\nimport tfcompat_gpu\n\n\ndef get_session():\n"
        "    tfcompat_gpu.configure(allow_growth=True)\n    return None\n"
        "\n\nget_session()\nopt = keras.optimizers.Adam(learning_rate=1e-3)\n",
        [],
    ),
    (
        "optimizer-lr",
        "from keras.optimizers import Adam\nopt = Adam(lr=0.001, beta_1=0.9)\n",
        "from keras.optimizers import Adam\nopt = Adam(learning_rate=0.001, beta_1=0.9)\n",
        [],
    ),
    (
        "optimizer-lr-tf-keras",
        "import tensorflow as tf\nopt = tf.keras.optimizers.RMSprop(lr=1e-4)\n",
        "import tensorflow as tf\nopt = tf.keras.optimizers.RMSprop(learning_rate=1e-4)\n",
        [],
    ),
    (
        "optimizer-decay-keeps-its-schedule",
        "import keras\nopt = keras.optimizers.SGD(lr=0.01, decay=1e-6, momentum=0.9, nesterov=True)\n",
        "import keras\nopt = keras.optimizers.SGD(learning_rate=keras.optimizers.schedules."
        "InverseTimeDecay(0.01, decay_steps=1, decay_rate=1e-6), momentum=0.9, nesterov=True)\n",
        [],
    ),
    (
        "optimizer-decay-from-import-adds-keras",
        "from keras.optimizers import RMSprop\nopt = RMSprop(lr=0.0001, decay=1e-6)\n",
        "from keras.optimizers import RMSprop\nimport keras\n\nopt = RMSprop(learning_rate=keras."
        "optimizers.schedules.InverseTimeDecay(0.0001, decay_steps=1, decay_rate=1e-6))\n",
        [],
    ),
    (
        "optimizer-decay-zero-dropped",
        "from keras.optimizers import Adam\nopt = Adam(lr=1e-3, decay=0.0)\n",
        "from keras.optimizers import Adam\nopt = Adam(learning_rate=1e-3)\n",
        [],
    ),
    (
        "optimizer-decay-default-rate",
        "from keras import optimizers\nopt = optimizers.SGD(decay=1e-4)\n",
        "from keras import optimizers\nopt = optimizers.SGD(learning_rate=optimizers.schedules."
        "InverseTimeDecay(0.01, decay_steps=1, decay_rate=1e-4))\n",
        [],
    ),
    (
        "optimizer-decay-changed-default-left",
        "from keras.optimizers import Adadelta\nopt = Adadelta(decay=1e-4)\n",
        "from keras.optimizers import Adadelta\nopt = Adadelta(decay=1e-4)\n",
        [(2, "default learning rate differs")],
    ),
    (
        "optimizer-kwargs-left",
        "from keras.optimizers import Adam\nopt = Adam(lr=0.1, **extra)\n",
        "from keras.optimizers import Adam\nopt = Adam(lr=0.1, **extra)\n",
        [(2, "cannot be checked")],
    ),
    (
        "optimizer-lowercase-alias",
        "import keras\nopt = keras.optimizers.adam(lr=0.01)\n",
        "import keras\nopt = keras.optimizers.Adam(learning_rate=0.01)\n",
        [],
    ),
    (
        "optimizer-lowercase-import",
        "from keras.optimizers import sgd\nopt = sgd()\n",
        "from keras.optimizers import SGD as sgd\nopt = sgd()\n",
        [],
    ),
    (
        "lr-of-another-function-untouched",
        "from mylib import make\nopt = make(lr=0.1, decay=0.5)\n",
        "from mylib import make\nopt = make(lr=0.1, decay=0.5)\n",
        [],
    ),
    (
        "fit-generator",
        "model.fit_generator(gen, steps_per_epoch=100, epochs=5, validation_data=val,\n"
        "                    validation_steps=10)  # train\n",
        "model.fit(gen, steps_per_epoch=100, epochs=5, validation_data=val,\n"
        "                    validation_steps=10)  # train\n",
        [],
    ),
    (
        "fit-generator-positional-and-workers",
        "model.fit_generator(gen, 50, 2, workers=4, use_multiprocessing=True)\n",
        "model.fit(gen, steps_per_epoch=50, epochs=2)\n",
        [(1, "dropped workers=4, use_multiprocessing=True")],
    ),
    (
        "fit-generator-keras1-names",
        "model.fit_generator(generator=gen, steps_per_epoch=10, nb_epoch=3, pickle_safe=True)\n",
        "model.fit(x=gen, steps_per_epoch=10, epochs=3)\n",
        [(1, "dropped pickle_safe=True")],
    ),
    (
        # Keras 3's third compile() parameter is loss_weights: the course labs' metrics list
        "compile-positional-metrics",
        "import re\n\n"
        "pattern = re.compile(r'\\d+', re.I)\n"
        "model.compile('adam', 'categorical_crossentropy', ['accuracy'])\n"
        "model.compile(make_optimizer(0.001), 'mse', ['mae'], [1.0])\n",
        "import re\n\n"
        "pattern = re.compile(r'\\d+', re.I)\n"
        "model.compile('adam', 'categorical_crossentropy', metrics=['accuracy'])\n"
        "model.compile(make_optimizer(0.001), 'mse', metrics=['mae'], loss_weights=[1.0])\n",
        [],
    ),
    (
        "compile-sample-weight-mode-positional-left",
        "model.compile('adam', 'mse', ['mae'], None, 'temporal')\n",
        "model.compile('adam', 'mse', ['mae'], None, 'temporal')\n",
        [(1, "sample_weight_mode")],
    ),
    (
        "fit-generator-samples-too-many-positional-left",
        "model.fit_generator(gen, 6000, 2, 1, [], None, 1, None, 10, 1, False, True, 0, 9)\n",
        "model.fit_generator(gen, 6000, 2, 1, [], None, 1, None, 10, 1, False, True, 0, 9)\n",
        [(1, "too many arguments")],
    ),
    (
        "fit-generator-epochs-twice-left",
        "model.fit_generator(gen, nb_epoch=3, epochs=1)\n",
        "model.fit_generator(gen, nb_epoch=3, epochs=1)\n",
        [(1, "given twice")],
    ),
    (
        "evaluate-and-predict-generator",
        "score = model.evaluate_generator(test_gen, steps=5)\n"
        "pred = model.predict_generator(test_gen, 5, max_queue_size=20, verbose=1)\n",
        "score = model.evaluate(test_gen, steps=5)\npred = model.predict(test_gen, steps=5, verbose=1)\n",
        [(2, "dropped max_queue_size=20")],
    ),
    (
        "own-fit-generator-kept",
        "class Trainer:\n    def fit_generator(self, g):\n        return g\n\n"
        "Trainer().fit_generator(gen)\n",
        "class Trainer:\n    def fit_generator(self, g):\n        return g\n\n"
        "Trainer().fit_generator(gen)\n",
        [],
    ),
    (
        "predict-proba",
        "p = model.predict_proba(x_test)\nq = model.predict_proba(x_test, batch_size=8, verbose=1)\n",
        "p = model.predict(x_test, verbose=0)\nq = model.predict(x_test, batch_size=8, verbose=1)\n",
        [],
    ),
    (
        # Keras 2's Sequential.predict_classes: argmax for several columns, else 0.5 threshold
        "predict-classes",
        "labels = model.predict_classes(x_test)\nk = model.predict_classes(x, batch_size=64)\n",
        "labels = (lambda proba: proba.argmax(axis=-1) if proba.shape[-1] > 1 else "
        '(proba > 0.5).astype("int32"))(model.predict(x_test, verbose=0))\n'
        "k = (lambda proba: proba.argmax(axis=-1) if proba.shape[-1] > 1 else "
        '(proba > 0.5).astype("int32"))(model.predict(x, batch_size=64, verbose=0))\n',
        [],
    ),
    (
        "predict-classes-starred-left",
        "labels = model.predict_classes(*batch)\n",
        "labels = model.predict_classes(*batch)\n",
        [(1, "[predict_classes with *args]")],
    ),
    (
        # Keras 2.0-2.2 logged metrics=['accuracy'] as 'acc' / 'val_acc'
        "accuracy-keys-of-keras-2-2",
        "import keras\nmodel.compile(loss='mse', optimizer='sgd', metrics=['accuracy'])\n"
        "history = model.fit(x, y, validation_split=0.1)\n"
        "ckpt = keras.callbacks.ModelCheckpoint('w-{val_acc:.2f}.h5', monitor='val_acc')\n"
        "print(history.history['acc'][-1])\n",
        "import keras\nmodel.compile(loss='mse', optimizer='sgd', metrics=['acc'])\n"
        "history = model.fit(x, y, validation_split=0.1)\n"
        "ckpt = keras.callbacks.ModelCheckpoint('w-{val_acc:.2f}.h5', monitor='val_acc')\n"
        "print(history.history['acc'][-1])\n",
        [],
    ),
    (
        # Keras 2's loss aliases, Keras 1's objectives module and the cuDNN-only layers
        "keras2-renamed-names",
        "import keras\nfrom keras import losses, objectives\n"
        "from keras.layers import Bidirectional, CuDNNLSTM, CuDNNGRU\n"
        "from keras.losses import mse, binary_crossentropy\n"
        "from keras.objectives import categorical_crossentropy\n"
        "l = [losses.mae, keras.losses.kld, objectives.mape, CuDNNGRU(4)]\n",
        "import keras\nfrom keras import losses\nfrom keras import losses as objectives\n"
        "from keras.layers import Bidirectional, LSTM as CuDNNLSTM, GRU as CuDNNGRU\n"
        "from keras.losses import mean_squared_error as mse, binary_crossentropy\n"
        "from keras.losses import categorical_crossentropy\n"
        "l = [losses.mean_absolute_error, keras.losses.kl_divergence, "
        "objectives.mean_absolute_percentage_error, CuDNNGRU(4)]\n",
        [],
    ),
    (
        "keras-preprocessing-text-tf-keras",
        "from keras.preprocessing.text import Tokenizer\ntok = Tokenizer(num_words=100)\n",
        "from tensorflow.keras.preprocessing.text import Tokenizer\ntok = Tokenizer(num_words=100)\n",
        [],
    ),
    (
        "keras-preprocessing-image-generator-tf-keras",
        "from keras.preprocessing.image import ImageDataGenerator, img_to_array\n"
        "from keras.preprocessing import text, sequence\n"
        "from keras.preprocessing.image import load_img\n"
        "gen = ImageDataGenerator(rotation_range=10)\n",
        "from tensorflow.keras.preprocessing.image import ImageDataGenerator, img_to_array\n"
        "from tensorflow.keras.preprocessing import text, sequence\n"
        "from keras.preprocessing.image import load_img\n"
        "gen = ImageDataGenerator(rotation_range=10)\n",
        [],
    ),
    (
        # the image-augmentation notebooks of a TensorFlow course: the package imported whole
        "keras-preprocessing-package-import",
        "import keras_preprocessing\n"
        "from keras_preprocessing import image\n"
        "import keras_preprocessing.image as kimage\n"
        "gen = keras_preprocessing.image.ImageDataGenerator(rescale=1./255, zoom_range=0.2)\n"
        "img = image.load_img('rock.png', target_size=(150, 150))\n"
        "x = kimage.img_to_array(img)\n",
        "from tensorflow.keras import preprocessing as keras_preprocessing\n"
        "from keras.preprocessing import image\n"
        "import tensorflow.keras.preprocessing.image as kimage\n"
        "gen = keras_preprocessing.image.ImageDataGenerator(rescale=1./255, zoom_range=0.2)\n"
        "img = image.load_img('rock.png', target_size=(150, 150))\n"
        "x = kimage.img_to_array(img)\n",
        [],
    ),
    (
        # Keras 2 scripts that read the generator through the module
        "keras-preprocessing-module-read-through",
        "from keras.preprocessing import image, sequence\n"
        "gen = image.ImageDataGenerator(rotation_range=10)\n"
        "x = sequence.pad_sequences([[1, 2]], maxlen=4)\n",
        "from tensorflow.keras.preprocessing import image, sequence\n"
        "gen = image.ImageDataGenerator(rotation_range=10)\n"
        "x = sequence.pad_sequences([[1, 2]], maxlen=4)\n",
        [],
    ),
    (
        # what Keras 3's own module keeps stays there; a comment ending on the word is no read
        "keras-preprocessing-module-kept",
        "from keras.preprocessing import image\nx = image.img_to_array(image.load_img('a.png'))\n"
        "# the feature maps of the image.\nfeature_maps = model.predict(x)\n",
        "from keras.preprocessing import image\nx = image.img_to_array(image.load_img('a.png'))\n"
        "# the feature maps of the image.\nfeature_maps = model.predict(x)\n",
        [],
    ),
    (
        "keras-preprocessing-spelled-in-full",
        "import keras\n"
        "gen = keras.preprocessing.image.ImageDataGenerator(rotation_range=10)\n"
        "x = keras.preprocessing.sequence.pad_sequences([[1, 2]], maxlen=4)\n",
        "import keras\nimport tensorflow\n\n"
        "gen = tensorflow.keras.preprocessing.image.ImageDataGenerator(rotation_range=10)\n"
        "x = keras.preprocessing.sequence.pad_sequences([[1, 2]], maxlen=4)\n",
        [],
    ),
    (
        "keras1-objectives-module",
        "from keras import objectives\nloss = objectives.mse\n",
        "from keras import losses as objectives\nloss = objectives.mean_squared_error\n",
        [],
    ),
    (
        # Keras 3 cannot change the rate of an optimizer given a schedule
        "decay-beside-a-changed-learning-rate-left",
        "from keras.optimizers import SGD\nfrom keras.callbacks import ReduceLROnPlateau\n"
        "opt = SGD(lr=0.1, decay=1e-4)\ncb = ReduceLROnPlateau(monitor='loss')\n",
        "from keras.optimizers import SGD\nfrom keras.callbacks import ReduceLROnPlateau\n"
        "opt = SGD(learning_rate=0.1, decay=1e-4)\ncb = ReduceLROnPlateau(monitor='loss')\n",
        [(3, "[decay beside a changed learning rate]")],
    ),
    (
        "decay-beside-set-value-in-a-function-left",
        "from keras import backend as K\nfrom keras.optimizers import SGD\n"
        "model.compile(optimizer=SGD(lr=0.1, momentum=0.9, decay=1e-4), loss='mse')\n"
        "def lower(model):\n    K.set_value(model.optimizer.lr, 0.01)\n",
        "from keras import backend as K\nfrom keras.optimizers import SGD\n"
        "model.compile(optimizer=SGD(learning_rate=0.1, momentum=0.9, decay=1e-4), loss='mse')\n"
        "def lower(model):\n    model.optimizer.learning_rate.assign(0.01)\n",
        [(3, "(set_value)")],
    ),
    (
        # Keras 2 backend maths: same name, a Keras 2 default written out, a new name
        "keras-backend-ops",
        "from keras import backend as K\n"
        "d = K.sqrt(K.sum(K.square(x - y), axis=1, keepdims=True))\n"
        "c = K.concatenate([a, b])\nm = K.argmax(p)\nq = K.pow(x, 2)\n"
        "t = K.permute_dimensions(x, (0, 2, 1))\nn = K.int_shape(a + b)\ne = K.epsilon()\n",
        "from keras import backend as K\nimport keras\n\n"
        "d = keras.ops.sqrt(keras.ops.sum(keras.ops.square(x - y), axis=1, keepdims=True))\n"
        "c = keras.ops.concatenate([a, b], axis=-1)\nm = keras.ops.argmax(p, axis=-1)\n"
        "q = keras.ops.power(x, 2)\n"
        "t = keras.ops.transpose(x, (0, 2, 1))\nn = tuple((a + b).shape)\ne = K.epsilon()\n",
        [],
    ),
    (
        "keras-backend-ops-module-import",
        "import keras.backend as K\nloss = K.mean(K.square(y - p), axis=-1)\n",
        "import keras.backend as K\nimport keras\n\n"
        "loss = keras.ops.mean(keras.ops.square(y - p), axis=-1)\n",
        [],
    ),
    (
        # an inference or export script: the test phase is what Keras 3 predicts in; the
        # training phase (dropout on in predict) is named, not dropped
        "keras-backend-test-phase-removed",
        "from keras import backend as K\nfrom keras.models import load_model\n\n"
        "# inference only\nK.set_learning_phase(0)\nmodel = load_model('m.h5')\n"
        "def phase(mode):\n    if mode == 'train':\n        K.set_learning_phase(1)\n"
        "    else:\n        K.set_learning_phase(False)\n    flag = K.set_learning_phase(0)\n",
        "from keras import backend as K\nfrom keras.models import load_model\n\n"
        "# inference only\nmodel = load_model('m.h5')\n"
        "def phase(mode):\n    if mode == 'train':\n        K.set_learning_phase(1)\n"
        "    else:\n        pass\n    flag = K.set_learning_phase(0)\n",
        [
            (9, "K.set_learning_phase() left unchanged"),
            (12, "K.set_learning_phase() left unchanged"),
        ],
    ),
    (
        # a MobileNet file of Keras 2.0-2.1 loaded with its custom objects
        "keras-mobilenet-custom-objects",
        "from keras.applications.mobilenet import relu6, DepthwiseConv2D, preprocess_input\n"
        "from keras.models import load_model\n"
        "model = load_model('m.h5', custom_objects={'relu6': relu6, "
        "'DepthwiseConv2D': DepthwiseConv2D})\n",
        "from keras.applications.mobilenet import preprocess_input\n"
        "from keras.activations import relu6\nfrom keras.layers import DepthwiseConv2D\n"
        "from keras.models import load_model\n"
        "model = load_model('m.h5', custom_objects={'relu6': relu6, "
        "'DepthwiseConv2D': DepthwiseConv2D})\n",
        [],
    ),
    (
        # multi_gpu_model imported and never called (a script that once trained on two GPUs):
        # no Keras 3 module has it, so the import goes; the other names stay
        "keras-multi-gpu-model-import-unused",
        "from keras.utils.training_utils import multi_gpu_model\n"
        "from keras.utils import multi_gpu_model as mgm, to_categorical\n"
        "y = to_categorical([0, 1])\n",
        "from keras.utils import to_categorical\ny = to_categorical([0, 1])\n",
        [],
    ),
    (
        "keras-backend-graph-functions-left",
        "from keras import backend as K\ngrads = K.gradients(loss, [x])[0]\n"
        "f = K.function([model.input], [loss], updates=ups)\ns = K.sum(x, axis=1, foo=2)\n",
        "from keras import backend as K\ngrads = K.gradients(loss, [x])[0]\n"
        "f = K.function([model.input], [loss], updates=ups)\ns = K.sum(x, axis=1, foo=2)\n",
        [
            (2, "K.gradients() left unchanged"),
            (3, "K.function() left unchanged"),
            (4, "its keywords or *args differ"),
        ],
    ),
    (
        # a VAE's sampling function and losses: the batch size from K.shape, the noise from
        # keras.random, K.flatten of a loss's inputs
        "keras-backend-vae-sampling",
        "from keras import backend as K\n"
        "def sample(args):\n"
        "    mu, log_var = args\n"
        "    n = K.shape(mu)[0]\n"
        "    width = K.int_shape(mu)[1]\n"
        "    eps = K.random_normal(shape=(n, width), mean=0., stddev=1.0)\n"
        "    return mu + K.exp(0.5 * log_var) * eps\n"
        "flat = K.flatten(y_true)\nnoise = K.random_uniform(K.shape(x), 0.0, 1.0)\n"
        "w = K.truncated_normal((4, 3), stddev=0.05)\nr = K.ndim(x) + K.shape(x)[-1]\n",
        "from keras import backend as K\nimport keras\n\n"
        "def sample(args):\n"
        "    mu, log_var = args\n"
        "    n = keras.ops.shape(mu)[0]\n"
        "    width = tuple(mu.shape)[1]\n"
        "    eps = keras.random.normal(shape=(n, width), mean=0., stddev=1.0)\n"
        "    return mu + keras.ops.exp(0.5 * log_var) * eps\n"
        "flat = keras.ops.ravel(y_true)\nnoise = keras.random.uniform(keras.ops.shape(x), 0.0, 1.0)\n"
        "w = keras.random.truncated_normal((4, 3), stddev=0.05)\n"
        "r = keras.ops.ndim(x) + keras.ops.shape(x)[-1]\n",
        [],
    ),
    (
        # Keras 2.0-2.3 code reaching TensorFlow through its backend (K.tf was the tensorflow
        # module): ops in Lambda layers, TF1 names among them, a session
        "keras-backend-tf",
        "from keras import backend as K\n"
        "from keras.layers import Lambda\n"
        "up = Lambda(lambda x: K.tf.image.resize_images(x, (64, 64)))\n"
        "soft = Lambda(lambda x: K.tf.nn.softmax(x, axis=-1))\n"
        "tf_module = (K.tf)\n",
        "from keras import backend as K\n"
        "from keras.layers import Lambda\n"
        "import tensorflow as tf\n\n"
        "up = Lambda(lambda x: tf.compat.v1.image.resize_images(x, (64, 64)))\n"
        "soft = Lambda(lambda x: tf.nn.softmax(x, axis=-1))\n"
        "tf_module = (tf)\n",
        [],
    ),
    (
        # the file's own TensorFlow import is used; a `tf` of its own keeps the module's name
        "keras-backend-tf-own-import",
        "import keras.backend as K\nimport tensorflow as tfl\ny = K.tf.reduce_sum(x)\n",
        "import keras.backend as K\nimport tensorflow as tfl\ny = tfl.reduce_sum(x)\n",
        [],
    ),
    (
        "keras-backend-tf-name-taken",
        "from keras import backend as K\ntf = 'channels_last'\ny = K.tf.reduce_sum(x)\n",
        "from keras import backend as K\n"
        "import tensorflow\n\n"
        "tf = 'channels_last'\n"
        "y = tensorflow.reduce_sum(x)\n",
        [],
    ),
    (
        # the GPU settings of a Keras 2 script spelt through K.tf become configure()
        "keras-backend-tf-session-config",
        "from keras import backend as K\n"
        "config = K.tf.ConfigProto()\n"
        "config.gpu_options.allow_growth = True\n"
        "K.set_session(K.tf.Session(config=config))\n",
        "import tfcompat_gpu\n\ntfcompat_gpu.configure(allow_growth=True)\n",
        [],
    ),
    (
        # a seed (keyword or fifth argument) draws other numbers in keras.random; a whole
        # K.shape or a slice of it is a tuple in Keras 3, a tensor in Keras 2
        "keras-backend-random-seed-and-shape-left",
        "from keras import backend as K\n"
        "e = K.random_normal(shape=(2, 3), seed=42)\n"
        "u = K.random_uniform((2, 3), 0.0, 1.0, 'float32', 7)\n"
        "s = K.shape(x)\nh = K.shape(x)[1:]\n",
        "from keras import backend as K\n"
        "e = K.random_normal(shape=(2, 3), seed=42)\n"
        "u = K.random_uniform((2, 3), 0.0, 1.0, 'float32', 7)\n"
        "s = K.shape(x)\nh = K.shape(x)[1:]\n",
        [
            (2, "seed=keras.random.SeedGenerator(seed)"),
            (3, "seed=keras.random.SeedGenerator(seed)"),
            (4, "a tuple where Keras 2 gave a tensor"),
            (5, "a tuple where Keras 2 gave a tensor"),
        ],
    ),
    (
        # the checkpoint name of many Keras 2 tutorials, and a weights constant
        "weight-file-names-held-in-variables",
        "from keras.callbacks import ModelCheckpoint\n"
        "WEIGHTS = 'model_weights.h5'\n"
        "filepath = 'weights-improvement-{epoch:02d}-{loss:.2f}.hdf5'\n"
        "def train(model):\n"
        "    checkpoint = ModelCheckpoint(filepath, monitor='loss', save_best_only=True)\n"
        "    model.fit(x, y, callbacks=[checkpoint])\n"
        "    model.save_weights(WEIGHTS)\n"
        "    if os.path.exists(WEIGHTS):\n"
        "        model.load_weights(WEIGHTS)\n",
        "from keras.callbacks import ModelCheckpoint\n"
        "WEIGHTS = 'model_weights.weights.h5'\n"
        "filepath = 'weights-improvement-{epoch:02d}-{loss:.2f}.h5'\n"
        "def train(model):\n"
        "    checkpoint = ModelCheckpoint(filepath, monitor='loss', save_best_only=True)\n"
        "    model.fit(x, y, callbacks=[checkpoint])\n"
        "    model.save_weights(WEIGHTS)\n"
        "    if os.path.exists(WEIGHTS):\n"
        "        model.load_weights(WEIGHTS)\n",
        [(2, "WEIGHTS: the file is now named"), (3, "filepath: the file is now named")],
    ),
    (
        # bound twice, or to a name not built from literal pieces: left with the warning
        "weight-file-names-in-variables-left",
        "path = 'a.h5'\npath = other\nmodel.save_weights(path)\n"
        "name = args.weights\nmodel.save_weights(name)\n",
        "path = 'a.h5'\npath = other\nmodel.save_weights(path)\n"
        "name = args.weights\nmodel.save_weights(name)\n",
        [(3, "[file name not a literal]"), (5, "[file name not a literal]")],
    ),
    (
        # plotting helpers read the keys with .get() or from a DataFrame of the history
        "accuracy-keys-read-with-get-and-dataframe",
        "import keras\nimport pandas as pd\n"
        "model.compile(loss='mse', optimizer='sgd', metrics=('accuracy',))\n"
        "history = model.fit(x, y)\nacc = history.history.get('acc', [])\n"
        "hist = pd.DataFrame(history.history)\nplot(hist['val_acc'])\n",
        "import keras\nimport pandas as pd\n"
        "model.compile(loss='mse', optimizer='sgd', metrics=('acc',))\n"
        "history = model.fit(x, y)\nacc = history.history.get('acc', [])\n"
        "hist = pd.DataFrame(history.history)\nplot(hist['val_acc'])\n",
        [],
    ),
    (
        "accuracy-keys-of-later-keras-unchanged",
        "import keras\nmodel.compile(loss='mse', optimizer='sgd', metrics=['accuracy'])\n"
        "h = model.fit(x, y)\nprint(h.history['accuracy'])\n",
        "import keras\nmodel.compile(loss='mse', optimizer='sgd', metrics=['accuracy'])\n"
        "h = model.fit(x, y)\nprint(h.history['accuracy'])\n",
        [],
    ),
    (
        "accuracy-keys-both-read-left",
        "import keras\nmodel.compile(loss='mse', metrics=['accuracy'])\n"
        "h = model.fit(x, y)\nprint(h.history['acc'], h.history['val_accuracy'])\n",
        "import keras\nmodel.compile(loss='mse', metrics=['accuracy'])\n"
        "h = model.fit(x, y)\nprint(h.history['acc'], h.history['val_accuracy'])\n",
        [(1, "[both accuracy keys]")],
    ),
    (
        "accuracy-keys-metrics-variable-left",
        "import keras\nm = ['accuracy']\nmodel.compile(loss='mse', metrics=m)\n"
        "h = model.fit(x, y)\nprint(h.history['acc'])\n",
        "import keras\nm = ['accuracy']\nmodel.compile(loss='mse', metrics=m)\n"
        "h = model.fit(x, y)\nprint(h.history['acc'])\n",
        [(3, "[metrics not a literal]")],
    ),
    (
        # a Keras 2.0-2.2 regression script: metrics=['mae'] was logged under the function's
        # full name, and the plot reads 'val_mean_absolute_error'
        "metric-keys-mae-of-keras-2-2",
        "import keras\nfrom keras import models, layers\n"
        "model = models.Sequential([layers.Dense(1, input_shape=(13,))])\n"
        "model.compile(optimizer='rmsprop', loss='mse', metrics=['mae'])\n"
        "history = model.fit(x, y, validation_data=(xv, yv), epochs=80, batch_size=16)\n"
        "mae_history = history.history['val_mean_absolute_error']\n",
        "import keras\nfrom keras import models, layers\n"
        "model = models.Sequential([layers.Dense(1, input_shape=(13,))])\n"
        "model.compile(optimizer='rmsprop', loss='mse', metrics=['mean_absolute_error'])\n"
        "history = model.fit(x, y, validation_data=(xv, yv), epochs=80, batch_size=16)\n"
        "mae_history = history.history['val_mean_absolute_error']\n",
        [],
    ),
    (
        # the checkpoint monitors the key Keras 2.0-2.2 logged metrics=['mse'] under
        "metric-keys-mse-monitor-and-file-name",
        "from keras.callbacks import ModelCheckpoint\n"
        'model.compile(loss="mae", optimizer="adam", metrics=["mse", "MAPE"])\n'
        "best = ModelCheckpoint('w-{epoch:02d}-{val_mean_squared_error:.4f}.h5',\n"
        "                       monitor='val_mean_squared_error', save_best_only=True)\n"
        "model.fit(x, y, validation_split=0.2, callbacks=[best])\n",
        "from keras.callbacks import ModelCheckpoint\n"
        'model.compile(loss="mae", optimizer="adam", metrics=["mean_squared_error", "MAPE"])\n'
        "best = ModelCheckpoint('w-{epoch:02d}-{val_mean_squared_error:.4f}.h5',\n"
        "                       monitor='val_mean_squared_error', save_best_only=True)\n"
        "model.fit(x, y, validation_split=0.2, callbacks=[best])\n",
        [],
    ),
    (
        "metric-keys-accuracy-and-mae-in-one-compile",
        "import keras\nmodel.compile(loss='mse', metrics=['accuracy', 'mae'])\n"
        "h = model.fit(x, y)\nplot(h.history['acc'], h.history['mean_absolute_error'])\n",
        "import keras\nmodel.compile(loss='mse', metrics=['acc', 'mean_absolute_error'])\n"
        "h = model.fit(x, y)\nplot(h.history['acc'], h.history['mean_absolute_error'])\n",
        [],
    ),
    (
        "metric-keys-of-later-keras-unchanged",
        "import keras\nmodel.compile(loss='mse', metrics=['mae'])\n"
        "h = model.fit(x, y)\nprint(h.history['val_mae'])\n",
        "import keras\nmodel.compile(loss='mse', metrics=['mae'])\n"
        "h = model.fit(x, y)\nprint(h.history['val_mae'])\n",
        [],
    ),
    (
        "metric-keys-both-read-left",
        "import keras\nmodel.compile(loss='mse', metrics=['mae'])\nh = model.fit(x, y)\n"
        "key = 'val_mae' if 'val_mae' in h.history else 'val_mean_absolute_error'\n"
        "print(h.history['val_mae'], h.history['val_mean_absolute_error'])\n",
        "import keras\nmodel.compile(loss='mse', metrics=['mae'])\nh = model.fit(x, y)\n"
        "key = 'val_mae' if 'val_mae' in h.history else 'val_mean_absolute_error'\n"
        "print(h.history['val_mae'], h.history['val_mean_absolute_error'])\n",
        [(1, "[both metric keys]")],
    ),
    (
        # Keras 3 takes no metric named 'cosine_proximity': nothing to ask for
        "metric-keys-cosine-left",
        "import keras\nmodel.compile(loss='mse', metrics=['cosine'])\n"
        "h = model.fit(x, y)\nprint(h.history['val_cosine_proximity'])\n",
        "import keras\nmodel.compile(loss='mse', metrics=['cosine'])\n"
        "h = model.fit(x, y)\nprint(h.history['val_cosine_proximity'])\n",
        [(2, "[old metric key not in Keras 3]")],
    ),
    (
        "metric-keys-metrics-variable-left",
        "import keras\nm = ['mae']\nmodel.compile(loss='mse', metrics=m)\n"
        "h = model.fit(x, y)\nprint(h.history['mean_absolute_error'])\n",
        "import keras\nm = ['mae']\nmodel.compile(loss='mse', metrics=m)\n"
        "h = model.fit(x, y)\nprint(h.history['mean_absolute_error'])\n",
        [(3, "[metrics not a literal]")],
    ),
    (
        "keras1-fit-nb-epoch",
        "model.fit(x, y, batch_size=32, nb_epoch=2, verbose=1)\n",
        "model.fit(x, y, batch_size=32, epochs=2, verbose=1)\n",
        [],
    ),
    (
        "keras1-fit-helper-class-left",
        "from keras.models import Sequential\nfrom course_models import ConvNet as Net\n"
        "net = Net()\nnet.fit(train, valid, nb_epoch=1)\nm = Sequential()\nm.fit(x, y, nb_epoch=2)\n",
        "from keras.models import Sequential\nfrom course_models import ConvNet as Net\n"
        "net = Net()\nnet.fit(train, valid, nb_epoch=1)\nm = Sequential()\nm.fit(x, y, epochs=2)\n",
        [(4, "[helper class fit]")],
    ),
    (
        "layers-core",
        "from keras.layers.core import Dense, Dropout, Activation, Flatten\n"
        "from keras.layers.convolutional import Conv2D, MaxPooling2D\n",
        "from keras.layers import Dense, Dropout, Activation, Flatten\n"
        "from keras.layers import Conv2D, MaxPooling2D\n",
        [],
    ),
    (
        "np-utils-module",
        "from keras.utils import np_utils\ny = np_utils.to_categorical(y, 10)\n",
        "from keras import utils as np_utils\ny = np_utils.to_categorical(y, 10)\n",
        [],
    ),
    (
        # addition_rnn.py of Keras 2.0: the module imported beside layers
        "layer-module-beside-layers",
        "from keras.layers import Activation, TimeDistributed, Dense, RepeatVector, recurrent\n"
        "RNN = recurrent.LSTM\n",
        "from keras.layers import Activation, TimeDistributed, Dense, RepeatVector\n"
        "from keras import layers as recurrent\n"
        "RNN = recurrent.LSTM\n",
        [],
    ),
    (
        "layer-modules-in-parentheses-and-after-a-semicolon",
        "from keras.layers import (Dense,\n    recurrent,\n    core)\n"
        "import os; from keras.utils import np_utils, to_categorical\n"
        "x = recurrent.GRU(core.Dense(3).units)\n",
        "from keras.layers import (Dense)\n"
        "from keras import layers as recurrent\n"
        "from keras import layers as core\n"
        "import os; from keras.utils import to_categorical; from keras import utils as np_utils\n"
        "x = recurrent.GRU(core.Dense(3).units)\n",
        [],
    ),
    (
        "np-utils-function",
        "from keras.utils.np_utils import to_categorical\n",
        "from keras.utils import to_categorical\n",
        [],
    ),
    (
        "np-utils-spelled-in-full",
        "import keras\ny = keras.utils.np_utils.to_categorical(y, 10)\n",
        "import keras\ny = keras.utils.to_categorical(y, 10)\n",
        [],
    ),
    (
        # a drone-navigation ResNet of 2018 reached layers through their Keras 2 modules, on
        # lines that name no other Keras 2 path
        "layer-modules-spelled-in-full",
        "import keras\n\n\ndef block(x):\n"
        "    x = keras.layers.normalization.BatchNormalization()(x)\n"
        "    x = keras.layers.core.Activation('relu')(x)\n"
        "    return keras.layers.merge.add([x, x])\n",
        "import keras\n\n\ndef block(x):\n"
        "    x = keras.layers.BatchNormalization()(x)\n"
        "    x = keras.layers.Activation('relu')(x)\n"
        "    return keras.layers.add([x, x])\n",
        [],
    ),
    (
        # a transformer's training script of 2017: every Keras name through star imports, the
        # checkpoint's name held in a variable
        "checkpoint-through-star-import",
        "from keras.optimizers import *\nfrom keras.callbacks import *\n\n"
        "mfile = 'models/en2de.model.h5'\n"
        "saver = ModelCheckpoint(mfile, save_best_only=True, save_weights_only=True)\n",
        "from keras.optimizers import *\nfrom keras.callbacks import *\n\n"
        "mfile = 'models/en2de.model.weights.h5'\n"
        "saver = ModelCheckpoint(mfile, save_best_only=True, save_weights_only=True)\n",
        [(4, "the file is now named 'models/en2de.model.weights.h5'")],
    ),
    (
        # a training module whose main function reuses the checkpoint variable's name for the
        # weights it restores: another function's local, another variable
        "checkpoint-variable-local-to-its-function",
        "import os\nfrom keras.callbacks import ModelCheckpoint\n\n\n"
        "def train(model, root):\n"
        "    weights_path = os.path.join(root, 'weights_{epoch:03d}.h5')\n"
        "    return ModelCheckpoint(filepath=weights_path, save_weights_only=True)\n\n\n"
        "def main(model, flags):\n"
        "    weights_path = os.path.join(flags.root, flags.weights_fname)\n"
        "    if flags.restore:\n        model.load_weights(weights_path)\n"
        "    else:\n        weights_path = None\n"
        "    return weights_path\n",
        "import os\nfrom keras.callbacks import ModelCheckpoint\n\n\n"
        "def train(model, root):\n"
        "    weights_path = os.path.join(root, 'weights_{epoch:03d}.weights.h5')\n"
        "    return ModelCheckpoint(filepath=weights_path, save_weights_only=True)\n\n\n"
        "def main(model, flags):\n"
        "    weights_path = os.path.join(flags.root, flags.weights_fname)\n"
        "    if flags.restore:\n        model.load_weights(weights_path)\n"
        "    else:\n        weights_path = None\n"
        "    return weights_path\n",
        [(6, "weights_path: the file is now named")],
    ),
    (
        # a transformer's warm-up schedule: K comes from `from keras.models import *` (Keras
        # 2's models.py imported its backend as K, and has no __all__)
        "backend-through-models-star-import",
        "from keras.models import *\nfrom keras.callbacks import *\n\n\n"
        "class WarmUp(Callback):\n    def on_batch_begin(self, batch, logs=None):\n"
        "        K.set_value(self.model.optimizer.lr, 0.1)\n",
        "from keras.models import *\nfrom keras.callbacks import *\n\n\n"
        "class WarmUp(Callback):\n    def on_batch_begin(self, batch, logs=None):\n"
        "        self.model.optimizer.learning_rate.assign(0.1)\n",
        [],
    ),
    (
        # keras-frcnn's FixedBatchNormalization: frozen statistics reshaped for broadcasting;
        # a sixth positional argument (2.0's epsilon, 2.2's axis) is left alone
        "backend-batch-normalization",
        "from keras import backend as K\n\n\n"
        "def frozen(x, mean, std, beta, gamma, eps):\n"
        "    y = K.batch_normalization(x, mean, std, beta, gamma, epsilon=eps)\n"
        "    z = K.batch_normalization(x + 1, mean, std, None, None, axis=-1)\n"
        "    return y, z, K.batch_normalization(x, mean, std, beta, gamma, eps)\n",
        "from keras import backend as K\nimport keras\n\n\n"
        "def frozen(x, mean, std, beta, gamma, eps):\n"
        "    y = ((x - mean) * keras.ops.rsqrt(std + eps) * gamma + beta)\n"
        "    z = (((x + 1) - mean) * keras.ops.rsqrt(std + 1e-3))\n"
        "    return y, z, K.batch_normalization(x, mean, std, beta, gamma, eps)\n",
        [(7, "K.batch_normalization() left unchanged")],
    ),
    (
        # a face-recognition model file of Keras 2.2: its companion packages, imported directly
        "keras-2-2-companion-packages",
        "from keras_applications.imagenet_utils import _obtain_input_shape\n"
        "from keras_applications.imagenet_utils import preprocess_input\n"
        "from keras_preprocessing.image import ImageDataGenerator\n",
        "from keras_applications.imagenet_utils import _obtain_input_shape\n"
        "from keras.applications.imagenet_utils import preprocess_input\n"
        "from tensorflow.keras.preprocessing.image import ImageDataGenerator\n",
        [(1, "_obtain_input_shape left unchanged: a private Keras 2 helper")],
    ),
    (
        "engine-topology",
        "from keras.engine.topology import Layer, InputSpec\n"
        "from keras.engine.training import Model\n",
        "from keras.layers import Layer, InputSpec\nfrom keras.models import Model\n",
        [],
    ),
    (
        "keras1-merge-left",
        "from keras.layers.core import Dense, Merge\n",
        "from keras.layers.core import Dense, Merge\n",
        [(1, "Merge layer has no successor")],
    ),
    (
        "scikit-learn-wrapper-left",
        "from keras.wrappers.scikit_learn import KerasClassifier\n",
        "from keras.wrappers.scikit_learn import KerasClassifier\n",
        [(1, "scikeras")],
    ),
    (
        "save-weights-h5",
        "model.save_weights('model.h5')\nmodel.load_weights('model.h5')\n"
        "other.load_weights('pretrained.h5')\n",
        "model.save_weights('model.weights.h5')\nmodel.load_weights('model.weights.h5')\n"
        "other.load_weights('pretrained.h5')\n",
        [(1, "now named 'model.weights.h5'")],
    ),
    (
        "save-weights-name-not-literal",
        "model.save_weights(path)\n",
        "model.save_weights(path)\n",
        [(1, "not a literal")],
    ),
    (
        "checkpoint-weights-only",
        "from keras.callbacks import ModelCheckpoint\n"
        'cb = ModelCheckpoint("w.{epoch:02d}.hdf5", save_weights_only=True)\n',
        "from keras.callbacks import ModelCheckpoint\n"
        'cb = ModelCheckpoint("w.{epoch:02d}.weights.h5", save_weights_only=True)\n',
        [(2, "now named 'w.{epoch:02d}.weights.h5'")],
    ),
    (
        "checkpoint-model-hdf5",
        "from keras.callbacks import ModelCheckpoint\n"
        "cb = ModelCheckpoint('best.hdf5', monitor='val_loss', save_best_only=True)\n",
        "from keras.callbacks import ModelCheckpoint\n"
        "cb = ModelCheckpoint('best.h5', monitor='val_loss', save_best_only=True)\n",
        [(2, "now named 'best.h5'")],
    ),
    (
        "checkpoint-already-keras3",
        "from keras.callbacks import ModelCheckpoint\ncb = ModelCheckpoint('best.keras')\n",
        "from keras.callbacks import ModelCheckpoint\ncb = ModelCheckpoint('best.keras')\n",
        [],
    ),
    (
        "tf1-graph",
        "import numpy as np\nimport tensorflow as tf\n\nx = tf.placeholder(tf.float32, [None, 2])\n"
        "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n",
        "import numpy as np\nimport tensorflow.compat.v1 as tf\n\ntf.disable_v2_behavior()\n\n"
        "x = tf.placeholder(tf.float32, [None, 2])\n"
        "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n",
        [],
    ),
    (
        "tf1-train-optimizer",
        "import tensorflow as tf\nstep = tf.train.AdamOptimizer(1e-3).minimize(loss)\n",
        "import tensorflow.compat.v1 as tf\n\ntf.disable_v2_behavior()\n"
        "step = tf.train.AdamOptimizer(1e-3).minimize(loss)\n",
        [],
    ),
    (
        "tf1-eager-safe-names-only",
        "import tensorflow as tf\ntf.logging.set_verbosity(tf.logging.INFO)\nx = tf.constant(1)\n",
        "import tensorflow.compat.v1 as tf\ntf.logging.set_verbosity(tf.logging.INFO)\n"
        "x = tf.constant(1)\n",
        [],
    ),
    (
        # TensorFlow-Examples' dynamic_rnn.py: the cells went to tf.compat.v1.nn.rnn_cell
        "tf1-contrib-rnn-attribute-is-the-v1-cell",
        "import tensorflow as tf\n"
        "cell = tf.contrib.rnn.BasicLSTMCell(8)\n"
        "x = tf.placeholder(tf.float32)\n",
        TF_KERAS + "import tensorflow.compat.v1 as tf\n\ntf.disable_v2_behavior()\n"
        "cell = tf.compat.v1.nn.rnn_cell.BasicLSTMCell(8)\n"
        "x = tf.placeholder(tf.float32)\n",
        [
            (
                2,
                "tf.contrib.rnn.BasicLSTMCell comes from tf_keras on TensorFlow >= 2.16: "
                'os.environ.setdefault("TF_USE_LEGACY_KERAS", "1") was put at the top',
            )
        ],
    ),
    (
        # hunkim/DeepLearningZeroToAll lab-12-1 and lab-12-5: tf.contrib.rnn cells, the
        # state tuple, and seq2seq's sequence_loss (no TF2 home but tensorflow_addons')
        "tf1-contrib-rnn-attributes-and-sequence-loss",
        "import tensorflow as tf\n"
        "X = tf.placeholder(tf.float32, [None, 6, 5])\n"
        "cell = tf.contrib.rnn.BasicLSTMCell(num_units=5, state_is_tuple=True)\n"
        "initial_state = cell.zero_state(1, tf.float32)\n"
        "outputs, _states = tf.nn.dynamic_rnn(cell, X, initial_state=initial_state)\n"
        "state = tf.contrib.rnn.LSTMStateTuple(_states.c, _states.h)\n"
        "cell2 = tf.contrib.rnn.NASCell(5)\n"
        "loss = tf.contrib.seq2seq.sequence_loss(outputs, Y, weights, softmax_loss_function=f)\n",
        TF_KERAS + "import tensorflow.compat.v1 as tf\n\ntf.disable_v2_behavior()\n"
        "X = tf.placeholder(tf.float32, [None, 6, 5])\n"
        "cell = tf.compat.v1.nn.rnn_cell.BasicLSTMCell(num_units=5, state_is_tuple=True)\n"
        "initial_state = cell.zero_state(1, tf.float32)\n"
        "outputs, _states = tf.nn.dynamic_rnn(cell, X, initial_state=initial_state)\n"
        "state = tf.compat.v1.nn.rnn_cell.LSTMStateTuple(_states.c, _states.h)\n"
        "cell2 = tf.contrib.rnn.NASCell(5)\n"
        "loss = tf.contrib.seq2seq.sequence_loss(outputs, Y, weights, softmax_loss_function=f)\n",
        [
            (3, "BasicLSTMCell comes from tf_keras"),
            (7, "tf.contrib.rnn.NASCell left unchanged: it has no TF2 home"),
            (
                8,
                "tf.contrib.seq2seq.sequence_loss left unchanged: it has no TF2 name and the "
                "rewrite to tf.compat.v1 ops covers only literal True/False averaging flags",
            ),
        ],
    ),
    (
        # nfmcclure/tensorflow_cookbook's Shakespeare LSTM: legacy_seq2seq's decoder (the
        # same variables under static_rnn's scope) and its per-example loss; the decoder
        # bound to a name (called with a loop function when sampling) is left
        "tf1-contrib-legacy-seq2seq-decoder-and-loss",
        "import tensorflow as tf\n"
        "cell = tf.contrib.rnn.BasicLSTMCell(128)\n"
        "decoder = tf.contrib.legacy_seq2seq.rnn_decoder\n"
        "outputs, last_state = tf.contrib.legacy_seq2seq.rnn_decoder(inputs, initial_state, cell)\n"
        "loss = tf.contrib.legacy_seq2seq.sequence_loss_by_example([logits], [tf.reshape(y, [-1])],\n"
        "                                                          [tf.ones([batch_size * seq_len])])\n",
        TF_KERAS + "import tensorflow as tf\n\ntf.compat.v1.disable_v2_behavior()\n"
        "cell = tf.compat.v1.nn.rnn_cell.BasicLSTMCell(128)\n"
        "decoder = tf.contrib.legacy_seq2seq.rnn_decoder\n"
        "outputs, last_state = tf.compat.v1.nn.static_rnn(cell, inputs, "
        'initial_state=initial_state, scope="rnn_decoder")\n'
        "loss = tf.compat.v1.truediv(tf.compat.v1.add_n([tf.compat.v1.nn."
        "sparse_softmax_cross_entropy_with_logits(labels=tf.compat.v1.reshape(_target, [-1]), "
        "logits=_logit) * _weight for _logit, _target, _weight in zip([logits], "
        "[tf.reshape(y, [-1])], [tf.ones([batch_size * seq_len])])]), "
        "tf.compat.v1.add_n([tf.ones([batch_size * seq_len])]) + 1e-12)\n",
        [
            (2, "BasicLSTMCell comes from tf_keras"),
            (3, "tf.contrib.legacy_seq2seq left unchanged: tf.contrib was removed"),
        ],
    ),
    (
        # the Glorot initializer of TF1 tutorials' get_variable layers (MNIST MLPs and CNNs):
        # the same distribution as tf.glorot_uniform_initializer, keywords kept
        "tf1-contrib-xavier-initializer-is-glorot-uniform",
        "import tensorflow as tf\n"
        "inputs = tf.placeholder(tf.float32, [None, 64])\n"
        "w_in = tf.get_variable('w_in', [64, 32], initializer=tf.contrib.layers.xavier_initializer())\n"
        "k = tf.get_variable('k', [5, 5, 1, 8],\n"
        "                    initializer=tf.contrib.layers.xavier_initializer_conv2d(seed=3))\n"
        "w_out = tf.get_variable('w_out', [32, 4],\n"
        "                        initializer=tf.contrib.layers.xavier_initializer(True, 5, tf.float32))\n",
        "import tensorflow.compat.v1 as tf\n\ntf.disable_v2_behavior()\n"
        "inputs = tf.placeholder(tf.float32, [None, 64])\n"
        "w_in = tf.get_variable('w_in', [64, 32], initializer=tf.glorot_uniform_initializer())\n"
        "k = tf.get_variable('k', [5, 5, 1, 8],\n"
        "                    initializer=tf.glorot_uniform_initializer(seed=3))\n"
        "w_out = tf.get_variable('w_out', [32, 4],\n"
        "                        initializer=tf.glorot_uniform_initializer(seed=5, dtype=tf.float32))\n",
        [],
    ),
    (
        # the weight decay of TF1 get_variable layers: a literal scale becomes the function
        # TF 1.15's l2_regularizer / l1_regularizer returned
        "tf1-contrib-regularizers-are-tf1s-functions",
        "import tensorflow as tf\n"
        "inputs = tf.placeholder(tf.float32, [None, 64])\n"
        "w = tf.get_variable('w', [64, 32], regularizer=tf.contrib.layers.l2_regularizer(5e-4))\n"
        "v = tf.get_variable('v', [32], regularizer=tf.contrib.layers.l1_regularizer(scale=.1))\n",
        "import tensorflow.compat.v1 as tf\n\ntf.disable_v2_behavior()\n"
        "inputs = tf.placeholder(tf.float32, [None, 64])\n"
        "w = tf.get_variable('w', [64, 32], regularizer=lambda weights: 5e-4 * tf.nn.l2_loss(weights))\n"
        "v = tf.get_variable('v', [32], regularizer=lambda weights: .1 * tf.reduce_sum(tf.abs(weights)))\n",
        [],
    ),
    (
        # a normal Xavier draw is a truncated normal of another spread: left, with the module's
        # warning; the other tf.contrib.layers functions too
        "tf1-contrib-xavier-normal-left",
        "import tensorflow as tf\n"
        "x = tf.placeholder(tf.float32, [None, 8])\n"
        "w = tf.get_variable('w', [8, 2], initializer=tf.contrib.layers.xavier_initializer(uniform=False))\n"
        "b = tf.get_variable('b', [2], initializer=tf.contrib.layers.xavier_initializer(**options))\n",
        "import tensorflow.compat.v1 as tf\n\ntf.disable_v2_behavior()\n"
        "x = tf.placeholder(tf.float32, [None, 8])\n"
        "w = tf.get_variable('w', [8, 2], initializer=tf.contrib.layers.xavier_initializer(uniform=False))\n"
        "b = tf.get_variable('b', [2], initializer=tf.contrib.layers.xavier_initializer(**options))\n",
        [(3, "tf.contrib.layers left unchanged: tf.contrib was removed in TensorFlow 2.0")],
    ),
    (
        # TF 1.x eager code (TensorFlow-Examples' *_eager_api.py): no graph mode forced on it
        "tf1-eager-execution-enabled",
        "import tensorflow as tf\ntf.enable_eager_execution()\n"
        "opt = tf.train.GradientDescentOptimizer(0.1)\n",
        "import tensorflow.compat.v1 as tf\ntf.enable_eager_execution()\n"
        "opt = tf.train.GradientDescentOptimizer(0.1)\n",
        [],
    ),
    (
        "tf1-already-compat",
        "import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\nx = tf.placeholder(tf.float32)\n",
        "import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\nx = tf.placeholder(tf.float32)\n",
        [],
    ),
    (
        "tf1-compat-spelled",
        "import tensorflow as tf\nx = tf.compat.v1.placeholder(tf.float32)\n",
        "import tensorflow as tf\n\ntf.compat.v1.disable_v2_behavior()\n"
        "x = tf.compat.v1.placeholder(tf.float32)\n",
        [],
    ),
    (
        "tf1-with-keras-left",
        "import tensorflow as tf\nimport keras\nx = tf.placeholder(tf.float32)\n"
        "model = keras.Sequential()\n",
        "import tensorflow as tf\nimport keras\nx = tf.placeholder(tf.float32)\n"
        "model = keras.Sequential()\n",
        [(1, "Keras 3 does not run in graph mode")],
    ),
    (
        # the resize in a behavioral-cloning model's Lambda: an op, not graph code
        "tf1-ops-beside-keras-read-from-compat",
        "import tensorflow as tf\nfrom keras.layers import Lambda\n\n\n"
        "def resize(image):\n"
        "    import tensorflow as tf\n"
        "    return tf.image.resize_images(tf.to_float(image), (66, 200))\n\n\n"
        "layer = Lambda(resize, input_shape=(160, 320, 3))\n",
        "import tensorflow as tf\nfrom keras.layers import Lambda\n\n\n"
        "def resize(image):\n"
        "    import tensorflow as tf\n"
        "    return tf.compat.v1.image.resize_images(tf.compat.v1.to_float(image), (66, 200))\n\n\n"
        "layer = Lambda(resize, input_shape=(160, 320, 3))\n",
        [],
    ),
    (
        # the line the Keras 1 era's driving models ran for Keras 1.1's backend
        "tf-python-control-flow-ops-line-dropped",
        "import tensorflow as tf\n\n# Fix error with TF and Keras\ntf.python.control_flow_ops = tf\n"
        "from keras.models import Sequential\n",
        "import tensorflow as tf\nfrom keras.models import Sequential\n",
        [],
    ),
    (
        "tf1-with-tf-keras-import-left",
        "import tensorflow as tf\nfrom tensorflow import keras\nx = tf.placeholder(tf.float32)\n"
        "model = keras.Sequential()\n",
        "import tensorflow as tf\nfrom tensorflow import keras\nx = tf.placeholder(tf.float32)\n"
        "model = keras.Sequential()\n",
        [(1, "Keras 3 does not run in graph mode")],
    ),
    (
        "tf2-code-untouched",
        "import tensorflow as tf\nimport numpy as np\nx = tf.constant(np.log(2.0))\n",
        "import tensorflow as tf\nimport numpy as np\nx = tf.constant(np.log(2.0))\n",
        [],
    ),
    (
        "tf1-contrib-and-estimator-warned",
        "import tensorflow as tf\nx = tf.placeholder(tf.float32)\n"
        "y = tf.contrib.layers.fully_connected(x, 2)\nest = tf.estimator.Estimator(fn)\n",
        TF_KERAS + "import tensorflow.compat.v1 as tf\n\ntf.disable_v2_behavior()\n"
        "x = tf.placeholder(tf.float32)\n"
        "y = tf.compat.v1.layers.dense(x, 2, activation=tf.nn.relu)\n"
        "est = tf.estimator.Estimator(fn)\n",
        [(3, "tf.layers.dense comes from tf_keras"), (4, "removed in TensorFlow 2.16")],
    ),
    (
        "tf1-session-config-and-graph",
        "import tensorflow as tf\nx = tf.placeholder(tf.float32)\nconfig = tf.ConfigProto()\n"
        "config.gpu_options.allow_growth = True\nsess = tf.Session(config=config)\n"
        "print(sess.run(x, {x: 1.0}))\n",
        "import tensorflow.compat.v1 as tf\nimport tfcompat_gpu\n\ntf.disable_v2_behavior()\n"
        "x = tf.placeholder(tf.float32)\ntfcompat_gpu.configure(allow_growth=True)\n"
        "sess = tfcompat_gpu.session()\nprint(sess.run(x, {x: 1.0}))\n",
        [],
    ),
    # TF1 names imported from TensorFlow's private modules (tensorflow.python, tensorflow.core)
    (
        "private-session",
        "from tensorflow.python.client.session import Session\n\nwith Session() as sess:\n"
        "    sess.run(x)\n",
        "from tensorflow.compat.v1 import Session\n\nwith Session() as sess:\n    sess.run(x)\n",
        [],
    ),
    (
        "private-session-from-tensorflow-python",
        "from tensorflow.python import InteractiveSession\nsess = InteractiveSession()\n",
        "from tensorflow.compat.v1 import InteractiveSession\nsess = InteractiveSession()\n",
        [],
    ),
    (
        "private-tensorflow-python-modules-are-not-tf1-names",
        "from tensorflow.python import pywrap_tensorflow\nreader = pywrap_tensorflow.x\n",
        "from tensorflow.python import pywrap_tensorflow\nreader = pywrap_tensorflow.x\n",
        [],
    ),
    (
        "private-session-with-other-names-left",
        "from tensorflow.python.client.session import Session, _REGISTERED_EXPANSIONS\n",
        "from tensorflow.python.client.session import Session, _REGISTERED_EXPANSIONS\n",
        [(1, "import _REGISTERED_EXPANSIONS left unchanged: TensorFlow-private")],
    ),
    (
        "private-config-pb2-names",
        "from tensorflow.core.protobuf.config_pb2 import RunOptions, RunMetadata\n"
        "opts = RunOptions(trace_level=RunOptions.FULL_TRACE)\n",
        "from tensorflow.compat.v1 import RunOptions, RunMetadata\n"
        "opts = RunOptions(trace_level=RunOptions.FULL_TRACE)\n",
        [],
    ),
    (
        "private-config-pb2-module",
        "from tensorflow.core.protobuf import config_pb2\n"
        "run_options = config_pb2.RunOptions(trace_level=config_pb2.RunOptions.FULL_TRACE)\n",
        "from tensorflow.compat import v1 as config_pb2\n"
        "run_options = config_pb2.RunOptions(trace_level=config_pb2.RunOptions.FULL_TRACE)\n",
        [],
    ),
    (
        "private-config-pb2-module-other-message-left",
        "from tensorflow.core.protobuf import config_pb2\nopts = config_pb2.RunOptions()\n"
        "info = config_pb2.CallableOptions()\n",
        "from tensorflow.core.protobuf import config_pb2\nopts = config_pb2.RunOptions()\n"
        "info = config_pb2.CallableOptions()\n",
        [(1, "config_pb2.CallableOptions is not among the messages")],
    ),
    (
        "private-config-pb2-module-renamed-left",
        "from tensorflow.core.protobuf import config_pb2 as cpb\nopts = cpb.RunOptions()\n",
        "from tensorflow.core.protobuf import config_pb2 as cpb\nopts = cpb.RunOptions()\n",
        [(1, "as config_pb2, and run migrate again")],
    ),
    (
        "private-keras-backend-to-tf-keras",
        "import tensorflow as tf\nfrom tensorflow.python.keras import backend as K\n"
        "K.clear_session()\n",
        "import tensorflow as tf\nfrom tensorflow.keras import backend as K\nK.clear_session()\n",
        [],
    ),
    (
        "private-keras-to-keras-where-the-file-imports-keras",
        "import keras\nfrom tensorflow.python.keras import backend as K, layers\n"
        "K.clear_session()\n",
        "import keras\nfrom keras import backend as K, layers\nK.clear_session()\n",
        [],
    ),
    (
        "private-keras-layers",
        "from tensorflow.python.keras.layers import Dense, Conv2D\n"
        "from tensorflow.python.keras.models import Sequential\n",
        "from tensorflow.keras.layers import Dense, Conv2D\n"
        "from tensorflow.keras.models import Sequential\n",
        [],
    ),
    (
        "private-keras-engine-left",
        "from tensorflow.python.keras.engine import training\n",
        "from tensorflow.python.keras.engine import training\n",
        [(1, "Keras 3 has no tensorflow.keras.engine")],
    ),
    (
        "private-keras-backend-names-left",
        "from tensorflow.python.keras.backend import get_session\n",
        "from tensorflow.python.keras.backend import get_session\n",
        [(1, "check that Keras 3's tensorflow.keras.backend has it")],
    ),
    # K.get_value / K.set_value and optimizer.lr (Keras 3 has none of them)
    (
        "backend-get-value-of-optimizer-lr",
        "import keras\nfrom keras import backend as K\nprint(K.get_value(model.optimizer.lr))\n",
        "import keras\nfrom keras import backend as K\n"
        "print(keras.ops.convert_to_numpy(model.optimizer.learning_rate))\n",
        [],
    ),
    (
        "backend-set-value-in-a-callback",
        "from tensorflow.keras import backend as K\nfrom tensorflow.keras.callbacks import "
        "Callback\n\n\nclass Decay(Callback):\n    def on_epoch_end(self, epoch, logs=None):\n"
        "        lr = float(K.get_value(self.model.optimizer.lr))\n"
        "        K.set_value(self.model.optimizer.lr, lr * 0.9)\n",
        "from tensorflow.keras import backend as K\nfrom tensorflow.keras.callbacks import "
        "Callback\nimport keras\n\n\nclass Decay(Callback):\n"
        "    def on_epoch_end(self, epoch, logs=None):\n"
        "        lr = float(keras.ops.convert_to_numpy(self.model.optimizer.learning_rate))\n"
        "        self.model.optimizer.learning_rate.assign(lr * 0.9)\n",
        [],
    ),
    (
        "backend-set-value-keyword-left",
        "import keras.backend as K\nK.set_value(x=v, value=1.0)\n",
        "import keras.backend as K\nK.set_value(x=v, value=1.0)\n",
        [(2, "set_value() left unchanged: Keras 3 has no keras.backend.set_value")],
    ),
    (
        "optimizer-lr-assigned",
        "import keras\nmodel.optimizer.lr = 0.001\n",
        "import keras\nmodel.optimizer.learning_rate = 0.001\n",
        [],
    ),
    (
        "tf-keras-backend-get-value-left",
        "import tf_keras\nv = tf_keras.backend.get_value(w)\n",
        "import tf_keras\nv = tf_keras.backend.get_value(w)\n",
        [],
    ),
    (
        "optimizer-lr-of-code-without-keras-left",
        "class Trainer:\n    def step(self):\n        return self.optimizer.lr\n",
        "class Trainer:\n    def step(self):\n        return self.optimizer.lr\n",
        [],
    ),
    (
        "custom-optimizer-get-updates-left",
        "from keras import backend as K\nfrom keras.optimizers import Optimizer\n\n\nclass AdamW(Optimizer):\n    def __init__(self, lr=0.001, weight_decay=0.025, **kwargs):\n        super(AdamW, self).__init__(**kwargs)\n        self.lr = K.variable(lr)\n\n    def get_updates(self, loss, params):\n        grads = self.get_gradients(loss, params)\n        return [K.update_sub(p, self.lr * g) for p, g in zip(params, grads)]\n",
        "from keras import backend as K\nfrom keras.optimizers import Optimizer\n\n\nclass AdamW(Optimizer):\n    def __init__(self, lr=0.001, weight_decay=0.025, **kwargs):\n        super(AdamW, self).__init__(**kwargs)\n        self.lr = K.variable(lr)\n\n    def get_updates(self, loss, params):\n        grads = self.get_gradients(loss, params)\n        return [K.update_sub(p, self.lr * g) for p, g in zip(params, grads)]\n",
        # one warning for the class: none for the backend calls inside it
        [(5, "class AdamW left unchanged: Keras 3 optimizers never call get_updates")],
    ),
    (
        # both backend commands rewrite the reads of K away: the import goes with set_session
        "backend-import-dropped-when-both-backend-commands-rewrite-its-reads",
        "import tensorflow as tf\nfrom keras import backend as K\nconfig = tf.ConfigProto()\n"
        "config.gpu_options.allow_growth = True\nK.set_session(tf.Session(config=config))\n"
        "v = K.get_value(w)\ns = K.sum(x, axis=1)\n",
        "import tensorflow as tf\nimport keras\nimport tfcompat_gpu\n\n"
        "tfcompat_gpu.configure(allow_growth=True)\nv = keras.ops.convert_to_numpy(w)\n"
        "s = keras.ops.sum(x, axis=1)\n",
        [],
    ),
    (
        "custom-optimizer-backend-calls-said-once-those-outside-said-too",
        "from keras import backend as K\nfrom keras.optimizers import Optimizer\n\n\n"
        "class Decayed(Optimizer):\n    def get_updates(self, loss, params):\n"
        "        rate = K.get_value(self.lr, 0)\n"
        "        return [K.update_add(p, K.sum(p, foo=1) * rate) for p in params]\n\n\n"
        "step = K.variable(0)\n",
        "from keras import backend as K\nfrom keras.optimizers import Optimizer\n\n\n"
        "class Decayed(Optimizer):\n    def get_updates(self, loss, params):\n"
        "        rate = K.get_value(self.lr, 0)\n"
        "        return [K.update_add(p, K.sum(p, foo=1) * rate) for p in params]\n\n\n"
        "step = K.variable(0)\n",
        [
            (5, "class Decayed left unchanged: Keras 3 optimizers never call get_updates"),
            (11, "K.variable() left unchanged"),
        ],
    ),
    (
        "get-updates-of-a-class-that-is-no-optimizer-left-quiet",
        "import keras\n\n\nclass Sched:\n    def get_updates(self, loss, params):\n"
        "        return []\n",
        "import keras\n\n\nclass Sched:\n    def get_updates(self, loss, params):\n"
        "        return []\n",
        [],
    ),
    (
        "get-session-beyond-gpu-configuration-left",
        "from keras import backend as K\nsess = K.get_session()\nsaver.save(sess, 'model.ckpt')\n",
        "from keras import backend as K\nsess = K.get_session()\nsaver.save(sess, 'model.ckpt')\n",
        [(2, "get_session() does not exist with TF2 and Keras 3")],
    ),
    # NumPy names NumPy 1.24 / 2.0 removed, as Keras 2 examples wrote them (arrays built with
    # dtype=np.float, labels cast with astype(np.int), missing values as np.NaN)
    (
        "numpy-float-dtype-of-generated-sequences",
        "import numpy as np\n"
        "from keras.layers import ConvLSTM2D\n\n\n"
        "def make_clips(count, frames=10, side=32):\n"
        "    clips = np.zeros((count, frames, side, side, 1), dtype=np.float)\n"
        "    targets = np.zeros((count, frames, side, side, 1),\n"
        "                       dtype=np.float)\n"
        "    steps = np.random.randint(0, 3, size=count).astype(np.int)\n"
        "    return clips, targets, steps\n",
        "import numpy as np\n"
        "from keras.layers import ConvLSTM2D\n\n\n"
        "def make_clips(count, frames=10, side=32):\n"
        "    clips = np.zeros((count, frames, side, side, 1), dtype=float)\n"
        "    targets = np.zeros((count, frames, side, side, 1),\n"
        "                       dtype=float)\n"
        "    steps = np.random.randint(0, 3, size=count).astype(int)\n"
        "    return clips, targets, steps\n",
        [],
    ),
    (
        "numpy-2-spellings-through-any-alias",
        "import numpy\nimport numpy as N\nimport tensorflow as tf\n"
        "x = numpy.array([1.0, N.NaN, N.Inf], dtype=N.float_)\n"
        "floor = 2 ** N.NINF\n"
        "mask = numpy.array(x > 0, dtype=numpy.bool)\n"
        "total = N.product(x.shape) if N.alltrue(mask) else N.cumproduct(x)\n"
        "label = numpy.array(['a'], dtype=N.unicode_)\n"
        "y = tf.cast(x, tf.float32)\n",
        "import numpy\nimport numpy as N\nimport tensorflow as tf\n"
        "x = numpy.array([1.0, N.nan, N.inf], dtype=N.float64)\n"
        "floor = 2 ** (-N.inf)\n"
        "mask = numpy.array(x > 0, dtype=bool)\n"
        "total = N.prod(x.shape) if N.all(mask) else N.cumprod(x)\n"
        "label = numpy.array(['a'], dtype=N.str_)\n"
        "y = tf.cast(x, tf.float32)\n",
        [],
    ),
    (
        "numpy-asscalar-left-with-what-to-write",
        "import numpy as np\nfrom keras import backend as K\n"
        "np.float = float  # the script's own fix\n"
        "score = np.asscalar(np.mean(losses))\n"
        "values = np.zeros(3, dtype=np.float)\n",
        "import numpy as np\nfrom keras import backend as K\n"
        "np.float = float  # the script's own fix\n"
        "score = np.asscalar(np.mean(losses))\n"
        "values = np.zeros(3, dtype=float)\n",
        [(4, "write a.item() (removed in NumPy 1.23) [numpy name removed]")],
    ),
    (
        # a dataflow library's test of scalar types: every name the table cannot replace has
        # its own hint
        "numpy-sctypes-left-with-what-to-write",
        "import itertools\nimport numpy as np\n"
        "scalar_types = list(itertools.chain(*np.sctypes.values()))\n",
        "import itertools\nimport numpy as np\n"
        "scalar_types = list(itertools.chain(*np.sctypes.values()))\n",
        [(3, "np.sctypes['float'] (removed in NumPy 2.0) [numpy name removed]")],
    ),
    (
        # a GAN's sample grid and a TFRecord writer, as TF1 scripts wrote them for NumPy 1.x
        "numpy-2-calls-of-a-gan-and-a-tfrecord-writer",
        "import numpy as np\nimport tensorflow as tf\n\n\n"
        "def grid(g):\n"
        "    g = np.reshape(g, newshape=(4, 28, 28, 1))\n"
        "    return g, g.ptp()\n\n\n"
        "def feature(img):\n"
        "    return tf.train.Feature(bytes_list=tf.train.BytesList(value=[img.tostring()]))\n",
        "import numpy as np\nimport tensorflow as tf\n\n\n"
        "def grid(g):\n"
        "    g = np.reshape(g, (4, 28, 28, 1))\n"
        "    return g, np.ptp(g)\n\n\n"
        "def feature(img):\n"
        "    return tf.train.Feature(bytes_list=tf.train.BytesList(value=[img.tobytes()]))\n",
        [],
    ),
    (
        # a driving script's steering angle and a generator's row pick: NumPy 2.4 converts no
        # array of more than zero dimensions to a number, one element or not
        "numpy-2-scalars-of-one-element-arrays",
        "import numpy as np\n\n"
        "row = int(np.random.choice(len(rows), 1))\n"
        "pick = int(np.random.choice(3))\n"
        "angle = float(model.predict(image[None, :, :, :], batch_size=1))\n"
        "noise = float(np.random.normal(0, 0.1, size=1))\n"
        "scale = float(np.random.uniform(0.5))\n"
        "total = float(np.sum(rows))\n",
        "import numpy as np\n\n"
        "row = int(np.random.choice(len(rows), 1).item())\n"
        "pick = int(np.random.choice(3))\n"
        "angle = float(model.predict(image[None, :, :, :], batch_size=1).item())\n"
        "noise = float(np.random.normal(0, 0.1, size=1).item())\n"
        "scale = float(np.random.uniform(0.5))\n"
        "total = float(np.sum(rows))\n",
        [],
    ),
    (
        "float-and-int-of-other-objects-left",
        "import numpy as np\nfrom mylib import helpers as hp\n\n\n"
        "class Box:\n    float = 1.0\n\n\n"
        "print(Box.float, hp.int, hp.NaN, np.float64, np.int32, np.bool_, np.long)\n",
        "import numpy as np\nfrom mylib import helpers as hp\n\n\n"
        "class Box:\n    float = 1.0\n\n\n"
        "print(Box.float, hp.int, hp.NaN, np.float64, np.int32, np.bool_, np.long)\n",
        [],
    ),
    # weights= given to a layer: Keras 2 set them when the layer was built, Keras 3 rejects the
    # keyword (Embedding and Bidirectional excepted)
    (
        "layer-weights-literal-pair-to-initializers",
        "import numpy as np\n"
        "from keras.layers import Conv2D, Dense, Flatten\n"
        "from keras.models import Sequential\n\n"
        "kernel, bias = np.load('conv1_kernel.npy'), np.load('conv1_bias.npy')\n"
        "model = Sequential()\n"
        "model.add(Conv2D(16, (3, 3), padding='same', weights=[kernel, bias], name='conv1'))\n"
        "model.add(Flatten())\n"
        "model.add(Dense(10, activation='softmax'))\n",
        "import numpy as np\n"
        "from keras.layers import Conv2D, Dense, Flatten\n"
        "from keras.models import Sequential\n"
        "import keras\n\n"
        "kernel, bias = np.load('conv1_kernel.npy'), np.load('conv1_bias.npy')\n"
        "model = Sequential()\n"
        "model.add(Conv2D(16, (3, 3), padding='same', "
        "kernel_initializer=keras.initializers.Constant(kernel), "
        "bias_initializer=keras.initializers.Constant(bias), name='conv1'))\n"
        "model.add(Flatten())\n"
        "model.add(Dense(10, activation='softmax'))\n",
        [],
    ),
    (
        "layer-weights-of-tf-keras-and-old-module-paths",
        "import tensorflow as tf\nfrom keras.layers.core import Dense\n"
        "head = tf.keras.layers.Dense(4, weights=(w_head, b_head))\n"
        "fc = Dense(8, activation='relu', weights=[w_fc, np.zeros(8)])\n",
        "import tensorflow as tf\nfrom keras.layers import Dense\nimport keras\n\n"
        "head = tf.keras.layers.Dense(4, kernel_initializer=tf.keras.initializers.Constant(w_head), "
        "bias_initializer=tf.keras.initializers.Constant(b_head))\n"
        "fc = Dense(8, activation='relu', kernel_initializer=keras.initializers.Constant(w_fc), "
        "bias_initializer=keras.initializers.Constant(np.zeros(8)))\n",
        [],
    ),
    (
        "layer-weights-not-a-pair-left-with-a-warning",
        "from keras.layers import BatchNormalization, Conv2D, Dense, Embedding\n"
        "deeper = Conv2D(64, 3, padding='same', weights=grown_weights)\n"
        "fc = Dense(64, weights=teacher.get_layer('fc1').get_weights())\n"
        "bn = BatchNormalization(weights=[gamma, beta, mean, var])\n"
        "words = Embedding(vocab, 100, weights=[embedding_matrix], trainable=False)\n"
        "other = Dense(4, use_bias=False, weights=[k, b])\n",
        "from keras.layers import BatchNormalization, Conv2D, Dense, Embedding\n"
        "deeper = Conv2D(64, 3, padding='same', weights=grown_weights)\n"
        "fc = Dense(64, weights=teacher.get_layer('fc1').get_weights())\n"
        "bn = BatchNormalization(weights=[gamma, beta, mean, var])\n"
        "words = Embedding(vocab, 100, weights=[embedding_matrix], trainable=False)\n"
        "other = Dense(4, use_bias=False, weights=[k, b])\n",
        [
            (2, "Conv2D(weights=...) left unchanged: Keras 3 layers take no weights="),
            (3, "Dense(weights=...) left unchanged"),
            (4, "BatchNormalization(weights=...) left unchanged"),
            (
                6,
                "layer.set_weights(...), or give [kernel, bias] as a literal pair to a Dense or "
                "convolution layer [layer weights=]",
            ),
        ],
    ),
    (
        "weights-keyword-of-other-calls-left-quiet",
        "import numpy as np\nfrom keras.models import Model\n"
        "avg = np.average(scores, weights=[0.2, 0.8])\n"
        "model.save_weights('w.weights.h5')\nloss = combine(weights=[1, 2])\n",
        "import numpy as np\nfrom keras.models import Model\n"
        "avg = np.average(scores, weights=[0.2, 0.8])\n"
        "model.save_weights('w.weights.h5')\nloss = combine(weights=[1, 2])\n",
        [],
    ),
    # stateful recurrent models: the batch given to the first layer, states reset by hand
    (
        "stateful-model-reset-states-each-epoch",
        "from keras.models import Sequential\n"
        "from keras.layers import Dense, LSTM\n\n"
        "model = Sequential()\n"
        "model.add(LSTM(4, batch_input_shape=(1, look_back, 1), stateful=True))\n"
        "model.add(Dense(1))\n"
        "model.compile(loss='mean_squared_error', optimizer='adam')\n"
        "for i in range(100):\n"
        "    model.fit(trainX, trainY, epochs=1, batch_size=1, verbose=2, shuffle=False)\n"
        "    model.reset_states()\n",
        "from keras.models import Sequential\n"
        "from keras.layers import Dense, LSTM\n"
        "import keras\n\n"
        "model = Sequential()\n"
        "model.add(keras.Input(batch_shape=(1, look_back, 1)))\n"
        "model.add(LSTM(4, stateful=True))\n"
        "model.add(Dense(1))\n"
        "model.compile(loss='mean_squared_error', optimizer='adam')\n"
        "for i in range(100):\n"
        "    model.fit(trainX, trainY, epochs=1, batch_size=1, verbose=2, shuffle=False)\n"
        '    [layer.reset_states() for layer in model.layers if hasattr(layer, "reset_states") and getattr(layer, "stateful", False)] if hasattr(model, "layers") else model.reset_states()\n',
        [],
    ),
    (
        # a stacked stateful LSTM built in a function: every layer given the batch shape
        # (Keras 2's Sequential read the first), and a model handed in, left with its warning
        "stateful-stacked-batch-input-shape",
        "from keras.models import Sequential\nfrom keras.layers import LSTM, Dense\n\n\n"
        "def build(batch_size, steps):\n    model = Sequential()\n"
        "    model.add(LSTM(8, batch_input_shape=(batch_size, steps, 1), stateful=True,\n"
        "                   return_sequences=True))\n"
        "    model.add(LSTM(8, batch_input_shape=(batch_size, steps, 1), stateful=True))\n"
        "    model.add(Dense(1))\n    return model\n\n\n"
        "def extend(model):\n    model.add(LSTM(2, batch_input_shape=(1, 3, 1)))\n",
        "from keras.models import Sequential\nfrom keras.layers import LSTM, Dense\n"
        "import keras\n\n\n"
        "def build(batch_size, steps):\n    model = Sequential()\n"
        "    model.add(keras.Input(batch_shape=(batch_size, steps, 1)))\n"
        "    model.add(LSTM(8, stateful=True,\n"
        "                   return_sequences=True))\n"
        "    model.add(LSTM(8, stateful=True))\n"
        "    model.add(Dense(1))\n    return model\n\n\n"
        "def extend(model):\n    model.add(LSTM(2, batch_input_shape=(1, 3, 1)))\n",
        [(15, "LSTM(batch_input_shape=...) left unchanged")],
    ),
    (
        "stateful-callback-and-batch-size-keyword",
        "import keras\nfrom keras.layers import GRU, Input\n\n\n"
        "class ResetStates(keras.callbacks.Callback):\n"
        "    def on_epoch_end(self, epoch, logs=None):\n"
        "        self.model.reset_states()\n\n\n"
        "gru = GRU(16, input_shape=(10, 2), batch_size=8, stateful=True)\n"
        "inputs = Input(shape=(10, 2), batch_size=8)\n"
        "states = build_model().reset_states()\n",
        "import keras\nfrom keras.layers import GRU, Input\n\n\n"
        "class ResetStates(keras.callbacks.Callback):\n"
        "    def on_epoch_end(self, epoch, logs=None):\n"
        '        [layer.reset_states() for layer in self.model.layers if hasattr(layer, "reset_states") and getattr(layer, "stateful", False)] if hasattr(self.model, "layers") else self.model.reset_states()\n\n\n'
        "gru = GRU(16, input_shape=(10, 2), batch_size=8, stateful=True)\n"
        "inputs = Input(shape=(10, 2), batch_size=8)\n"
        "states = build_model().reset_states()\n",
        [(10, "GRU(batch_size=...) left unchanged: Keras 3 layers take no batch_size=")],
    ),
    (
        "reset-states-of-a-class-of-its-own-left",
        "import keras\n\n\nclass Tracker:\n    def reset_states(self):\n"
        "        self.total = 0\n\n\ntracker = Tracker()\ntracker.reset_states()\n",
        "import keras\n\n\nclass Tracker:\n    def reset_states(self):\n"
        "        self.total = 0\n\n\ntracker = Tracker()\ntracker.reset_states()\n",
        [],
    ),
    (
        # a VAE's loss added to the functional model from symbolic tensors: a layer adds it
        "add-loss-on-a-functional-model",
        "from keras import backend as K\nfrom keras.layers import Dense, Input, Layer\n"
        "from keras.models import Model\n\n\n"
        "class Sampling(Layer):\n    def call(self, inputs):\n"
        "        self.add_loss(0.01 * inputs[0])\n        return inputs[1]\n\n\n"
        "autoencoder = Model(inputs, outputs)\n"
        "autoencoder.add_loss(K.mean(kl_term))\n"
        "autoencoder.compile(optimizer='adam')\n",
        "from keras import backend as K\nfrom keras.layers import Dense, Input, Layer\n"
        "from keras.models import Model\nimport keras\n\n\n"
        "class _AddModelLoss(keras.layers.Layer):\n"
        '    """Keras 2\'s model.add_loss(tensor) on Keras 3: adds its first input as a loss."""\n\n'
        "    def call(self, inputs):\n        loss, *outputs = inputs\n"
        "        self.add_loss(loss)\n"
        "        return outputs[0] if len(outputs) == 1 else outputs\n\n\n"
        "class Sampling(Layer):\n    def call(self, inputs):\n"
        "        self.add_loss(0.01 * inputs[0])\n        return inputs[1]\n\n\n"
        "autoencoder = Model(inputs, outputs)\n"
        "autoencoder = keras.Model(autoencoder.inputs, _AddModelLoss()([keras.ops.mean(kl_term), "
        "*autoencoder.outputs]), name=autoencoder.name)\n"
        "autoencoder.compile(optimizer='adam')\n",
        [],
    ),
    (
        # a capsule layer's routing and an attention pooling in Keras 2 custom layers: TF 1.x
        # keywords inside call(), in a file that stays on TF 2 (it uses Keras)
        "tf1-keywords-in-custom-layers",
        "import tensorflow as tf\nfrom keras import layers\n\n\n"
        "class Routing(layers.Layer):\n    def call(self, inputs):\n"
        "        c = tf.nn.softmax(inputs, dim=1)\n"
        "        s = tf.reduce_sum(c * inputs, 1, keep_dims=True)\n"
        "        n = tf.compat.v1.reduce_max(s, reduction_indices=[1, 2])\n"
        "        return tf.argmax(s, dimension=-1), tf.expand_dims(n, dim=-1)\n\n\n"
        "both = tf.squeeze(x, axis=1, squeeze_dims=[1])\n"
        "kept = tf.nn.l2_normalize(x, dim=1)\n",
        "import tensorflow as tf\nfrom keras import layers\n\n\n"
        "class Routing(layers.Layer):\n    def call(self, inputs):\n"
        "        c = tf.nn.softmax(inputs, axis=1)\n"
        "        s = tf.reduce_sum(c * inputs, 1, keepdims=True)\n"
        "        n = tf.compat.v1.reduce_max(s, axis=[1, 2])\n"
        "        return tf.argmax(s, axis=-1), tf.expand_dims(n, axis=-1)\n\n\n"
        "both = tf.squeeze(x, axis=1, squeeze_dims=[1])\n"
        "kept = tf.nn.l2_normalize(x, dim=1)\n",
        [],
    ),
    (
        # deep-learning-models' resnet50.py and its copies: the private shape helper
        "obtain-input-shape-warned",
        "from keras.applications.imagenet_utils import _obtain_input_shape\n"
        "from keras.applications.imagenet_utils import preprocess_input\n"
        "shape = _obtain_input_shape(None, default_size=224, min_size=197, "
        "data_format='channels_last', include_top=True)\n",
        "from keras.applications.imagenet_utils import _obtain_input_shape\n"
        "from keras.applications.imagenet_utils import preprocess_input\n"
        "shape = _obtain_input_shape(None, default_size=224, min_size=197, "
        "data_format='channels_last', include_top=True)\n",
        [
            (
                1,
                "keras.applications.imagenet_utils._obtain_input_shape left unchanged: a private "
                "Keras 2 helper",
            )
        ],
    ),
    (
        # CapsNet-Keras' shifted-MNIST generator and a GAN loop's augmented batch
        "keras-iterator-next",
        "from keras.preprocessing.image import ImageDataGenerator\n\n\n"
        "def train_generator(x, y, batch_size, shift):\n"
        "    datagen = ImageDataGenerator(width_shift_range=shift)\n"
        "    generator = datagen.flow(x, y, batch_size=batch_size)\n"
        "    while 1:\n        x_batch, y_batch = generator.next()\n"
        "        yield ([x_batch, y_batch], [y_batch, x_batch])\n\n\n"
        "batch = ImageDataGenerator().flow(x, batch_size=8).next()\n"
        "reader = open_reader()\nrow = reader.next()\n",
        "from tensorflow.keras.preprocessing.image import ImageDataGenerator\n\n\n"
        "def train_generator(x, y, batch_size, shift):\n"
        "    datagen = ImageDataGenerator(width_shift_range=shift)\n"
        "    generator = datagen.flow(x, y, batch_size=batch_size)\n"
        "    while 1:\n        x_batch, y_batch = next(generator)\n"
        "        yield ([x_batch, y_batch], [y_batch, x_batch])\n\n\n"
        "batch = next(ImageDataGenerator().flow(x, batch_size=8))\n"
        "reader = open_reader()\nrow = reader.next()\n",
        [],
    ),
    (
        # multi-input / multi-output batches: CapsNet's (inputs, targets) of lists, siamese
        # pairs as validation data; a generator no training call reads keeps its lists
        "generator-batches-as-tuples",
        "def train_generator(x, y, batch_size):\n"
        "    while 1:\n        xb, yb = x[:batch_size], y[:batch_size]\n"
        "        yield ([xb, yb], [yb, xb])\n\n\n"
        "def pairs(n):\n    for i in range(n):\n        yield [left[i], right[i]], labels[i]\n\n\n"
        "def chunks():\n    yield [1, 2]\n\n\n"
        "model.fit(train_generator(x_train, y_train, 8), steps_per_epoch=10,\n"
        "          validation_data=pairs(3))\n",
        "def train_generator(x, y, batch_size):\n"
        "    while 1:\n        xb, yb = x[:batch_size], y[:batch_size]\n"
        "        yield ((xb, yb), (yb, xb))\n\n\n"
        "def pairs(n):\n    for i in range(n):\n        yield (left[i], right[i]), labels[i]\n\n\n"
        "def chunks():\n    yield [1, 2]\n\n\n"
        "model.fit(train_generator(x_train, y_train, 8), steps_per_epoch=10,\n"
        "          validation_data=pairs(3))\n",
        [],
    ),
    (
        # an image classifier's steps counted from the directory iterators by true division:
        # floats, which Keras 2's generator loops ran as their ceiling; whole numbers stay
        "generator-steps-true-division",
        "train_steps = train_batches.samples / batch_size\n"
        "valid_steps = valid_batches.samples // batch_size\n"
        "epochs = 3\n"
        "model.fit_generator(train_batches, steps_per_epoch=train_steps, epochs=epochs,\n"
        "    validation_data=valid_batches, validation_steps=valid_steps)\n"
        "model.evaluate_generator(test_batches, test_batches.samples / batch_size)\n"
        "model.predict_generator(test_batches, steps=len(test_batches))\n",
        "import math\n\n"
        "train_steps = train_batches.samples / batch_size\n"
        "valid_steps = valid_batches.samples // batch_size\n"
        "epochs = 3\n"
        "model.fit(train_batches, steps_per_epoch=math.ceil(train_steps), epochs=epochs,\n"
        "    validation_data=valid_batches, validation_steps=valid_steps)\n"
        "model.evaluate(test_batches, steps=math.ceil(test_batches.samples / batch_size))\n"
        "model.predict(test_batches, steps=len(test_batches))\n",
        [],
    ),
    (
        # a detector's generator reached through a wrapper that returns its call (or None for
        # no annotation lines), its image and target arrays yielded as one list of inputs
        "generator-batches-through-a-wrapper",
        "import numpy as np\n"
        "def boxes_generator(lines, batch_size, anchors):\n"
        "    while True:\n        images, targets = load(lines, batch_size, anchors)\n"
        "        yield [images, *targets], np.zeros(batch_size)\n\n\n"
        "def boxes_generator_wrapper(lines, batch_size, anchors):\n"
        "    if not lines or batch_size <= 0:\n        return None\n"
        "    return boxes_generator(lines, batch_size, anchors)\n\n\n"
        "model.fit_generator(boxes_generator_wrapper(train, 8, anchors), steps_per_epoch=10,\n"
        "    validation_data=boxes_generator_wrapper(val, 8, anchors), validation_steps=2)\n",
        "import numpy as np\n"
        "def boxes_generator(lines, batch_size, anchors):\n"
        "    while True:\n        images, targets = load(lines, batch_size, anchors)\n"
        "        yield (images, *targets), np.zeros(batch_size)\n\n\n"
        "def boxes_generator_wrapper(lines, batch_size, anchors):\n"
        "    if not lines or batch_size <= 0:\n        return None\n"
        "    return boxes_generator(lines, batch_size, anchors)\n\n\n"
        "model.fit(boxes_generator_wrapper(train, 8, anchors), steps_per_epoch=10,\n"
        "    validation_data=boxes_generator_wrapper(val, 8, anchors), validation_steps=2)\n",
        [],
    ),
    (
        # a data loader's helper function that nothing concerns, before the generator in a file
        # the walk is not focused on: the walk does not go into it, yet the command's visit and
        # leave of it come in pairs
        "generator-batches-after-a-function-left-alone",
        "def padded(rows, n):\n    return [r + [0] * (n - len(r)) for r in rows]\n\n\n"
        "def batches(rows):\n    while True:\n        x = padded(rows, 8)\n"
        "        yield [x, x], None\n\n\n"
        "model.fit_generator(batches(train), steps_per_epoch=1)\n"
        "model.fit_generator(batches(valid), steps_per_epoch=1)\n"
        "model.evaluate_generator(batches(valid), steps=1)\n"
        "model.predict_generator(batches(test), steps=1)\n",
        "def padded(rows, n):\n    return [r + [0] * (n - len(r)) for r in rows]\n\n\n"
        "def batches(rows):\n    while True:\n        x = padded(rows, 8)\n"
        "        yield (x, x), None\n\n\n"
        "model.fit(batches(train), steps_per_epoch=1)\n"
        "model.fit(batches(valid), steps_per_epoch=1)\n"
        "model.evaluate(batches(valid), steps=1)\n"
        "model.predict(batches(test), steps=1)\n",
        [],
    ),
    (
        # a drone-navigation iterator of two outputs (steering, collision) and a siamese
        # Sequence: the batches their methods return; a list the method also appends to, and
        # the returns of other methods and functions, are left alone
        "sequence-batches-as-tuples",
        "import numpy as np\nfrom keras.preprocessing.image import Iterator\n"
        "from keras.utils import Sequence\n\n\n"
        "class SteerIterator(Iterator):\n"
        "    def _get_batches_of_transformed_samples(self, index_array):\n"
        "        batch_x = self.x[index_array]\n"
        "        batch_y = [self.steer[index_array], self.coll[index_array]]\n"
        "        return batch_x, batch_y\n\n\n"
        "class Pairs(Sequence):\n    def __getitem__(self, idx):\n"
        "        names = [self.left[idx]]\n        names.append(self.right[idx])\n"
        "        return [self.left[idx], self.right[idx]], self.labels[idx]\n\n"
        "    def sizes(self):\n        return [len(self.left), len(self.right)], 2\n\n\n"
        "def split():\n    return [1, 2], 3\n",
        "import numpy as np\nfrom tensorflow.keras.preprocessing.image import Iterator\n"
        "from keras.utils import Sequence\n\n\n"
        "class SteerIterator(Iterator):\n"
        "    def _get_batches_of_transformed_samples(self, index_array):\n"
        "        batch_x = self.x[index_array]\n"
        "        batch_y = (self.steer[index_array], self.coll[index_array])\n"
        "        return batch_x, batch_y\n\n\n"
        "class Pairs(Sequence):\n    def __getitem__(self, idx):\n"
        "        names = [self.left[idx]]\n        names.append(self.right[idx])\n"
        "        return (self.left[idx], self.right[idx]), self.labels[idx]\n\n"
        "    def sizes(self):\n        return [len(self.left), len(self.right)], 2\n\n\n"
        "def split():\n    return [1, 2], 3\n",
        [],
    ),
    (
        # DEC-keras' autoencoder pretraining: an integer learning rate, which Keras 3 refuses
        "integer-learning-rate",
        "from keras.optimizers import SGD\n"
        "pretrain_optimizer = SGD(lr=1, momentum=0.9)\n"
        "fine = SGD(lr=0.01, momentum=0.9)\n",
        "from keras.optimizers import SGD\n"
        "pretrain_optimizer = SGD(learning_rate=1.0, momentum=0.9)\n"
        "fine = SGD(learning_rate=0.01, momentum=0.9)\n",
        [],
    ),
    (
        # a capsule layer's per-sample map: exact with (fn, elems) alone
        "backend-map-fn",
        "from keras import backend as K\nfrom keras import layers\n\n\n"
        "class Caps(layers.Layer):\n    def call(self, inputs):\n"
        "        norms = K.map_fn(lambda x: K.sum(x, -1), inputs)\n"
        "        return K.map_fn(lambda x: x, norms, dtype='float32')\n",
        "from keras import backend as K\nfrom keras import layers\nimport keras\n\n\n"
        "class Caps(layers.Layer):\n    def call(self, inputs):\n"
        "        norms = keras.ops.map(lambda x: keras.ops.sum(x, -1), inputs)\n"
        "        return K.map_fn(lambda x: x, norms, dtype='float32')\n",
        [(8, "K.map_fn() left unchanged")],
    ),
    (
        # a data-parallel helper of Keras 2's time: each of the template's symbolic inputs is
        # sliced per tower, its static shape read the TensorFlow way (KerasTensor has none)
        "tensor-get-shape-as-list",
        "import tensorflow as tf\nfrom keras.layers import Lambda\n\n\n"
        "def towers(template, n):\n    pieces = []\n"
        "    for k in range(n):\n        with tf.device('/gpu:%d' % k):\n"
        "            for t in template.inputs:\n"
        "                dims = tuple(t.get_shape().as_list())[1:]\n"
        "                rows = (t.get_shape ( ) . as_list())[0]\n"
        "                pieces.append(Lambda(lambda z: z, output_shape=dims)(t))\n"
        "    return pieces, template.output.get_shape()\n",
        "import tensorflow as tf\nfrom keras.layers import Lambda\n\n\n"
        "def towers(template, n):\n    pieces = []\n"
        "    for k in range(n):\n        with tf.device('/gpu:%d' % k):\n"
        "            for t in template.inputs:\n"
        "                dims = tuple(list(t.shape))[1:]\n"
        "                rows = (list(t.shape))[0]\n"
        "                pieces.append(Lambda(lambda z: z, output_shape=dims)(t))\n"
        "    return pieces, template.output.get_shape()\n",
        [],
    ),
    (
        # a weight exporter walking a kernel's dimensions and a batch norm's vectors: indexed
        # shapes of Keras variables; a shape handed on, sliced or reassigned is left
        "variable-get-shape-indexed",
        "from keras.models import load_model\n\n\n"
        "def export_kernel(layer, out):\n"
        "    shape = layer.weights[0].get_shape()\n"
        "    for k in range(shape[3]):\n        for c in range(shape[-2]):\n"
        "            out.write(str(layer.get_weights()[0][0][0][c][k]))\n"
        "    for i in range(4):\n"
        "        for j in range(layer.weights[i].get_shape()[0]):\n            pass\n\n\n"
        "def left(layer, n):\n"
        "    dims = layer.kernel.get_shape()\n    rank = dims.ndims\n"
        "    head = layer.bias.get_shape()[1:]\n"
        "    size = layer.bias.get_shape()\n    size = size[0]\n"
        "    return dims, rank, head, size, layer.kernel.get_shape()[n]\n",
        "from keras.models import load_model\n\n\n"
        "def export_kernel(layer, out):\n"
        "    shape = layer.weights[0].shape\n"
        "    for k in range(shape[3]):\n        for c in range(shape[-2]):\n"
        "            out.write(str(layer.get_weights()[0][0][0][c][k]))\n"
        "    for i in range(4):\n"
        "        for j in range(layer.weights[i].shape[0]):\n            pass\n\n\n"
        "def left(layer, n):\n"
        "    dims = layer.kernel.get_shape()\n    rank = dims.ndims\n"
        "    head = layer.bias.get_shape()[1:]\n"
        "    size = layer.bias.get_shape()\n    size = size[0]\n"
        "    return dims, rank, head, size, layer.kernel.shape[n]\n",
        [],
    ),
    (
        # TensorFlow 1 shapes for the whole process: list() would give Dimension objects
        "tensor-get-shape-as-list-v1-shapes-left",
        "import tensorflow.compat.v1 as tf\nfrom keras import layers\n\n"
        "tf.disable_v2_behavior()\nx = tf.placeholder(tf.float32, [None, 4])\n"
        "width = x.get_shape().as_list()[1]\n",
        "import tensorflow.compat.v1 as tf\nfrom keras import layers\n\n"
        "tf.disable_v2_behavior()\nx = tf.placeholder(tf.float32, [None, 4])\n"
        "width = x.get_shape().as_list()[1]\n",
        [],
    ),
    (
        # a Keras 2 helper that cleared the default graph before each model (TensorBoard's graph
        # view): the graph eager code and Keras 3 never build in, cleared under tf.compat.v1
        "reset-default-graph-beside-keras",
        "import tensorflow as tf\nfrom keras import layers, models\n\n\n"
        "def build(width):\n    tf.reset_default_graph()\n"
        "    inputs = layers.Input(shape=(width,))\n"
        '    with tf.device("/cpu:0"):\n        outputs = layers.Dense(1)(inputs)\n'
        "    return models.Model(inputs, outputs)\n",
        "import tensorflow.compat.v1 as tf\nfrom keras import layers, models\n\n\n"
        "def build(width):\n    tf.reset_default_graph()\n"
        "    inputs = layers.Input(shape=(width,))\n"
        '    with tf.device("/cpu:0"):\n        outputs = layers.Dense(1)(inputs)\n'
        "    return models.Model(inputs, outputs)\n",
        [],
    ),
    (
        # a toxic-comment classifier's attention pooling: Keras 2.1's add_weight(name, shape)
        "custom-layer-add-weight-name-first",
        "from keras import backend as K\nfrom keras.layers import Layer\n\n\n"
        "class Pool(Layer):\n    def build(self, input_shape):\n"
        "        self.u = self.add_weight('context', (input_shape[-1], 1), None, 'normal')\n"
        "        self.b = self.add_weight('{}_b'.format(self.name), (1,), initializer='zeros')\n"
        "        self.s = self.add_weight((1,), 'ones', name='scale')\n"
        "        super(Pool, self).build(input_shape)\n",
        "from keras import backend as K\nfrom keras.layers import Layer\n\n\n"
        "class Pool(Layer):\n    def build(self, input_shape):\n"
        "        self.u = self.add_weight(name='context', shape=(input_shape[-1], 1), "
        "dtype=None, initializer='normal')\n"
        "        self.b = self.add_weight(name='{}_b'.format(self.name), shape=(1,), "
        "initializer='zeros')\n"
        "        self.s = self.add_weight((1,), 'ones', name='scale')\n"
        "        super(Pool, self).build(input_shape)\n",
        [],
    ),
    (
        # emoji and document classifiers' attention layers list their weights by hand
        "custom-layer-weights-listed",
        "from keras import backend as K\nfrom keras import initializers\n"
        "from keras.engine.topology import Layer\n\n\n"
        "class WordAttention(Layer):\n    def __init__(self, **kwargs):\n"
        "        self.init = initializers.get('normal')\n"
        "        super(WordAttention, self).__init__(**kwargs)\n\n"
        "    def build(self, input_shape):\n"
        "        self.W = K.variable(self.init((input_shape[-1], 1)))\n"
        "        self.trainable_weights = [self.W]\n"
        "        self.gain = self.add_weight(shape=(1,), name='gain', initializer='ones')\n"
        "        self.non_trainable_weights = [self.gain]\n\n\n"
        "class Odd(Layer):\n    def build(self, input_shape):\n"
        "        self.W = K.variable(K.zeros((3, 1)))\n"
        "        self.trainable_weights = [self.W]\n",
        "from keras import backend as K\nfrom keras import initializers\n"
        "from keras.layers import Layer\n\n\n"
        "class WordAttention(Layer):\n    def __init__(self, **kwargs):\n"
        "        self.init = initializers.get('normal')\n"
        "        super(WordAttention, self).__init__(**kwargs)\n\n"
        "    def build(self, input_shape):\n"
        "        self.W = self.add_weight(shape=(input_shape[-1], 1), initializer=self.init)\n"
        "        self.gain = self.add_weight(shape=(1,), name='gain', initializer='ones', "
        "trainable=False)\n\n\n"
        "class Odd(Layer):\n    def build(self, input_shape):\n"
        "        self.W = K.variable(K.zeros((3, 1)))\n"
        "        self.trainable_weights = [self.W]\n",
        [
            (20, "K.variable() left unchanged"),
            (20, "K.zeros() left unchanged"),
            (21, "self.trainable_weights = ... left unchanged"),
        ],
    ),
    (
        # a TF 1.x forecasting model on tf.keras' cuDNN layers, ported once through compat.v1
        "cudnn-layers-tf-keras-paths",
        "import tensorflow as tf\nfrom tensorflow.compat.v1.keras.layers import CuDNNLSTM\n"
        "from tensorflow.keras.layers import CuDNNGRU as FastGRU, Dense\n\n\n"
        "def stack(units):\n"
        "    return [CuDNNLSTM(units, return_sequences=True), FastGRU(units),\n"
        "            tf.keras.layers.CuDNNLSTM(units), tf.compat.v1.keras.layers.CuDNNGRU(units),\n"
        "            Dense(1)]\n",
        "import tensorflow as tf\nfrom tensorflow.keras.layers import LSTM as CuDNNLSTM\n"
        "from tensorflow.keras.layers import GRU as FastGRU, Dense\n\n\n"
        "def stack(units):\n"
        "    return [CuDNNLSTM(units, return_sequences=True), FastGRU(units),\n"
        "            tf.keras.layers.LSTM(units), tf.compat.v1.keras.layers.GRU(units),\n"
        "            Dense(1)]\n",
        [],
    ),
    (
        # the layers of a star import, cuDNN ones among them as TF 1.x's tf.keras had them
        "cudnn-layers-star-import",
        "from tensorflow.keras.models import Sequential\nfrom tensorflow.keras.layers import *\n\n"
        "model = Sequential()\nmodel.add(CuDNNLSTM(32, input_shape=(10, 4)))\n"
        "model.add(Bidirectional(CuDNNGRU(8)))\n",
        "from tensorflow.keras.models import Sequential\nfrom tensorflow.keras.layers import *\n\n"
        "model = Sequential()\nmodel.add(LSTM(32, input_shape=(10, 4)))\n"
        "model.add(Bidirectional(GRU(8)))\n",
        [],
    ),
    (
        # a Kaggle kernel's reproducibility preamble, beside Keras 2 imports
        "tf1-names-imported-by-name",
        "import numpy as np\nfrom tensorflow import set_random_seed, keras\n"
        "from tensorflow import logging as tf_logging\nfrom tensorflow import placeholder\n"
        "from keras.models import Sequential\n\nnp.random.seed(1)\nset_random_seed(1)\n",
        "import numpy as np\nfrom tensorflow import keras\n"
        "from tensorflow.compat.v1 import set_random_seed\n"
        "from tensorflow.compat.v1 import logging as tf_logging\nfrom tensorflow import placeholder\n"
        "from keras.models import Sequential\n\nnp.random.seed(1)\nset_random_seed(1)\n",
        [(4, "from tensorflow import placeholder left unchanged")],
    ),
    (
        # the attention block of Keras 2 time-series scripts reads its steps as a Dimension
        "tensor-dimension-value",
        "from keras.layers import Dense, Multiply, Permute\n\n\n"
        "def attention_block(inputs):\n    steps = inputs.shape[1].value\n"
        "    width = int(inputs.get_shape()[-1].value)\n"
        "    a = Dense(steps, activation='softmax')(Permute((2, 1))(inputs))\n"
        "    return Multiply()([inputs, Permute((2, 1))(a)]), width, settings.value\n",
        "from keras.layers import Dense, Multiply, Permute\n\n\n"
        "def attention_block(inputs):\n    steps = inputs.shape[1]\n"
        "    width = int(inputs.shape[-1])\n"
        "    a = Dense(steps, activation='softmax')(Permute((2, 1))(inputs))\n"
        "    return Multiply()([inputs, Permute((2, 1))(a)]), width, settings.value\n",
        [],
    ),
    (
        # a sentiment classifier saved under a bare name, read back below (Keras 2 wrote HDF5)
        "model-saved-without-ending",
        "from keras.models import Sequential, load_model\nfrom keras.layers import Dense\n"
        "from PIL import Image\n\n"
        "model = Sequential([Dense(1, input_shape=(4,))])\nmodel.save('sentiment_model')\n"
        "model.save('backup.hdf5')\nmodel.save('final.keras')\n"
        "Image.new('L', (2, 2)).save('preview')\nclassifier = load_model('sentiment_model')\n",
        "from keras.models import Sequential, load_model\nfrom keras.layers import Dense\n"
        "from PIL import Image\n\n"
        "model = Sequential([Dense(1, input_shape=(4,))])\nmodel.save('sentiment_model.h5')\n"
        "model.save('backup.h5')\nmodel.save('final.keras')\n"
        "Image.new('L', (2, 2)).save('preview')\nclassifier = load_model('sentiment_model.h5')\n",
        [
            (6, "save: the file is now named 'sentiment_model.h5'"),
            (7, "save: the file is now named 'backup.h5'"),
        ],
    ),
    (
        # tf.keras of TensorFlow 2 wrote a SavedModel under a bare name: not HDF5, left
        "model-saved-without-ending-tf-keras-left",
        "from tensorflow.keras.models import Sequential\n\n"
        "model = Sequential()\nmodel.save('exported')\n",
        "from tensorflow.keras.models import Sequential\n\n"
        "model = Sequential()\nmodel.save('exported')\n",
        [],
    ),
    (
        # a gesture recogniser's checkpoint path ends in .model, HDF5 all the same in Keras 2
        "checkpoint-other-ending-standalone-keras",
        "from keras.callbacks import ModelCheckpoint\n\n\n"
        "def callbacks(out):\n    path = out + '/best.model'\n"
        "    return [ModelCheckpoint(path, save_best_only=True),\n"
        "            ModelCheckpoint('last.ckpt')]\n",
        "from keras.callbacks import ModelCheckpoint\n\n\n"
        "def callbacks(out):\n    path = out + '/best.model.h5'\n"
        "    return [ModelCheckpoint(path, save_best_only=True),\n"
        "            ModelCheckpoint('last.ckpt.h5')]\n",
        [
            (5, "path: the file is now named out + '/best.model.h5'"),
            (7, "ModelCheckpoint: the file is now named 'last.ckpt.h5'"),
        ],
    ),
]
