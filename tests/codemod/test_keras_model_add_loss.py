"""``model.add_loss(tensor)`` on a Keras 2 functional model (the variational autoencoders'
shape): rewritten to a layer that adds the loss, which Keras 3 trains with; the rest warned.

Checked on source (``migrate_source``: the rewrite, what is left alone, a second run changing
nothing), then end to end: a small Keras 2 VAE script, migrated, must train with plain
``python`` on Keras 3 with the added loss counted, and give the same layers' weights.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import NO_GPUS, keras3, migrate_cli, migrated_twice, needs_tensorflow

from tests._child import run
from tfcompat_gpu.codemod.commands.keras_model_add_loss import LAYER

VAE_MAIN = """
'''A VAE.'''
from keras.layers import Dense, Input
from keras.models import Model
from keras import backend as K

inputs = Input(shape=(8,))
outputs = Dense(8)(Dense(2)(inputs))
vae = Model(inputs, outputs, name='vae')


if __name__ == '__main__':
    loss = K.mean(K.square(inputs - outputs))
    vae.add_loss(loss)  # the whole loss
    vae.compile(optimizer='adam')
"""


def test_functional_model_add_loss_becomes_a_layer_below_the_imports() -> None:
    code, warnings = migrated_twice(VAE_MAIN)
    assert not [w for w in warnings if "add_loss" in w], warnings
    head, _, rest = code.partition(f"class {LAYER}(keras.layers.Layer):")
    assert rest, code
    # keras imported above the layer, the layer above the code that uses it
    assert "import keras\n" in head
    assert head.index("from keras import backend as K") < head.index("import keras\n")
    assert "inputs = Input(" in rest
    assert (
        f"    vae = keras.Model(vae.inputs, {LAYER}()([loss, *vae.outputs]), name=vae.name)"
        "  # the whole loss\n"
    ) in code
    assert "vae.add_loss" not in code
    assert "self.add_loss(loss)" in code


def test_one_layer_for_several_models_and_none_for_a_layer_s_own_loss() -> None:
    code, _ = migrated_twice(
        """
        import keras
        from keras.layers import Layer
        from tensorflow.keras.models import Model


        class Penalty(Layer):
            def call(self, inputs):
                self.add_loss(0.1 * keras.ops.sum(inputs))
                return inputs


        def build(inputs, outputs, kl):
            model = Model(inputs=inputs, outputs=outputs)
            model.add_loss(kl)
            return model


        other = Model(a, b)
        other.add_loss(0.5 * kl)
        """
    )
    assert code.count(f"class {LAYER}(") == 1
    assert "self.add_loss(0.1 * keras.ops.sum(inputs))" in code
    assert f"model = keras.Model(model.inputs, {LAYER}()([kl, *model.outputs])" in code
    assert f"other = keras.Model(other.inputs, {LAYER}()([0.5 * kl, *other.outputs])" in code


def test_a_model_held_by_an_attribute_is_rewritten_too() -> None:
    # the class-based VAEs of many projects: self.vae = Model(...); self.vae.add_loss(...)
    code, warnings = migrated_twice(
        """
        from keras import backend as K
        from keras.models import Model


        class PriceVAE:
            def build(self, inputs, outputs, kl):
                self.vae = Model(inputs, outputs, name="vae")
                self.vae.add_loss(K.mean(kl))
                self.vae.compile(optimizer="adam")
        """
    )
    assert not [w for w in warnings if "add_loss" in w], warnings
    assert (
        f"self.vae = keras.Model(self.vae.inputs, {LAYER}()([keras.ops.mean(kl), "
        "*self.vae.outputs]), name=self.vae.name)"
    ) in code


@pytest.mark.parametrize(
    "statement",
    [
        "net.add_loss(kl)",  # `net` is not bound to a Model(...) call in the file
        "vae.add_loss(lambda: kl)",  # a callable loss: only a layer's code can call it
        "vae.add_loss(losses=kl)",
        "vae.add_loss(*terms)",
        "result = vae.add_loss(kl)",
    ],
)
def test_other_add_loss_of_a_model_left_with_a_warning(statement: str) -> None:
    source = f"import keras\nfrom keras.models import Model\n\nvae = Model(a, b)\n{statement}\n"
    code, warnings = migrated_twice(source)
    assert statement in code
    assert LAYER not in code
    assert [w for w in warnings if w.startswith("5: ") and "[add_loss on a model]" in w], warnings


SCRIPT = """
import json
import sys

import numpy as np
from keras import backend as K
from keras.layers import Dense, Input, Lambda
from keras.models import Model

inputs = Input(shape=(6,))
hidden = Dense(4, activation='relu')(inputs)
z_mean = Dense(2)(hidden)
z_log_var = Dense(2)(hidden)
z = Lambda(lambda t: t[0] + K.exp(0.5 * t[1]) * 0.0)([z_mean, z_log_var])
outputs = Dense(6)(z)
vae = Model(inputs, outputs, name='vae')
reconstruction = K.sum(K.square(inputs - outputs), axis=-1)
kl = -0.5 * K.sum(1 + z_log_var - K.square(z_mean) - K.exp(z_log_var), axis=-1)
vae.add_loss(K.mean(reconstruction + kl))
vae.compile(optimizer='adam')

x = np.random.RandomState(0).rand(64, 6).astype('float32')
before = vae.evaluate(x, verbose=0)
history = vae.fit(x, epochs=8, batch_size=16, verbose=0, validation_data=(x, None))
after = vae.evaluate(x, verbose=0)
prediction = vae.predict(x[:3], verbose=0)
json.dump(
    {
        'before': float(np.ravel(before)[0]),
        'after': float(np.ravel(after)[0]),
        'shape': list(np.shape(prediction)),
        'weights': len(vae.get_weights()),
    },
    sys.stdout,
)
"""


@pytest.mark.tf
def test_migrated_vae_trains_on_the_added_loss_with_plain_python(tmp_path: Path) -> None:
    needs_tensorflow()
    if not keras3():
        pytest.skip("the migrated script targets Keras 3; keras here is Keras 2")
    script = tmp_path / "vae.py"
    script.write_text(SCRIPT.lstrip("\n"))
    done = migrate_cli("--write", str(script))
    assert done.returncode == 0, done.stderr
    assert "add_loss" not in done.stderr, done.stderr
    ran = run([str(script)], env=NO_GPUS, cwd=tmp_path, timeout=300)
    assert ran.returncode == 0, script.read_text() + "\n" + ran.stderr[-3000:]
    result = json.loads(ran.stdout.strip().splitlines()[-1])
    # the loss Keras 2 added is what the model reports and trains down (no compiled loss)
    assert result["before"] > 0
    assert result["after"] < result["before"]
    assert result["shape"] == [3, 6]
    assert result["weights"] == 8  # four Dense layers; the loss layer has none
