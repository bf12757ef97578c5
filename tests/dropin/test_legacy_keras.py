"""``tfcompat-gpu run --legacy-keras``: Keras 2 scripts on a Keras 3 install, with real tf_keras.

Module identity is checked against the modules Python really loaded (no file of Keras 3 is
imported); GPU settings are checked in the report, in the session Keras uses and, on simulated
GPUs (``tests/simgpu.py``), in TensorFlow's own memory-growth setting.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests._child import ROOT, child_env, cli, run_py, run_script
from tests._keras import KERAS3, major, needs_keras3, needs_tf_keras

pytestmark = pytest.mark.tf


KERAS2_SCRIPT = """
    import importlib.metadata, os, sys
    import numpy as np
    import tensorflow as tf
    from simgpu import simulate_gpus
    gpus = simulate_gpus(1)
    import keras.backend.tensorflow_backend as KTF
    from keras import backend as K
    from keras.layers import Dense
    from keras.models import Sequential
    from keras.optimizers import Adam, SGD
    from keras.utils import np_utils
    import keras, tf_keras
    from tests._child import emit

    config = tf.ConfigProto()
    config.gpu_options.allow_growth = True
    config.gpu_options.per_process_gpu_memory_fraction = 0.4
    sess = tf.Session(config=config)
    KTF.set_session(sess)

    x = np.random.rand(48, 4).astype("float32")
    y = np_utils.to_categorical(np.random.randint(3, size=(48,)), 3)
    def batches():
        while True:
            for i in range(0, 48, 16):
                yield x[i:i + 16], y[i:i + 16]
    model = Sequential([Dense(8, activation="relu", input_dim=4), Dense(3, activation="softmax")])
    model.compile(optimizer=Adam(lr=0.005), loss="categorical_crossentropy")
    history = model.fit_generator(batches(), steps_per_epoch=3, epochs=2, verbose=0)

    keras3_dir = str(importlib.metadata.distribution("keras").locate_file("keras"))
    loaded = [m.__file__ for m in list(sys.modules.values()) if getattr(m, "__file__", None)]
    emit({
        "epochs": len(history.history["loss"]),
        "lr": round(float(K.get_value(model.optimizer.lr)), 4),
        "keras": keras.__name__,
        "dense_is_tf_keras": Dense is tf_keras.layers.Dense,
        "layers_is_tf_keras": keras.layers is tf_keras.layers or keras.__name__.endswith("_v1.keras"),
        "model_is_tf_keras": isinstance(model, tf_keras.Model),
        "keras3_files": [f for f in loaded if f.startswith(keras3_dir + os.sep)],
        "ktf_is_attribute": K.tensorflow_backend is KTF,
        "keras_session_fraction": round(K.get_session()._config.gpu_options.per_process_gpu_memory_fraction, 2),
        "growth_on_gpu": tf.config.experimental.get_memory_growth(gpus[0]),
        "eager": tf.executing_eagerly(),
    })
"""


@needs_tf_keras
@pytest.mark.parametrize("tf1", [False, True], ids=["tf2", "tf1"])
def test_keras2_script_runs_on_tf_keras_with_its_gpu_config(tmp_path, tf1):
    flags = ["--legacy-keras", "--tf1"] if tf1 else ["--legacy-keras"]
    run = run_script(tmp_path, KERAS2_SCRIPT, *flags)
    assert run.rc == 0, run.err
    out = run.result
    assert out["keras"] == ("tf_keras.api._v1.keras" if tf1 else "tf_keras")
    assert out["epochs"] == 2
    assert out["lr"] == 0.005  # Keras 2's lr=, which tf_keras alone would ignore
    assert out["dense_is_tf_keras"]
    assert out["layers_is_tf_keras"]
    assert out["model_is_tf_keras"]
    assert out["keras3_files"] == []  # no second Keras: not one file of Keras 3 was loaded
    assert out["ktf_is_attribute"]
    assert out["keras_session_fraction"] == 0.4
    assert out["growth_on_gpu"] is True
    assert out["eager"] is (not tf1)
    assert run.report["config"] == {"allow_growth": True, "per_process_gpu_memory_fraction": 0.4}
    assert "Traceback" not in run.err


@needs_tf_keras
def test_environment_variable_and_install_argument_do_the_same():
    out = run_py(
        """
        import os
        import tfcompat_gpu
        tfcompat_gpu.install(legacy_keras=True)
        import keras, tf_keras, keras.layers, keras.utils.np_utils
        import tensorflow as tf
        from keras.optimizers import SGD
        from tf_keras.optimizers.schedules import InverseTimeDecay
        sgd = SGD(lr=0.1, decay=0.5, momentum=0.9)
        emit({"same": keras is tf_keras, "layers": keras.layers is tf_keras.layers,
              "np_utils": keras.utils.np_utils.to_categorical([1], 2).tolist(),
              "tf_keras_env": os.environ.get("TF_USE_LEGACY_KERAS"),
              "tf.keras": tf.keras.layers.Dense is keras.layers.Dense,
              "decay": isinstance(sgd._learning_rate, InverseTimeDecay)
                       and round(float(sgd._learning_rate(2)), 4),
              "momentum": sgd.momentum})
        """
    )
    assert out == {
        "same": True,
        "layers": True,
        "np_utils": [[0.0, 1.0]],
        "tf_keras_env": "1",
        "tf.keras": True,
        "decay": 0.05,  # Keras 2: lr / (1 + decay * iterations)
        "momentum": 0.9,
    }
    run = run_py(
        "import tfcompat_gpu, keras, tf_keras\nemit(keras is tf_keras)\n",
        env={"TFCOMPAT_GPU_LEGACY_KERAS": "1"},
    )
    assert run is False  # the variable alone does nothing without install() / run
    run = run_py(
        "import tfcompat_gpu\ntfcompat_gpu.install()\nimport keras, tf_keras\nemit(keras is tf_keras)\n",
        env={"TFCOMPAT_GPU_LEGACY_KERAS": "1"},
    )
    assert run is True


@needs_tf_keras
def test_uninstall_gives_keras_3_back_and_too_late_is_an_error():
    out = run_py(
        """
        import tfcompat_gpu
        tfcompat_gpu.install(legacy_keras=True)
        import keras
        first = keras.__name__
        tfcompat_gpu.uninstall()
        import importlib, sys
        keras3 = importlib.import_module("keras")
        try:
            tfcompat_gpu.install(legacy_keras=True)
            error = None
        except tfcompat_gpu.GPUConfigError as exc:
            error = str(exc)
        emit({"first": first, "after": keras3.__version__.split(".")[0], "error": error})
        """
    )
    assert out["first"] == "tf_keras"
    assert out["after"] == "3"
    assert out["error"].startswith("legacy_keras: Keras 3 was imported before")


def _site_without_tf_keras(tmp_path: Path, fake_version: str | None) -> Path:
    """A copy of this interpreter's site-packages (symlinks) without tf_keras, or with its
    metadata saying ``fake_version``: a real environment, as a user's would be."""
    import sysconfig

    site = Path(sysconfig.get_paths()["purelib"])
    farm = tmp_path / "site"
    farm.mkdir()
    for entry in site.iterdir():
        if entry.name.startswith(("tf_keras-", "tf_keras")) and fake_version is None:
            continue
        if entry.name.startswith("tf_keras-") and entry.name.endswith(".dist-info"):
            info = farm / f"tf_keras-{fake_version}.dist-info"
            info.mkdir()
            (info / "METADATA").write_text(
                f"Metadata-Version: 2.1\nName: tf_keras\nVersion: {fake_version}\n"
            )
            continue
        (farm / entry.name).symlink_to(entry)
    return farm


@needs_keras3
@pytest.mark.parametrize("fake", [None, "2.19.0"], ids=["missing", "mismatched"])
def test_missing_or_mismatched_tf_keras_is_one_clear_error_before_the_script(tmp_path, fake):
    farm = _site_without_tf_keras(tmp_path, fake)
    (tmp_path / "script.py").write_text("print('ran')\n")
    env = child_env()
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(farm)])
    proc = subprocess.run(
        [sys.executable, "-S", "-m", "tfcompat_gpu", "run", "--legacy-keras", "script.py"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    tf_version = next(
        importlib.metadata.version(d)
        for d in ("tensorflow-cpu", "tensorflow")
        if importlib.util.find_spec("tensorflow") and major(d)
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith("tfcompat-gpu run: error: --legacy-keras")
    assert f"TensorFlow {tf_version}" in proc.stderr
    assert 'pip install "tfcompat-gpu[legacy-keras]"' in proc.stderr
    if fake:
        assert f"tf_keras {fake} does not match" in proc.stderr


@needs_tf_keras
def test_children_started_with_spawn_get_legacy_keras(tmp_path):
    script = """
        import multiprocessing
        import keras
        from tests._child import emit

        def worker(_):
            import tf_keras
            from keras.utils import np_utils
            return [keras.__name__, keras is tf_keras, np_utils.to_categorical([0], 2).tolist()]

        if __name__ == "__main__":
            with multiprocessing.get_context("spawn").Pool(1) as pool:
                emit(pool.map(worker, [0]))
    """
    run = run_script(tmp_path, script, "--legacy-keras")
    assert run.rc == 0, run.err
    assert run.result == [["tf_keras", True, [[1.0, 0.0]]]]


EXAMPLE = ROOT / "legacy_examples" / "keras2_generator_training.py"


@pytest.mark.parametrize("tf1", [False, True], ids=["tf2", "tf1"])
def test_keras2_example_runs_with_legacy_keras(tmp_path, tf1):
    if tf1 and not KERAS3:
        pytest.skip("Keras 2.15's optimizers do not run in a v1 graph; tf_keras's v1 API does")
    if KERAS3 and major("tf-keras") < 2:
        pytest.skip("needs tf_keras")
    flags = ["--legacy-keras", "--tf1"] if tf1 else ["--legacy-keras"]
    report = tmp_path / "report.json"
    proc = cli(
        "run", "--report", str(report), *flags, EXAMPLE.name, cwd=EXAMPLE.parent, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-2:] == ["epochs: 2", "learning rate: 0.005"]
    data = json.loads(report.read_text())
    # Keras 2.15's own set_session also makes the session's soft placement the process's.
    assert data["config"] in (
        {"allow_growth": True, "per_process_gpu_memory_fraction": 0.4},
        {
            "allow_growth": True,
            "per_process_gpu_memory_fraction": 0.4,
            "allow_soft_placement": True,
        },
    )
    assert data["where"] == f"{EXAMPLE.name}:15"


LEGACY_NAMES = """
    from tensorflow.python import Session, InteractiveSession
    from keras import backend
    import keras.backend.tensorflow_backend as KTF
    import tensorflow as tf
    from tests._child import emit
    tf.compat.v1.disable_eager_execution()
    sess = Session(config=tf.compat.v1.ConfigProto(intra_op_parallelism_threads=2))
    backend.tensorflow_backend.set_session(sess)
    emit({"session": Session is tf.compat.v1.Session,
          "interactive": InteractiveSession is tf.compat.v1.InteractiveSession,
          "attribute": backend.tensorflow_backend is KTF,
          "threads": sess._config.intra_op_parallelism_threads})
"""


@pytest.mark.parametrize(
    "flags",
    [(), ("--tf1",), ("--legacy-keras",), ("--tf1", "--legacy-keras")],
    ids=["plain", "tf1", "legacy-keras", "both"],
)
def test_legacy_names_reached_other_ways(tmp_path, flags):
    if "--legacy-keras" in flags and not KERAS3:
        pytest.skip("Keras 2 is `keras` here")
    run = run_script(tmp_path, LEGACY_NAMES, *flags)
    assert run.rc == 0, run.err
    assert run.result == {"session": True, "interactive": True, "attribute": True, "threads": 2}
    assert run.report["sessions"][0]["config"]["intra_op_parallelism_threads"] == 2


@needs_tf_keras
def test_keras1_training_arguments_mean_what_keras2_made_them_mean():
    out = run_py(
        """
        import warnings
        import numpy as np
        import tfcompat_gpu
        tfcompat_gpu.install(legacy_keras=True)
        from keras.models import Sequential
        from keras.layers import Dense

        class Batches:
            batch_size = 4
            def __iter__(self):
                return self
            def __next__(self):
                return np.ones((4, 3)), np.ones((4, 1))

        model = Sequential([Dense(1, input_shape=(3,))])
        model.compile("sgd", loss="mse")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fit = model.fit(np.ones((8, 3)), np.ones((8, 1)), nb_epoch=3, verbose=0)
            gen = model.fit_generator(Batches(), samples_per_epoch=8, nb_epoch=2, nb_worker=1,
                                      pickle_safe=False, verbose=0)
            score = model.evaluate_generator(Batches(), val_samples=2, max_q_size=2)
        try:
            model.fit(np.ones((4, 3)), np.ones((4, 1)), nb_epoch=1, epochs=1, verbose=0)
            both = None
        except TypeError as exc:
            both = str(exc)
        emit({"fit_epochs": len(fit.history["loss"]), "gen_epochs": len(gen.history["loss"]),
              "gen_steps": gen.params["steps"], "score": isinstance(score, float),
              "warned": sorted({str(w.message).split(":")[0] for w in caught
                                if "Keras 2 API" in str(w.message)}),
              "both": both})
        """
    )
    assert out == {
        "fit_epochs": 3,
        "gen_epochs": 2,
        "gen_steps": 2,  # samples_per_epoch=8 // the generator's batch_size of 4
        "score": True,
        "warned": [
            "Update your `evaluate_generator` call to the Keras 2 API",
            "Update your `fit_generator` call to the Keras 2 API",
            "Update your `fit` call to the Keras 2 API",
        ],
        "both": "fit() got both nb_epoch= (Keras 1) and epochs= (Keras 2); keep epochs=",
    }


_KERAS1_FRAMES = """
import numpy as np
import tfcompat_gpu
tfcompat_gpu.install(legacy_keras=True)
import tensorflow as tf
tf.python.control_flow_ops = tf  # the Keras 1.1 era's line
if GRAPH:
    tf.compat.v1.disable_v2_behavior()
from keras.backend import tf as ktf
from keras.layers import Convolution2D, Dense, Flatten, Lambda
from keras.models import Sequential
from keras.regularizers import l2, activity_l2

drawn = []


def frames(rows, batch_size):  # a plain generator: the last batch of each pass is short
    while True:
        for offset in range(0, rows, batch_size):
            n = min(batch_size, rows - offset)
            drawn.append((rows, n))
            yield np.ones((n, 8, 16, 3)), np.ones(n)


model = Sequential()
model.add(Lambda(lambda x: ktf.image.resize_images(x, (6, 12)), input_shape=(8, 16, 3)))
model.add(Convolution2D(2, 3, 3, activation="relu"))
model.add(Flatten())
model.add(Dense(1, activity_regularizer=activity_l2(0.01), W_regularizer=l2(0.01)))
model.compile(loss="mse", optimizer="sgd")
history = model.fit_generator(frames(12, 4), samples_per_epoch=8, nb_epoch=2, verbose=0,
                              validation_data=frames(5, 2), nb_val_samples=3)
emit({"kernel": list(model.layers[1].kernel_size), "strides": list(model.layers[1].strides),
      "epochs": len(history.history["loss"]), "val": "val_loss" in history.history,
      "train": len([n for rows, n in drawn if rows == 12]), "steps": history.params["steps"]})
"""


@needs_tf_keras
@pytest.mark.parametrize("graph", [False, True], ids=["eager", "v1-graph"])
def test_keras1_samples_per_epoch_counts_the_samples_of_a_plain_generator(graph):
    # a behavioral-cloning model.py: Keras 2 read samples_per_epoch=8 of a generator without
    # batch_size as 8 batches; Keras 1 drew batches until 8 samples, here 2 of 4
    out = run_py(f"GRAPH = {graph}\n" + _KERAS1_FRAMES)
    assert out["kernel"] == [3, 3]
    assert out["strides"] == [1, 1]
    assert out["epochs"] == 2
    assert out["val"]
    if graph:  # the v1 loop takes steps (its queue draws ahead of them, as Keras 1's did)
        assert out["steps"] == 2
    else:  # two batches an epoch, not eight
        assert out["train"] == 4


@needs_tf_keras
def test_keras1_layer_arguments_build_the_layers_keras2_built():
    out = run_py(
        """
        import warnings
        import tfcompat_gpu
        tfcompat_gpu.install(legacy_keras=True)
        from keras.layers import (Convolution2D, Conv2D, Dense, Dropout, MaxPooling2D, LSTM,
                                  SeparableConv2D, Embedding)

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            conv = Convolution2D(8, 3, 5, border_mode="same", subsample=(2, 2), init="he_normal")
            rows = Conv2D(4, nb_row=2, nb_col=3, dim_ordering="th")
            dense = Dense(output_dim=7, init="uniform", bias=False)
            drop = Dropout(p=0.3)
            pool = MaxPooling2D(pool_size=(2, 2), border_mode="valid", dim_ordering="tf")
            # (a recurrent dropout would make tf_keras pick implementation 1 itself)
            lstm = LSTM(output_dim=5, dropout_W=0.1, consume_less="gpu")
            sep = SeparableConv2D(4, 3, 3, init="zeros")
            emb = Embedding(10, 3, dropout=0.2)
        # no Keras 1 keyword: every Keras since 2.3 reads the third positional as strides
        plain = Conv2D(16, 3, 2)
        try:
            Dense(3, output_dim=4, units=4)
            both = None
        except TypeError as exc:
            both = str(exc)
        emit({
            "conv": [list(conv.kernel_size), conv.padding, list(conv.strides),
                     type(conv.kernel_initializer).__name__],
            "rows": [list(rows.kernel_size), rows.data_format],
            "dense": [dense.units, type(dense.kernel_initializer).__name__, dense.use_bias],
            "drop": drop.rate,
            "pool": [pool.padding, pool.data_format],
            "lstm": [lstm.units, lstm.dropout, lstm.recurrent_dropout, lstm.implementation],
            "sep": [list(sep.kernel_size), type(sep.depthwise_initializer).__name__,
                    type(sep.pointwise_initializer).__name__],
            "emb": emb.output_dim,
            "plain": [list(plain.kernel_size), list(plain.strides)],
            "both": both,
            "warned": len([w for w in caught if "Keras 1 arguments" in str(w.message)]),
        })
        """
    )
    assert out == {
        "conv": [[3, 5], "same", [2, 2], "HeNormal"],
        "rows": [[2, 3], "channels_first"],
        "dense": [7, "RandomUniform", False],
        "drop": 0.3,
        "pool": ["valid", "channels_last"],
        "lstm": [5, 0.1, 0.0, 2],
        "sep": [[3, 3], "Zeros", "Zeros"],
        "emb": 3,
        "plain": [[3, 3], [2, 2]],
        "both": "Dense() got both output_dim= (Keras 1) and units= (Keras 2); keep units=",
        "warned": 8,
    }


@needs_tf_keras
def test_keras1_layer_arguments_pass_through_without_legacy_keras():
    out = run_py(
        """
        import tfcompat_gpu
        tfcompat_gpu.install(legacy_keras=False)
        import tf_keras
        try:
            tf_keras.layers.Dense(output_dim=3)
            error = None
        except TypeError as exc:
            error = type(exc).__name__
        emit({"error": error})
        """
    )
    assert out == {"error": "TypeError"}


@pytest.mark.parametrize("legacy", [True, False], ids=["tf_keras", "keras3"])
def test_keras2_image_dim_ordering_sets_the_data_format(legacy):
    if legacy and KERAS3 and major("tf-keras") < 2:
        pytest.skip("tf_keras is not installed")
    out = run_py(
        f"""
        import tfcompat_gpu
        tfcompat_gpu.install(legacy_keras={legacy})
        from keras import backend as K
        K.set_image_dim_ordering("th")
        first = [K.image_data_format(), K.image_dim_ordering()]
        K.set_image_dim_ordering("tf")
        last = [K.image_data_format(), K.image_dim_ordering()]
        try:
            K.set_image_dim_ordering("channels_last")
            error = None
        except ValueError as exc:
            error = str(exc)
        emit({{"first": first, "last": last, "error": error}})
        """
    )
    assert out == {
        "first": ["channels_first", "th"],
        "last": ["channels_last", "tf"],
        "error": "Unknown dim_ordering: 'channels_last'; expected 'tf' or 'th'",
    }
