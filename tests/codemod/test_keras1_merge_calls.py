"""Keras 1 ``merge([a, b], mode=...)`` calls (``keras1_merge_calls``) and Keras 2's
``from keras.models import Input`` (``keras_module_paths``), rewritten for Keras 3.

Checked on source (the rewrite, the import that goes, what is left with a warning, a second run
changing nothing), then end to end: a small attention model in the Keras 1 style, migrated,
builds and trains with plain ``python`` on Keras 3.
"""

from __future__ import annotations

import pytest

pytest.importorskip("libcst")

from _support import keras3, migrate_cli, migrated_twice, needs_tensorflow, run_file

ATTENTION = """
from keras.layers import Input, Dense, Flatten, merge
from keras.models import Input as In, Model

inputs = Input(shape=(6,))
probs = Dense(6, activation='softmax', name='probs')(inputs)
weighted = merge([inputs, probs], output_shape=6, name='weighted', mode='mul')
both = merge([weighted, probs], mode='concat', concat_axis=-1)
total = merge([weighted, probs])
close = merge([weighted, probs], mode='cos', dot_axes=1)
diff = merge([weighted, probs], mode=lambda t: t[0] - t[1], output_shape=(6,))
model = Model(inputs, Dense(1)(merge([both, total, close, diff], mode='concat')))
"""


def test_merge_calls_become_the_functions_of_their_modes() -> None:
    code, warnings = migrated_twice(ATTENTION)
    assert not [w for w in warnings if "merge" in w], warnings
    assert "from keras.layers import Input, Dense, Flatten\n" in code
    assert "import keras\n" in code
    assert "keras.layers.multiply([inputs, probs], name='weighted')" in code
    assert "keras.layers.concatenate([weighted, probs], axis=-1)" in code
    assert "total = keras.layers.add([weighted, probs])" in code
    assert "keras.layers.dot([weighted, probs], axes=1, normalize=True)" in code
    assert (
        "keras.layers.Lambda(lambda t: t[0] - t[1], output_shape=(6,))([weighted, probs])" in code
    )
    assert "merge(" not in code


def test_keras_models_input_moves_to_keras_layers() -> None:
    code, _ = migrated_twice(ATTENTION)
    assert "from keras.models import Model\nfrom keras.layers import Input as In\n" in code


def test_merge_with_a_mode_not_written_at_the_call_is_left_with_a_warning() -> None:
    code, warnings = migrated_twice(
        """
        from keras.layers import Input, merge
        a = Input(shape=(3,))
        how = 'sum'
        out = merge([a, a], mode=how)
        mask = merge([a, a], mode='sum', output_mask=lambda m: m)
        """
    )
    assert "from keras.layers import Input, merge" in code  # still read: the import stays
    assert "out = merge([a, a], mode=how)" in code
    flagged = [w for w in warnings if w.endswith("[merge() removed]") and "merge() left" in w]
    assert [w.split(":")[0] for w in flagged] == ["4", "5"], warnings


def test_migrated_merge_model_trains_on_keras_3(tmp_path) -> None:
    needs_tensorflow()
    if not keras3():
        pytest.skip("the rewrite targets Keras 3")
    script = tmp_path / "attention.py"
    script.write_text(
        ATTENTION
        + "model.compile(optimizer='adam', loss='mse')\n"
        + "import numpy as np\n"
        + "model.fit(np.ones((8, 6)), np.ones((8, 1)), epochs=1, verbose=0)\n"
        + "print('layers', [l.__class__.__name__ for l in model.layers[2:]])\n"
    )
    migrated = migrate_cli("--write", str(script))
    assert migrated.returncode == 0, migrated.stderr
    ran = run_file(script)
    assert ran.returncode == 0, ran.stderr
    assert "Multiply" in ran.stdout
    assert "Lambda" in ran.stdout
