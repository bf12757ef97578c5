"""Test matrix: static checks, the suite under Keras 3, tf_keras and TF 2.15's Keras 2, and the
TensorFlow-free parts (config, lint, migrate) on every supported Python.

    nox                      # everything (what CI runs)
    nox -s tests-2.21        # one leg
    nox -s notf              # the TensorFlow-free legs, Python 3.9 to 3.13

Each TensorFlow leg runs on a different Python, so every version TensorFlow has wheels for is
covered once without paying for the full suite on each: TF 2.21 (Python 3.10-3.13) with Keras 3
on 3.11 and with tf_keras on 3.13, TF 2.15 (Python 3.9-3.11) on 3.9.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import nox


def _pyenv_interpreters() -> None:
    """Put pyenv's newest 3.9 to 3.13 on PATH, so that the matrix finds them without a
    ``pyenv global`` that lists every version."""
    base = os.environ.get("PYENV_ROOT") or ""
    if not base and shutil.which("pyenv"):
        base = subprocess.run(["pyenv", "root"], capture_output=True, text=True).stdout.strip()
    root = Path(base or Path.home() / ".pyenv") / "versions"
    if not root.is_dir():
        return
    for minor in ("3.9", "3.10", "3.11", "3.12", "3.13"):
        found = [
            p for p in root.glob(f"{minor}.*/bin") if re.fullmatch(rf"{minor}\.\d+", p.parent.name)
        ]
        if found:
            newest = max(found, key=lambda p: int(p.parent.name.rsplit(".", 1)[1]))
            os.environ["PATH"] = f"{newest}{os.pathsep}{os.environ.get('PATH', '')}"


_pyenv_interpreters()

nox.options.default_venv_backend = "venv"
nox.options.reuse_existing_virtualenvs = True
nox.options.error_on_missing_interpreters = True

PYTEST = ("pytest", "-n", "2", "-q", "-p", "no:cacheprovider")
_CI = {"HYPOTHESIS_PROFILE": "ci"}  # property tests on a fixed draw (tests/conftest.py)


@nox.session(python="3.11")
def lint(session: nox.Session) -> None:
    """ruff and mypy (strict) on the package."""
    session.install("-e", ".[dev]")
    session.run("ruff", "check", "tfcompat_gpu", "tests", "bench", "noxfile.py")
    session.run("mypy")


@nox.session(name="tests-2.21", python="3.11")
def tests_221(session: nox.Session) -> None:
    """TensorFlow 2.21 with Keras 3."""
    # tf_keras beside Keras 3: `import keras` stays Keras 3; the --legacy-keras, Keras 2 example
    # and multi-worker Keras tests of this leg use tf_keras.  scikit-learn: Keras 2's wrappers
    # that `run` serves are checked in its cross-validation and grid search.
    session.install(
        "-e", ".[test]", "tensorflow-cpu==2.21.0", "tf-keras==2.21.0", "scikit-learn"
    )
    session.run(*PYTEST, *session.posargs, env=_CI)


@nox.session(name="tests-2.21-tf_keras", python="3.13")
def tests_221_tf_keras(session: nox.Session) -> None:
    """TensorFlow 2.21 with tf_keras (TF_USE_LEGACY_KERAS=1): the Keras 2 API on TF 2.16+."""
    session.install("-e", ".[test]", "tensorflow-cpu==2.21.0", "tf-keras==2.21.0")
    session.run(*PYTEST, "-m", "tf", *session.posargs, env={**_CI, "TF_USE_LEGACY_KERAS": "1"})


@nox.session(name="tests-2.15", python="3.9")
def tests_215(session: nox.Session) -> None:
    """TensorFlow 2.15, the last release with Keras 2 inside."""
    session.install("-e", ".[test]", "tensorflow-cpu==2.15.1")
    session.run(*PYTEST, "-m", "tf", *session.posargs, env=_CI)


@nox.session(python=["3.9", "3.10", "3.12", "3.13"])
def notf(session: nox.Session) -> None:
    """Config, lint and migrate without TensorFlow installed: the tests not marked ``tf``."""
    session.install("-e", ".[test]", "numpy")  # user values come as numpy numbers
    session.run(*PYTEST, "-m", "not tf", *session.posargs, env=_CI)
