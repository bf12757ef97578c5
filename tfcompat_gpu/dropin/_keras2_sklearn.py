"""Keras 2's scikit-learn wrappers, served again under ``run``.

``from keras.wrappers.scikit_learn import KerasClassifier`` (and ``KerasRegressor``; also from
``tensorflow.keras.wrappers.scikit_learn``) is how a great many tutorials put a Keras model into
``cross_val_score``, ``GridSearchCV`` or a ``Pipeline``.  TensorFlow 2.13 removed the module,
tf_keras does not have it, and Keras 3's ``keras.wrappers.SKLearnClassifier`` takes other
arguments.  This module gives the old classes their old contract:

* ``KerasClassifier(build_fn=None, **sk_params)``: ``sk_params`` holds both the arguments of
  ``build_fn`` and those of ``fit`` / ``predict`` / ``evaluate`` (``epochs``, ``batch_size``,
  ``verbose``, Keras 1's ``nb_epoch``); each call takes the ones its function accepts.
* ``get_params`` / ``set_params`` as scikit-learn's ``clone`` and grid searches use them.
* The classifier encodes the labels it is fitted on (``classes_``), one-hot when the model's
  loss is ``categorical_crossentropy``; ``predict`` gives labels, ``predict_proba`` a column per
  class (two for one sigmoid output), ``score`` the model's accuracy.
* The regressor's ``predict`` drops the last axis of one output, and ``score`` is minus the loss.

It is written from Keras 2.2's documented behaviour, for any Keras the script runs on (the
model is whatever ``build_fn`` returns).  ``run`` serves it where the Keras in use has no such
module (:mod:`tfcompat_gpu.dropin._keras`); it imports scikit-learn only when a script imports
the wrappers.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable
from types import ModuleType
from typing import Any

try:  # scikit-learn's own bases, so that its tags, clone and searches know the wrappers
    from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin

    _CLASSIFIER: tuple[type, ...] = (ClassifierMixin, BaseEstimator)
    _REGRESSOR: tuple[type, ...] = (RegressorMixin, BaseEstimator)
except ImportError:  # the wrappers work without it, as Keras 2's did
    _CLASSIFIER = _REGRESSOR = ()

__all__ = ["BaseWrapper", "KerasClassifier", "KerasRegressor", "fill"]
_FIT_NAMES = frozenset(
    {
        "batch_size",
        "epochs",
        "verbose",
        "callbacks",
        "validation_split",
        "validation_data",
        "shuffle",
        "class_weight",
        "sample_weight",
        "initial_epoch",
        "steps_per_epoch",
        "validation_steps",
    }
)
_PREDICT_NAMES = frozenset({"batch_size", "verbose", "steps", "callbacks"})
_RENAMED = {"nb_epoch": "epochs"}  # Keras 1's name, which Keras 2's wrappers still took


def _accepted(func: Callable[..., Any]) -> set[str] | None:
    """The keyword names ``func`` takes; None when it takes any (``**kwargs``)."""
    try:
        parameters = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return None
    return {p.name for p in parameters}


class BaseWrapper:
    def __init__(self, build_fn: Callable[..., Any] | None = None, **sk_params: Any) -> None:
        self.build_fn = build_fn
        self.sk_params = sk_params
        self._check_params(sk_params)

    # -- scikit-learn's estimator protocol -------------------------------------------------

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        params = copy.copy(self.sk_params)
        params["build_fn"] = self.build_fn
        return params

    def set_params(self, **params: Any) -> BaseWrapper:
        self._check_params(params)
        if "build_fn" in params:
            self.build_fn = params.pop("build_fn")
        self.sk_params.update(params)
        return self

    def __sklearn_is_fitted__(self) -> bool:
        return hasattr(self, "model")

    def _check_params(self, params: dict[str, Any]) -> None:
        build = self._builder()
        legal = set(_FIT_NAMES | _PREDICT_NAMES | set(_RENAMED) | {"build_fn"})
        accepted = _accepted(build) if build is not None else set()
        if accepted is None:
            return
        legal |= accepted
        for name in params:
            if name not in legal:
                raise ValueError(
                    f"{name} is not a legal parameter of {type(self).__name__}: give the "
                    f"arguments of build_fn ({', '.join(sorted(accepted)) or 'none'}) or of "
                    "fit / predict (epochs, batch_size, verbose, ...)"
                )

    # -- the model ---------------------------------------------------------------------------

    def _builder(self) -> Callable[..., Any] | None:
        if self.build_fn is None:  # a subclass that builds the model in __call__
            return self if callable(self) else None
        return self.build_fn

    def _take(
        self, func: Callable[..., Any] | None, names: frozenset[str] | None = None, **override: Any
    ) -> dict[str, Any]:
        params = {_RENAMED.get(k, k): v for k, v in self.sk_params.items()}
        accepted = _accepted(func) if func is not None else None
        wanted = names if accepted is None else accepted
        taken = {k: v for k, v in params.items() if wanted is None or k in wanted}
        taken.update(override)
        return taken

    def _loss_is_categorical(self) -> bool:
        loss = getattr(self.model, "loss", None)
        name = loss if isinstance(loss, str) else getattr(loss, "__name__", "")
        return name == "categorical_crossentropy"

    def fit(self, x: Any, y: Any, **kwargs: Any) -> Any:
        build = self._builder()
        if build is None:
            raise ValueError(
                f"{type(self).__name__} needs build_fn, a function that returns a compiled model"
            )
        self.model = build(**self._take(build))
        y = self._targets(y)
        return self.model.fit(x, y, **self._take(self.model.fit, _FIT_NAMES, **kwargs))

    def _targets(self, y: Any) -> Any:
        return y

    def _predict(self, x: Any, **kwargs: Any) -> Any:
        return self.model.predict(x, **self._take(self.model.predict, _PREDICT_NAMES, **kwargs))


class KerasClassifier(BaseWrapper, *_CLASSIFIER):  # type: ignore[misc]
    """Keras 2's ``keras.wrappers.scikit_learn.KerasClassifier``."""

    _estimator_type = "classifier"

    def fit(self, x: Any, y: Any, **kwargs: Any) -> Any:
        import numpy as np

        y = np.asarray(y)
        if y.ndim == 2 and y.shape[1] > 1:
            self.classes_ = np.arange(y.shape[1])
        elif y.ndim == 1 or (y.ndim == 2 and y.shape[1] == 1):
            self.classes_ = np.unique(y)
            y = np.searchsorted(self.classes_, y)
        else:
            raise ValueError(f"KerasClassifier: labels of shape {y.shape} are not supported")
        self.n_classes_ = len(self.classes_)
        return super().fit(x, y, **kwargs)

    def _targets(self, y: Any) -> Any:
        import numpy as np

        y = np.asarray(y)
        if self._loss_is_categorical() and (y.ndim == 1 or y.shape[-1] == 1):
            return np.eye(self.n_classes_, dtype="float32")[y.reshape(-1).astype(int)]
        return y

    def predict_proba(self, x: Any, **kwargs: Any) -> Any:
        import numpy as np

        probs = np.asarray(self._predict(x, **kwargs))
        if probs.ndim == 2 and probs.shape[1] == 1:
            probs = np.hstack([1 - probs, probs])
        return probs

    def predict(self, x: Any, **kwargs: Any) -> Any:
        import numpy as np

        probs = np.asarray(self._predict(x, **kwargs))
        # One sigmoid output: Keras 2 kept its (n, 1) shape in the labels.
        index = probs.argmax(axis=-1) if probs.shape[-1] > 1 else (probs > 0.5).astype("int32")
        return self.classes_[index]

    def score(self, x: Any, y: Any, **kwargs: Any) -> float:
        import numpy as np

        y = self._targets(np.searchsorted(self.classes_, np.asarray(y)))
        args = self._take(self.model.evaluate, _PREDICT_NAMES, **kwargs)
        results = self.model.evaluate(x, y, return_dict=True, **args)
        for name in ("accuracy", "acc"):
            if name in results:
                return float(results[name])
        raise ValueError(
            "KerasClassifier.score needs a model compiled with metrics=['accuracy'] "
            f"(it reports {', '.join(results)})"
        )


class KerasRegressor(BaseWrapper, *_REGRESSOR):  # type: ignore[misc]
    """Keras 2's ``keras.wrappers.scikit_learn.KerasRegressor``."""

    _estimator_type = "regressor"

    def predict(self, x: Any, **kwargs: Any) -> Any:
        import numpy as np

        out = np.asarray(self._predict(x, **kwargs))
        return np.squeeze(out, axis=-1) if out.ndim > 1 and out.shape[-1] == 1 else out

    def score(self, x: Any, y: Any, **kwargs: Any) -> float:
        args = self._take(self.model.evaluate, _PREDICT_NAMES, **kwargs)
        loss = self.model.evaluate(x, y, **args)
        return -float(loss[0] if isinstance(loss, (list, tuple)) else loss)


def fill(module: ModuleType) -> None:
    """Make ``module`` Keras 2's ``wrappers.scikit_learn``."""
    module.__doc__ = __doc__
    module.KerasClassifier = KerasClassifier  # type: ignore[attr-defined]
    module.KerasRegressor = KerasRegressor  # type: ignore[attr-defined]
    module.BaseWrapper = BaseWrapper  # type: ignore[attr-defined]
    module.__all__ = ["KerasClassifier", "KerasRegressor"]  # type: ignore[attr-defined]
