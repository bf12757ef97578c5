"""``tf.contrib.eager`` (``tfe``) of TF 1.5-1.15, from the TensorFlow 2 names that replaced it.

Eager scripts of 2018-2019 imported ``tensorflow.contrib.eager as tfe`` (or wrote ``tfe =
tf.contrib.eager``) and trained with ``tfe.Variable``, ``tfe.Iterator(dataset)``,
``tfe.implicit_gradients(loss_fn)`` handed to a ``tf.train`` optimizer's ``apply_gradients``,
``tfe.metrics.Mean()`` and ``tfe.Checkpoint``.  TensorFlow 2 runs eagerly and kept each of
these under another name; the gradient functions are TensorFlow's own ``backprop`` functions
(``implicit_grad`` and the rest), which ``tfe`` re-exported.  ``tfe.metrics`` were TF 1.x's
eager metrics: ``Mean()(values)`` and ``Accuracy()(labels, predictions)`` update the state and
``result()`` reads it, as the Keras metrics of the same names do.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from tfcompat_gpu.tfapi import _tf

__all__ = ["EAGER", "METRICS", "MODULES", "eager_module", "metric", "metrics_module"]


def _iterator(dataset: Any) -> Any:
    """``tfe.Iterator(dataset)``: the dataset's eager iterator (it has ``next()`` too)."""
    return iter(dataset)


def _num_gpus() -> int:
    return len(_tf.physical_gpus())


def _backprop(name: str) -> Callable[[], Any]:
    return lambda: getattr(_tf.backprop(), name)


def _tf_name(path: str) -> Callable[[], Any]:
    def get() -> Any:
        value: Any = _tf.tf()
        for part in path.split("."):
            value = getattr(value, part)
        return value

    return get


# tfe.<name> -> the TensorFlow 2 object it is now
EAGER: dict[str, Callable[[], Any]] = {
    "Variable": _tf_name("Variable"),
    "Iterator": lambda: _iterator,
    "GradientTape": _tf_name("GradientTape"),
    "Checkpoint": _tf_name("compat.v1.train.Checkpoint"),
    "defun": _tf_name("function"),
    "function": _tf_name("function"),
    "py_func": _tf_name("py_function"),
    "custom_gradient": _tf_name("custom_gradient"),
    "make_template": _tf_name("compat.v1.make_template"),
    "TensorSpec": _tf_name("TensorSpec"),
    "enable_eager_execution": _tf_name("compat.v1.enable_eager_execution"),
    "executing_eagerly": _tf_name("executing_eagerly"),
    "in_eager_mode": _tf_name("executing_eagerly"),
    "num_gpus": lambda: _num_gpus,
    "implicit_gradients": _backprop("implicit_grad"),
    "implicit_value_and_gradients": _backprop("implicit_val_and_grad"),
    "gradients_function": _backprop("gradients_function"),
    "value_and_gradients_function": _backprop("val_and_grad_function"),
}

# tfe.metrics.<name> -> the Keras metric of the same use
METRICS = ("Mean", "Accuracy", "CategoricalAccuracy", "BinaryAccuracy", "SparseAccuracy")
_KERAS_METRIC = {"SparseAccuracy": "SparseCategoricalAccuracy"}


def metric(name: str) -> Any:
    return getattr(_tf.tf().keras.metrics, _KERAS_METRIC.get(name, name))


EAGER_MODULE = "tensorflow.contrib.eager"
EAGER_PYTHON = "tensorflow.contrib.eager.python"
METRICS_MODULE = "tensorflow.contrib.eager.metrics"


def _missing(module: str, name: str, served: list[str]) -> AttributeError:
    if name.startswith("__"):
        return AttributeError(name)
    return AttributeError(
        f"tf.contrib.{module}.{name}: tf.contrib was removed in TensorFlow 2.0, which runs "
        f"eagerly; of tf.contrib.{module} the drop-in provides {', '.join(served)}. Use tf "
        "itself (tf.Variable, tf.GradientTape, tf.train.Checkpoint, iter(dataset)) instead."
    )


def _eager_getattr(name: str) -> Any:
    if name in EAGER:
        return EAGER[name]()
    if name == "metrics":
        return metrics_module()
    raise _missing("eager", name, [*sorted(EAGER), "metrics"])


def _metrics_getattr(name: str) -> Any:
    if name in METRICS:
        return metric(name)
    raise _missing("eager.metrics", name, list(METRICS))


def _python_getattr(name: str) -> Any:
    if name == "tfe":
        return eager_module()
    raise _missing("eager.python", name, ["tfe"])


def _module(name: str, doc: str, getattr_: Any, all_: list[str], package: bool) -> ModuleType:
    module = sys.modules.get(name)
    if module is None:
        module = ModuleType(name, doc)
        module.__getattr__ = getattr_  # type: ignore[method-assign]
        module.__tfcompat_gpu__ = True  # type: ignore[attr-defined]
        module.__all__ = all_  # type: ignore[attr-defined]
        if package:
            module.__path__ = []
        sys.modules.setdefault(name, module)
    return sys.modules[name]


def eager_module() -> ModuleType:
    """The ``tensorflow.contrib.eager`` module object (``tfe``)."""
    return _module(
        EAGER_MODULE,
        "tf.contrib.eager of TF 1.x (tfe), from the TensorFlow 2 names, by tfcompat_gpu.",
        _eager_getattr,
        [*sorted(EAGER), "metrics"],
        package=True,
    )


def metrics_module() -> ModuleType:
    """The ``tensorflow.contrib.eager.metrics`` module object: Keras metrics of the same use."""
    return _module(
        METRICS_MODULE,
        "tf.contrib.eager.metrics of TF 1.x, as Keras metrics, by tfcompat_gpu.",
        _metrics_getattr,
        list(METRICS),
        package=False,
    )


def python_module() -> ModuleType:
    """``tensorflow.contrib.eager.python``, for ``from tensorflow.contrib.eager.python import
    tfe``."""
    return _module(
        EAGER_PYTHON,
        "tf.contrib.eager.python of TF 1.x: tfe, by tfcompat_gpu.",
        _python_getattr,
        ["tfe"],
        package=True,
    )


MODULES: dict[str, Callable[[], ModuleType]] = {
    EAGER_MODULE: eager_module,
    METRICS_MODULE: metrics_module,
    EAGER_PYTHON: python_module,
    f"{EAGER_PYTHON}.tfe": eager_module,
}
