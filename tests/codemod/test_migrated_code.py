"""Migrated code runs under TensorFlow 2 and is clean under ``tfcompat-gpu check``.

Each script runs in its own interpreter (GPU configuration is process-wide); they import
TensorFlow, so these tests take a few seconds each.
"""

from __future__ import annotations

import re
import shutil
import textwrap
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import (
    FIXTURES,
    LEGACY,
    NO_GPUS,
    assert_warnings,
    keras3,
    migrate_cli,
    needs_tensorflow,
    run_file,
)
from cases_rewrites import CASES

from tests._child import run
from tfcompat_gpu.codemod.api import migrate_source

# rules the migration addresses: assignments to tf.config functions, TF1-only names
# (ConfigProto, Session, set_session, keras.backend.tensorflow_backend), deprecated names
ADDRESSED = ("TFG001", "TFG009", "TFG013")
TF2_TARGET = {"tf2_target_session.py"}
_FIXTURES = sorted(FIXTURES.glob("*.py"))
_TESTS = Path(__file__).resolve().parents[1]


def _migrate_copy(source: Path, tmp_path: Path, target: str = "facade") -> Path:
    copy = tmp_path / source.name
    shutil.copy(source, copy)
    done = migrate_cli("--write", "--target", target, str(copy))
    assert done.returncode == 0, done.stderr
    # everything in these fixtures is translated: nothing may be left unchanged
    assert "left unchanged" not in done.stderr, done.stderr
    assert copy.read_text() != source.read_text()
    return copy


@pytest.mark.tf
@pytest.mark.parametrize("source", _FIXTURES, ids=[p.name for p in _FIXTURES])
def test_migrated_fixture_runs(source: Path, tmp_path: Path) -> None:
    needs_tensorflow()
    target = "tf2" if source.name in TF2_TARGET else "facade"
    copy = _migrate_copy(source, tmp_path, target)
    done = run_file(copy)
    assert done.returncode == 0, f"{copy.read_text()}\n{done.stderr[-3000:]}"
    assert "ok" in done.stdout


# ---------------------------------------------------------------- legacy_examples/


@dataclass(frozen=True)
class Legacy:
    """How a legacy example runs, and what migrating it must leave behind.

    ``runner`` is how the original runs, and so how its migrated copy runs: None for
    ``python script.py``, else the options of ``tfcompat-gpu run``.  ``warnings`` are the
    migration's ``(line in the original, text)``; ``left`` the lint findings ``(code, line in the
    migrated file)`` that remain in code the migration left alone, with one of those warnings.
    """

    changed: bool
    runner: tuple[str, ...] | None = None
    warnings: tuple[tuple[int, str], ...] = ()
    left: tuple[tuple[str, int], ...] = ()
    moved: tuple[int, ...] = ()
    """Lines of ``left`` findings in code the migration moved (into ``strategy.scope()``)."""
    keras3: bool = True
    """False: the original cannot run under Keras 3 (a TF1 optimizer handed to Keras), and
    neither can its migrated copy; it runs on the tf_keras and TF 2.15 legs."""
    keras2: bool = True
    """False: the migrated copy is Keras 3 code (``keras.ops``), which the Keras 2 that comes
    with TensorFlow < 2.16 cannot run."""


_DIFFERENT = "ask for different settings, but TensorFlow applies GPU options once per process"

LEGACY_EXAMPLES: dict[str, Legacy] = {
    # The soft placement assignment configured nothing (the original always ran with soft
    # placement on), and the call would make the GPU-pinned ops fail without a GPU: removed,
    # with a comment line in its place.
    "tf2_virtual_gpus.py": Legacy(
        changed=True,
        warnings=((11, "TensorFlow drops growth on a GPU that has logical devices"),),
    ),
    # A TF1 graph script (placeholders, sess.run): its GPU configuration becomes the facade's
    # and it imports tensorflow.compat.v1 in graph mode, so it runs with plain python.
    "tf1_session_from_ini.py": Legacy(changed=True),
    "tf2_mirrored_strategy.py": Legacy(changed=False),
    "tf2_device_placement.py": Legacy(changed=True),
    # Keras with a session the script made itself and reads its config from: the session
    # becomes tfcompat_gpu.session(), so the migrated copy runs with plain python, clean.
    "keras_session_allow_growth.py": Legacy(changed=True),
    "keras_session_cpu_threads.py": Legacy(changed=True),
    "keras_session_memory_fraction.py": Legacy(changed=True),
    # Keras 2 API beyond GPU configuration (Adam(lr=), fit_generator, np_utils,
    # KTF.get_value(model.optimizer.lr)): all of it becomes Keras 3's, and the session
    # configure(), so the copy runs with plain python, clean; keras.ops is Keras 3's.
    "keras2_generator_training.py": Legacy(changed=True, keras2=False),
    # Two sessions asking for different GPUs cannot become one process config without a
    # person's choice: left whole, and run the way the original runs.
    # It becomes tensorflow.compat.v1 in graph mode (two lines more).
    "tf1_two_sessions_two_gpus.py": Legacy(
        changed=True,
        runner=("--tf1", "--conflict-policy", "remap"),
        warnings=((15, _DIFFERENT), (17, _DIFFERENT)),
        # the v1 names are TensorFlow 2's own now; the conflict between the sessions stays
        left=(("TFG005", 19),),
    ),
    # Multi-GPU code: the model is built inside strategy.scope(), discovery asks the physical
    # devices; the seed 003 example keeps its TF1 optimizer, so it still needs --tf1.
    "keras_multi_gpu_model.py": Legacy(changed=True, runner=()),
    # Its TF1 optimizer handed to Keras becomes the Keras SGD of the same update (the
    # original still needs the v1 runner).
    "keras_distribute_compile.py": Legacy(changed=True, runner=("--tf1",), keras3=False),
    # The config becomes configure() and the monitored session takes the process config; the
    # file becomes tensorflow.compat.v1 in graph mode, so it runs with plain python, and its v1
    # names are no longer findings.
    "tf1_monitored_training_session.py": Legacy(changed=True),
}
_WARNING = re.compile(r"^(?P<path>.+?):(?P<line>\d+): (?P<message>.*)$")


@pytest.fixture(scope="module")
def migrated_legacy(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, list[str]]]:
    """A copy of ``legacy_examples/`` (data files and facade/ included) after one ``--write``."""
    if not LEGACY.is_dir():
        pytest.skip("legacy_examples/ is not in this checkout")
    copy = tmp_path_factory.mktemp("migrated") / "legacy_examples"
    shutil.copytree(LEGACY, copy)
    # for today's stack whatever Keras this leg has (the runs below skip what needs Keras 3)
    done = migrate_cli("--write", "--keras", "3", str(copy))
    assert done.returncode == 0, done.stderr
    warnings: dict[str, list[str]] = {}
    for line in done.stderr.splitlines():
        match = _WARNING.match(line)
        if match is not None:
            name = str(Path(match["path"]).relative_to(copy))
            warnings.setdefault(name, []).append(f"{match['line']}: {match['message']}")
    return copy, warnings


def test_every_legacy_example_has_an_expectation() -> None:
    if not LEGACY.is_dir():
        pytest.skip("legacy_examples/ is not in this checkout")
    assert sorted(p.name for p in LEGACY.glob("*.py")) == sorted(LEGACY_EXAMPLES)


def test_facade_examples_are_left_alone(
    migrated_legacy: tuple[Path, dict[str, list[str]]],
) -> None:
    copy, warnings = migrated_legacy
    facade = sorted((LEGACY / "facade").glob("*.py"))
    assert facade
    for source in facade:
        assert (copy / "facade" / source.name).read_text() == source.read_text(), source.name
        assert f"facade/{source.name}" not in warnings


@pytest.mark.tf
@pytest.mark.parametrize("name", sorted(LEGACY_EXAMPLES))
def test_migrated_legacy_example_runs_and_is_clean(
    name: str, migrated_legacy: tuple[Path, dict[str, list[str]]]
) -> None:
    needs_tensorflow()
    from tfcompat_gpu.lint.api import check

    expected = LEGACY_EXAMPLES[name]
    copy, warnings = migrated_legacy
    migrated = copy / name
    original = (LEGACY / name).read_text()
    assert (migrated.read_text() != original) is expected.changed
    assert_warnings(tuple(warnings.get(name, [])), list(expected.warnings))

    findings = check([migrated]).findings
    assert sorted((f.code, f.line) for f in findings) == sorted(expected.left), str(findings)
    # nothing the migration wrote is flagged: each finding sits on a line of the original
    written = migrated.read_text().splitlines()
    for finding in findings:
        if finding.line not in expected.moved:
            assert written[finding.line - 1] in original.splitlines(), finding

    if not expected.keras3 and keras3(tf_keras_too=True):
        return
    if not expected.keras2 and int(version("keras").split(".")[0]) < 3:
        return
    done = run_file(migrated, expected.runner)
    assert done.returncode == 0, f"{migrated.read_text()}\n{done.stderr[-3000:]}"


# ---------------------------------------------------------------- lint over migrated code


@pytest.mark.parametrize("source", _FIXTURES, ids=[p.name for p in _FIXTURES])
def test_migrated_fixture_is_clean_under_check(source: Path, tmp_path: Path) -> None:
    from tfcompat_gpu.lint.api import check

    target = "tf2" if source.name in TF2_TARGET else "facade"
    copy = tmp_path / source.name
    copy.write_text(migrate_source(source.read_text(), target=target).code)  # type: ignore[arg-type]
    assert not check([copy]).findings, str(check([copy]))


# tf.contrib (a contrib.learn RunConfig) has no TF2 module the migration could name: TFG009
# stays on it, whatever happens to its config
_TRANSLATED = [(i, t, b) for i, t, b, _, w in CASES if not w and "tf.contrib." not in b]


@pytest.mark.parametrize(
    ("target", "before"), [pytest.param(t, b, id=i) for i, t, b in _TRANSLATED]
)
def test_translated_cases_leave_no_finding_of_the_addressed_rules(
    target: str, before: str, tmp_path: Path
) -> None:
    from tfcompat_gpu.lint.api import check

    path = tmp_path / "migrated.py"
    path.write_text(migrate_source(before, target=target).code)  # type: ignore[arg-type]
    assert not check([path], select=ADDRESSED).findings, str(check([path], select=ADDRESSED))


# ---------------------------------------------------------------- --target tf2, device list

_VISIBLE_TF1 = """\
import tensorflow as tf
config = tf.ConfigProto(gpu_options=tf.GPUOptions(visible_device_list="0,2"))
sess = tf.Session(config=config)
sess.close()
"""


@pytest.mark.tf
@pytest.mark.parametrize(("gpus", "visible"), [(0, ""), (3, "0,2")], ids=["no-gpu", "3-gpus"])
def test_tf2_visible_device_list_runs_with_and_without_gpus(
    gpus: int, visible: str, tmp_path: Path
) -> None:
    # TF1 ignored visible_device_list on a machine without GPUs; the TF2 code must too.  With
    # GPUs (simulated: see tests/simgpu.py) the listed ones become the visible ones.
    needs_tensorflow()
    migrated = migrate_source(_VISIBLE_TF1, target="tf2")
    assert migrated.warnings == ()
    script = tmp_path / "visible.py"
    script.write_text(
        textwrap.dedent(
            f"""\
            import sys
            sys.path.insert(0, {str(_TESTS)!r})
            if {gpus}:
                from simgpu import simulate_gpus
                simulate_gpus({gpus})
            """
        )
        + migrated.code
        + textwrap.dedent(
            """\
            from tensorflow.python.eager import context
            print("visible:", repr(context.context().config.gpu_options.visible_device_list))
            """
        )
    )
    done = run([str(script)], env=NO_GPUS, timeout=240)
    assert done.returncode == 0, f"{script.read_text()}\n{done.stderr[-3000:]}"
    assert f"visible: {visible!r}" in done.stdout, done.stdout


_TF1_RNN = """
import numpy as np
import tensorflow as tf
from tensorflow.contrib import rnn

tf.set_random_seed(0)  # the initial weights: five steps must lower the loss on every run
X = tf.placeholder(tf.float32, [None, 5, 3])
Y = tf.placeholder(tf.float32, [None, 2])
cells = [rnn.DropoutWrapper(rnn.BasicLSTMCell(4, state_is_tuple=True), output_keep_prob=1.0)
         for _ in range(2)]
outputs, _states = rnn.static_rnn(rnn.MultiRNNCell(cells), tf.unstack(X, 5, 1), dtype=tf.float32)
gru_out, _ = tf.nn.dynamic_rnn(tf.contrib.rnn.GRUCell(2), X, dtype=tf.float32)
logits = tf.layers.dense(outputs[-1], 2) + gru_out[:, -1]
loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=Y, logits=logits))
train = tf.train.AdamOptimizer(0.05).minimize(loss)
x = np.random.RandomState(0).rand(8, 5, 3)
y = np.eye(2)[np.arange(8) % 2]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    losses = [sess.run([loss, train], {X: x, Y: y})[0] for _ in range(5)]
print("LOSSES", losses[0] > losses[-1])
"""


def test_migrated_tf1_rnn_tutorial_runs_on_tf_keras(tmp_path: Path) -> None:
    # nlintz/TensorFlow-Tutorials 07_lstm.py and hunkim's lab-12: tf.contrib.rnn's cells become
    # tf.compat.v1.nn.rnn_cell's, which TensorFlow >= 2.16 serves from tf_keras
    needs_tensorflow()
    pytest.importorskip("tf_keras")
    result = migrate_source(_TF1_RNN, upgrade=True)
    assert "contrib" not in result.code
    script = tmp_path / "lstm.py"
    script.write_text(result.code, encoding="utf-8")
    proc = run([str(script)], env={**NO_GPUS, "TF_USE_LEGACY_KERAS": "1"}, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "LOSSES True" in proc.stdout


_MULTI_INPUT_GENERATOR = """
import numpy as np
from keras.layers import Dense, Input, concatenate
from keras.models import Model

left, right = Input(shape=(3,)), Input(shape=(2,))
merged = concatenate([left, right])
model = Model([left, right], [Dense(1, name='score')(merged), Dense(3, name='code')(merged)])
model.compile(optimizer='sgd', loss=['mse', 'mse'])


def batches(n):
    rng = np.random.RandomState(0)
    while True:
        a, b = rng.rand(n, 3), rng.rand(n, 2)
        yield [a, b], [a.sum(axis=1, keepdims=True), a]


model.fit_generator(batches(4), steps_per_epoch=2, epochs=1, verbose=0,
                    validation_data=batches(2), validation_steps=1)
print("FITTED", len(model.predict_generator(batches(2), steps=1)))
"""


@pytest.mark.tf
def test_migrated_multi_input_generator_trains_on_keras_3(tmp_path: Path) -> None:
    # a siamese / encoder-decoder training loop: batches of lists, which tf.data refuses
    needs_tensorflow()
    if not keras3():
        pytest.skip("needs Keras 3")
    result = migrate_source(_MULTI_INPUT_GENERATOR, upgrade=True)
    assert "yield (a, b), (a.sum(axis=1, keepdims=True), a)" in result.code
    script = tmp_path / "siamese.py"
    script.write_text(result.code, encoding="utf-8")
    proc = run([str(script)], env=NO_GPUS, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "FITTED 2" in proc.stdout


_FROZEN_BATCH_NORM = """
import numpy as np
import tensorflow as tf
from keras import backend as K
from keras.layers import Input, Layer
from keras.models import Model


class FrozenBatchNorm(Layer):
    # a detection model's batch norm with frozen statistics, reshaped for broadcasting
    def build(self, input_shape):
        n = input_shape[-1]
        self.mean = self.add_weight(shape=(n,), initializer='ones', trainable=False)
        self.std = self.add_weight(shape=(n,), initializer='ones', trainable=False)
        self.beta = self.add_weight(shape=(n,), initializer='zeros', trainable=False)
        self.gamma = self.add_weight(shape=(n,), initializer='ones', trainable=False)

    def call(self, x, mask=None):
        shape = [1, 1, 1, K.int_shape(x)[-1]]
        return K.batch_normalization(x, K.reshape(self.mean, shape), K.reshape(self.std, shape),
                                     K.reshape(self.beta, shape), K.reshape(self.gamma, shape),
                                     epsilon=1e-3)


inputs = Input(shape=(2, 2, 3))
layer = FrozenBatchNorm()
model = Model(inputs, layer(inputs))
x = np.arange(24, dtype='float32').reshape(2, 2, 2, 3)
expected = tf.nn.batch_normalization(x, 1.0, 1.0, 0.0, 1.0, 1e-3).numpy()
print("SAME", bool(np.allclose(model.predict(x, verbose=0), expected, atol=1e-5)))
"""


@pytest.mark.tf
def test_migrated_frozen_batch_norm_computes_what_tensorflow_did(tmp_path: Path) -> None:
    needs_tensorflow()
    if not keras3():
        pytest.skip("needs Keras 3")
    result = migrate_source(_FROZEN_BATCH_NORM, upgrade=True)
    assert "K.batch_normalization" not in result.code
    script = tmp_path / "frozen_bn.py"
    script.write_text(result.code, encoding="utf-8")
    proc = run([str(script)], env=NO_GPUS, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "SAME True" in proc.stdout


_TWO_OUTPUT_SEQUENCE = """
import numpy as np
from keras.layers import Dense, Input
from keras.models import Model
from keras.utils import Sequence

inputs = Input(shape=(4,))
model = Model(inputs, [Dense(1, name='steer')(inputs), Dense(2, name='coll')(inputs)])
model.compile(optimizer='sgd', loss=['mse', 'mse'])


class Batches(Sequence):
    def __init__(self, n):
        super().__init__()
        self.n = n

    def __len__(self):
        return 2

    def __getitem__(self, idx):
        rng = np.random.RandomState(idx)
        batch_x = rng.rand(self.n, 4)
        batch_y = [batch_x[:, :1], batch_x[:, 1:3]]
        return batch_x, batch_y


model.fit_generator(Batches(4), epochs=1, verbose=0)
print("FITTED", len(model.predict(Batches(2), verbose=0)))
"""


@pytest.mark.tf
def test_migrated_two_output_sequence_trains_on_keras_3(tmp_path: Path) -> None:
    needs_tensorflow()
    if not keras3():
        pytest.skip("needs Keras 3")
    result = migrate_source(_TWO_OUTPUT_SEQUENCE, upgrade=True)
    assert "batch_y = (batch_x[:, :1], batch_x[:, 1:3])" in result.code
    script = tmp_path / "two_outputs.py"
    script.write_text(result.code, encoding="utf-8")
    proc = run([str(script)], env=NO_GPUS, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "FITTED 2" in proc.stdout


# A behavioral-cloning model.py of the Keras 1 days: a plain generator of camera frames whose
# last batch of each pass is short, fit_generator(samples_per_epoch=, nb_val_samples=), a
# resize in a Lambda through Keras 2.0's backend, and Keras 1's activity_l2.
_KERAS1_CLONING = """
import numpy as np
from keras.backend import tf as ktf
from keras.layers import Dense, Flatten, Lambda
from keras.models import Sequential
from keras.regularizers import activity_l2

drawn = []


def frames(rows, batch_size):
    while True:
        for offset in range(0, rows, batch_size):
            n = min(batch_size, rows - offset)
            drawn.append((rows, n))
            yield np.random.rand(n, 8, 16, 3), np.random.rand(n)


def resize(x):
    return ktf.image.resize_images(x, (4, 8))


model = Sequential()
model.add(Lambda(resize, input_shape=(8, 16, 3)))
model.add(Flatten())
model.add(Dense(1, activity_regularizer=activity_l2(0.01)))
model.compile(loss='mse', optimizer='adam')
history = model.fit_generator(frames(10, 4), samples_per_epoch=10, nb_epoch=1, verbose=0,
                              validation_data=frames(5, 2), nb_val_samples=5)
print("DRAWN", [n for rows, n in drawn if rows == 10], [n for rows, n in drawn if rows == 5])
print("KEYS", sorted(history.history))
"""


@pytest.mark.tf
def test_migrated_keras1_samples_per_epoch_draws_what_keras1_drew(tmp_path: Path) -> None:
    needs_tensorflow()
    if not keras3():
        pytest.skip("needs Keras 3")
    result = migrate_source(_KERAS1_CLONING, upgrade=True)
    assert result.warnings == ()
    script = tmp_path / "model.py"
    script.write_text(result.code, encoding="utf-8")
    proc = run([str(script)], env=NO_GPUS, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    # Keras 1 drew batches until 10 training samples (4 + 4 + 2) and 5 validation samples
    # (2 + 2 + 1) were seen: not 10 batches, as steps_per_epoch=10 would draw
    assert "DRAWN [4, 4, 2] [2, 2, 1]" in proc.stdout
    assert "KEYS ['loss', 'val_loss']" in proc.stdout


_PREPROCESSING_PACKAGE = """
import numpy as np
import keras_preprocessing
from keras.preprocessing import image, sequence

# the course notebooks' augmentation, read through the package and through its module
# (standardize: the rescaling alone, which needs no scipy, unlike the random transforms)
generator = keras_preprocessing.image.ImageDataGenerator(rescale=1.0 / 255)
batch = generator.standardize(np.full((2, 8, 8, 3), 255.0, dtype='float32'))
other = image.ImageDataGenerator(rescale=0.5)
padded = keras_preprocessing.sequence.pad_sequences([[1, 2]], maxlen=4)
print("BATCH", batch.shape, float(batch.max()), padded.tolist(),
      type(other).__name__, sequence.pad_sequences([[3]], maxlen=2).tolist())
"""


@pytest.mark.tf
def test_migrated_keras_preprocessing_package_runs_on_keras_3(tmp_path: Path) -> None:
    # keras_preprocessing is not installed with Keras 3, whose own keras.preprocessing.image
    # has no ImageDataGenerator
    needs_tensorflow()
    if not keras3():
        pytest.skip("needs Keras 3")
    result = migrate_source(_PREPROCESSING_PACKAGE, upgrade=True)
    script = tmp_path / "augment.py"
    script.write_text(result.code, encoding="utf-8")
    proc = run([str(script)], env=NO_GPUS, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "BATCH (2, 8, 8, 3) 1.0 [[0, 0, 1, 2]] ImageDataGenerator [[0, 3]]" in proc.stdout
