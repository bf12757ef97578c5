"""Keras names a script takes from its helper module with ``from model import *``."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("libcst")

from tfcompat_gpu.codemod._siblings import helper_star_names
from tfcompat_gpu.codemod.api import migrate_source

# the network in one file, the training script beside it taking all of it
_HELPER = """\
import numpy as np
from keras.models import *
from keras.layers import *
from keras.optimizers import *
from keras.callbacks import ModelCheckpoint, LearningRateScheduler
from keras import backend as keras

def segnet(size=(64, 64, 1)):
    inputs = Input(size)
    outputs = Conv2D(1, 1, activation='sigmoid')(inputs)
    return Model(inputs, outputs)
"""
_SCRIPT = """\
from model import *
from data import *

net = segnet()
checkpoint = ModelCheckpoint('segnet.hdf5', monitor='loss', save_best_only=True)
net.fit_generator(batches(), steps_per_epoch=10, epochs=1, callbacks=[checkpoint])
"""


def _project(tmp_path: Path, helper: str = _HELPER) -> Path:
    (tmp_path / "model.py").write_text(helper)
    (tmp_path / "data.py").write_text("def batches():\n    yield None\n")
    script = tmp_path / "main.py"
    script.write_text(_SCRIPT)
    return script


def test_a_helper_star_import_gives_its_keras_names(tmp_path: Path) -> None:
    script = _project(tmp_path)
    result = migrate_source(_SCRIPT, filename=str(script), upgrade=True)
    assert "ModelCheckpoint('segnet.h5', monitor='loss'" in result.code
    assert "net.fit(batches(), steps_per_epoch=10" in result.code


def test_names_the_helper_binds(tmp_path: Path) -> None:
    script = _project(tmp_path)
    names = helper_star_names(str(script), "model")
    assert names["ModelCheckpoint"] == "keras.callbacks.ModelCheckpoint"
    assert names["Conv2D"] == "keras.layers.Conv2D"
    assert names["keras"] == "keras.backend"
    assert "segnet" not in names
    assert "np" not in names
    assert helper_star_names(str(script), "data") == {}
    assert helper_star_names(str(script), "absent") == {}
    assert helper_star_names(None, "model") == {}


@pytest.mark.parametrize(
    "helper",
    [
        # the helper's own ModelCheckpoint, defined after the import
        _HELPER + "class ModelCheckpoint:\n    def __init__(self, *a, **k):\n        pass\n",
        # __all__ keeps the import private
        _HELPER + "__all__ = ['segnet']\n",
        "ModelCheckpoint = print\n",
    ],
    ids=["redefined", "all", "not-keras"],
)
def test_names_the_helper_does_not_give_stay(tmp_path: Path, helper: str) -> None:
    script = _project(tmp_path, helper)
    result = migrate_source(_SCRIPT, filename=str(script), upgrade=True)
    assert "ModelCheckpoint('segnet.hdf5'" in result.code


def test_a_syntax_error_in_the_helper_binds_nothing(tmp_path: Path) -> None:
    script = _project(tmp_path, "from keras.callbacks import ModelCheckpoint\ndef (:\n")
    assert helper_star_names(str(script), "model") == {}
