"""The one-line hints after a failing script's traceback: where they belong, and nowhere else.

The failures are real: Keras 3 rejecting Keras 2 calls, TensorFlow 2 lacking TF1 names, and a
v1 graph whose op is pinned to a GPU this machine does not have.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os

import pytest

from tests._child import run_py, run_script

pytestmark = pytest.mark.tf

try:
    KERAS3 = int(importlib.metadata.version("keras").split(".")[0]) >= 3
except importlib.metadata.PackageNotFoundError:  # no Keras (the TensorFlow-free legs)
    KERAS3 = False

# Each case: code that fails for real -> which hint, if any, each flag combination gets.
MATRIX = r"""
    import tensorflow as tf
    import keras
    import numpy as np
    from tfcompat_gpu.dropin._hints import Flags, hint

    def failure(code):
        try:
            exec(code, {"tf": tf, "keras": keras, "np": np})
        except BaseException as exc:
            return exc
        raise AssertionError(code)

    cases = {
        "lr": "keras.optimizers.Adam(lr=0.001)",
        "fit_generator": "m = keras.Sequential([keras.layers.Dense(1)]); m.fit_generator(iter([]))",
        "np_utils": "from keras.utils import np_utils",
        "layers.core": "import keras.layers.core",
        "placeholder": "tf.placeholder(tf.float32)",
        "v1 optimizer": "tf.train.AdamOptimizer(0.1)",
        "placeholder in eager": "tf.compat.v1.placeholder(tf.float32)",
        "session on eager tensors": "x = tf.constant(1.0)\nwith tf.compat.v1.Session() as s:\n    s.run(x)",
        "pinned": (
            "g = tf.Graph()\n"
            "with g.as_default(), tf.device('/device:GPU:0'):\n"
            "    x = tf.constant(1.0) * 2.0\n"
            "config = tf.compat.v1.ConfigProto(allow_soft_placement=False)\n"
            "with tf.compat.v1.Session(graph=g, config=config) as s:\n"
            "    s.run(x)\n"
        ),
        "unrelated": "1 / 0",
        "tf typo": "tf.nonexistent_function()",
        "keras model typo": "keras.Sequential().fit_generatr",
        "wrong argument": "keras.optimizers.Adam(lrate=0.1)",
        "user error like keras": "raise ValueError('Argument(s) not recognized: {\\'lr\\': 1}')",
    }
    flags = {"none": Flags(), "tf1": Flags(tf1=True), "legacy": Flags(legacy_keras=True),
             "soft": Flags(soft_placement=False)}
    out = {}
    for name, code in cases.items():
        exc = failure(code)
        out[name] = {f: hint(exc, flag) for f, flag in flags.items()}
    emit(out)
"""


def _flag(line: str | None) -> str | None:
    if line is None:
        return None
    assert line.startswith("tfcompat-gpu run: hint: ")
    flags = [f for f in ("--legacy-keras", "--tf1", "--soft-placement") if f in line]
    assert len(flags) == 1, line
    return flags[0]


@pytest.mark.skipif(not KERAS3, reason="Keras 2 is `keras` here: its API is not a failure")
def test_each_hint_where_it_belongs_and_nowhere_else():
    out = run_py(MATRIX)
    got = {name: {f: _flag(line) for f, line in by_flag.items()} for name, by_flag in out.items()}
    keras = {
        "none": "--legacy-keras",
        "tf1": "--legacy-keras",
        "legacy": None,
        "soft": "--legacy-keras",
    }
    tf1 = {"none": "--tf1", "tf1": None, "legacy": "--tf1", "soft": "--tf1"}
    pinned = {
        "none": "--soft-placement",
        "tf1": "--soft-placement",
        "legacy": "--soft-placement",
        "soft": None,
    }
    nothing = {"none": None, "tf1": None, "legacy": None, "soft": None}
    assert got == {
        "lr": keras,
        "fit_generator": keras,
        "np_utils": keras,
        "layers.core": keras,
        "placeholder": tf1,
        "v1 optimizer": tf1,
        "placeholder in eager": tf1,
        "session on eager tensors": tf1,
        "pinned": pinned,
        "unrelated": nothing,
        "tf typo": nothing,
        "keras model typo": nothing,
        "wrong argument": nothing,
        "user error like keras": nothing,
    }
    assert "Adam" not in out["lr"]["none"]
    assert "the lr= argument" in out["lr"]["none"]
    assert "model.fit_generator()" in out["fit_generator"]["none"]
    assert "(tf.placeholder)" in out["placeholder"]["none"]
    assert "(tf.train.AdamOptimizer)" in out["v1 optimizer"]["none"]
    assert "/device:GPU:0" in out["pinned"]["none"]


TF1_SCRIPT = """
    import tensorflow as tf
    x = tf.placeholder(tf.float32, shape=[1])
    print("built")
"""


def test_tf1_hint_is_the_last_line_after_the_traceback_and_gone_with_the_flag(tmp_path):
    failed = run_script(tmp_path, TF1_SCRIPT, "--no-auto")
    assert failed.rc == 1
    lines = failed.err.rstrip("\n").splitlines()
    assert lines[-2] == "AttributeError: module 'tensorflow' has no attribute 'placeholder'"
    assert lines[-1].startswith("tfcompat-gpu run: hint: this is TensorFlow 1 graph code")
    assert "--tf1" in lines[-1]
    assert sum("hint:" in line for line in lines) == 1
    passed = run_script(tmp_path, TF1_SCRIPT, "--tf1")
    assert passed.rc == 0, passed.err
    assert passed.out == "built\n"
    assert "tfcompat-gpu run: hint" not in passed.err
    auto = run_script(tmp_path, TF1_SCRIPT)  # no flag: auto mode reads the TF1 code
    assert auto.rc == 0, auto.err
    assert auto.out == "built\n"
    assert "tfcompat-gpu run: TF1 graph code (tf.placeholder, line 2): using the v1 API" in auto.err


@pytest.mark.skipif(not KERAS3, reason="Keras 2 is `keras` here")
def test_keras2_hint_after_the_traceback_and_the_script_unchanged(tmp_path):
    script = "import keras\nprint('before')\nkeras.optimizers.Adam(lr=0.01)\nprint('after')\n"
    run = run_script(tmp_path, script, "--no-auto")
    assert run.rc == 1
    assert run.out == "before\n"  # the hint changed nothing of what ran
    lines = run.err.rstrip("\n").splitlines()
    assert lines[-2].startswith("ValueError: Argument(s) not recognized")
    assert lines[-1] == (
        "tfcompat-gpu run: hint: this is Keras 2 code (the lr= argument), which Keras 3 "
        "removed: rerun with --legacy-keras to run it on tf_keras."
    )


def test_no_hint_for_a_script_that_fails_for_its_own_reasons(tmp_path):
    run = run_script(tmp_path, "import tensorflow as tf\nraise SystemExit('bad input')\n")
    assert run.rc == 1
    assert run.err.splitlines()[-1] == "bad input"
    assert "tfcompat-gpu run: hint" not in run.err
    run = run_script(tmp_path, "import tensorflow as tf\n{}['missing']\n")
    assert run.rc == 1
    assert run.err.rstrip().splitlines()[-1] == "KeyError: 'missing'"
    assert "tfcompat-gpu run: hint" not in run.err


@pytest.mark.skipif(
    importlib.util.find_spec("tensorboard") is not None, reason="tensorboard is installed"
)
def test_missing_tensorboard_gets_its_install_command(tmp_path):
    script = """
        import tensorflow as tf
        from keras.callbacks import TensorBoard
        writer = tf.summary.create_file_writer("logs")
        with writer.as_default():
            tf.summary.scalar("loss", 1.0, step=0)
    """
    run = run_script(tmp_path, script)
    assert run.rc == 1
    lines = run.err.rstrip("\n").splitlines()
    before = [line for line in lines if "needs tensorboard" in line]
    assert before == [
        "tfcompat-gpu run: warning: this script needs tensorboard (TensorBoard callback, line 2), "
        "which TensorFlow no longer installs: pip install tensorboard (or pip install "
        '"tfcompat-gpu[legacy-keras]")'
    ]
    assert lines.index(before[0]) < lines.index("Traceback (most recent call last):")
    assert lines[-1] == (
        "tfcompat-gpu run: hint: tensorboard is not installed (TensorFlow no longer installs it): "
        'pip install tensorboard (or pip install "tfcompat-gpu[legacy-keras]").'
    )


CONTRIB = r"""
    import tfcompat_gpu
    tfcompat_gpu.install()
    import tensorflow as tf
    from tfcompat_gpu.dropin._hints import Flags, hint

    def failure(code):
        try:
            exec(code, {"tf": tf})
        except BaseException as exc:
            return exc
        raise AssertionError(code)

    cases = {
        "import slim": "import tensorflow.contrib.slim.nets",
        "from layers": "from tensorflow.contrib.layers import separable_conv2d",
        "from contrib": "from tensorflow.contrib import tensor_forest",
        "tensorboard": "import tensorflow.contrib.tensorboard",
        "no successor": "import tensorflow.contrib.bayesflow",
        "attribute": "tf.contrib.layers.separable_conv2d",
        "other import": "import tensorflow.nonexistent_module",
    }
    out = {}
    for name, code in cases.items():
        exc = failure(code)
        out[name] = [hint(exc, Flags()), hint(exc, Flags(tf1=True)), str(exc)]
    emit(out)
"""


def test_tf_contrib_modules_get_their_successor():
    # tf.contrib is gone since TensorFlow 2.0 and no flag brings it back: the line says where
    # each module went (public TF1 scripts: slim, contrib.layers, contrib.tensor_forest's random forest).
    out = run_py(CONTRIB)
    removed = (
        "tfcompat-gpu run: hint: tf.contrib.{}: tf.contrib was removed in TensorFlow 2.0, and "
        "the drop-in provides only tf.contrib.distribute, tf.contrib.layers' initializers, "
        "regularizers, fully_connected, flatten, batch_norm, dropout, conv2d, pooling (with "
        "tf.contrib.slim's) and summaries, tf.contrib.slim's prefetch_queue and model_analyzer, "
        "tf.contrib.framework's arg_scope and global-step functions, "
        "tf.contrib.rnn's core cells and stacked bidirectional RNNs, tf.contrib.seq2seq's "
        "sequence_loss, BasicDecoder, its helpers and dynamic_decode, "
        "tf.contrib.legacy_seq2seq's rnn_decoder, "
        "sequence_loss_by_example and sequence_loss, "
        "tf.contrib.learn.preprocessing.VocabularyProcessor, tf.contrib.factorization.KMeans, "
        "tf.contrib.crf, tf.contrib.eager and tf.contrib.summary. "
        "Use {} instead."
    )
    slim = "the tf-slim package (pip install tf-slim, then `import tf_slim as slim`)"
    assert out["import slim"][0] == out["import slim"][1] == removed.format("slim", slim)
    assert out["from layers"][0].startswith("tfcompat-gpu run: hint: tf.contrib.layers: ")
    assert (
        "Use tf_slim.layers of the tf-slim package (pip install tf-slim)" in out["from layers"][0]
    )
    assert "xavier_initializer" in out["from layers"][0]
    assert out["from contrib"][0].startswith("tfcompat-gpu run: hint: tf.contrib.tensor_forest: ")
    assert out["tensorboard"][0].startswith("tfcompat-gpu run: hint: tf.contrib.tensorboard: ")
    assert out["no successor"][0] == (
        "tfcompat-gpu run: hint: tf.contrib.bayesflow: tf.contrib was removed in TensorFlow 2.0, "
        "and the drop-in provides only tf.contrib.distribute, tf.contrib.layers' initializers, "
        "regularizers, fully_connected, flatten, batch_norm, dropout, conv2d, pooling (with "
        "tf.contrib.slim's) and summaries, tf.contrib.slim's prefetch_queue and model_analyzer, "
        "tf.contrib.framework's arg_scope and global-step functions, "
        "tf.contrib.rnn's core cells and stacked bidirectional RNNs, tf.contrib.seq2seq's "
        "sequence_loss, BasicDecoder, its helpers and dynamic_decode, "
        "tf.contrib.legacy_seq2seq's rnn_decoder, "
        "sequence_loss_by_example and sequence_loss, "
        "tf.contrib.learn.preprocessing.VocabularyProcessor, tf.contrib.factorization.KMeans, "
        "tf.contrib.crf, tf.contrib.eager and tf.contrib.summary. "
        "Use the TF2 module that replaced it."
    )
    # tf.contrib.layers reached as an attribute: the error itself says it (no hint repeats it)
    assert out["attribute"][0] is None
    assert "Use tf_slim.layers of the tf-slim package" in out["attribute"][2]
    assert out["other import"][:2] == [None, None]


PRIVATE_KERAS = """
    import numpy as np
    import tensorflow as tf
    from tensorflow.python.keras.layers import Layer
    from tensorflow.python.keras.utils import conv_utils


    class Resize(Layer):
        def call(self, inputs):
            return tf.image.resize(inputs, (8, 8))


    print(conv_utils.normalize_tuple(2, 2, "size"))
    model = tf.keras.Sequential([tf.keras.layers.InputLayer((4, 4, 3)), {layer}])
"""


def test_a_layer_of_tensorflow_python_keras_is_named_when_keras_refuses_it(tmp_path):
    # TF 1.13-era custom layers subclassed tf.keras' private home, which TensorFlow still ships
    # frozen; Keras 3 refuses its layers with an error that does not say why (tf_keras, where
    # TF_USE_LEGACY_KERAS=1 makes it tf.keras, wraps them as modules and goes on).
    run = run_script(tmp_path, PRIVATE_KERAS.format(layer="Resize()"))
    legacy = os.environ.get("TF_USE_LEGACY_KERAS", "") in ("1", "true", "True")
    if legacy or not KERAS3:
        assert run.rc == 0, run.err
        return
    assert run.rc == 1
    assert run.err.rstrip("\n").splitlines()[-1] == (
        "tfcompat-gpu run: hint: this script uses Layer from tensorflow.python.keras, "
        "TensorFlow's private copy of Keras 2, whose layers and models Keras 3 does not accept: "
        "import it from tensorflow.keras (or keras) instead."
    )
    # its helpers work: a failure of its own gets no hint
    own = run_script(
        tmp_path, PRIVATE_KERAS.format(layer="tf.keras.layers.Flatten()") + "    {}[1]\n"
    )
    assert own.rc == 1
    assert own.err.rstrip().splitlines()[-1] == "KeyError: 1"
