"""LibCST sees only the statements the migration can be about; the result is the same."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import migrate_in_fresh_process

from tfcompat_gpu.codemod._engine import _migrate
from tfcompat_gpu.codemod._focus import focus
from tfcompat_gpu.codemod.api import migrate_source
from tfcompat_gpu.codemod.commands import commands_for

MODEL = '''
@staticmethod
def helper_{i}(x):
    """Model code: nothing the migration is about."""
    total = 0
    for value in x:
        total += np.sum(value) * SCALE
    return K.mean(total)


class Net{i}(object):
    def __init__(self, sess=None, config=None):
        self.sess = sess
        self.config = config

    def run(self, x):
        return self.sess.run(x)

'''
MATCH = sys.version_info >= (3, 10)
FILES = {
    "script": (
        "import numpy as np\n"
        "import tensorflow as tf\n"
        "import keras.backend.tensorflow_backend as K\n"
        "SCALE = 2\n" + MODEL.format(i=0) + "config = tf.ConfigProto()\n"
        "config.gpu_options.allow_growth = True  # share the GPU\n"
        + MODEL.format(i=1)
        + "sess = tf.Session(config=config)\n"
        "K.set_session(sess)\n"
        "\x0c\n" + MODEL.format(i=2) + "print(K.get_session())\n"
    ),
    # a statement that changes the config elsewhere in the file must be seen
    "shared-name": (
        "import tensorflow as tf\n"
        "config = tf.ConfigProto()\n"
        + MODEL.format(i=0)
        + "config.gpu_options.allow_growth = True\n"
        + MODEL.format(i=1)
        + "sess = tf.Session(config=config)\n"
    ),
    "function-reads-global": (
        "import tensorflow as tf\n"
        + MODEL.format(i=0)
        + "def make():\n    return tf.Session(config=config)\n"
        + MODEL.format(i=1)
        + "def tweak():\n    config.allow_soft_placement = True\n"
        "config = tf.ConfigProto(log_device_placement=True)\n"
    ),
    # kept code that only calls or names a class or function leaves it out ...
    "called-definitions": (
        "import numpy as np\n"
        "import tensorflow as tf\n"
        "import keras.backend.tensorflow_backend as K\n"
        "SCALE = 2\n" + MODEL.format(i=0) + "config = tf.ConfigProto()\n"
        "config.gpu_options.allow_growth = True\n"
        "sess = tf.Session(config=config)\n"
        "net = Net0(sess, config)\n"
        "print(helper_0([1]), net.run(1))\n"
    ),
    # ... unless the kept code binds the name again, or the definition reads a kept name
    "rebound-definition": (
        "import tensorflow as tf\n"
        "def sess():\n    return None\n" + MODEL.format(i=0) + "config = tf.ConfigProto()\n"
        "sess = tf.Session(config=config)\n"
        "def show():\n    print(sess)\n"
        "show()\n"
    ),
    # the warning about a kept keras.backend.tensorflow_backend import names every line using it
    "backend-kept-lines": (
        "import tensorflow as tf\n"
        "import keras.backend.tensorflow_backend as KTF\n"
        "config = tf.ConfigProto()\n"
        "config.gpu_options.allow_growth = True\n"
        "KTF.set_session(tf.Session(config=config))\n"
        + MODEL.format(i=0)
        + "def reset():\n    KTF.clear_session()\n    return KTF.epsilon(), KTF.floatx()\n"
        + MODEL.format(i=1)
    ),
    # a function above the import that reads it: the import stays (the stub reads it in a
    # scope of its own, as the function does)
    "read-above-import": (
        "def reset():\n    K.clear_session()\n"
        + MODEL.format(i=0).replace("K.mean", "np.mean")
        # a capture in a function counts as a read too (match: Python >= 3.10)
        + ("def pick():\n    match 1:\n        case K:\n            return K\n" if MATCH else "")
        + "import tensorflow as tf\n"
        "from keras import backend as K\n"
        "config = tf.compat.v1.ConfigProto(log_device_placement=True)\n"
        "K.set_session(tf.compat.v1.Session(config=config))\n"
        + MODEL.format(i=1).replace("K.mean", "np.mean")
    ),
    "tf2-assignments": (
        "import tensorflow as tf\n"
        + MODEL.format(i=0)
        + "tf.config.experimental.set_memory_growth = True\n"
        + MODEL.format(i=1)
        + "tf.config.experimental.set_virtual_device_configuration(gpus[0], [])\n"
    ),
}


@pytest.mark.parametrize("target", ["facade", "tf2"])
@pytest.mark.parametrize("name", sorted(FILES))
def test_focused_migration_is_the_whole_file_migration(name: str, target: str) -> None:
    for code in (FILES[name], FILES[name].replace("\n", "\r\n")):
        wanted = commands_for(code)
        assert focus(code, ast.parse(code), lambda t, w=wanted: any(c.relevant(t) for c in w))
        whole_code, whole_warnings = _migrate(code, wanted, target, "", set())  # type: ignore[arg-type]
        result = migrate_source(code, target=target)  # type: ignore[arg-type]
        assert result.code == whole_code
        assert sorted(result.warnings) == sorted(whole_warnings)
        compile(result.code, name, "exec")
    if name == "read-above-import":
        assert "from keras import backend as K" in result.code
    if name == "backend-kept-lines":
        assert any("line 25, 26 still uses it" in w for w in result.warnings), result.warnings


def _focused(code: str) -> str:
    wanted = commands_for(code)
    found = focus(code, ast.parse(code), lambda t: any(c.relevant(t) for c in wanted))
    assert found is not None
    return found.code


def test_definitions_the_kept_code_only_calls_are_left_out() -> None:
    focused = _focused(FILES["called-definitions"])
    assert "class Net0" not in focused
    assert "def helper_0" not in focused
    assert "net = Net0(sess, config)" in focused


def test_definitions_rebound_or_reading_kept_names_stay() -> None:
    focused = _focused(FILES["rebound-definition"])
    assert "def sess():" in focused
    assert "def show():" in focused
    assert "class Net0" not in focused


def test_files_without_gpu_configuration_are_not_parsed_by_libcst() -> None:
    assert commands_for(MODEL.format(i=0)) == ()
    assert commands_for("import tensorflow as tf\nx = tf.constant(1)\nself.a = 2\n") == ()


def test_every_command_carries_its_precheck() -> None:
    from tfcompat_gpu.codemod._triage import Precheck
    from tfcompat_gpu.codemod.commands import COMMANDS

    for command in COMMANDS:
        assert isinstance(command.__dict__.get("PRECHECK"), Precheck), command


def test_the_commands_and_their_prechecks_load_without_libcst(tmp_path: Path) -> None:
    # every command module is imported to decide that a file needs none of them
    import subprocess
    import sys

    from _support import ROOT

    code = (
        "import sys\n"
        "from tfcompat_gpu.codemod.commands import COMMANDS, commands_for\n"
        "from tfcompat_gpu.codemod.api import migrate_source\n"
        "assert commands_for('import tensorflow as tf\\nx = tf.constant(1)\\n') == ()\n"
        "assert not migrate_source('import numpy as np\\n', upgrade=True).changed\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'libcst'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_tree_without_gpu_configuration_never_loads_libcst(tmp_path: Path) -> None:
    (tmp_path / "model.py").write_text(MODEL.format(i=0))
    (tmp_path / "broken.py").write_text("def oops(:\n")
    done = migrate_in_fresh_process(tmp_path, status=1, not_loaded=("libcst",))
    assert done.returncode == 0, done.stderr
    assert "broken.py: skipped: cannot parse it (line 1, column 10" in done.stderr


def test_the_walk_goes_into_statements_that_hold_planned_changes() -> None:
    # the import line names nothing GPU-related, yet the plan drops it: only set_session used it
    code = (
        "import tensorflow as tf\n"
        "import keras.backend as K\n"
        "config = tf.ConfigProto()\n"
        "config.gpu_options.allow_growth = True\n"
        "K.set_session(tf.Session(config=config))\n"
    )
    result = migrate_source(code)
    assert "keras" not in result.code, result.code
    assert "allow_growth=True" in result.code
    compile(result.code, "script.py", "exec")


def test_a_legacy_file_is_migrated_without_libcsts_codemod_framework(tmp_path: Path) -> None:
    # libcst.matchers, which LibCST's codemod framework loads, takes about 0.3 s to import
    (tmp_path / "train.py").write_text(FILES["script"])
    done = migrate_in_fresh_process(
        tmp_path, status=0, loaded=("libcst",), not_loaded=("libcst.matchers", "libcst.codemod")
    )
    assert done.returncode == 0, done.stderr
    assert "tfcompat_gpu.configure(" in (tmp_path / "train.py").read_text()


@pytest.mark.parametrize(
    "text",
    [
        "sess = tf.InteractiveSession()",
        "tf.compat.v1.Session(config=cfg)",
        "K.set_session(s)",
        "from keras import backend\nbackend.get_session()",
        "opts = tf.GPUOptions(allow_growth=True)",
        "tf.contrib.distribute.MirroredStrategy()",
        "from tensorflow.python.client import device_lib\ndevice_lib._get_available_gpus()",
        "tf.test.is_gpu_available(cuda_only=True)",
        "print(tf.test.gpu_device_name())",
        "parallel = multi_gpu_model(model, gpus=2)",
        "estimator.RunConfig(train_distribute=s, distribute = s)",
        "MySessionFactory()",  # a word containing Session is no match
        "slim = tf.contrib.slim\nnet = tf.contrib.layers.conv2d(x, 32, 3)",  # contrib, no distribute
        "from tensorflow.contrib import distribute as cd",
        "distributed = True",
        "contribution = 1",
        "x = 1",
    ],
)
def test_text_prechecks_answer_as_their_patterns(text: str) -> None:
    from tfcompat_gpu.codemod.commands import (
        build_in_strategy_scope,
        config_proto_to_configure,
        contrib_distribute,
        gpu_discovery,
    )

    patterns = {
        config_proto_to_configure: config_proto_to_configure._CONFIG_PROTO,
        contrib_distribute: re.compile(r"\bcontrib\b[\s\S]*\bdistribute\b"),
        gpu_discovery: gpu_discovery._DISCOVERY,
        build_in_strategy_scope: build_in_strategy_scope._STRATEGY,
    }
    for module, pattern in patterns.items():
        name = module.__name__
        (command,) = (getattr(module, n) for n in module.__all__ if n.endswith("Command"))
        check = command.PRECHECK
        expected = pattern.search(text) is not None
        assert check.wanted(text, None) is expected, name
        assert check.relevant(text) is expected, name


def test_a_cr_before_a_crlf_gives_the_whole_file_to_libcst() -> None:
    # Python ends a line at that CR: a cut at LF would misplace every statement after it
    code = (
        "import tensorflow as tf\r\nx = 1\r\r\n"
        + MODEL.format(i=0).replace("\n", "\r\n")
        + "config = tf.ConfigProto()\r\nconfig.gpu_options.allow_growth = True\r\n"
        "sess = tf.Session(config=config)\r\n" + MODEL.format(i=1).replace("\n", "\r\n")
    )
    wanted = commands_for(code)
    assert focus(code, ast.parse(code), lambda t: any(c.relevant(t) for c in wanted)) is None
    whole_code, _ = _migrate(code, wanted, "facade", "", set())
    result = migrate_source(code)
    assert result.code == whole_code
    assert "allow_growth=True" in result.code
