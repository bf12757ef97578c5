"""Keras 2 model calls tf_keras dropped, under ``--legacy-keras`` (:mod:`dropin._keras2_models`).

Each test runs a child with real TensorFlow and tf_keras: ``Model(input=, output=)`` builds the
model ``Model(inputs=, outputs=)`` builds, ``predict_classes`` / ``predict_proba`` give what
Keras 2 computed, and a script reading ``history['acc']`` runs under ``run`` with no flags.
"""

from __future__ import annotations

import pytest

from tests._child import run_py, run_script
from tests._keras import major, needs_tf_keras

pytestmark = pytest.mark.tf


@needs_tf_keras
def test_model_input_output_builds_the_functional_model():
    out = run_py(
        """
        import warnings
        import numpy as np
        import tfcompat_gpu
        tfcompat_gpu.install(legacy_keras=True)
        from keras.layers import Dense, Input
        from keras.models import Model

        a = Input(shape=(4,))
        b = Dense(3, kernel_initializer="ones")(a)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            old = Model(input=a, output=b)
            mixed = Model(a, output=b)

        class Sub(Model):
            def __init__(self):
                x = Input(shape=(2,))
                super().__init__(input=x, output=Dense(1)(x))

        sub = Sub()
        new = Model(inputs=a, outputs=b)
        try:
            Model(input=a, inputs=a, outputs=b)
            both = None
        except TypeError as exc:
            both = str(exc)
        x = np.ones((2, 4), "float32")
        emit({
            "class": type(old).__name__,
            "same": old.predict(x, verbose=0).tolist() == new.predict(x, verbose=0).tolist(),
            "mixed": type(mixed).__name__,
            "sub": [len(sub.layers), sub.output_shape],
            "warned": sum("Update your `Model` call" in str(w.message) for w in caught),
            "both": both,
        })
        """
    )
    assert out == {
        "class": "Functional",
        "same": True,
        "mixed": "Functional",
        "sub": [2, [None, 1]],
        "warned": 2,
        "both": "Model() got both input= (Keras 1) and inputs= (Keras 2); keep inputs=",
    }


@needs_tf_keras
def test_model_name_given_third_builds_the_functional_model():
    # Keras 2.0 / 2.1's Container(inputs, outputs, name): a template model named by position,
    # then replicated per tower, whose input_names the replication reads
    out = run_py(
        """
        import tfcompat_gpu
        tfcompat_gpu.install(legacy_keras=True)
        from keras.layers import Dense, Input
        from keras.models import Model

        pixels = Input(shape=(6,), name="pixels")
        scores = Dense(2, name="scores")(pixels)
        template = Model(pixels, scores, "classifier")

        class Replicas(Model):
            def __init__(self, inner):
                super().__init__(inner.inputs, inner(inner.inputs), "replicas")

        emit({
            "class": type(template).__name__,
            "name": template.name,
            "inputs": template.input_names,
            "outputs": template.output_names,
            "sub": Replicas(template).name,
        })
        """
    )
    assert out == {
        "class": "Functional",
        "name": "classifier",
        "inputs": ["pixels"],
        "outputs": ["scores"],
        "sub": "replicas",
    }


@needs_tf_keras
def test_model_input_output_is_left_alone_without_legacy_keras():
    out = run_py(
        """
        import tfcompat_gpu
        tfcompat_gpu.install(legacy_keras=False)
        import tf_keras
        a = tf_keras.Input(shape=(4,))
        try:
            tf_keras.Model(input=a, output=tf_keras.layers.Dense(3)(a))
            error = None
        except TypeError as exc:
            error = type(exc).__name__
        emit({"error": error})
        """
    )
    assert out == {"error": "TypeError"}


@needs_tf_keras
def test_predict_classes_and_proba_compute_what_keras2_did():
    out = run_py(
        """
        import warnings
        import numpy as np
        import tfcompat_gpu
        tfcompat_gpu.install(legacy_keras=True)
        from keras.layers import Dense
        from keras.models import Sequential

        def ours(caught):
            return [w for w in caught if "removed in TensorFlow 2.6" in str(w.message)]

        rng = np.random.RandomState(0)
        x = rng.randn(6, 4).astype("float32")
        soft = Sequential([Dense(3, activation="softmax", input_shape=(4,))])
        sig = Sequential([Dense(1, activation="sigmoid", input_shape=(4,))])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            classes = soft.predict_classes(x)
            binary = sig.predict_classes(x, batch_size=2)
            proba = soft.predict_proba(x)
        emit({
            "classes": classes.tolist() == np.argmax(soft.predict(x, verbose=0), -1).tolist(),
            "binary": binary.tolist() == (sig.predict(x, verbose=0) > 0.5).astype("int32").tolist(),
            "binary_shape": list(binary.shape),
            "proba": np.allclose(proba, soft.predict(x, verbose=0)),
            "warned": sorted({str(w.message).split("`")[1] for w in ours(caught)}),
            "where": sorted({w.filename.rsplit("/", 1)[-1] for w in ours(caught)}),
        })
        """
    )
    assert out == {
        "classes": True,
        "binary": True,
        "binary_shape": [6, 1],
        "proba": True,
        "warned": ["model.predict_classes()", "model.predict_proba()"],
        "where": ["<string>"],
    }


ACC_SCRIPT = """
    import numpy as np
    import keras
    from keras.callbacks import ModelCheckpoint
    from keras.layers import Dense
    from keras.models import Sequential
    from tests._child import emit

    x = np.random.rand(32, 4).astype("float32")
    y = keras.utils.to_categorical(np.random.randint(3, size=(32,)), 3)
    model = Sequential([Dense(3, activation="softmax", input_shape=(4,))])
    model.compile(loss="categorical_crossentropy", optimizer="sgd", metrics=["accuracy"])
    best = ModelCheckpoint("best.h5", monitor="val_acc", save_best_only=True)
    history = model.fit(x, y, epochs=2, validation_split=0.25, callbacks=[best], verbose=0)
    emit({
        "keys": sorted(history.history),
        "acc": len(history.history["acc"]),
        "saved": __import__("os").path.exists("best.h5"),
        "classes": model.predict_classes(x[:3]).shape[0],
    })
"""


@needs_tf_keras
def test_script_reading_acc_keys_runs_without_flags(tmp_path):
    run = run_script(tmp_path, ACC_SCRIPT)
    assert run.rc == 0, run.err
    assert run.result == {
        "keys": ["acc", "loss", "val_acc", "val_loss"],
        "acc": 2,
        "saved": True,
        "classes": 3,
    }
    assert "using tf_keras" in run.err  # predict_classes() is Keras 2 code


@needs_tf_keras
def test_accuracy_keeps_its_name_where_the_script_reads_the_new_keys(tmp_path):
    code = ACC_SCRIPT.replace('"val_acc"', '"val_accuracy"').replace('["acc"]', '["accuracy"]')
    run = run_script(tmp_path, code)
    assert run.rc == 0, run.err
    assert run.result["keys"] == ["accuracy", "loss", "val_accuracy", "val_loss"]


@pytest.mark.skipif(major("keras") < 3, reason="Keras 3 or tf_keras only")
def test_tf_keras_script_reading_acc_keys_runs(tmp_path):
    # tf.keras of TensorFlow 1 logged 'acc' too; nothing here is Keras 2 only: tf.keras runs it
    # (Keras 3, or tf_keras where TF_USE_LEGACY_KERAS=1 asks for it)
    code = """
        import numpy as np
        import tensorflow as tf
        from tests._child import emit

        model = tf.keras.Sequential([tf.keras.layers.Dense(2, activation="softmax")])
        model.compile(loss="sparse_categorical_crossentropy", optimizer="adam",
                      metrics=["accuracy"])
        history = model.fit(np.zeros((8, 3)), np.zeros(8), epochs=1, verbose=0,
                            validation_split=0.25)
        emit({"keys": sorted(history.history)})
        print("val acc", history.history["val_acc"][-1])
    """
    run = run_script(tmp_path, code)
    assert run.rc == 0, run.err
    assert run.result == {"keys": ["acc", "loss", "val_acc", "val_loss"]}


MAE_SCRIPT = """
    import numpy as np
    from keras import layers, models
    from keras.callbacks import ModelCheckpoint
    from tests._child import emit

    x = np.random.rand(40, 13).astype("float32")
    y = np.random.rand(40).astype("float32")
    model = models.Sequential()
    model.add(layers.Dense(8, activation="relu", input_shape=(13,)))
    model.add(layers.Dense(1))
    model.compile(optimizer="rmsprop", loss="mse", metrics=["mae", "mse"])
    best = ModelCheckpoint("best.h5", monitor="val_mean_squared_error", save_best_only=True)
    history = model.fit(x[:30], y[:30], validation_data=(x[30:], y[30:]), epochs=2,
                        batch_size=8, callbacks=[best], verbose=0)
    mae_history = history.history["val_mean_absolute_error"]
    emit({
        "keys": sorted(history.history),
        "mae": len(mae_history),
        "saved": __import__("os").path.exists("best.h5"),
    })
"""


@pytest.mark.skipif(major("keras") < 3, reason="Keras 3 or tf_keras only")
def test_script_reading_keras_2_2_metric_names_runs(tmp_path):
    # Keras 2.0-2.2 logged metrics=['mae'] as 'mean_absolute_error'; later Keras logs 'mae'
    run = run_script(tmp_path, MAE_SCRIPT)
    assert run.rc == 0, run.err
    assert run.result == {
        "keys": [
            "loss",
            "mean_absolute_error",
            "mean_squared_error",
            "val_loss",
            "val_mean_absolute_error",
            "val_mean_squared_error",
        ],
        "mae": 2,
        "saved": True,
    }


@pytest.mark.skipif(major("keras") < 3, reason="Keras 3 only")
def test_metric_key_table_is_what_keras_3_logs():
    # every old key Keras 3 takes as a metric string is logged under that string; the others
    # are the ones the table says Keras 3 does not take
    out = run_py(
        """
        import numpy as np
        import keras
        from tfcompat_gpu.tfapi.keras_names import KERAS2_METRIC_KEYS, KERAS3_UNKNOWN_METRICS
        logged, refused = {}, []
        for name in sorted(set(KERAS2_METRIC_KEYS.values())):
            model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
            try:
                model.compile("sgd", "mse", metrics=[name])
                history = model.fit(np.ones((4, 3)), np.ones(4), epochs=1, verbose=0,
                                    validation_split=0.5)
            except ValueError:
                refused.append(name)
                continue
            logged[name] = sorted(history.history)
        emit({"refused": refused, "unknown": sorted(KERAS3_UNKNOWN_METRICS),
              "logged": all(keys == sorted(["loss", "val_loss", n, "val_" + n])
                            for n, keys in logged.items())})
        """
    )
    assert out == {"refused": out["unknown"], "unknown": ["ce", "cosine_proximity"], "logged": True}


@needs_tf_keras
def test_keras2_backend_table_is_what_keras_3_dropped():
    out = run_py(
        """
        import keras, tf_keras
        from tfcompat_gpu.tfapi.keras_names import KERAS2_BACKEND_ONLY
        old = {n for n in dir(tf_keras.backend) if not n.startswith("_")}
        new = {n for n in dir(keras.backend) if not n.startswith("_")}
        emit({"kept_by_keras3": sorted(KERAS2_BACKEND_ONLY & new),
              "not_keras2": sorted(KERAS2_BACKEND_ONLY - old),
              "unlisted": sorted(old - new - KERAS2_BACKEND_ONLY - {"experimental"})})
        """
    )
    assert out == {"kept_by_keras3": [], "not_keras2": [], "unlisted": []}


SIAMESE = """
    import numpy as np
    from keras import backend as K
    from keras.layers import Dense, Input, Lambda
    from keras.models import Model
    from tests._child import emit

    def distance(vects):
        x, y = vects
        return K.sqrt(K.maximum(K.sum(K.square(x - y), axis=1, keepdims=True), K.epsilon()))

    a, b = Input(shape=(4,)), Input(shape=(4,))
    shared = Dense(3)
    out = Lambda(distance)([shared(a), shared(b)])
    model = Model([a, b], out)
    model.compile(loss="mse", optimizer="sgd")
    model.fit([np.ones((4, 4)), np.zeros((4, 4))], np.ones((4, 1)), epochs=1, verbose=0)
    grads = None
    GRADIENTS
    emit({"shape": list(model.predict([np.ones((2, 4)), np.zeros((2, 4))], verbose=0).shape),
          "gradients": grads is not None})
"""


@needs_tf_keras
@pytest.mark.parametrize("gradients", [False, True], ids=["backend-maths", "gradients"])
def test_keras2_backend_scripts_run_without_flags(tmp_path, gradients):
    line = "grads = K.gradients(model.output, [a])[0]" if gradients else "pass"
    run = run_script(tmp_path, SIAMESE.replace("GRADIENTS", line))
    assert run.rc == 0, run.err
    assert run.result == {"shape": [2, 1], "gradients": gradients}
    assert ("using the v1 API and tf_keras" if gradients else "using tf_keras") in run.err


def test_optimizer_aliases_are_the_migration_table():
    from tfcompat_gpu.dropin._keras2_models import OPTIMIZER_ALIASES
    from tfcompat_gpu.tfapi.keras_names import OPTIMIZER_ALIASES as MIGRATED

    assert OPTIMIZER_ALIASES is not MIGRATED  # a copy: run must not import the tables
    assert OPTIMIZER_ALIASES == MIGRATED


def test_model_keywords_are_the_migration_table():
    from tfcompat_gpu.dropin._keras2_models import MODEL_KEYWORDS
    from tfcompat_gpu.tfapi.keras1_names import KERAS1_KEYWORDS

    assert KERAS1_KEYWORDS["Model"] == MODEL_KEYWORDS  # a copy: run must not import the tables


@needs_tf_keras
def test_keras2_names_tensorflow_2_dropped_run_without_flags(tmp_path):
    code = """
        import numpy as np
        import keras
        from keras.layers import Bidirectional, CuDNNGRU, CuDNNLSTM, Dense
        from keras.models import Sequential
        from keras.objectives import categorical_crossentropy
        from tests._child import emit

        model = Sequential([Bidirectional(CuDNNLSTM(4, return_sequences=True), input_shape=(3, 2)),
                            CuDNNGRU(3), Dense(2, activation="softmax")])
        model.compile(loss=categorical_crossentropy,
                      optimizer=keras.optimizers.rmsprop(lr=0.01, decay=1e-6))
        model.fit(np.zeros((4, 3, 2)), np.eye(2)[[0, 1, 0, 1]], epochs=1, verbose=0)
        emit({"layers": [type(layer).__name__ for layer in model.layers],
              "inner": type(model.layers[0].forward_layer).__name__,
              "optimizer": type(model.optimizer).__name__,
              "schedule": type(model.optimizer._learning_rate).__name__})
    """
    run = run_script(tmp_path, code)
    assert run.rc == 0, run.err
    assert run.result == {
        "layers": ["Bidirectional", "GRU", "Dense"],
        "inner": "LSTM",
        "optimizer": "RMSprop",
        "schedule": "InverseTimeDecay",  # Keras 2's decay=, as run gives it on tf_keras
    }


def test_cudnn_layers_of_a_tf_keras_star_import_run(tmp_path):
    # a TF 1.x forecasting script: tf.keras' layers by star import, its cuDNN ones among them
    code = """
        import numpy as np
        from tensorflow.keras.models import Sequential
        from tensorflow.keras.layers import *
        from tests._child import emit

        model = Sequential([CuDNNLSTM(4, return_sequences=True, input_shape=(3, 2)),
                            Bidirectional(CuDNNGRU(3)), Dense(1)])
        model.compile(loss="mse", optimizer="adam")
        model.fit(np.zeros((4, 3, 2)), np.zeros((4, 1)), epochs=1, verbose=0)
        emit([type(layer).__name__ for layer in model.layers])
    """
    run = run_script(tmp_path, code)
    assert run.rc == 0, run.err
    assert run.result == ["LSTM", "Bidirectional", "Dense"]


# A course's way to a local copy of a dataset (Coursera "TensorFlow in Practice" notebooks):
# the name holds a folder. Keras 2 joined it to the cache folder; Keras 3 raises ValueError.
LOCAL_COPY_SCRIPT = """
import os
from os import getcwd
import tensorflow as tf
import keras
from keras.src.datasets import mnist
from tests._child import emit

local = f"{getcwd()}/../data/train.txt"
emit({
    "tf.keras": tf.keras.utils.get_file(local, "http://nowhere.invalid/train.txt"),
    "keras": keras.utils.get_file(fname=local, origin="http://nowhere.invalid/train.txt"),
    # the name keras.datasets.mnist.load_data(path=...) calls
    "mnist": mnist.get_file(local, origin="http://nowhere.invalid/train.txt", file_hash=None),
    "relative": keras.utils.get_file(
        "sub/test.txt", "http://nowhere.invalid/test.txt", cache_dir=os.path.abspath("cache")
    ),
    "plain": keras.utils.get_file(
        "test.txt", "http://nowhere.invalid/test.txt", cache_subdir=os.path.abspath("cache/flat")
    ),
})
"""


@pytest.mark.skipif(major("keras") < 3, reason="Keras 2 reads such names itself")
@pytest.mark.parametrize("runner", [True, False])
def test_get_file_with_a_folder_in_the_name_finds_the_local_copy(tmp_path, runner):
    work = tmp_path / "work"
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "train.txt").write_text("local copy\n")
    (work / "cache" / "datasets" / "sub").mkdir(parents=True)
    (work / "cache" / "datasets" / "sub" / "test.txt").write_text("cached\n")
    (work / "cache" / "flat").mkdir()
    (work / "cache" / "flat" / "test.txt").write_text("flat\n")
    run = run_script(work, LOCAL_COPY_SCRIPT, runner=runner)
    if not runner:  # what plain python on Keras 3 does: the reason for the drop-in's answer
        assert run.rc == 1
        assert "Paths are no longer accepted" in run.err
        return
    assert run.rc == 0, run.err
    local = str(work / ".." / "data" / "train.txt")
    assert run.result == {
        "tf.keras": local,
        "keras": local,
        "mnist": local,
        "relative": str(work / "cache" / "datasets" / "sub" / "test.txt"),
        "plain": str(work / "cache" / "flat" / "test.txt"),
    }


# an attention block as Keras 2.0 scripts wrote it: layers by a star import of keras.layers.core,
# Input, Model, K and np by one of keras.models
MODELS_STAR_SCRIPT = """
    from keras.layers.core import *
    from keras.models import *
    from tests._child import emit

    steps = 5
    inputs = Input(shape=(steps, 3))
    scores = Dense(steps, activation="softmax")(Permute((2, 1))(inputs))
    weighted = Lambda(lambda x: x[0] * K.permute_dimensions(x[1], (0, 2, 1)))([inputs, scores])
    model = Model(inputs, Dense(1)(Flatten()(weighted)))
    model.compile(optimizer="adam", loss="mse")
    model.fit(np.ones((8, steps, 3)), np.ones((8, 1)), epochs=1, verbose=0)
    emit({"shape": list(model.predict(np.ones((2, steps, 3)), verbose=0).shape)})
"""


@needs_tf_keras
def test_keras_models_star_import_gives_input_k_and_np(tmp_path):
    run = run_script(tmp_path, MODELS_STAR_SCRIPT)
    assert run.rc == 0, run.err
    assert run.result == {"shape": [2, 1]}


@needs_tf_keras
def test_input_imported_from_keras_models_runs(tmp_path):
    run = run_script(
        tmp_path,
        """
        from keras.layers import Dense
        from keras.models import Input, Model
        from tests._child import emit

        i = Input(shape=(4,))
        emit({"outputs": Model(i, Dense(2)(i)).output_shape[-1]})
        """,
    )
    assert run.rc == 0, run.err
    assert run.result == {"outputs": 2}


INTEGER_LABELS_SCRIPT = """
    import numpy as np
    from keras import backend as K
    from keras.layers import Dense, Input
    from keras.models import Model
    from tests._child import emit


    def hinge_pairs(y_true, y_pred):
        return K.mean(y_true * K.square(y_pred) + (1 - y_true) * K.square(K.relu(1 - y_pred)))


    def below_half(y_true, y_pred):
        return K.mean(y_true * K.cast(y_pred < 0.5, "float32"))


    class Pairs:
        def scaled(self, y_true, y_pred):
            return 0.5 * K.mean(y_true * y_pred)


    inputs = Input(shape=(3,))
    first, second = Dense(1)(inputs), Dense(1)(inputs)
    model = Model(inputs, [first, second])
    model.compile("rmsprop", [hinge_pairs, Pairs().scaled], metrics=[below_half])
    labels = np.random.randint(0, 2, (16,))
    history = model.fit(np.random.rand(16, 3), [labels, labels], epochs=1, verbose=0)
    loss = model.train_on_batch(np.random.rand(4, 3), [labels[:4], labels[:4]])
    emit({
        "names": [hinge_pairs.__name__, "scaled"],
        "keys": len(history.history),
        "finite": bool(np.all(np.isfinite(loss))),
    })
"""


@needs_tf_keras
def test_own_loss_and_metric_functions_get_float_labels(tmp_path):
    # Keras 2 fed integer labels to the output's float placeholder; tf_keras hands them over
    # as int64, so `y_true * K.square(y_pred)` raised "Input 'y' of 'Mul' Op has type float32"
    run = run_script(tmp_path, INTEGER_LABELS_SCRIPT)
    assert run.rc == 0, run.err
    assert run.result["finite"] is True
    assert run.result["keys"] >= 3
    assert "using tf_keras" in run.err


@pytest.mark.skipif(major("keras") < 3, reason="Keras 3 only")
def test_own_metric_function_gets_float_labels_under_keras_3(tmp_path):
    # Keras 3 casts labels for losses but hands a metric function the labels' own int64
    code = """
        import numpy as np
        import keras
        from tests._child import emit


        def below_half(y_true, y_pred):
            return keras.ops.mean(y_true * keras.ops.cast(y_pred < 0.5, "float32"))


        model = keras.Sequential([keras.Input(shape=(3,)), keras.layers.Dense(1)])
        model.compile(optimizer="sgd", loss="mse", metrics=[below_half])
        history = model.fit(np.random.rand(8, 3), np.random.randint(0, 2, (8,)), verbose=0)
        emit({"keys": sorted(history.history)})
    """
    run = run_script(tmp_path, code)
    assert run.rc == 0, run.err
    assert run.result == {"keys": ["below_half", "loss"]}


CLASS_WEIGHT_SCRIPT = """
    import numpy as np
    from keras.layers import Dense, Input
    from keras.models import Model
    from tests._child import emit

    inputs = Input(shape=(4,))
    real = Dense(1, activation="sigmoid")(inputs)
    kind = Dense(3, activation="softmax")(inputs)
    model = Model(inputs, [real, kind])
    model.compile(loss=["binary_crossentropy", "sparse_categorical_crossentropy"],
                  optimizer="adam")
    x = np.random.rand(6, 4)
    targets = [np.ones((6, 1)), 2 * np.ones(6).reshape(-1, 1)]
    silenced = [{0: 1, 1: 0.0}, {0: 1, 1: 1, 2: 0.0}]
    first = model.train_on_batch(x, targets, class_weight=silenced)
    history = model.fit(x, targets, class_weight=[{0: 1, 1: 1}, {2: 3.0}], epochs=1, verbose=0)
    try:
        model.train_on_batch(x, targets, class_weight=[{1: 1}, {0: 1}])
        missing = None
    except ValueError as error:
        missing = str(error)
    emit({
        "silenced": [round(float(value), 6) for value in first],
        "fit": "loss" in history.history,
        "missing": missing is not None and "all classes" in missing,
    })
"""


@needs_tf_keras
def test_one_class_weight_per_output_weights_each_outputs_samples(tmp_path):
    # Keras 2 matched class_weight=[cw_output_1, cw_output_2] to the outputs (the AC-GAN's
    # discriminator); tf_keras refused it ("'list' object has no attribute 'keys'")
    run = run_script(tmp_path, CLASS_WEIGHT_SCRIPT)
    assert run.rc == 0, run.err
    assert run.result == {"silenced": [0.0, 0.0, 0.0], "fit": True, "missing": True}


@pytest.mark.skipif(major("keras") < 3, reason="Keras 3 only")
def test_one_class_weight_per_output_under_keras_3(tmp_path):
    code = CLASS_WEIGHT_SCRIPT.replace(
        "from keras.layers import Dense, Input\n    from keras.models import Model\n",
        "import keras\n    from keras import Input, Model\n    from keras.layers import Dense\n",
    )
    run = run_script(tmp_path, code, "--no-auto")
    assert run.rc == 0, run.err
    assert run.result == {"silenced": [0.0, 0.0, 0.0], "fit": True, "missing": True}
