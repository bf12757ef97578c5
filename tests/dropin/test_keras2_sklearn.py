"""Keras 2's ``keras.wrappers.scikit_learn`` under ``run`` (:mod:`dropin._keras2_sklearn`).

A child runs tutorial-style code (a ``build_fn`` returning a compiled model, wrapped in
``KerasClassifier`` / ``KerasRegressor`` with ``epochs`` and ``batch_size`` among the
estimator's parameters) under ``tfcompat-gpu run`` with real Keras 3 and with real tf_keras; a
second test hands the wrappers to scikit-learn's cross-validation, grid search and pipeline.
"""

from __future__ import annotations

import importlib.util

import pytest

from tests._child import run_script
from tests._keras import needs_tf_keras

pytestmark = pytest.mark.tf

WRAPPERS = """
import numpy as np
from keras.models import Sequential
from keras.layers import Dense
from {module} import KerasClassifier, KerasRegressor
from tests._child import emit

rng = np.random.RandomState(0)
x = rng.rand(24, 4).astype("float32")
labels = np.array(["setosa", "versicolor", "virginica"] * 8)


def three_classes(hidden=8):
    model = Sequential()
    model.add(Dense(hidden, input_dim=4, activation="relu"))
    model.add(Dense(3, activation="softmax"))
    model.compile(loss="categorical_crossentropy", optimizer="adam", metrics=["accuracy"])
    return model


def two_classes():
    model = Sequential()
    model.add(Dense(1, input_dim=4, activation="sigmoid"))
    model.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])
    return model


def regression():
    model = Sequential()
    model.add(Dense(1, input_dim=4))
    model.compile(loss="mean_squared_error", optimizer="adam")
    return model


clf = KerasClassifier(build_fn=three_classes, hidden=4, epochs=1, batch_size=8, verbose=0)
clf.fit(x, labels)
predicted = clf.predict(x)
params = clf.get_params()
copy = type(clf)(**params)  # what scikit-learn's clone does
copy.set_params(hidden=2)
try:
    KerasClassifier(build_fn=three_classes, units=3)
    illegal = None
except ValueError as exc:
    illegal = str(exc)

binary = KerasClassifier(build_fn=two_classes, nb_epoch=1, verbose=0)
binary.fit(x, np.array([0, 1] * 12))
reg = KerasRegressor(build_fn=regression, epochs=1, batch_size=8, verbose=0)
reg.fit(x, x[:, 0])
emit({{
    "labels": set(predicted.tolist()) <= {{"setosa", "versicolor", "virginica"}},
    "classes": clf.classes_.tolist(),
    "proba": list(clf.predict_proba(x).shape),
    "score": 0.0 <= clf.score(x, labels) <= 1.0,
    "params": sorted(params),
    "copy": copy.get_params()["hidden"],
    "illegal": illegal,
    "binary": [list(binary.predict_proba(x).shape), list(binary.predict(x).shape)],
    "regression": [list(reg.predict(x).shape), reg.score(x, x[:, 0]) <= 0.0],
}})
"""

EXPECTED = {
    "labels": True,
    "classes": ["setosa", "versicolor", "virginica"],
    "proba": [24, 3],
    "score": True,
    "params": ["batch_size", "build_fn", "epochs", "hidden", "verbose"],
    "copy": 2,
    "binary": [[24, 2], [24, 1]],
    "regression": [[24], True],
}


def _check(run):  # type: ignore[no-untyped-def]
    assert run.rc == 0, run.err
    result = dict(run.result)
    illegal = result.pop("illegal")
    assert illegal is not None
    assert "units is not a legal parameter" in illegal
    assert result == EXPECTED


@pytest.mark.parametrize(
    "module", ["keras.wrappers.scikit_learn", "tensorflow.keras.wrappers.scikit_learn"]
)
def test_keras_2_sklearn_wrappers_are_served_on_keras_3(tmp_path, module):
    _check(run_script(tmp_path, WRAPPERS.format(module=module)))


@needs_tf_keras
def test_keras_2_sklearn_wrappers_are_served_on_tf_keras(tmp_path):
    _check(
        run_script(
            tmp_path, WRAPPERS.format(module="keras.wrappers.scikit_learn"), "--legacy-keras"
        )
    )


SEARCH = """
import numpy as np
from keras.models import Sequential
from keras.layers import Dense
from keras.wrappers.scikit_learn import KerasClassifier, KerasRegressor
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from tests._child import emit

rng = np.random.RandomState(7)
x = rng.rand(40, 4).astype("float32")
y = (x[:, 0] > 0.5).astype(int)


def create_model(optimizer="rmsprop"):
    model = Sequential()
    model.add(Dense(4, input_dim=4, activation="relu"))
    model.add(Dense(1, activation="sigmoid"))
    model.compile(loss="binary_crossentropy", optimizer=optimizer, metrics=["accuracy"])
    return model


def regression():
    model = Sequential()
    model.add(Dense(1, input_dim=4))
    model.compile(loss="mean_squared_error", optimizer="adam")
    return model


estimator = KerasClassifier(build_fn=create_model, epochs=1, batch_size=10, verbose=0)
scores = cross_val_score(estimator, x, y, cv=KFold(n_splits=2, shuffle=True, random_state=7))
grid = GridSearchCV(estimator, param_grid={"optimizer": ["adam", "sgd"]}, cv=2).fit(x, y)
pipeline = Pipeline([("standardize", StandardScaler()),
                     ("mlp", KerasRegressor(build_fn=regression, epochs=1, verbose=0))])
mse = cross_val_score(pipeline, x, x[:, 1], cv=KFold(n_splits=2))
emit({
    "scores": [bool(0.0 <= s <= 1.0) for s in scores],
    "best": sorted(grid.best_params_),
    "mse": [bool(m <= 0.0) for m in mse],
})
"""


@pytest.mark.skipif(importlib.util.find_spec("sklearn") is None, reason="needs scikit-learn")
def test_keras_2_sklearn_wrappers_in_cross_validation_and_grid_search(tmp_path):
    run = run_script(tmp_path, SEARCH)
    assert run.rc == 0, run.err
    assert run.result == {"scores": [True, True], "best": ["optimizer"], "mse": [True, True]}
