"""A TF1 research repository migrated as a folder, whose model module reads ``tf`` through
``from project.layers import *`` and imports no tensorflow itself.

The layers module becomes ``tensorflow.compat.v1``; the metrics module, which uses only names
TF2 kept, keeps ``import tensorflow as tf``.  Star-imported after the layers, its ``tf`` (TF2's)
is the one the model module would read, so the model module gets its own compat import.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import NO_GPUS, needs_tensorflow

from tests._child import cli, run

FILES = {
    "project/__init__.py": "",
    "project/layers.py": (
        "import tensorflow as tf\n"
        "\n"
        "def dense(x, size, name):\n"
        "    with tf.variable_scope(name):\n"
        "        w = tf.get_variable('w', [int(x.shape[1]), size],\n"
        "                            initializer=tf.constant_initializer(0.5))\n"
        "    return tf.matmul(x, w)\n"
    ),
    "project/metrics.py": (
        "import tensorflow as tf\n"
        "\n"
        "def mean_error(pred, target):\n"
        "    return tf.reduce_mean(tf.abs(pred - target))\n"
    ),
    "project/models.py": (
        "from project.layers import *\n"
        "from project.metrics import *\n"
        "\n"
        "flags = tf.app.flags\n"
        "FLAGS = flags.FLAGS\n"
        "\n"
        "class Model(object):\n"
        "    def __init__(self):\n"
        "        self.x = tf.placeholder(tf.float32, [None, FLAGS.width])\n"
        "        self.y = tf.placeholder(tf.float32, [None, 1])\n"
        "        self.error = mean_error(dense(self.x, 1, 'out'), self.y)\n"
    ),
    "train.py": (
        "import tensorflow as tf\n"
        "from project.models import Model\n"
        "\n"
        "flags = tf.app.flags\n"
        "flags.DEFINE_integer('width', 2, 'input width')\n"
        "FLAGS = flags.FLAGS\n"
        "\n"
        "def main(_):\n"
        "    model = Model()\n"
        "    with tf.Session() as sess:\n"
        "        sess.run(tf.global_variables_initializer())\n"
        "        print('ERROR', sess.run(model.error, {model.x: [[1.0, 3.0]], model.y: [[1.0]]}))\n"
        "\n"
        "if __name__ == '__main__':\n"
        "    tf.app.run()\n"
    ),
}


def _project(tmp_path: Path) -> Path:
    for name, text in FILES.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def test_the_model_module_gets_its_own_compat_import(tmp_path: Path) -> None:
    root = _project(tmp_path)
    proc = cli("migrate", "--write", ".", cwd=root)
    assert proc.returncode == 0, proc.stderr
    models = (root / "project" / "models.py").read_text(encoding="utf-8")
    assert models.startswith(
        "from project.layers import *\nfrom project.metrics import *\n"
        "import tensorflow.compat.v1 as tf\n"
    )
    # only TF2 names: left as it was
    assert (root / "project" / "metrics.py").read_text(encoding="utf-8") == FILES[
        "project/metrics.py"
    ]


def test_the_migrated_repository_runs_with_plain_python(tmp_path: Path) -> None:
    needs_tensorflow()
    root = _project(tmp_path)
    cli("migrate", "--write", ".", cwd=root)
    proc = run(["train.py"], env=NO_GPUS, cwd=root)
    assert proc.returncode == 0, proc.stderr
    # 0.5 * (1 + 3) = 2.0 against 1.0
    assert "ERROR 1.0" in proc.stdout, proc.stdout
