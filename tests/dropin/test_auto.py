"""Auto mode's static read: what each kind of legacy script turns on, and what must not switch.

No TensorFlow here: :mod:`tfcompat_gpu.dropin._auto` parses the files only.  Cases are
modelled on public legacy code (TF1 tutorials, Keras 2 examples, multi-GPU tower code).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tfcompat_gpu.dropin import _auto
from tfcompat_gpu.dropin._legacy_keras import keras_is_3

needs_keras3 = pytest.mark.skipif(not keras_is_3(), reason="Keras 3 is not installed")


def _choose(tmp_path: Path, code: str, gpus: int | None = 0, **flags: bool | None) -> _auto.Choice:
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent(code).lstrip("\n"), encoding="utf-8")
    reading = _auto.read(str(script))
    return _auto.choose(
        reading,
        str(script),
        tf1=bool(flags.get("tf1")),
        legacy_keras=bool(flags.get("legacy_keras")),
        soft_placement=flags.get("soft_placement"),  # type: ignore[arg-type]
        gpu_count=gpus,
        count_gpus=False,
    )


TF1_CASES = {
    "placeholder": (
        """
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 784])
        """,
        "tf.placeholder, line 2",
    ),
    "optimizer-and-init": (
        """
        import tensorflow as tf
        w = tf.Variable(tf.zeros([3]))
        train_step = tf.train.GradientDescentOptimizer(0.5).minimize(tf.reduce_sum(w))
        init = tf.global_variables_initializer()
        """,
        "tf.train.GradientDescentOptimizer, line 3",
    ),
    "session-run": (
        """
        import tensorflow as tf
        a = tf.constant(2.0)
        with tf.Session() as sess:
            print(sess.run(a))
        """,
        "sess.run(), line 4",
    ),
    "app-flags": (
        """
        import tensorflow as tf
        flags = tf.app.flags
        flags.DEFINE_integer("num_gpus", 1, "How many GPUs to use.")
        """,
        "tf.app.flags, line 2",
    ),
    "from-import": (
        """
        from tensorflow.train import AdamOptimizer
        opt = AdamOptimizer(1e-3)
        """,
        "tf.train.AdamOptimizer, line 1",
    ),
    "simple-save": (
        """
        import tensorflow as tf
        def export(sess, model):
            tf.saved_model.simple_save(sess, "export/1", {"x": model.input}, {"y": model.output})
        """,
        "tf.saved_model.simple_save, line 3",
    ),
    "resize-images": (
        """
        import tensorflow as tf
        def call(x):
            return tf.image.resize_images(x, (8, 8))
        """,
        "tf.image.resize_images, line 3",
    ),
    "keras-reproducibility": (
        """
        import numpy as np
        import tensorflow as tf
        from keras import backend as K
        session_conf = tf.ConfigProto(intra_op_parallelism_threads=1)
        np.random.seed(42)
        tf.set_random_seed(1234)
        sess = tf.Session(graph=tf.get_default_graph(), config=session_conf)
        K.set_session(sess)
        """,
        "tf.set_random_seed, line 6",
    ),
    # a capsule layer's routing (CapsNet-Keras): tf.nn.softmax took dim= up to TF 1.15
    "tf1-keyword": (
        """
        import tensorflow as tf
        from keras import layers
        class CapsuleLayer(layers.Layer):
            def call(self, b):
                return tf.nn.softmax(b, dim=1)
        """,
        "tf.nn.softmax(dim=...), line 5",
    ),
    # Keras 2 code reaching TensorFlow 1 through its backend's ``tf`` (an upsampling Lambda)
    "keras-backend-tf": (
        """
        from keras import backend as K
        from keras.layers import Lambda
        up = Lambda(lambda x: K.tf.image.resize_images(x, (64, 64)))
        """,
        "tf.image.resize_images, line 3",
    ),
    # a segmentation network's decoder upsampling with TF1's image functions
    "tf1-resize-bilinear": (
        """
        import tensorflow as tf
        def decoder(features, size):
            return tf.image.resize_bilinear(features, size, align_corners=True)
        """,
        "tf.image.resize_bilinear, line 3",
    ),
    "monitored": (
        """
        import tensorflow as tf
        hooks = [tf.train.StopAtStepHook(last_step=10)]
        with tf.train.MonitoredTrainingSession(hooks=hooks) as sess:
            pass
        """,
        "tf.train.StopAtStepHook, line 2",
    ),
}


@pytest.mark.parametrize("case", TF1_CASES, ids=list(TF1_CASES))
def test_tf1_graph_code_turns_on_the_v1_api(tmp_path, case):
    code, evidence = TF1_CASES[case]
    choice = _choose(tmp_path, code)
    assert choice.tf1 is True
    assert choice.message is not None
    assert f"TF1 graph code ({evidence})" in choice.message
    assert "using the v1 API" in choice.message
    assert "--no-auto" in choice.message


def test_a_local_module_counts_and_is_named_with_its_file(tmp_path):
    (tmp_path / "model.py").write_text(
        "import tensorflow as tf\n\ndef inputs():\n    return tf.placeholder(tf.float32)\n"
    )
    choice = _choose(tmp_path, "import model\nx = model.inputs()\n")
    assert choice.tf1 is True
    assert "tf.placeholder, model.py:4" in (choice.message or "")


def test_a_package_module_and_relative_imports_are_followed(tmp_path):
    (tmp_path / "nets").mkdir()
    (tmp_path / "nets" / "__init__.py").write_text("from .towers import tower\n")
    (tmp_path / "nets" / "towers.py").write_text(
        "import tensorflow as tf\n\ndef tower():\n    return tf.get_variable('w', [1])\n"
    )
    choice = _choose(tmp_path, "from nets import tower\n")
    assert choice.tf1 is True
    assert "tf.get_variable, towers.py:4" in (choice.message or "")


NOT_TF1 = {
    "placeholder-in-a-string": """
        import tensorflow as tf
        HELP = "tf.placeholder and tf.Session were TF1; this script uses tf.function"
        # tf.placeholder(tf.float32) is gone
        def f(x):
            '''Unlike tf.placeholder, x is a tensor.'''
            return x * 2
        print(tf.function(f)(tf.constant(1.0)))
        """,
    "compat-v1-spelled": """
        import tensorflow as tf
        tf.compat.v1.disable_eager_execution()
        x = tf.compat.v1.placeholder(tf.float32)
        with tf.compat.v1.Session() as sess:
            print(sess.run(x * 2, {x: 1.0}))
        """,
    "compat-v1-imported-as-tf": """
        import tensorflow.compat.v1 as tf
        tf.disable_v2_behavior()
        x = tf.placeholder(tf.float32)
        """,
    "own-placeholder-function": """
        import tensorflow as tf
        def placeholder(shape):
            return tf.zeros(shape)
        x = placeholder([2])
        """,
    "tf2-config": """
        import tensorflow as tf
        gpus = tf.config.list_physical_devices("GPU")
        for gpu in gpus:
            tf.config.experimental.set_memory_growth(gpu, True)
        """,
    "keras-set-session-only": """
        import tensorflow as tf
        from tensorflow.keras import backend as K
        config = tf.ConfigProto()
        config.gpu_options.allow_growth = True
        K.set_session(tf.Session(config=config))
        """,
    "other-run-method": """
        import subprocess
        import tensorflow as tf
        subprocess.run(["nvidia-smi"])
        """,
    "syntax-error": """
        import tensorflow as tf
        x = tf.placeholder(
        """,
    "tf2-keywords": "import tensorflow as tf\nx = tf.nn.softmax(y, axis=1)\n"
    "s = tf.reduce_sum(x, keepdims=True)\nn = tf.nn.l2_normalize(x, dim=1)\n",
}


@pytest.mark.parametrize("case", NOT_TF1, ids=list(NOT_TF1))
def test_tf2_code_is_left_alone(tmp_path, case):
    choice = _choose(tmp_path, NOT_TF1[case])
    assert choice == _auto.Choice()


@needs_keras3
@pytest.mark.parametrize(
    ("code", "evidence"),
    [
        (
            "from keras.optimizers import SGD\nopt = SGD(lr=0.01, momentum=0.9)\n",
            "SGD(lr=...), line 2",
        ),
        (
            # the convolutional autoencoder tutorial's callback: Keras 3's TensorBoard refuses it
            "from keras.callbacks import TensorBoard\n"
            "cb = TensorBoard(log_dir='/tmp/ae', histogram_freq=0, write_grads=False)\n",
            "TensorBoard(write_grads=...), line 2",
        ),
        (
            "import keras\ncb = keras.callbacks.ModelCheckpoint('w.h5', period=5)\n",
            "ModelCheckpoint(period=...), line 2",
        ),
        (
            # U-Net's data.py: Keras 3 keeps keras.preprocessing.image, without the generator
            "from keras.preprocessing.image import ImageDataGenerator\n"
            "datagen = ImageDataGenerator(rotation_range=0.2)\n",
            "ImageDataGenerator, line 1",
        ),
        (
            "import keras\nopt = keras.optimizers.Adam(lr=1e-3, decay=1e-6)\n",
            "Adam(lr=...), line 2",
        ),
        (
            "from tensorflow import keras\nopt = keras.optimizers.RMSprop(decay=0.9)\n",
            "RMSprop(decay=...), line 2",
        ),
        ("from keras.layers.merge import concatenate\n", "keras.layers.merge, line 1"),
        ("from keras.engine.topology import Layer\n", "keras.engine.topology, line 1"),
        ("from keras.utils import np_utils\n", "keras.utils.np_utils, line 1"),
        (
            "import keras\nclass A(keras.layers.merge._Merge):\n    pass\n",
            "keras.layers.merge, line 2",
        ),
        (
            "from keras.models import Sequential\nmodel = Sequential()\n"
            "model.fit_generator(gen, steps_per_epoch=10)\n",
            "model.fit_generator(), line 3",
        ),
        (
            "def main():\n    from keras.models import Sequential\n    m = Sequential()\n"
            "    m.fit(x, y, nb_epoch=10, batch_size=32)\n",
            "m.fit(nb_epoch=...), line 4",
        ),
        (
            "from keras.models import Sequential\nfrom keras.layers import Dense\n"
            "model = Sequential()\nmodel.add(Dense(64, init='uniform'))\n",
            "Dense(init=...), line 4",
        ),
        (
            "import keras\nconv = keras.layers.Convolution2D(32, nb_row=3, nb_col=3)\n",
            "Convolution2D(nb_row=...), line 2",
        ),
        (
            # a Lambda's maths in Keras 2's backend (the Siamese-network example)
            "from keras import backend as K\nfrom keras.layers import Lambda\n"
            "def dist(v):\n    x, y = v\n    return K.sqrt(K.sum(K.square(x - y), axis=1))\n"
            "out = Lambda(dist)\n",
            "K.sqrt, line 5",
        ),
        (
            "import tensorflow as tf\nshape = tf.keras.backend.int_shape(x)\n",
            "K.int_shape, line 2",
        ),
        (
            "from keras.models import Sequential\nmodel = Sequential()\n"
            "print(model.predict_classes(x))\n",
            "model.predict_classes(), line 3",
        ),
        ("from keras.layers import Bidirectional, CuDNNLSTM\n", "CuDNNLSTM, line 1"),
        ("import keras\nopt = keras.optimizers.adam()\n", "adam, line 2"),
        ("from keras.objectives import mse\n", "keras.objectives, line 1"),
        (
            "from keras.layers import LSTM\nlstm = LSTM(20, batch_size=8, stateful=True)\n",
            "LSTM(batch_size=...), line 2",
        ),
        (
            # a stateful time-series model given its batch on its first layer
            "from keras.models import Sequential\nfrom keras.layers import LSTM\n"
            "model = Sequential()\n"
            "model.add(LSTM(4, batch_input_shape=(1, 3, 1), stateful=True))\n",
            "LSTM(batch_input_shape=...), line 4",
        ),
        (
            # a deeper student network started from its teacher's weights (Net2Net-style)
            "from keras.layers import Conv2D\nfrom keras.models import Sequential\n"
            "student = Sequential()\n"
            "student.add(Conv2D(32, 3, padding='same', weights=grown))\n",
            "Conv2D(weights=...), line 4",
        ),
    ],
    ids=[
        "lr",
        "tensorboard-write-grads",
        "checkpoint-period",
        "image-data-generator",
        "lr-decay",
        "tf-keras-decay",
        "merge",
        "topology",
        "np_utils",
        "attr-chain",
        "fit_gen",
        "fit-nb_epoch",
        "dense-init",
        "conv-nb_row",
        "backend-maths",
        "tf-keras-backend",
        "predict_classes",
        "cudnn-lstm",
        "optimizer-alias",
        "objectives",
        "stateful-batch-size",
        "stateful-batch-input-shape",
        "layer-weights",
    ],
)
def test_keras2_code_turns_on_tf_keras(tmp_path, code, evidence):
    choice = _choose(tmp_path, code)
    assert choice.legacy_keras is True
    assert choice.tf1 is False
    assert f"Keras 2 API ({evidence})" in (choice.message or "")
    assert "using tf_keras" in (choice.message or "")


@needs_keras3
@pytest.mark.parametrize(
    "code",
    [
        "import keras\nmodel = keras.Sequential([keras.layers.Dense(1)])\n"
        "model.compile(optimizer=keras.optimizers.Adam(learning_rate=1e-3), loss='mse')\n",
        "from keras.layers import Dense, Concatenate\n",
        "import numpy as np\nclass Loader:\n    def fit_generator(self):\n        pass\n"
        "Loader().fit_generator()\n",
        "import torch\nopt = torch.optim.SGD([], lr=0.1)\n",
        "doc = 'call model.fit_generator(gen) with SGD(lr=0.1)'\n",
        "import xgboost\nbooster = xgboost.XGBClassifier()\nbooster.fit(x, y, nb_epoch=3)\n",
        # Keras 3's Embedding and Bidirectional still take weights=
        "from keras.layers import Embedding\nemb = Embedding(100, 8, weights=[matrix])\n",
        "from keras.preprocessing.image import img_to_array, load_img\n"
        "from keras.preprocessing.sequence import pad_sequences\n",
    ],
    ids=[
        "keras3-api",
        "layers-still-there",
        "fit_generator-without-keras",
        "torch-lr",
        "string",
        "nb_epoch-without-keras",
        "embedding-weights",
        "preprocessing-keras3-keeps",
    ],
)
def test_keras3_code_is_left_alone(tmp_path, code):
    assert _choose(tmp_path, code) == _auto.Choice()


@needs_keras3
@pytest.mark.parametrize(
    "code",
    [
        # Grad-CAM and WGAN-GP: gradients of symbolic tensors exist only in a v1 graph
        "from keras import backend as K\ngrads = K.gradients(loss, conv_output)[0]\n",
        # Keras 2's FAQ: a layer's output through K.function with the learning phase
        "from keras import backend as K\n"
        "f = K.function([model.layers[0].input, K.learning_phase()], [out])\n",
    ],
    ids=["gradients", "learning-phase"],
)
def test_keras2_graph_backend_turns_on_the_v1_api_and_tf_keras(tmp_path, code):
    choice = _choose(tmp_path, code)
    assert (choice.tf1, choice.legacy_keras) == (True, True)
    assert "using the v1 API and tf_keras" in (choice.message or "")


@needs_keras3
def test_backend_names_keras_3_keeps_are_left_alone(tmp_path):
    code = (
        "from keras import backend as K\nK.clear_session()\n"
        "K.set_image_data_format('channels_last')\neps = K.epsilon()\n"
    )
    assert _choose(tmp_path, code) == _auto.Choice()


@needs_keras3
def test_tf1_graph_code_that_uses_keras_gets_tf_keras_too(tmp_path):
    code = """
        import tensorflow as tf
        from keras.layers import Dense
        x = tf.placeholder(tf.float32, [None, 3])
        y = Dense(1)(x)
    """
    choice = _choose(tmp_path, code)
    assert (choice.tf1, choice.legacy_keras) == (True, True)
    assert "Keras in a v1 graph (import keras.layers, line 2" in (choice.message or "")
    assert "using the v1 API and tf_keras" in (choice.message or "")


@needs_keras3
def test_tf_keras_bound_to_a_name_is_keras_in_a_v1_graph(tmp_path):
    # a public "Keras model as a TF graph" script: ks = tf.keras, then tf.placeholder
    code = """
        import tensorflow as tf
        ks = tf.keras
        model = ks.models.Sequential()
        x = tf.placeholder(tf.float32, shape=(None, 2))
    """
    choice = _choose(tmp_path, code)
    assert (choice.tf1, choice.legacy_keras) == (True, True)
    assert "Keras in a v1 graph (tf.keras, line 2" in (choice.message or "")


@needs_keras3
def test_a_module_bound_by_assignment_is_followed_until_rebound(tmp_path):
    code = """
        import tensorflow as tf
        ks = tf.keras
        opt = ks.optimizers.Adam(lr=0.1)
    """
    choice = _choose(tmp_path, code)
    assert choice.legacy_keras
    assert "Keras 2 API (Adam(lr=...), line 3)" in (choice.message or "")
    rebound = """
        import tensorflow as tf
        ks = tf.keras
        ks = MyKeras()
        opt = ks.optimizers.Adam(lr=0.1)
    """
    assert not _choose(tmp_path, rebound).legacy_keras


@needs_keras3
def test_explicit_flags_are_not_repeated_and_not_undone(tmp_path):
    code = "import tensorflow as tf\nfrom keras.optimizers import SGD\nx = tf.placeholder(tf.float32)\nSGD(lr=1)\n"
    choice = _choose(tmp_path, code, tf1=True)
    assert (choice.tf1, choice.legacy_keras) == (False, True)
    assert "TF1" not in (choice.message or "")
    assert _choose(tmp_path, code, tf1=True, legacy_keras=True) == _auto.Choice()


PINNED = """
    import tensorflow as tf
    with tf.device("/gpu:{index}"):
        a = tf.constant([1.0])
    sess = tf.compat.v1.Session()
"""


@pytest.mark.parametrize(
    ("index", "gpus", "soft"),
    [(0, 0, True), (1, 1, True), (3, 2, True), (0, 1, False), (1, 2, False), (0, None, False)],
)
def test_soft_placement_when_pinned_beyond_the_machine(tmp_path, index, gpus, soft):
    choice = _choose(tmp_path, PINNED.format(index=index), gpus=gpus)
    assert choice.soft_placement is soft
    if soft:
        assert f"ops pinned to a GPU this machine lacks (tf.device('/gpu:{index}'), line 2" in (
            choice.message or ""
        )


def test_pins_in_tf2_eager_code_leave_soft_placement_alone(tmp_path):
    # TF2 eager places softly by default: nothing to switch on (legacy_examples/tf2_virtual_gpus.py)
    code = """
        import tensorflow as tf
        with tf.device('/device:GPU:0'):
            w = tf.constant([[2, -3.4]])
    """
    assert _choose(tmp_path, code, gpus=0) == _auto.Choice()


def test_computed_gpu_pins_count_only_on_a_machine_without_gpus(tmp_path):
    code = """
        import tensorflow.compat.v1 as tf
        tf.disable_eager_execution()
        for i in range(FLAGS.num_gpus):
            with tf.device('/gpu:%d' % i):
                pass
            with tf.device(f"/device:GPU:{i}"):
                pass
    """
    assert _choose(tmp_path, code, gpus=0).soft_placement is True
    assert _choose(tmp_path, code, gpus=2).soft_placement is False


def test_soft_placement_set_by_flag_or_settings_wins(tmp_path):
    code = PINNED.format(index=3)
    assert _choose(tmp_path, code, gpus=0, soft_placement=False) == _auto.Choice()
    assert _choose(tmp_path, code, gpus=0, soft_placement=True) == _auto.Choice()


def test_cpu_pins_and_strings_do_not_count(tmp_path):
    code = """
        import tensorflow as tf
        with tf.device("/cpu:0"):
            a = tf.constant(1.0)
        print("/gpu:3 is where it ran on the old cluster")
    """
    assert _choose(tmp_path, code, gpus=0) == _auto.Choice()


def test_estimator_note_names_the_line_and_the_way_out(tmp_path):
    code = """
        import tensorflow as tf
        config = tf.estimator.RunConfig(session_config=tf.ConfigProto())
    """
    choice = _choose(tmp_path, code)
    version = _auto._installed_version("tensorflow", "tensorflow-cpu")
    if version is None or version < (2, 16):
        assert choice.notes == ()
    else:
        (note,) = choice.notes
        assert "tf.estimator.RunConfig, line 2" in note
        assert "TensorFlow 2.16 removed" in note
        assert "tfcompat-gpu run --tf1" in note


def test_tensorboard_note_only_when_it_is_missing(tmp_path):
    import importlib.util

    code = """
        from keras.callbacks import TensorBoard
        cb = TensorBoard(log_dir="./logs")
    """
    choice = _choose(tmp_path, code)
    if importlib.util.find_spec("tensorboard") is not None:
        assert choice.notes == ()
    else:
        (note,) = choice.notes
        assert "needs tensorboard (TensorBoard callback, line 1)" in note
        assert "pip install tensorboard" in note


@pytest.mark.parametrize(
    "code",
    [
        "from tensorflow.examples.tutorials.mnist import input_data\n",
        "import tensorflow.examples.tutorials.mnist.input_data as input_data\n",
    ],
    ids=["from", "import"],
)
def test_the_served_mnist_loader_gets_no_note(tmp_path, code):
    choice = _choose(tmp_path, code + "mnist = input_data.read_data_sets('MNIST_data/')\n")
    assert choice.notes == ()


def test_tutorials_note_names_the_import_and_the_successor(tmp_path):
    code = "from tensorflow.examples.speech_commands import input_data\n"
    (note,) = _choose(tmp_path, code).notes
    assert "imports tensorflow.examples (import tensorflow.examples.speech_commands" in note
    assert "line 1" in note


def test_scipy_note_only_when_it_is_missing(tmp_path):
    import importlib.util

    code = """
        from keras.preprocessing.image import ImageDataGenerator
        gen = ImageDataGenerator(rotation_range=20, horizontal_flip=True)
    """
    choice = _choose(tmp_path, code)
    notes = [note for note in choice.notes if "scipy" in note]
    if importlib.util.find_spec("scipy") is not None:
        assert notes == []
    else:
        (note,) = notes
        assert "needs scipy (ImageDataGenerator, line 1" in note
        assert "pip install scipy" in note


def test_a_string_naming_the_tutorials_gets_no_note(tmp_path):
    assert (
        _choose(tmp_path, "doc = 'from tensorflow.examples.tutorials.mnist import x'\n").notes == ()
    )


def test_visible_gpu_count_without_nvml_or_driver_is_zero_here():
    # This machine has no NVIDIA driver: NVML cannot start, no /proc/driver/nvidia.
    count = _auto.visible_gpu_count()
    assert count is None or count >= 0


@needs_keras3
def test_tf_layers_is_keras_in_a_v1_graph(tmp_path):
    code = """
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 3])
        y = tf.layers.dense(x, 2)
    """
    choice = _choose(tmp_path, code)
    assert (choice.tf1, choice.legacy_keras) == (True, True)
    assert "Keras in a v1 graph (tf.layers.dense, line 3" in (choice.message or "")


@needs_keras3
def test_tf_nn_rnn_cell_is_keras_in_a_v1_graph(tmp_path):
    # TF1 RNN tutorials: the v1 cells are served by tf_keras only, as tf.layers is
    code = """
        import tensorflow as tf
        X = tf.placeholder(tf.float32, [None, 28, 28])
        cell = tf.nn.rnn_cell.BasicLSTMCell(16)
        outputs, states = tf.nn.dynamic_rnn(cell, X, dtype=tf.float32)
    """
    choice = _choose(tmp_path, code)
    assert (choice.tf1, choice.legacy_keras) == (True, True)
    assert "Keras in a v1 graph (tf.nn.rnn_cell.BasicLSTMCell, line 3" in (choice.message or "")


@needs_keras3
@pytest.mark.parametrize(
    ("code", "evidence"),
    [
        (
            """
            import tensorflow as tf
            X = tf.placeholder(tf.float32, [None, 6, 5])
            cell = tf.contrib.rnn.BasicLSTMCell(num_units=5, state_is_tuple=True)
            """,
            "tf.contrib.rnn.BasicLSTMCell, line 3",
        ),
        (
            """
            import tensorflow as tf
            from tensorflow.contrib import rnn
            X = tf.placeholder(tf.float32, [None, 28, 28])
            """,
            "tf.contrib.rnn, line 2",
        ),
    ],
    ids=["attribute", "import"],
)
def test_tf_contrib_rnn_is_keras_in_a_v1_graph(tmp_path, code, evidence):
    # hunkim's lab-12 and nlintz's 07_lstm: the drop-in serves the cells from tf.nn.rnn_cell
    choice = _choose(tmp_path, code)
    assert (choice.tf1, choice.legacy_keras) == (True, True)
    assert f"Keras in a v1 graph ({evidence}" in (choice.message or "")


def test_without_tf_keras_the_run_goes_on_and_says_why(tmp_path, monkeypatch, capsys):
    from tfcompat_gpu.commands import run as runner
    from tfcompat_gpu.dropin import _legacy_keras
    from tfcompat_gpu.errors import GPUConfigError
    from tfcompat_gpu.settings.config import GPUConfig

    def missing() -> str:
        raise GPUConfigError("--legacy-keras needs tf_keras, which is not installed.")

    monkeypatch.setattr(_legacy_keras, "check_available", missing)
    monkeypatch.setattr(_auto, "_keras_is_3", lambda: True)
    script = tmp_path / "train.py"
    script.write_text("import tensorflow as tf\nfrom keras.optimizers import SGD\nSGD(lr=1)\n")
    found = runner._Script.find(str(script))
    tf1, legacy, _, chosen = runner._auto(found, False, False, GPUConfig())
    assert (tf1, legacy, chosen) == (False, False, None)
    err = capsys.readouterr().err
    assert err == (
        "tfcompat-gpu run: warning: auto mode would run this script on tf_keras: --legacy-keras "
        "needs tf_keras, which is not installed.\n"
    )


def test_a_module_imported_by_name_from_its_package_is_followed(tmp_path):
    # keras-frcnn: `from keras_frcnn import resnet as nn`, whose RoiPoolingConv module (of the
    # same package) calls tf.image.resize_images
    (tmp_path / "detector").mkdir()
    (tmp_path / "detector" / "__init__.py").write_text("")
    (tmp_path / "detector" / "resnet.py").write_text(
        "from detector.roi import RoiPooling\n\ndef classifier(x):\n    return RoiPooling()(x)\n"
    )
    (tmp_path / "detector" / "roi.py").write_text(
        "import tensorflow as tf\n\nclass RoiPooling:\n    def __call__(self, img):\n"
        "        return tf.image.resize_images(img, (7, 7))\n"
    )
    choice = _choose(tmp_path, "from detector import resnet as nn\nnn.classifier(None)\n")
    assert choice.tf1 is True
    assert "tf.image.resize_images, roi.py:5" in (choice.message or "")


@needs_keras3
def test_backend_read_through_a_keras_2_star_import_is_keras_2(tmp_path):
    # Keras 2's keras/models.py and callbacks.py did `from . import backend as K`
    choice = _choose(
        tmp_path,
        """
        from keras.models import *
        from keras.layers import *

        def scaled(x):
            return Lambda(lambda t: K.batch_dot(t[0], t[1], axes=[2, 2]))(x)
        """,
    )
    assert choice.legacy_keras is True
    assert "K.batch_dot" in (choice.message or "")
