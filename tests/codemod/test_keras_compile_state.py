"""What Keras 2 fixed at ``compile()`` (trainable flags, the optimizer's variables, a flat
metrics list for several outputs) and NumPy layer sizes, in Keras 2 GAN scripts.

The rewrites are checked on source (``migrate_source``), then on a GAN script of the Keras 2
GAN collections' shape (``legacy_scripts/keras2_gan_combined.py``): migrated, it must run with
plain ``python`` on Keras 3 and train its discriminator on its own but not inside the combined
model (the script asserts both); unchanged, it must run under ``tfcompat-gpu run``.
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import NO_GPUS, keras3, migrate_cli, migrated_twice, needs_tensorflow

from tests._child import run, run_script

SCRIPT = Path(__file__).resolve().parent / "legacy_scripts" / "keras2_gan_combined.py"


CLASS_GAN = """
from keras.layers import Input
from keras.models import Model
from keras.optimizers import Adam


class GAN:
    def __init__(self):
        opt = Adam(0.0002, 0.5)
        self.critic = self.build_critic()
        self.critic.compile(loss="mse", optimizer=opt)
        z = Input(shape=(2,))
        self.critic.trainable = False
        self.stacked = Model(z, self.critic(self.gen(z)))
        self.stacked.compile(loss="mse", optimizer=opt)

    def train(self, x, y, z):
        for _ in range(3):
            self.critic.train_on_batch(x, y)
            self.critic.train_on_batch(z, y)
            self.stacked.train_on_batch(z, y)
"""


def test_gan_models_train_with_the_flags_of_their_compile() -> None:
    code, warnings = migrated_twice(CLASS_GAN)
    assert warnings == ()
    assert (
        "        for _ in range(3):\n"
        "            self.critic.trainable = True\n"
        "            self.critic.train_on_batch(x, y)\n"
        "            self.critic.train_on_batch(z, y)\n"
        "            self.critic.trainable = False\n"
        "            self.stacked.train_on_batch(z, y)\n"
    ) in code
    # the second compile gets its own optimizer: a Keras 3 optimizer serves one model
    assert 'self.critic.compile(loss="mse", optimizer=opt)' in code
    assert (
        'self.stacked.compile(loss="mse", optimizer=type(opt).from_config(opt.get_config()))'
    ) in code


def test_module_level_gan_and_a_generator_frozen_then_thawed() -> None:
    code, warnings = migrated_twice(
        """
        import keras
        from keras.optimizers import RMSprop

        generator.trainable = False
        critic_model.compile(loss="mse", optimizer=RMSprop(learning_rate=1e-4))
        critic.trainable = False
        generator.trainable = True
        generator_model.compile(loss="mse", optimizer=RMSprop(learning_rate=1e-4))
        for step in range(2):
            d = critic_model.train_on_batch(x, y)
            g = generator_model.train_on_batch(z, y)
        """
    )
    assert warnings == ()
    assert (
        "    critic.trainable = True\n"
        "    generator.trainable = False\n"
        "    d = critic_model.train_on_batch(x, y)\n"
        "    critic.trainable = False\n"
        "    generator.trainable = True\n"
        "    g = generator_model.train_on_batch(z, y)\n"
    ) in code
    assert "from_config" not in code  # a new optimizer for each compile already


@pytest.mark.parametrize(
    "source",
    [
        # the flags are set before each training call already (Keras 3 style)
        """
        import keras
        d.compile(loss="mse", optimizer="adam")
        d.trainable = False
        gan.compile(loss="mse", optimizer="adam")
        for step in range(2):
            d.trainable = True
            d.train_on_batch(x, y)
            d.trainable = False
            gan.train_on_batch(z, y)
        """,
        # fine-tuning: one model compiled again after a change of flags, as Keras 3 wants
        """
        import keras
        base.trainable = False
        model.compile(loss="mse", optimizer="adam")
        model.fit(x, y)
        base.trainable = True
        model.compile(loss="mse", optimizer="adam")
        model.fit(x, y)
        """,
        # every model compiled with the flags it trains with
        """
        import keras
        base.trainable = False
        model.compile(loss="mse", optimizer="adam")
        model.fit(x, y)
        """,
    ],
    ids=["flags-in-loop", "fine-tuning", "transfer"],
)
def test_code_that_already_trains_with_its_compile_flags_is_left(source: str) -> None:
    code, warnings = migrated_twice(source)
    assert code == textwrap.dedent(source).lstrip("\n")
    assert warnings == ()


def test_one_statement_training_two_models_compiled_differently_is_warned() -> None:
    code, warnings = migrated_twice(
        """
        import keras
        d.compile(loss="mse", optimizer="adam")
        d.trainable = False
        gan.compile(loss="mse", optimizer="adam")
        both = [d.train_on_batch(x, y), gan.train_on_batch(z, y)]
        """
    )
    assert "trainable = True" not in code
    assert len(warnings) == 1, warnings
    assert "[trainable after compile]" in warnings[0]
    assert warnings[0].startswith("5: ")


def test_flat_metrics_of_a_model_with_a_loss_per_output_go_to_each_output() -> None:
    code, warnings = migrated_twice(
        """
        import keras
        losses = ["binary_crossentropy", "sparse_categorical_crossentropy"]
        d.compile(loss=losses, optimizer="adam", metrics=["accuracy"])
        m.compile(loss={"valid": "mse", "label": "mae"}, optimizer="adam", metrics=["mae"])
        s.compile(loss="mse", optimizer="adam", metrics=["accuracy"])
        """
    )
    assert warnings == ()
    assert 'metrics=[["accuracy"], ["accuracy"]])' in code
    assert "metrics={'valid': [\"mae\"], 'label': [\"mae\"]})" in code
    assert 's.compile(loss="mse", optimizer="adam", metrics=["accuracy"])' in code


def test_class_weight_per_output_is_warned() -> None:
    _, warnings = migrated_twice(
        """
        import keras
        weights = [{0: 1, 1: 1}, {0: 2.0, 1: 0.5}]
        d.compile(loss=["mse", "mse"], optimizer="adam")
        d.train_on_batch(x, [a, b], class_weight=weights)
        d.train_on_batch(x, [a, b], class_weight={0: 1.0})
        """
    )
    assert [w.split(":")[0] for w in warnings] == ["4"]
    assert "[class_weight per output]" in warnings[0]


def test_layer_sizes_from_numpy_become_ints() -> None:
    code, warnings = migrated_twice(
        """
        import numpy as np
        from keras.layers import Dense, Embedding

        shape = (28, 28, 1)
        a = Dense(np.prod(shape), activation="tanh")
        b = Embedding(10, np.prod(shape) * 2)
        c = Dense(units=np.product(shape) // 2)
        d = Dense(n_classes)
        e = Dense(int(np.prod(shape)))
        """
    )
    assert warnings == ()
    assert 'a = Dense(int(np.prod(shape)), activation="tanh")' in code
    assert "b = Embedding(10, int(np.prod(shape) * 2))" in code
    assert "c = Dense(units=int(np.prod(shape) // 2))" in code  # np.product renamed too
    assert "d = Dense(n_classes)" in code
    assert "e = Dense(int(np.prod(shape)))" in code


def test_a_layer_size_named_once_from_numpy_becomes_an_int() -> None:
    code, warnings = migrated_twice(
        """
        import numpy as np
        from keras.layers import Dense

        num_classes = np.max(y_train) + 1
        m.add(Dense(num_classes, activation="softmax"))
        width = 64
        m.add(Dense(width))
        twice = np.max(y_train)
        twice = 3
        m.add(Dense(twice))
        """
    )
    assert warnings == ()
    assert 'm.add(Dense(int(num_classes), activation="softmax"))' in code
    assert "m.add(Dense(width))" in code
    assert "m.add(Dense(twice))" in code


@pytest.mark.tf
def test_migrated_gan_script_trains_like_keras_2_with_plain_python(tmp_path: Path) -> None:
    needs_tensorflow()
    if not keras3():
        pytest.skip("the migrated script targets Keras 3; keras here is Keras 2")
    copy = tmp_path / SCRIPT.name
    shutil.copy(SCRIPT, copy)
    done = migrate_cli("--write", str(copy))
    assert done.returncode == 0, done.stderr
    assert "left unchanged" not in done.stderr, done.stderr
    ran = run([str(copy)], env=NO_GPUS, cwd=tmp_path, timeout=300)
    assert ran.returncode == 0, copy.read_text() + "\n" + ran.stderr[-3000:]
    assert "1 [D loss:" in ran.stdout


@pytest.mark.tf
def test_unchanged_gan_script_runs_under_run(tmp_path: Path) -> None:
    needs_tensorflow()
    ran = run_script(tmp_path, SCRIPT.read_text(), name=SCRIPT.name, timeout=300)
    assert ran.rc == 0, ran.err[-3000:]
    assert "1 [D loss:" in ran.out
