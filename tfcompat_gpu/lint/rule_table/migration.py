"""The rules about code that stops working on TensorFlow 2 or Keras 3: TF1-only names and
Keras 2's optimizer arguments, generator methods, modules and weight-file names (``tfcompat-gpu
migrate`` fixes most of them)."""

from __future__ import annotations

from tfcompat_gpu.lint.rule_table import Rule

__all__ = ["MIGRATION"]

MIGRATION: tuple[Rule, ...] = (
    Rule(
        code="TFG009",
        absent_name=True,
        name="legacy-tf1-api",
        since=(2, 0),
        default=True,
        severity="error",
        message="`{used}` does not exist on TensorFlow 2; use {instead}",
        what="Checks for TensorFlow 1 and standalone-Keras session APIs that are gone on "
        "TensorFlow 2: `tf.Session`, `tf.ConfigProto`, `tf.GPUOptions`, `tf.InteractiveSession`, "
        "`tf.contrib`, `keras.backend.tensorflow_backend`, Keras `set_session` / `get_session`.",
        why="These names raise `AttributeError` / `ImportError` on TensorFlow 2 (Keras 3 has no "
        "session at all), so the GPU options they carry are never applied.",
        example="from keras.backend.tensorflow_backend import set_session\n"
        "config = tf.ConfigProto()\nconfig.gpu_options.allow_growth = True\n"
        "set_session(tf.Session(config=config))",
        use_instead="import tfcompat_gpu\ntfcompat_gpu.configure(allow_growth=True)\n"
        "# or, TF2 only:\nfor gpu in tf.config.list_physical_devices('GPU'):\n"
        "    tf.config.experimental.set_memory_growth(gpu, True)",
        summary="TF1 / Keras session API missing on TF2 (`tf.Session`, `set_session`, ...)",
    ),
    Rule(
        code="TFG036",
        absent_name=True,
        name="keras-optimizer-lr",
        default=True,
        severity="error",
        message="`{used}`: Keras 3 {problem}; write `{instead}` (tfcompat-gpu migrate does)",
        what="Checks for `lr=` given to a Keras optimizer (`keras.optimizers.*`, "
        "`tf.keras.optimizers.*`), and for Keras 2's lowercase aliases (`keras.optimizers.adam`).",
        why="Keras 3's optimizers take only `learning_rate` and have no lowercase aliases: the "
        "script stops with `ValueError` or `AttributeError` before training.",
        example="opt = keras.optimizers.Adam(lr=0.001)",
        use_instead="opt = keras.optimizers.Adam(learning_rate=0.001)",
        summary="Keras 2 optimizer `lr=` / lowercase alias",
        since=(2, 16),
    ),
    Rule(
        code="TFG037",
        absent_name=True,
        name="keras-optimizer-decay",
        default=True,
        severity="error",
        message="`{used}(decay=...)`: Keras 3 ignores `decay` (with only a warning), so the "
        "learning rate no longer decays; use `learning_rate=keras.optimizers.schedules."
        "InverseTimeDecay(lr, decay_steps=1, decay_rate=decay)` (tfcompat-gpu migrate does)",
        what="Checks for `decay=` given to a Keras optimizer (a literal `decay=0.0`, no decay, "
        "is not reported).",
        why="Keras 2 trained with `lr / (1 + decay * iterations)`; Keras 3 drops the argument and "
        "trains at a constant rate, so the same script computes something else. "
        "`InverseTimeDecay(lr, decay_steps=1, decay_rate=decay)` is the same schedule.",
        example="opt = SGD(lr=0.01, decay=1e-6, momentum=0.9)",
        use_instead="opt = SGD(learning_rate=keras.optimizers.schedules.InverseTimeDecay(\n"
        "    0.01, decay_steps=1, decay_rate=1e-6), momentum=0.9)",
        summary="Keras 2 optimizer `decay=` (ignored by Keras 3)",
        since=(2, 16),
    ),
    Rule(
        code="TFG038",
        absent_name=True,
        name="keras-generator-method",
        default=True,
        severity="error",
        message="`{used}` was removed in Keras 3; {instead}",
        what="Checks for calls of `fit_generator`, `evaluate_generator`, `predict_generator`, "
        "`predict_proba` and `predict_classes`, and for Keras 1's `nb_epoch=`. `predict_proba` "
        "is also a scikit-learn estimator's method: in a file that imports scikit-learn (or "
        "XGBoost, LightGBM, a Keras scikit-learn wrapper), or neither TensorFlow nor Keras, it is "
        "reported only on a name bound to a Keras model there (`model = Sequential(...)`).",
        why="Keras 3 models have only `fit`, `evaluate` and `predict`: the script stops with "
        "`AttributeError`. Their queue arguments (`workers`, `use_multiprocessing`, "
        "`max_queue_size`) moved to `keras.utils.PyDataset`.",
        example="model.fit_generator(gen, steps_per_epoch=100, epochs=5, workers=4)",
        use_instead="model.fit(gen, steps_per_epoch=100, epochs=5)",
        summary="`fit_generator` and kin (removed in Keras 3)",
        since=(2, 16),
    ),
    Rule(
        code="TFG039",
        absent_name=True,
        name="keras-removed-module",
        default=True,
        severity="error",
        message="`{used}` does not exist in Keras 3; {instead}",
        what="Checks for imports from Keras 2 modules Keras 3 removed: `keras.layers.core`, "
        "`.convolutional`, `.pooling`, `.merge`, `.recurrent`, `.normalization`, "
        "`.advanced_activations`, `.embeddings`, `.noise`, `.wrappers`, `keras.engine.*`, "
        "`keras.utils.np_utils` and the other `keras.utils.*_utils`; and for the scikit-learn "
        "wrappers `keras.wrappers.scikit_learn` / `tf.keras.wrappers.scikit_learn` "
        "(`KerasClassifier`, `KerasRegressor`), which TensorFlow 2.13 removed with no successor "
        "in Keras: the message names scikeras (`from scikeras.wrappers import KerasClassifier`, "
        "`model=` for `build_fn=`, the build function's arguments given as `model__name=`) and "
        "Keras 3's own `keras.wrappers.SKLearnClassifier` / `SKLearnRegressor` (`model=`, a "
        "build function taking `X` and `y` keywords, `model_kwargs=`, `fit_kwargs=`).",
        why="Keras 3 exports its layers from `keras.layers`, its models from `keras.models` and "
        "its utilities from `keras.utils` only: the import fails with `ModuleNotFoundError`. "
        "TensorFlow 2.13 and later have no `tf.keras.wrappers.scikit_learn` either, and tf_keras "
        "does not serve it (`tfcompat-gpu run` does).",
        example="from keras.layers.core import Dense, Dropout",
        use_instead="from keras.layers import Dense, Dropout",
        summary="Keras 2 module path removed in Keras 3",
        since=(2, 16),
    ),
    Rule(
        code="TFG040",
        name="keras-weights-file-name",
        default=True,
        severity="error",
        message="Keras 3 saves weights only to a name ending in `.weights.h5`, not {name!r}; "
        "use {instead!r} (tfcompat-gpu migrate renames it and says so)",
        what="Checks the literal file name given to `save_weights(...)` and to "
        "`ModelCheckpoint(..., save_weights_only=True)`.",
        why="Keras 3 raises `ValueError` at the first save (`save_weights` in "
        "keras/src/saving/saving_api.py, `ModelCheckpoint.__init__`), after a whole epoch of "
        "training for a checkpoint.",
        example="model.save_weights('model.h5')",
        use_instead="model.save_weights('model.weights.h5')",
        summary="weight file name Keras 3 rejects",
        since=(2, 16),
    ),
    Rule(
        code="TFG041",
        absent_name=True,
        name="tf1-only-name",
        default=True,
        severity="error",
        message="`{used}` exists only in TensorFlow 1's API; import `tensorflow.compat.v1 as tf` "
        "(and call `tf.disable_v2_behavior()` for graph code) or use its TF2 successor "
        "(tfcompat-gpu migrate does the former)",
        what="Checks for names that `tf.compat.v1` has and TensorFlow 2's `tf` lacks "
        "(`tf.placeholder`, `tf.global_variables_initializer`, `tf.train.AdamOptimizer`, "
        "`tf.app`, `tf.layers`, ...) read through `import tensorflow as tf`. The session and "
        "config names are TFG009.",
        why="On TensorFlow 2 the script stops with `AttributeError: module 'tensorflow' has no "
        "attribute ...`.",
        example="x = tf.placeholder(tf.float32, [None, 784])",
        use_instead="import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\n"
        "x = tf.placeholder(tf.float32, [None, 784])",
        summary="TF1-only name (`tf.placeholder`, `tf.train.*Optimizer`, ...)",
        since=(2, 0),
    ),
)
