"""A GPUOptions changed after ``ConfigProto(gpu_options=...)`` copied it is left alone."""

from __future__ import annotations

import pytest

pytest.importorskip("libcst")

from _support import assert_warnings

from tfcompat_gpu.codemod.api import migrate_source

_CHANGED_AFTER = """\
import tensorflow as tf
gpu_options = tf.GPUOptions(per_process_gpu_memory_fraction=0.5)
config = tf.ConfigProto(allow_soft_placement=True, gpu_options=gpu_options)
gpu_options.allow_growth = True
sess = tf.Session(config=config)
"""

_CHANGED_BEFORE = """\
import tensorflow as tf
gpu_options = tf.GPUOptions(per_process_gpu_memory_fraction=0.5)
gpu_options.allow_growth = True
config = tf.ConfigProto(gpu_options=gpu_options)
sess = tf.Session(config=config)
"""


@pytest.mark.parametrize("target", ["facade", "tf2"])
def test_change_after_the_copy_is_left_with_a_warning(target: str) -> None:
    result = migrate_source(_CHANGED_AFTER, target=target)  # type: ignore[arg-type]
    assert result.code == _CHANGED_AFTER
    assert_warnings(result.warnings, [(3, "gpu_options.allow_growth is changed on line 4")])


def test_change_before_the_copy_is_migrated() -> None:
    result = migrate_source(_CHANGED_BEFORE, target="facade")
    assert "tfcompat_gpu.configure(per_process_gpu_memory_fraction=0.5, allow_growth=True)" in (
        result.code
    )
    assert not result.warnings
