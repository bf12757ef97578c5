"""The ``tf.config`` table of TFG030 against the TensorFlow installed here (2.15 and 2.21 legs)."""

from __future__ import annotations

import sys

import pytest

from tfcompat_gpu.lint._tfconfig_api import API
from tfcompat_gpu.lint.tfconfig_gen import from_python

pytestmark = pytest.mark.tf


def test_the_table_lists_the_installed_tensorflow_config_api() -> None:
    version, names, _how = from_python(sys.executable)
    release = tuple(int(part) for part in version.split(".")[:2])
    if release not in API:
        pytest.skip(f"TensorFlow {version} is not in the table")
    assert {flavour: set(found) for flavour, found in names.items()} == {
        flavour: set(API[release][flavour]) for flavour in ("v2", "v1")
    }
