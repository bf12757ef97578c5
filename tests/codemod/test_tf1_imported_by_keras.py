"""A TF1 helper module that Keras code beside it imports: compat names, not graph mode."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import assert_warnings, keras3, needs_tensorflow

from tests._child import run_py
from tfcompat_gpu.codemod._siblings import keras_importers
from tfcompat_gpu.codemod.api import migrate_source

# a warping block written for TF 1.x, called from the model's Lambda layer
_WARP = """\
import tensorflow as tf

def warp(images, name='warp'):
    with tf.variable_scope(name):
        flipped = tf.reverse(images, axis=[2])
        return tf.to_float(flipped) * 0.5
"""
_MODEL = """\
from keras.layers import Input, Lambda
from keras.models import Model
from warp import warp

def build():
    inputs = Input((4, 4, 1))
    return Model(inputs, Lambda(warp)(inputs))
"""


def _project(tmp_path: Path, model: str | None = _MODEL) -> Path:
    helper = tmp_path / "warp.py"
    helper.write_text(_WARP)
    if model is not None:
        (tmp_path / "model.py").write_text(model)
    (tmp_path / "notes.py").write_text("import warp\n")  # imports it, no Keras
    return helper


def test_a_helper_keras_code_imports_gets_no_graph_mode(tmp_path: Path) -> None:
    helper = _project(tmp_path)
    result = migrate_source(_WARP, filename=str(helper), upgrade=True)
    assert result.code.startswith("import tensorflow.compat.v1 as tf\n")
    assert "disable_v2_behavior" not in result.code
    assert_warnings(result.warnings, [(1, "model.py imports this module and uses Keras")])
    assert_warnings(result.warnings, [(1, "[imported by Keras code]")])


def test_without_a_keras_importer_graph_mode_stays(tmp_path: Path) -> None:
    helper = _project(tmp_path, model=None)
    result = migrate_source(_WARP, filename=str(helper), upgrade=True)
    assert "tf.disable_v2_behavior()" in result.code


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ("from warp import warp\nimport keras\n", True),
        ("import os, warp\nfrom tensorflow import keras\n", True),
        ("from .warp import warp\nfrom tensorflow.keras import layers\n", True),
        ("import warp_utils\nimport keras\n", False),
        ("import warp.sub\nimport keras\n", False),
        ("from warp import warp\n", False),
    ],
)
def test_keras_importers(tmp_path: Path, line: str, found: bool) -> None:
    helper = _project(tmp_path, model=line)
    assert keras_importers(str(helper)) == (["model.py"] if found else [])


@pytest.mark.tf
def test_migrated_helper_runs_in_a_keras3_layer(tmp_path: Path) -> None:
    needs_tensorflow()
    if not keras3():
        pytest.skip("the importer is Keras 3 code")
    helper = _project(tmp_path)
    helper.write_text(migrate_source(_WARP, filename=str(helper), upgrade=True).code)
    out = run_py(
        """
        import numpy as np
        from model import build
        y = build().predict(np.arange(16, dtype="float32").reshape(1, 4, 4, 1), verbose=0)
        emit(y[0, 0, :, 0].tolist())
        """,
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path)},
    )
    assert out == [1.5, 1.0, 0.5, 0.0]
