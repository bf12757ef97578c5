"""``K.function`` of Keras 2 (activation and attention read-outs) and names bound by a star
import of a Keras module (``from keras.models import *``).

Checked on source (the rewrite, the warnings, a second run changing nothing), then end to end:
a Keras 2 script that reads a layer's activations through ``K.function`` with a learning phase
and builds its model after ``from keras.models import *``, migrated, must run with plain
``python`` on Keras 3 and give the activations the layer computes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import NO_GPUS, keras3, migrate_cli, migrated_twice, needs_tensorflow

from tests._child import run

_PREDICT = "(lambda values, predict=keras.Model([{ins}], {outs}).predict_on_batch: {result})"


def test_function_with_a_learning_phase_called_with_zero_is_exact() -> None:
    code, warnings = migrated_twice(
        """
        from keras import backend as K

        get_features = K.function([model.input, K.learning_phase()], [model.layers[-2].output])
        features = get_features([x_train, 0])[0]
        """
    )
    expected = _PREDICT.format(
        ins="model.input", outs="[model.layers[-2].output]", result="[predict(values[:-1])]"
    )
    assert f"get_features = {expected}\n" in code
    assert "features = get_features([x_train, 0])[0]\n" in code
    assert "K." not in code
    assert "import keras\n" in code
    assert warnings == ()


def test_function_in_a_comprehension_is_rewritten_and_the_learning_phase_warned() -> None:
    code, warnings = migrated_twice(
        """
        import keras.backend as K

        def get_activations(model, inputs, layer_name):
            outputs = [layer.output for layer in model.layers if layer.name == layer_name]
            funcs = [K.function([model.input] + [K.learning_phase()], [out]) for out in outputs]
            return [func([inputs, 1.0])[0] for func in funcs]
        """
    )
    expected = _PREDICT.format(ins="model.input", outs="[out]", result="[predict(values[:-1])]")
    assert f"funcs = [{expected} for out in outputs]" in code
    assert len(warnings) == 1, warnings
    assert warnings[0].startswith("5: "), warnings
    assert "[K.function learning phase]" in warnings[0]
    assert "learning_phase() left unchanged" not in " ".join(warnings)


def test_function_without_learning_phase_and_several_outputs_returns_the_list() -> None:
    code, warnings = migrated_twice(
        """
        from keras import backend as K

        probe = K.function([inp], [hidden.output, out.output])
        """
    )
    expected = _PREDICT.format(
        ins="inp", outs="[hidden.output, out.output]", result="predict(values)"
    )
    assert f"probe = {expected}\n" in code
    assert warnings == ()


@pytest.mark.parametrize(
    "call",
    [
        "K.function([model.input, K.learning_phase()], [loss, grads], updates=ups)",
        "K.function(inputs_list, outputs_list)",
        "K.function([K.learning_phase(), model.input], [out])",
    ],
    ids=["updates", "not-a-literal-list", "learning-phase-first"],
)
def test_function_left_with_a_warning(call: str) -> None:
    code, warnings = migrated_twice(f"from keras import backend as K\nf = {call}\n")
    assert f"f = {call}\n" in code
    assert any("K.function() left unchanged" in w for w in warnings), warnings


def test_keras1_keywords_and_optimizer_arguments_are_seen_through_star_imports() -> None:
    code, warnings = migrated_twice(
        """
        from keras.models import *
        from keras.layers import *
        from keras.optimizers import *

        def unet(input_size=(256, 256, 1)):
            inputs = Input(input_size)
            conv = Conv2D(1, 1, activation='sigmoid')(inputs)
            model = Model(input=inputs, output=conv)
            model.compile(optimizer=Adam(lr=1e-4), loss='binary_crossentropy')
            return model
        """
    )
    assert "model = Model(inputs=inputs, outputs=conv)\n" in code
    assert "optimizer=Adam(learning_rate=1e-4)" in code
    assert warnings == ()


def test_a_name_bound_in_the_file_is_not_taken_from_the_star_import() -> None:
    code, _ = migrated_twice(
        """
        from keras.optimizers import *

        class Adam:
            def __init__(self, lr):
                self.lr = lr

        opt = Adam(lr=0.1)
        """
    )
    assert "opt = Adam(lr=0.1)\n" in code


def test_star_import_of_a_keras2_layers_submodule_keeps_its_np_and_k() -> None:
    code, warnings = migrated_twice(
        """
        from keras.layers.core import *
        from keras.models import *

        inputs = Input(shape=(20, 2))
        a = Lambda(lambda x: K.mean(x, axis=1))(inputs)
        model = Model(input=[inputs], output=a)
        print(np.mean(model.predict(np.zeros((1, 20, 2)))))
        """
    )
    assert code.startswith("from keras.layers import *\nfrom keras.models import *\n")
    assert "import numpy as np\n" in code
    assert "Lambda(lambda x: keras.ops.mean(x, axis=1))" in code
    assert "Model(inputs=[inputs], outputs=a)" in code
    assert not [w for w in warnings if "star import" in w], warnings


@pytest.mark.parametrize(
    "line",
    [
        "from keras.wrappers.scikit_learn import KerasClassifier\n",
        "from tensorflow.keras.wrappers.scikit_learn import KerasRegressor\n",
    ],
)
def test_scikit_learn_wrappers_are_warned_naming_their_successors(line: str) -> None:
    code, warnings = migrated_twice(line + "clf = KerasClassifier(build_fn=build, epochs=2)\n")
    assert code.startswith(line)
    (warning,) = warnings
    assert warning.startswith("1: ")
    assert warning.endswith("[scikit-learn wrappers removed]")
    for part in ("removed in TensorFlow 2.13", "scikeras.wrappers", "build_fn= is model=",
                 "model__name=", "keras.wrappers.SKLearnClassifier", "model_kwargs=",
                 "fit_kwargs="):  # fmt: skip
        assert part in warning, warning


SCRIPT = """
import json
import numpy as np
from keras import backend as K
from keras.models import *
from keras.layers import Input, Dense, Dropout


def get_activations(model, inputs, layer_name):
    inp = model.input
    outputs = [layer.output for layer in model.layers if layer.name == layer_name]
    funcs = [K.function([inp] + [K.learning_phase()], [out]) for out in outputs]
    return [func([inputs, 0.])[0] for func in funcs]


inputs = Input(shape=(6,))
hidden = Dense(4, activation='relu', name='hidden')(inputs)
output = Dense(1, activation='sigmoid')(Dropout(0.5)(hidden))
model = Model(input=[inputs], output=output)
model.compile(optimizer='adam', loss='binary_crossentropy')
x = np.random.RandomState(0).standard_normal((5, 6)).astype('float32')
model.fit(x, np.ones((5, 1)), epochs=1, verbose=0)
(activations,) = get_activations(model, x, 'hidden')
kernel, bias = model.get_layer('hidden').get_weights()
expected = np.maximum(x @ kernel + bias, 0)
probe = K.function([inputs], [hidden, output])
both = probe([x])
print(json.dumps({"shape": list(activations.shape), "close": bool(np.allclose(activations, expected, atol=1e-5)),
                  "type": type(activations).__name__, "outputs": [list(a.shape) for a in both]}))
"""


def test_migrated_activation_readout_runs_with_plain_python(tmp_path: Path) -> None:
    needs_tensorflow()
    if not keras3():
        pytest.skip("the migrated script targets Keras 3; keras here is Keras 2")
    script = tmp_path / "activations.py"
    script.write_text(SCRIPT.lstrip("\n"))
    done = migrate_cli("--write", str(script))
    assert done.returncode == 0, done.stderr
    ran = run([str(script)], env=NO_GPUS, cwd=tmp_path, timeout=300)
    assert ran.returncode == 0, script.read_text() + "\n" + ran.stderr[-3000:]
    result = json.loads(ran.stdout.strip().splitlines()[-1])
    assert result == {
        "shape": [5, 4],
        "close": True,
        "type": "ndarray",
        "outputs": [[5, 4], [5, 1]],
    }
