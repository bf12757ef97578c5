"""Keras 1 layer arguments: before/after pairs, and the migrated layers built under Keras 3."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("libcst")

from _support import assert_warnings, needs_tensorflow
from cases_keras1 import BUILDS, KERAS1_CASES

from tests._child import run_py
from tfcompat_gpu.codemod.api import migrate_source
from tfcompat_gpu.tfapi.keras1_names import LAYER_CLASSES

IDS = [case[0] for case in KERAS1_CASES]


@pytest.mark.parametrize(("before", "after", "warnings"), [c[1:] for c in KERAS1_CASES], ids=IDS)
def test_keras1_arguments(before: str, after: str, warnings: list[tuple[int, str]]) -> None:
    result = migrate_source(before, upgrade=True)
    assert result.code == after
    assert_warnings(result.warnings, warnings)
    compile(result.code, "<migrated>", "exec")
    again = migrate_source(result.code, upgrade=True)
    assert again.code == result.code
    # what is left alone is said again; what was dropped is not
    left = [w for w in warnings if "dropped" not in w[1]]
    assert len(again.warnings) == len(left), again.warnings


@pytest.mark.parametrize("before", [c[1] for c in KERAS1_CASES], ids=IDS)
def test_off_without_upgrade(before: str) -> None:
    assert migrate_source(before).code == before


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
