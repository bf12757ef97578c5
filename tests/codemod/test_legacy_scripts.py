"""Keras 2 and TF1 scripts (``legacy_scripts/``) run with plain ``python`` after ``migrate --write``.

The scripts are small programs in the shape of public Keras 2 / TF1 code (mnist and cifar
examples, ``set_session`` GPU setup, ``fit_generator`` training, ``decay=`` optimizers,
``tf.Session`` loops, ``tf.app.flags`` scripts), with random data and one epoch so that each
runs in a few seconds.  They run two at a time, each in its own interpreter (graph mode and the
GPU settings are process-wide).  They target Keras 3: on the tf_keras and TF 2.15 legs, where
``keras`` or ``tf.keras`` is Keras 2, only the migration itself is checked.
"""

from __future__ import annotations

import ast
import importlib.util
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import NO_GPUS, keras3, migrate_cli, needs_tensorflow

from tests._child import run
from tfcompat_gpu.codemod.api import migrate_source

SCRIPTS = Path(__file__).resolve().parent / "legacy_scripts"
NAMES = sorted(p.name for p in SCRIPTS.glob("*.py"))
# TF1 modules that TensorFlow >= 2.16 serves from tf_keras only: migrate says so, and the
# script runs as the warning tells (tf_keras installed, TF_USE_LEGACY_KERAS=1)
NEEDS_TF_KERAS = {"tf1_layers_losses.py", "tf1_rnn_cell.py"}


def test_there_are_enough_scripts_of_each_kind() -> None:
    assert len(NAMES) >= 20
    assert sum(name.startswith("keras2_") for name in NAMES) >= 10
    assert sum(name.startswith("tf1_") for name in NAMES) >= 8


@pytest.mark.parametrize("name", NAMES)
def test_script_is_migrated_once_for_all(name: str) -> None:
    source = (SCRIPTS / name).read_text()
    result = migrate_source(source, filename=name, upgrade=True)
    assert result.changed
    tree = ast.parse(result.code)
    assert migrate_source(result.code, filename=name, upgrade=True).code == result.code
    # the Keras 2 names the scripts die on are gone
    keywords = {
        k.arg for node in ast.walk(tree) if isinstance(node, ast.Call) for k in node.keywords
    }
    assert not keywords & {"lr", "nb_epoch", "workers", "use_multiprocessing"}
    methods = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert not methods & {"fit_generator", "evaluate_generator", "predict_generator", "np_utils"}
    assert not methods & {"get_value", "set_value", "lr"}


def _run(path: Path) -> tuple[str, subprocess.CompletedProcess[str]]:
    env = dict(NO_GPUS)
    if path.name in NEEDS_TF_KERAS:
        env["TF_USE_LEGACY_KERAS"] = "1"
    done = run([str(path)], env=env, cwd=path.parent, timeout=300)
    return path.name, done


@pytest.mark.tf
def test_migrated_scripts_run_with_plain_python(tmp_path: Path) -> None:
    needs_tensorflow()
    if not keras3(tf_keras_too=True):
        pytest.skip("the migrated scripts target Keras 3; keras here is Keras 2")
    copy = tmp_path / "scripts"
    shutil.copytree(SCRIPTS, copy)
    migrated = migrate_cli("--write", str(copy))
    assert migrated.returncode == 0, migrated.stderr
    assert f"{len(NAMES)} of {len(NAMES)} files changed" in migrated.stderr
    names = [n for n in NAMES if n not in NEEDS_TF_KERAS or importlib.util.find_spec("tf_keras")]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = dict(pool.map(_run, [copy / name for name in names]))
    failed = {
        name: (copy / name).read_text() + "\n" + done.stderr[-2000:]
        for name, done in results.items()
        if done.returncode != 0
    }
    assert not failed, "\n\n".join(f"== {name}\n{why}" for name, why in failed.items())
