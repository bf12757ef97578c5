"""Keras 2 model calls that tf_keras no longer takes, answered as Keras 2 did.

* ``Model(input=x, output=y)``: the Keras 1 keywords Keras 2.0-2.2 still translated
  (``keras/legacy/interfaces.py``, ``legacy_model_constructor_support``).  tf_keras picks the
  functional class in ``Model.__new__`` from ``inputs``/``outputs`` and Python then calls
  ``__init__`` with the keywords as written, so ``Model.__new__``, ``Model.__init__`` and
  ``Functional.__init__`` all translate them; the warning is Keras 2's.  Only under legacy Keras.
* ``Sequential.predict_classes(x)`` and ``predict_proba(x)``, removed in TensorFlow 2.6: the
  class index (argmax of the predictions, or the 0.5 threshold for one output) and the
  predictions, as Keras 2's ``Sequential`` computed them.  Added where missing.
* ``get_file(fname="folder/file.npz")`` and ``keras.datasets.mnist.load_data(path=...)`` with a
  folder in the name (``f"{getcwd()}/../tmp2/mnist.npz"``, a course's way to a local copy):
  Keras 2 joined the name to the cache folder, so an absolute one was used as it was and a
  relative one landed under ``~/.keras/datasets``; Keras 3 raises ``ValueError: Paths are no
  longer accepted``.  The name is split into Keras 3's ``cache_subdir`` (absolute: used as
  it is) and the file's own name, which is the same file (``keras/src/utils/file_utils.py``).
* ``metrics=['accuracy']`` or ``['mae']`` in a script that reads the keys Keras 2.0-2.2 logged
  them under (``history['acc']``, ``monitor='val_mean_absolute_error'``): Keras 2.3 and later
  log those metrics as ``accuracy`` and ``mae``, so the script fails with ``KeyError`` or its
  checkpoints are skipped.  When ``run`` read such a script (:mod:`._auto`), ``compile()`` asks
  for ``'acc'`` or ``'mean_absolute_error'``, which Keras logs under that name (the drop-in's one
  ``compile`` wrapper does it), as ``tfcompat-gpu migrate`` writes it; the table is
  ``tfapi.keras_names.KERAS2_METRIC_KEYS``.
* ``from keras.models import Input`` and ``from keras.models import *``: Keras 2.0-2.3's
  keras/models.py imported ``Input``, ``InputLayer``, ``Layer``, the backend as ``K``, the
  optimizers module and NumPy as ``np`` at module level (without ``__all__``), so scripts import
  ``Input`` from there, and a star import gave ``K`` and ``np`` too; tf_keras' ``keras.models``
  holds only the model functions.  The names are added where missing (:data:`MODELS_NAMES`).
* A loss or metric function of the script's own given integer labels: Keras 2.0-2.2 fed every
  target into a placeholder of its output's dtype (``training.py``, ``K.placeholder(...,
  dtype=K.dtype(output))``), so ``y_true * K.square(y_pred)`` (the contrastive loss of the
  siamese examples) met a float ``y_true``; tf_keras passes the labels' own ``int64`` to both,
  Keras 3 to metrics, and TensorFlow refuses to multiply them.  ``compile()`` gets each such
  function wrapped to cast an integer or boolean ``y_true`` to ``y_pred``'s float dtype first
  (:func:`keras2_targets`); Keras's own losses and metrics, and strings, are left as given.
* ``fit`` / ``train_on_batch(..., class_weight=[cw1, cw2])`` on a model with several outputs
  (the AC-GAN's discriminator): Keras 2 weighted each output's samples by its own dict; the
  per-output ``sample_weight`` it computed is given instead (:func:`keras2_class_weight`).
"""

from __future__ import annotations

from types import ModuleType

TYPE_CHECKING = False  # (typing stays unloaded: every ``run`` imports the drop-in)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = [
    "KERAS3_GET_FILE_MODULES",
    "LAYER_ALIASES",
    "MODELS_NAMES",
    "MODEL_KEYWORDS",
    "OPTIMIZER_ALIASES",
    "REMOVED_METHODS",
    "keras2_class_weight",
    "keras2_get_file",
    "keras2_metrics",
    "keras2_optimizer",
    "keras2_targets",
    "model_init",
    "model_new",
    "models_name",
    "predict_classes",
    "predict_proba",
    "read_metric_keys",
    "same_as",
]

MODEL_KEYWORDS = {"input": "inputs", "output": "outputs"}
"""Keras 1 keyword -> Keras 2 keyword of ``Model(...)``."""

REMOVED_METHODS = frozenset({"predict_classes", "predict_proba"})
"""``Sequential`` methods TensorFlow 2.6 removed, back on tf_keras under ``run``."""
OPTIMIZER_ALIASES = {
    "sgd": "SGD",
    "rmsprop": "RMSprop",
    "adagrad": "Adagrad",
    "adadelta": "Adadelta",
    "adam": "Adam",
    "adamax": "Adamax",
    "nadam": "Nadam",
}
"""The lowercase optimizer names at the end of Keras 2's keras/optimizers.py (the table
``tfapi.keras_names.OPTIMIZER_ALIASES`` of ``migrate``, kept here so ``run`` imports no table)."""
LAYER_ALIASES = {"CuDNNLSTM": "LSTM", "CuDNNGRU": "GRU"}
"""Keras 2's cuDNN-only layers -> the layers that use cuDNN by themselves on a GPU with the
same defaults (``recurrent_activation='sigmoid'``; GRU ``reset_after=True``), and run anywhere."""

MODELS_NAMES: dict[str, tuple[str, str]] = {
    "Input": ("layers", "Input"),
    "InputLayer": ("layers", "InputLayer"),
    "Layer": ("layers", "Layer"),
    "K": ("backend", ""),
    "optimizers": ("optimizers", ""),
    "np": ("", ""),
}
"""The names Keras 2.0-2.3's ``keras.models`` had beside the model functions -> (the module of
the Keras package that holds it, the attribute, or "" for the module itself; ``np``: NumPy)."""

_renames: dict[str, str] = {}

KERAS3_GET_FILE_MODULES = (
    "keras.src.utils.file_utils",
    "keras.src.utils",
    "keras.utils",
    "keras._tf_keras.keras.utils",
    *(
        f"keras.src.datasets.{name}"
        for name in (
            "boston_housing",
            "california_housing",
            "cifar10",
            "cifar100",
            "fashion_mnist",
            "imdb",
            "mnist",
            "reuters",
        )
    ),
)
"""Keras modules holding a ``get_file`` of their own (Keras 3 imports it by name from file_utils;
Keras 2's ``keras.src.utils`` and dataset modules from data_utils)."""
_GET_FILE_SUBDIR = 5  # get_file(fname, origin, untar, md5_hash, file_hash, cache_subdir, ...)


def keras2_get_file(module: ModuleType, current: Any) -> Any:
    """Keras 3's ``get_file`` taking a ``fname`` with a folder in it, as Keras 2 did."""
    import os

    if not callable(current) or getattr(current, "_keras2_paths", False):
        return current  # done already
    # On Keras 2 itself the split changes nothing: it joined cache_subdir and fname the same way.

    def get_file(*args: Any, **kwargs: Any) -> Any:
        fname = args[0] if args else kwargs.get("fname")
        if isinstance(fname, os.PathLike):
            fname = os.fspath(fname)
        if not isinstance(fname, str):
            return current(*args, **kwargs)
        folder, name = os.path.split(fname)
        if not folder or not name:
            return current(*args, **kwargs)
        if len(args) > _GET_FILE_SUBDIR:
            subdir = args[_GET_FILE_SUBDIR]
        else:
            subdir = kwargs.get("cache_subdir", "datasets")
        # Keras 2: os.path.join(cache_dir, cache_subdir, fname); an absolute fname wins there,
        # an absolute cache_subdir here.
        subdir = os.path.join(subdir, folder)
        given = list(args)
        if given:
            given[0] = name
        else:
            kwargs = {**kwargs, "fname": name}
        if len(given) > _GET_FILE_SUBDIR:
            given[_GET_FILE_SUBDIR] = subdir
        else:
            kwargs = {**kwargs, "cache_subdir": subdir}
        return current(*given, **kwargs)

    get_file.__doc__ = current.__doc__
    get_file.__wrapped__ = current  # type: ignore[attr-defined]
    get_file._keras2_paths = True  # type: ignore[attr-defined]
    return get_file


def same_as(name: str) -> Callable[[ModuleType, Any], Any]:
    """A move's ``make`` that binds another name of the module: ``rmsprop`` -> ``RMSprop``."""

    def make(module: ModuleType, current: Any) -> Any:
        return getattr(module, name)

    make.__name__ = f"same_as_{name}"
    return make


def models_name(name: str) -> Callable[[ModuleType, Any], Any]:
    """A move's ``make`` that binds :data:`MODELS_NAMES` ``name`` in a ``<root>.models`` module."""

    def make(module: ModuleType, current: Any) -> Any:
        import importlib

        where, attr = MODELS_NAMES[name]
        if not where:
            return importlib.import_module("numpy")
        root = module.__name__.partition(".")[0]
        found = importlib.import_module(f"{root}.{where}")
        return getattr(found, attr) if attr else found

    make.__name__ = f"keras2_models_{name}"
    return make


def read_metric_keys(keys: set[str]) -> None:
    """The metric keys the script reads (told by ``run`` before it starts): a metric's Keras
    2.0-2.2 key (``acc``, ``val_mean_absolute_error``), and never its later one, turns its
    renaming on (``tfapi.keras_names.metric_renames``)."""
    from tfcompat_gpu.tfapi.keras_names import metric_renames

    global _renames
    _renames = metric_renames(keys)


def _translated(kwargs: dict[str, Any]) -> dict[str, Any]:
    kwargs = dict(kwargs)
    for old, new in MODEL_KEYWORDS.items():
        if old in kwargs:
            if new in kwargs:
                raise TypeError(
                    f"Model() got both {old}= (Keras 1) and {new}= (Keras 2); keep {new}="
                )
            kwargs[new] = kwargs.pop(old)
    return kwargs


def _keras1(kwargs: dict[str, Any]) -> bool:
    return "input" in kwargs or "output" in kwargs


def _named(args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """``Model(inputs, outputs, "name")``: Keras 2.0 and 2.1's ``Container(inputs, outputs,
    name=None)`` took the name third; later Keras reads three positional arguments as a
    subclassed model's, and the model has no inputs."""
    return len(args) == 3 and isinstance(args[2], str) and "name" not in kwargs


def _unnamed(
    args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return args[:2], {**kwargs, "name": args[2]}


def model_new(enabled: Callable[[], bool]) -> Callable[[ModuleType, Any], Any]:
    """A move's ``make`` for ``Model.__new__``: the class is chosen from the new keywords."""

    def make(module: ModuleType, current: Any) -> Any:
        original = current.__func__ if isinstance(current, staticmethod) else current

        def __new__(cls: Any, *args: Any, **kwargs: Any) -> Any:
            if kwargs and _keras1(kwargs) and enabled():
                kwargs = _translated(kwargs)
            if _named(args, kwargs) and enabled():
                args, kwargs = _unnamed(args, kwargs)
            return original(cls, *args, **kwargs)

        return staticmethod(__new__)

    return make


def model_init(enabled: Callable[[], bool]) -> Callable[[ModuleType, Any], Any]:
    """A move's ``make`` for ``Model.__init__`` / ``Functional.__init__``."""

    def make(module: ModuleType, current: Any) -> Any:
        import wrapt

        def init(wrapped: Any, instance: Any, args: Any, kwargs: Any) -> Any:
            if _named(args, kwargs) and enabled():
                args, kwargs = _unnamed(args, kwargs)
            if not kwargs or not _keras1(kwargs) or not enabled():
                return wrapped(*args, **kwargs)
            import warnings

            given = ", ".join(f"{key}=" for key in MODEL_KEYWORDS if key in kwargs)
            warnings.warn(
                f"Update your `Model` call to the Keras 2 API (Keras 1 arguments: {given}): "
                "`Model(inputs=..., outputs=...)`; tfcompat-gpu migrate rewrites it",
                stacklevel=2,
            )
            return wrapped(*args, **_translated(kwargs))

        return wrapt.FunctionWrapper(current, init)

    return make


def _removed(what: str, instead: str) -> None:
    import warnings

    warnings.warn(
        f"`{what}` was removed in TensorFlow 2.6; {instead} (tfcompat-gpu migrate rewrites it)",
        stacklevel=3,
    )


def predict_classes(module: ModuleType, current: Any) -> Any:
    """``Sequential.predict_classes`` as Keras 2 computed it."""

    def predict_classes(self: Any, x: Any, batch_size: int = 32, verbose: int = 0) -> Any:
        _removed(
            "model.predict_classes()",
            "use np.argmax(model.predict(x), axis=-1) for a softmax output, or "
            '(model.predict(x) > 0.5).astype("int32") for a sigmoid one',
        )
        proba = self.predict(x, batch_size=batch_size, verbose=verbose)
        if proba.shape[-1] > 1:
            return proba.argmax(axis=-1)
        return (proba > 0.5).astype("int32")

    return predict_classes


def predict_proba(module: ModuleType, current: Any) -> Any:
    """``Sequential.predict_proba``: the predictions, as Keras 2 returned them."""

    def predict_proba(self: Any, x: Any, batch_size: int = 32, verbose: int = 0) -> Any:
        _removed("model.predict_proba()", "use model.predict(x), which returns the same values")
        return self.predict(x, batch_size=batch_size, verbose=verbose)

    return predict_proba


def _renamed(metrics: Any) -> Any:
    if isinstance(metrics, (list, tuple)):
        return type(metrics)(
            _renames.get(m, m) if isinstance(m, str) else _renamed(m) for m in metrics
        )
    if isinstance(metrics, dict):
        return {key: _renamed(value) for key, value in metrics.items()}
    return metrics


def keras2_metrics(kwargs: dict[str, Any]) -> dict[str, Any]:
    """``compile()``'s keywords with ``metrics=['accuracy']`` asked for as ``'acc'`` (``'mae'``
    as ``'mean_absolute_error'``, ...) in a script that reads the Keras 2.0-2.2 keys (see the
    module's text); unchanged otherwise.  Called by
    the drop-in's ``compile`` wrapper (``_multi_gpu.compile_with_distribute``), the one
    wrapper of every Keras's ``compile``."""
    metrics = kwargs.get("metrics")
    if not _renames or metrics is None:
        return kwargs
    renamed = _renamed(metrics)
    return kwargs if renamed == metrics else {**kwargs, "metrics": renamed}


_compiled_into: Any = None  # weakref.WeakKeyDictionary: optimizer -> weakref to its model


def keras2_optimizer(instance: Any, args: Any, kwargs: dict[str, Any]) -> tuple[Any, Any]:
    """``compile()``'s arguments with a copy of an optimizer already compiled into another
    model: Keras 2 gave each model its own slots (``get_updates``), so one optimizer could
    serve a GAN's discriminator and its combined model; the optimizers of tf_keras and Keras 3
    are built for the first model's variables and refuse the second's ("The optimizer cannot
    recognize variable ...").  The copy (``from_config(get_config())``) has the same settings;
    only the step count, which Keras 2 shared, is its own.  tf_keras's legacy optimizers,
    which take any variable, are left shared.  Called by the drop-in's ``compile`` wrapper."""
    global _compiled_into
    given = "optimizer" in kwargs
    optimizer = kwargs.get("optimizer") if given else (args[0] if args else None)
    if (
        optimizer is None
        or isinstance(optimizer, (str, dict))
        or not hasattr(optimizer, "get_config")
        or ".legacy." in type(optimizer).__module__
    ):
        return args, kwargs
    import weakref

    if _compiled_into is None:
        _compiled_into = weakref.WeakKeyDictionary()
    try:
        owner = _compiled_into.get(optimizer)
        model = None if owner is None else owner()
        if model is None or model is instance:
            _compiled_into[optimizer] = weakref.ref(instance)
            return args, kwargs
    except TypeError:  # not weakly referable or not hashable: leave it as given
        return args, kwargs
    copy = type(optimizer).from_config(optimizer.get_config())
    _compiled_into[copy] = weakref.ref(instance)
    if given:
        return args, {**kwargs, "optimizer": copy}
    return (copy, *args[1:]), kwargs


_LIBRARY_ROOTS = frozenset({"keras", "tf_keras", "tensorflow"})
_FLOAT_TARGETS = "_tfcompat_gpu_float_targets"


def _script_function(fn: Any) -> bool:
    import inspect

    if not (inspect.isfunction(fn) or inspect.ismethod(fn)) or getattr(fn, _FLOAT_TARGETS, False):
        return False
    return (getattr(fn, "__module__", None) or "").split(".")[0] not in _LIBRARY_ROOTS


def _float_targets(fn: Callable[..., Any]) -> Callable[..., Any]:
    import functools

    @functools.wraps(fn)
    def with_float_targets(y_true: Any, y_pred: Any, *args: Any, **kwargs: Any) -> Any:
        true_dtype, pred_dtype = getattr(y_true, "dtype", None), getattr(y_pred, "dtype", None)
        if true_dtype is not None and pred_dtype is not None:
            from tfcompat_gpu.tfapi import _tf

            tf = _tf.tf()
            have, want = tf.as_dtype(true_dtype), tf.as_dtype(pred_dtype)
            if want.is_floating and (have.is_integer or have.is_bool):
                y_true = tf.cast(y_true, want)
        return fn(y_true, y_pred, *args, **kwargs)

    setattr(with_float_targets, _FLOAT_TARGETS, True)
    return with_float_targets


def _with_float_targets(given: Any) -> Any:
    if isinstance(given, (list, tuple)):
        return type(given)(_with_float_targets(item) for item in given)
    if isinstance(given, dict):
        return {key: _with_float_targets(value) for key, value in given.items()}
    return _float_targets(given) if _script_function(given) else given


def keras2_targets(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, Any]:
    """``compile()``'s arguments with the script's own loss and metric functions given float
    targets, as Keras 2 gave them (see the module's text).  Called by the drop-in's ``compile``
    wrapper."""
    args, kwargs = tuple(args), dict(kwargs)
    for position, name in ((1, "loss"), (2, "metrics")):
        if name in kwargs:
            kwargs[name] = _with_float_targets(kwargs[name])
        elif len(args) > position:
            args = (*args[:position], _with_float_targets(args[position]), *args[position + 1 :])
    return args, kwargs


def _output_names(model: Any) -> list[str]:
    names = getattr(model, "output_names", None)
    return [str(name) for name in names] if isinstance(names, (list, tuple)) else []


def _class_weights(names: list[str], class_weight: Any) -> list[Any] | None:
    """Keras 2's ``standardize_class_weights``: one class weight (or None) per output."""
    if isinstance(class_weight, dict):
        if not any(name in class_weight for name in names):
            return None  # a dict of class ids: left to Keras as given
        return [class_weight.get(name) for name in names]
    if isinstance(class_weight, (list, tuple)) and len(class_weight) == len(names):
        return list(class_weight)
    return None


def _weights_of(targets: Any, weights: dict[Any, Any] | None) -> Any:
    """Keras 2's ``standardize_weights`` for one output: each sample's class weight."""
    import numpy as np

    targets = np.asarray(targets)
    if weights is None:
        return np.ones(len(targets), dtype="float32")
    if targets.ndim > 2:
        raise ValueError("`class_weight` not supported for 3+ dimensional targets.")
    if targets.ndim == 2 and targets.shape[1] > 1:
        classes = np.argmax(targets, axis=1)
    else:
        classes = np.reshape(targets, len(targets))
    missing = sorted({c.item() for c in classes if c not in weights})
    if missing:
        raise ValueError(
            f"`class_weight` must contain all classes in the data. The classes {missing} exist "
            "in the data but not in `class_weight`."
        )
    return np.asarray([weights[c] for c in classes], dtype="float32")


def keras2_class_weight(module: ModuleType, current: Any) -> Any:
    """A move's ``make``: ``fit`` / ``train_on_batch`` of a model with several outputs taking
    Keras 2's ``class_weight=[weights_of_output_1, ...]`` (or a dict by output name).

    Keras 2.0-2.2 matched a list to the outputs and weighted each output's samples by the class
    its target holds (``standardize_class_weights`` and ``standardize_weights``,
    keras/engine/training_utils.py); tf_keras and Keras 3 take one dict of class ids only
    ("'list' object has no attribute 'keys'").  Such a ``class_weight`` becomes the per-output
    ``sample_weight`` Keras 2 computed, where the call gives no ``sample_weight`` (Keras 2
    ignored the class weights then) and the targets are one array per output.
    """
    import wrapt

    def call(wrapped: Any, instance: Any, args: Any, kwargs: Any) -> Any:
        class_weight = kwargs.get("class_weight")
        if (
            not isinstance(class_weight, (list, tuple, dict))
            or kwargs.get("sample_weight") is not None
            or len(args) > 2
        ):
            return wrapped(*args, **kwargs)
        names = _output_names(instance)
        targets = args[1] if len(args) > 1 else kwargs.get("y")
        if isinstance(targets, dict):
            targets = [targets.get(name) for name in names]
        per_output = _class_weights(names, class_weight) if len(names) > 1 else None
        if (
            per_output is None
            or not isinstance(targets, (list, tuple))
            or len(targets) != len(names)
            or any(target is None for target in targets)
        ):
            return wrapped(*args, **kwargs)
        weights = [_weights_of(t, w) for t, w in zip(targets, per_output, strict=True)]
        return wrapped(*args, **{**kwargs, "class_weight": None, "sample_weight": weights})

    return wrapt.FunctionWrapper(current, call)
