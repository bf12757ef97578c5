"""``ModelCheckpoint(period=N)`` migrated: Keras 3 saves on the epochs Keras 2 saved on."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import keras3, needs_tensorflow

from tests._child import run_py
from tfcompat_gpu.codemod.api import migrate_source

# a detector's two training stages sharing one checkpoint every three epochs: Keras 2 counted
# the epochs since its last save across both fit() calls
_TRAIN = """\
import numpy as np
from keras.layers import Dense, Input
from keras.models import Model
from keras.callbacks import ModelCheckpoint

inputs = Input(shape=(4,))
model = Model(inputs, Dense(1)(inputs))
model.compile(optimizer='sgd', loss='mse')
checkpoint = ModelCheckpoint('logs/ep{epoch:03d}.h5', monitor='loss',
    save_weights_only=True, period=3)
x, y = np.ones((8, 4), 'float32'), np.zeros((8, 1), 'float32')
model.fit(x, y, epochs=4, verbose=0, callbacks=[checkpoint])
model.fit(x, y, epochs=7, initial_epoch=4, verbose=0, callbacks=[checkpoint])
"""


def test_period_becomes_a_checkpoint_that_counts_epochs() -> None:
    result = migrate_source(_TRAIN, upgrade=True)
    assert "period=3" in result.code
    assert "_PeriodicCheckpoint('logs/ep{epoch:03d}.weights.h5'" in result.code
    assert not [w for w in result.warnings if "[checkpoint period]" in w]


@pytest.mark.tf
def test_migrated_period_saves_every_third_epoch(tmp_path: Path) -> None:
    needs_tensorflow()
    if not keras3():
        pytest.skip("the migrated code is Keras 3 code")
    code = migrate_source(_TRAIN, upgrade=True).code
    (tmp_path / "logs").mkdir()
    out = run_py(
        f"""
        import os
        exec({code!r}, {{}})
        emit(sorted(os.listdir("logs")))
        """,
        cwd=tmp_path,
    )
    # epochs 3 and 6 (1-based, as the name template counts): Keras 2's saves
    assert out == ["ep003.weights.h5", "ep006.weights.h5"]
