"""``keras_tf1_optimizers``: a ``tf.train`` optimizer compiled into a Keras model becomes the
Keras optimizer of the same update.

Modelled on TF 1.x's Keras guide (``model.compile(optimizer=tf.train.AdamOptimizer(0.001),
loss='categorical_crossentropy', metrics=['accuracy'])`` then ``model.fit(dataset, epochs=10,
steps_per_epoch=30)``) and on scripts compiling ``tf.train.AdamOptimizer()`` with no argument or
a ``MomentumOptimizer``.  The migrated script trains with plain ``python``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import NO_GPUS, migrated_twice, needs_tensorflow

from tests._child import run


def _compiled(optimizer: str) -> tuple[str, tuple[str, ...]]:
    code, warnings = migrated_twice(
        "import tensorflow as tf\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
        f"model.compile(optimizer={optimizer}, loss='mse')\n"
    )
    (line,) = [line for line in code.splitlines() if line.startswith("model.compile(")]
    return line[len("model.compile(optimizer=") : -len(", loss='mse')")], warnings


@pytest.mark.parametrize(
    ("tf1", "keras"),
    [
        ("tf.train.AdamOptimizer(0.001)", "tf.keras.optimizers.Adam(0.001, epsilon=1e-08)"),
        ("tf.train.AdamOptimizer()", "tf.keras.optimizers.Adam(epsilon=1e-08)"),
        (
            "tf.train.AdamOptimizer(beta1=0.5, learning_rate=2e-4, epsilon=1e-7)",
            "tf.keras.optimizers.Adam(2e-4, beta_1=0.5, epsilon=1e-7)",
        ),
        ("tf.train.GradientDescentOptimizer(1)", "tf.keras.optimizers.SGD(1.0)"),
        (
            "tf.train.GradientDescentOptimizer(learning_rate=args.lr, use_locking=False)",
            "tf.keras.optimizers.SGD(args.lr)",
        ),
        (
            "tf.train.MomentumOptimizer(0.01, 0.9, use_nesterov=True)",
            "tf.keras.optimizers.SGD(0.01, momentum=0.9, nesterov=True)",
        ),
        (
            "tf.compat.v1.train.MomentumOptimizer(lr * 2, momentum=0.5)",
            "tf.keras.optimizers.SGD(lr * 2, momentum=0.5)",
        ),
    ],
)
def test_the_optimizer_becomes_the_keras_one(tf1: str, keras: str) -> None:
    assert _compiled(tf1)[0] == keras


@pytest.mark.parametrize(
    "tf1",
    [
        "tf.train.AdamOptimizer(tf.train.exponential_decay(0.1, step, 100, 0.9))",
        "tf.train.RMSPropOptimizer(0.001)",
        "tf.train.AdamOptimizer(0.001, use_locking=True)",
        "tf.train.AdamOptimizer(*args)",
    ],
)
def test_an_optimizer_without_an_exact_keras_one_is_left(tf1: str) -> None:
    optimizer, warnings = _compiled(tf1)
    assert optimizer == tf1
    assert any("graph code beside Keras" in w for w in warnings)


def test_an_optimizer_not_compiled_is_left() -> None:
    code, _ = migrated_twice(
        "import tensorflow as tf\n"
        "tf.enable_eager_execution()\n"
        "optimizer = tf.train.AdamOptimizer(0.001)\n"
    )
    assert "optimizer = tf.train.AdamOptimizer(0.001)" in code


def test_a_model_of_another_framework_keeps_its_v1_optimizer() -> None:
    # tensorpack's KerasModel wraps a Keras model function but trains it in its own v1 graph,
    # from the v1 optimizer compile() is given.
    code, _ = migrated_twice(
        "import tensorflow as tf\n"
        "from tensorpack.contrib.keras import KerasModel\n"
        "M = KerasModel(model_func, inputs_desc=inputs, targets_desc=targets, input=data)\n"
        "M.compile(optimizer=tf.train.AdamOptimizer(1e-3), loss='categorical_crossentropy')\n"
    )
    assert "M.compile(optimizer=tf.train.AdamOptimizer(1e-3)," in code


@pytest.mark.parametrize(
    "binding",
    [
        "from models import build_model\nmodel = build_model()\n",
        "from nets import UNet\nmodel = UNet(classes=2)\n",
        "def train(model):\n    pass\nmodel = tf.keras.Sequential()\n",
    ],
)
def test_a_model_from_the_project_is_still_a_keras_model(binding: str) -> None:
    code, _ = migrated_twice(
        f"import tensorflow as tf\n{binding}model.compile(optimizer=tf.train.AdamOptimizer(0.01))\n"
    )
    assert "model.compile(optimizer=tf.keras.optimizers.Adam(0.01, epsilon=1e-08))" in code


_GUIDE = """import numpy as np
import tensorflow as tf
from tensorflow.keras import layers

model = tf.keras.Sequential([layers.Dense(16, activation='relu'), layers.Dense(4)])
model.compile(optimizer=tf.train.AdamOptimizer(0.01), loss='mse', metrics=['mae'])
rng = np.random.RandomState(0)
data = rng.random_sample((64, 8)).astype(np.float32)
labels = data[:, :4] * 2.0
dataset = tf.data.Dataset.from_tensor_slices((data, labels)).batch(16).repeat()
history = model.fit(dataset, epochs=3, steps_per_epoch=8, verbose=0)
losses = history.history['loss']
print("TRAINED", type(model.optimizer).__name__, losses[-1] < losses[0])
"""


def test_the_migrated_guide_script_trains_with_plain_python(tmp_path: Path) -> None:
    needs_tensorflow()
    code, warnings = migrated_twice(_GUIDE)
    assert not warnings
    script = tmp_path / "guide.py"
    script.write_text(code, encoding="utf-8")
    proc = run([str(script)], env=NO_GPUS, cwd=tmp_path, drop=("TF_USE_LEGACY_KERAS",))
    assert proc.returncode == 0, proc.stderr
    assert "TRAINED Adam True" in proc.stdout, proc.stdout
