"""Keras 1 layer arguments: the migrated layers built under Keras 3 (their before/after pairs
run with the other upgrade cases in test_upgrade.py)."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("libcst")

from _support import needs_tensorflow
from cases_keras1 import BUILDS

from tests._child import run_py
from tfcompat_gpu.codemod.api import migrate_source
from tfcompat_gpu.tfapi.keras1_names import LAYER_CLASSES


def _script(call: str) -> str:
    name = call.partition("(")[0]
    assert name in LAYER_CLASSES
    return f"from keras.layers import {name}\nlayer = {call}\n"


@pytest.mark.tf
def test_migrated_layers_build_as_keras2_built_them() -> None:
    needs_tensorflow()
    migrated = {}
    for id, call, _ in BUILDS:
        result = migrate_source(_script(call), upgrade=True)
        assert not any("left unchanged" in w for w in result.warnings), result.warnings
        assert not re.search(r"\b(?:init|border_mode|subsample|nb_\w+|dim_ordering)=", result.code)
        migrated[id] = result.code
    configs = run_py(
        f"""
        import keras

        def field(value):
            if isinstance(value, dict) and "class_name" in value:
                return value["class_name"]
            return list(value) if isinstance(value, tuple) else value

        out = {{}}
        for id, code in {migrated!r}.items():
            space = {{}}
            exec(code, space)
            layer = space["layer"]
            out[id] = {{k: field(v) for k, v in layer.get_config().items()}}
        emit(out)
        """
    )
    for id, _, expected in BUILDS:
        got = {key: configs[id].get(key) for key in expected}
        assert got == expected, (id, migrated[id])
