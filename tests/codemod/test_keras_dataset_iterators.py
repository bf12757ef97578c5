"""``keras_dataset_iterators``: ``fit(dataset.make_one_shot_iterator(), steps_per_epoch=...)``
becomes ``fit(dataset, ...)``.

Modelled on tf.keras scripts of TF 1.10-1.14 (``model.compile(...)`` then ``model.fit(
dataset.make_one_shot_iterator(), verbose=1, steps_per_epoch=size // batch_size,
epochs=num_epochs)``, a validation iterator beside it).  The migrated script runs with plain
``python``, drawing each epoch's batches where the last epoch stopped, as the one-shot iterator
did.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import NO_GPUS, migrated_twice, needs_tensorflow

from tests._child import run


def test_the_iterators_handed_to_keras_become_their_datasets() -> None:
    code, warnings = migrated_twice(
        "import tensorflow as tf\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
        "model.fit(train.make_one_shot_iterator(), steps_per_epoch=10,\n"
        "          validation_data=val.make_one_shot_iterator(), validation_steps=2)\n"
        "model.evaluate(tf.data.make_one_shot_iterator(val), steps=2)\n"
        "model.predict(x=test.batch(2).make_one_shot_iterator(), steps=1)\n"
    )
    assert "model.fit(train, steps_per_epoch=10,\n" in code
    assert "validation_data=val, validation_steps=2)" in code
    assert "model.evaluate(val, steps=2)" in code
    assert "model.predict(x=test.batch(2), steps=1)" in code
    assert not warnings


def test_an_iterator_read_otherwise_is_left() -> None:
    source = (
        "import tensorflow as tf\n"
        "it = ds.make_one_shot_iterator()\n"
        "model.fit(it.get_next(), steps_per_epoch=1)\n"
        "model.fit(x, y, callbacks=[cb(ds.make_one_shot_iterator())])\n"
    )
    code, _ = migrated_twice(source)
    assert "it = ds.make_one_shot_iterator()" in code
    assert "callbacks=[cb(ds.make_one_shot_iterator())]" in code


_SCRIPT = """import numpy as np
import tensorflow as tf

seen = []
x = np.arange(8, dtype=np.float32).reshape(8, 1)
dataset = tf.data.Dataset.from_tensor_slices((x, 2 * x)).batch(2)
dataset = dataset.map(lambda a, b: (tf.py_function(
    lambda v: (seen.append(float(v[0][0])), v)[1], [a], tf.float32), b))
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
model.compile(optimizer='sgd', loss='mse', run_eagerly=True)
model.fit(dataset.make_one_shot_iterator(), steps_per_epoch=2, epochs=2, verbose=0)
print("SEEN", seen)
"""


def test_the_migrated_script_goes_on_where_the_last_epoch_stopped(tmp_path: Path) -> None:
    needs_tensorflow()
    script = tmp_path / "fit.py"
    script.write_text(migrated_twice(_SCRIPT)[0], encoding="utf-8")
    proc = run([str(script)], env=NO_GPUS, cwd=tmp_path, drop=("TF_USE_LEGACY_KERAS",))
    assert proc.returncode == 0, proc.stderr
    assert "SEEN [0.0, 2.0, 4.0, 6.0]" in proc.stdout, proc.stdout
