"""The Keras 2 → Keras 3 and TF1 → TF2 API rewrites: before/after pairs, warnings, a second run."""

from __future__ import annotations

import pytest

pytest.importorskip("libcst")

from _support import assert_warnings, keras3, needs_tensorflow
from cases_keras1 import KERAS1_CASES
from cases_upgrade import UPGRADE_CASES

from tests._child import run_py
from tfcompat_gpu.codemod.api import migrate_source
from tfcompat_gpu.codemod.commands import COMMANDS, command_name

CASES = UPGRADE_CASES + KERAS1_CASES
IDS = [case[0] for case in CASES]


@pytest.mark.parametrize(("before", "after", "warnings"), [c[1:] for c in CASES], ids=IDS)
def test_upgrade(before: str, after: str, warnings: list[tuple[int, str]]) -> None:
    result = migrate_source(before, upgrade=True)
    assert result.code == after
    assert_warnings(result.warnings, warnings)
    compile(result.code, "<migrated>", "exec")
    # a second run changes nothing and says the same
    again = migrate_source(result.code, upgrade=True)
    assert again.code == result.code
    # what is left alone is said again; what was done (renamed, dropped) is not
    done = ("now named", "dropped", "comes from tf_keras")  # the last: TF_USE_LEGACY_KERAS set
    left = [w for w in warnings if not any(word in w[1] for word in done)]
    assert len(again.warnings) == len(left), again.warnings


@pytest.mark.parametrize("before", [c[1] for c in CASES], ids=IDS)
def test_off_without_upgrade(before: str) -> None:
    # the library call keeps its GPU-only behaviour unless asked
    result = migrate_source(before)
    assert "InverseTimeDecay" not in result.code
    assert "compat.v1 as tf\n\ntf.disable" not in result.code
    assert ".fit(gen" not in result.code


def test_the_upgrade_rewrites_are_the_keras_and_tf1_commands() -> None:
    upgrade = {command_name(command) for command in COMMANDS if command.UPGRADE}
    assert upgrade == {
        "keras_optimizers",
        "keras_tf1_optimizers",
        "keras_dataset_iterators",
        "keras_generator_methods",
        "keras_iterator_next",
        "keras_generator_batches",
        "keras1_layer_arguments",
        "keras1_merge_calls",
        "keras_module_paths",
        "keras_layer_weights",
        "keras_layer_sizes",
        "keras_compile_state",
        "keras_stateful_models",
        "keras_weight_files",
        "keras_custom_layers",
        "keras_callback_arguments",
        "keras_accuracy_keys",
        "keras_backend_values",
        "keras_backend_function",
        "keras_backend_ops",
        "keras_backend_tf",
        "keras_tensor_shapes",
        "keras_model_add_loss",
        "numpy_removed_names",
        "numpy_removed_calls",
        "scipy_removed_modules",
        "tf1_compat",
        "tf_private_imports",
        "contrib_rnn",
        "contrib_eager",
        "contrib_layers",
        "contrib_seq2seq",
        "contrib_legacy_seq2seq",
        "tf1_keyword_arguments",
        "tf1_name_imports",
        "tf1_legacy_keras",
    }


@pytest.mark.parametrize(
    ("head", "tail"),
    [
        (
            "# Keras 2\n",
            "# after migrate --write: runs with plain python on TensorFlow 2.21 + Keras 3\n",
        ),
        ("# TF1\n", "# after migrate --write\n"),
    ],
    ids=["keras2", "tf1"],
)
def test_migrate_doc_before_after_is_the_migration(head: str, tail: str) -> None:
    from tests._child import ROOT

    doc = (ROOT / "docs" / "migrate.md").read_text(encoding="utf-8")
    start = doc.index(head) + len(head)
    middle = doc.index("\n" + tail, start)
    end = doc.index("```", middle)
    before = doc[start:middle].rstrip("\n") + "\n"
    after = "".join(
        line
        for line in doc[middle + 1 + len(tail) : end].splitlines(True)
        if "# stderr" not in line
    )
    result = migrate_source(before, upgrade=True, filename="script.py")
    assert result.code == after
    for line in doc[middle:end].splitlines():
        if "# stderr: script.py:" in line:
            number = line.split("script.py:")[1].split(":")[0]
            assert any(w.startswith(number + ": ") for w in result.warnings), result.warnings


_VAE = """\
import numpy as np
from keras import backend as K
from keras.layers import Dense, Input, Lambda
from keras.models import Model


def sampling(args):
    z_mean, z_log_var = args
    batch = K.shape(z_mean)[0]
    dim = K.int_shape(z_mean)[1]
    epsilon = K.random_normal(shape=(batch, dim))
    return z_mean + K.exp(0.5 * z_log_var) * epsilon


inputs = Input(shape=(6,))
z_mean = Dense(2)(inputs)
z_log_var = Dense(2)(inputs)
z = Lambda(sampling)([z_mean, z_log_var])
encoder = Model(inputs, z)
encoder.compile(optimizer="adam", loss="mse")
encoder.fit(np.ones((8, 6)), np.zeros((8, 2)), epochs=1, verbose=0)
draws = encoder.predict(np.ones((5, 6)), verbose=0)
flat = K.flatten(np.ones((2, 3), "float32"))
kl = K.mean(K.sum(1 + z_log_var - K.square(z_mean) - K.exp(z_log_var), axis=-1))
"""


@pytest.mark.tf
def test_migrated_vae_sampling_runs_on_keras3() -> None:
    # the reparameterisation of Keras 2's VAE examples, in a Lambda without output_shape
    needs_tensorflow()
    if not keras3():
        pytest.skip("the migrated code is Keras 3 code (keras.ops, keras.random)")
    result = migrate_source(_VAE, upgrade=True)
    assert not result.warnings, result.warnings
    out = run_py(
        f"""
        space = {{}}
        exec({result.code!r}, space)
        draws = space["draws"]
        emit([list(draws.shape), bool((draws[0] != draws[1]).any()),
              list(space["flat"].shape), list(space["kl"].shape)])
        """
    )
    # one fresh draw per row (the batch size K.shape gave), a 1-D K.flatten, a scalar loss
    assert out == [[5, 2], True, [6], []]


def test_every_numpy_name_left_has_its_hint() -> None:
    from tfcompat_gpu.codemod.commands import numpy_removed_names
    from tfcompat_gpu.tfapi.numpy_names import NUMPY_REMOVED

    left = {name for name, new in NUMPY_REMOVED.items() if new is None}
    assert left == set(numpy_removed_names._HINTS)


# Course notebooks that reach Keras and TensorFlow only through a star import of their helper
# module (fastai's `from utils import *`): what the first run writes must be all it writes
STAR_HELPER_SOURCES = {
    # the samples helper the first run adds names "keras" in its own name only
    "keras1-samples-and-learning-rate": (
        "from utils import *\n"
        "model.fit_generator(batches, samples_per_epoch=batches.nb_sample, nb_epoch=1)\n"
        "model.optimizer.lr = 0.1\n",
        "model.fit(_keras1_samples(batches, batches.nb_sample), epochs=1)",
    ),
    # `tf` bound nowhere is the helper's TensorFlow: its session config is the GPU commands'
    # on the first run, before tf1_compat imports tensorflow.compat.v1 as tf into the file
    "tf-from-a-star-import": (
        "from utils2 import *\n"
        "cfg = tf.ConfigProto()\ncfg.gpu_options.allow_growth = True\n"
        "sess = tf.Session(config=cfg)\n"
        "x = tf.placeholder(tf.float32)\nprint(sess.run(x, {x: 1.0}))\n",
        "tfcompat_gpu.configure(allow_growth=True)",
    ),
}


@pytest.mark.parametrize(
    ("source", "written"), list(STAR_HELPER_SOURCES.values()), ids=list(STAR_HELPER_SOURCES)
)
def test_star_helper_files_are_migrated_in_one_run(source: str, written: str) -> None:
    first = migrate_source(source, upgrade=True)
    assert written in first.code
    again = migrate_source(first.code, upgrade=True)
    assert again.code == first.code
