"""Renames done on the text give what LibCST's rename command gives, and only where sure.

The oracle is the migration of the whole file by LibCST (``_engine._migrate``), which knows
nothing of the text path.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import migrate_in_fresh_process
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tfcompat_gpu.codemod._engine import _IDENTIFIER, _migrate
from tfcompat_gpu.codemod._renames import rename_only
from tfcompat_gpu.codemod.api import migrate_source
from tfcompat_gpu.codemod.commands import commands_for

FILLER = '''

def model_{i}(x, units=64):
    """Model code: nothing the migration is about."""
    hidden = tf.keras.layers.Dense(units, activation="relu")(x)
    for _ in range(3):
        hidden = tf.keras.layers.Dropout(0.1)(hidden)
    return tf.keras.layers.Dense(10)(hidden)

'''
GROWTH = (
    'gpus = tf.config.experimental.list_physical_devices("GPU")\n'
    "if gpus:\n"
    "    try:\n"
    "        for gpu in gpus:\n"
    "            tf.config.experimental.set_memory_growth(gpu, True)\n"
    '        logical = tf.config.experimental.list_logical_devices("GPU")\n'
    '        print(len(gpus), "Physical GPUs,", len(logical), "Logical GPUs")\n'
    "    except RuntimeError as e:\n"
    "        print(e)\n"
)
HOROVOD = (
    "def pin_gpu(rank):\n"
    "    # one GPU per process\n"
    "    gpus = tf.config.experimental.list_physical_devices('GPU')\n"
    "    if gpus:\n"
    "        tf.config.experimental.set_visible_devices(gpus[rank], 'GPU')\n"
)
LIMIT = (
    "tf.config.experimental.set_virtual_device_configuration(\n"
    "    gpus[0], [tf.config.experimental.VirtualDeviceConfiguration(memory_limit=1024)])\n"
)
SESSION = (
    "config = tf.ConfigProto()\n"
    "config.gpu_options.allow_growth = True\n"
    "sess = tf.Session(config=config)\n"
)

# files the text path renames by itself
SURE = {
    "growth": "import tensorflow as tf\n" + GROWTH,
    "horovod": "import os\nimport tensorflow as tf\n\n" + HOROVOD + FILLER.format(i=0),
    "compat-v1": "import tensorflow.compat.v1 as tf\n" + GROWTH,
    "compat-spelled": (
        "import tensorflow as tf\nprint(tf.compat.v1.config.experimental.list_logical_devices())\n"
    ),
    "plain-import": "import tensorflow\ntensorflow.config.experimental.list_physical_devices()\n",
    "from-import": (
        "from tensorflow import config\nconfig.experimental.set_visible_devices([], 'GPU')\n"
    ),
    "eagerly": "import tensorflow as tf\ntf.config.experimental_run_functions_eagerly(True)\n",
    "non-ascii": (
        "import tensorflow as tf\n"
        'print("Gerät é ✓", tf.config.experimental.list_physical_devices("GPU"))\n'
    ),
    "decorated": (
        "import functools\nimport tensorflow as tf\n\n"
        "@functools.lru_cache(tf.config.experimental.list_physical_devices)\n"
        "def devices(kind=tf.config.experimental.list_logical_devices):\n"
        "    return kind('GPU')\n"
    ),
    "in-class-and-lambda": (
        "import tensorflow as tf\n\n"
        "class Devices:\n"
        "    listing = tf.config.experimental.list_physical_devices\n"
        "    pick = lambda self, i: tf.config.experimental.set_visible_devices(i)\n"
    ),
    "not-a-rename": (
        "import tensorflow as tf\n"
        "for gpu in tf.config.list_physical_devices('GPU'):\n"
        "    tf.config.experimental.set_memory_growth(gpu, True)\n"
    ),
    "local-name": "experimental = object()\nexperimental.list_physical_devices()\n",
    "alias-of-experimental": (
        "from tensorflow.config import experimental as exp\nexp.list_physical_devices('GPU')\n"
    ),
    "crlf": ("import tensorflow as tf\n" + GROWTH).replace("\n", "\r\n"),
    "limit": "import tensorflow as tf\ngpus = tf.config.list_physical_devices('GPU')\n" + LIMIT,
}
# files whose renames LibCST must decide (the text path answers None)
UNSURE = {
    "parenthesized": "import tensorflow as tf\n(tf.config).experimental.list_physical_devices()\n",
    "split": (
        "import tensorflow as tf\n"
        "gpus = (tf.config\n        .experimental.list_physical_devices('GPU'))\n"
    ),
    "f-string": (
        "import tensorflow as tf\nprint(f'{tf.config.experimental.list_physical_devices()}')\n"
    ),
    "rebound": (
        "import tensorflow as tf\n"
        "def f(tf):\n    return tf.config.experimental.list_physical_devices()\n"
    ),
    "imported-twice": (
        "try:\n    import tensorflow.compat.v1 as tf\nexcept ImportError:\n"
        "    import tensorflow as tf\n"
        "tf.config.experimental.list_physical_devices()\n"
    ),
    "local-import": (
        "def f():\n    import tensorflow as tf\n"
        "    return tf.config.experimental.list_physical_devices()\n"
    ),
    "star-import": (
        "import tensorflow as tf\nfrom helpers import *\n"
        "tf.config.experimental.list_physical_devices()\n"
    ),
    "global": (
        "import tensorflow as tf\n"
        "def swap():\n    global tf\n    tf = None\n"
        "tf.config.experimental.list_physical_devices()\n"
    ),
    "two-on-a-line": "import tensorflow as tf\nx = 1; tf.config.experimental.list_physical_devices()\n",
    # a CR before a CRLF ends a line for Python: line numbers would not match a split at LF
    "cr-before-crlf": (
        "import tensorflow as tf\r\nx = 1\r\r\ntf.config.experimental.list_physical_devices()\r\n"
    ),
}


def _whole_file(code: str, target: str) -> str:
    taken = set(_IDENTIFIER.findall(code))  # as the engine has them
    whole, _ = _migrate(code, commands_for(code), target, "", taken)  # type: ignore[arg-type]
    return whole


@pytest.mark.parametrize("name", sorted(SURE))
def test_the_text_path_renames_what_libcst_renames(name: str) -> None:
    code = SURE[name]
    renamed = rename_only(code, ast.parse(code))
    assert renamed is not None
    assert renamed == _whole_file(code, "facade")
    assert migrate_source(code).code == renamed


@pytest.mark.parametrize("name", sorted(UNSURE))
def test_the_text_path_leaves_unsure_files_to_libcst(name: str) -> None:
    code = UNSURE[name]
    assert rename_only(code, ast.parse(code)) is None
    assert migrate_source(code).code == _whole_file(code, "facade")


@pytest.mark.parametrize("target", ["facade", "tf2"])
@pytest.mark.parametrize(
    "name", ["growth", "horovod", "compat-v1", "non-ascii", "limit", "split", "f-string"]
)
def test_renamed_statements_left_out_of_libcst_in_files_that_need_it(
    name: str, target: str
) -> None:
    # a session to migrate as well: the file goes to LibCST, the rename-only statements not
    code = (SURE.get(name) or UNSURE[name]) + FILLER.format(i=1) + SESSION + FILLER.format(i=2)
    for variant in (code, code.replace("\n", "\r\n")):
        result = migrate_source(variant, target=target)  # type: ignore[arg-type]
        assert result.code == _whole_file(variant, target)
        assert "ConfigProto" not in result.code
        compile(result.code, name, "exec")


_ROOTS = [
    "import tensorflow as tf\n",
    "import tensorflow.compat.v1 as tf\n",
    "from tensorflow.compat import v1 as tf\n",
    "import tensorflow as tf\nimport tensorflow as tf\n",
    "try:\n    import tensorflow as tf\nexcept ImportError:\n    tf = None\n",
]
_USES = [
    GROWTH,
    HOROVOD,
    LIMIT,
    "def f(tf=None):\n    return tf.config.experimental.list_physical_devices()\n",
    "devices = [tf for tf in tf.config.experimental.list_logical_devices()]\n",
    "print(f'{tf.config.experimental.list_physical_devices()}')\n",
    "x = (tf.config.experimental\n     .list_physical_devices())\n",
    "tf.config.experimental.set_visible_devices([], 'GPU')  # hide all\n",
    "print('ü', tf.config.experimental.get_visible_devices())\n",
    "with tf.device('/cpu:0'):\n    n = len(tf.config.experimental.list_physical_devices())\n",
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    root=st.sampled_from(_ROOTS),
    uses=st.lists(st.sampled_from(_USES), min_size=1, max_size=4),
    session=st.booleans(),
    fillers=st.integers(min_value=0, max_value=3),
    crlf=st.booleans(),
)
def test_generated_files_migrate_as_the_whole_file_does(
    root: str, uses: list[str], session: bool, fillers: int, crlf: bool
) -> None:
    parts = [root]
    for index, use in enumerate(uses):
        parts.append(use)
        if index < fillers:
            parts.append(FILLER.format(i=index))
    if session:
        parts.insert(2, SESSION)
    code = "".join(parts)
    if crlf:
        code = code.replace("\n", "\r\n")
    result = migrate_source(code)
    assert result.code == _whole_file(code, "facade")
    compile(result.code, "generated.py", "exec")
    assert migrate_source(result.code).code == result.code


def test_a_tree_that_only_needs_renames_never_loads_libcst(tmp_path: Path) -> None:
    (tmp_path / "gpus.py").write_text(SURE["growth"])
    (tmp_path / "train.py").write_text(SURE["horovod"])
    done = migrate_in_fresh_process(tmp_path, status=0, not_loaded=("libcst",))
    assert done.returncode == 0, done.stderr
    assert "list_physical_devices('GPU')" in (tmp_path / "train.py").read_text()
    assert "experimental.list" not in (tmp_path / "gpus.py").read_text()
    assert "experimental.set_memory_growth" in (tmp_path / "gpus.py").read_text()
