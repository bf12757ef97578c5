"""Test matrix: static checks, then the suite under Keras 3, tf_keras and TF 2.15's Keras 2.

    nox                      # everything (what CI runs)
    nox -s tests-2.21        # one leg
"""

from __future__ import annotations

import nox

nox.options.default_venv_backend = "venv"
nox.options.reuse_existing_virtualenvs = True
nox.options.error_on_missing_interpreters = True

PYTEST = ("pytest", "-n", "2", "-q", "-p", "no:cacheprovider")


@nox.session
def lint(session: nox.Session) -> None:
    """ruff and mypy (strict) on the package."""
    session.install("-e", ".[dev]")
    session.run("ruff", "check", "tfcompat_gpu", "tests", "bench", "noxfile.py")
    session.run("mypy")


@nox.session(name="tests-2.21")
def tests_221(session: nox.Session) -> None:
    """TensorFlow 2.21 with Keras 3."""
    session.install("-e", ".[test]", "tensorflow-cpu==2.21.0")
    session.run(*PYTEST, *session.posargs)


@nox.session(name="tests-2.21-tf_keras")
def tests_221_tf_keras(session: nox.Session) -> None:
    """TensorFlow 2.21 with tf_keras (TF_USE_LEGACY_KERAS=1): the Keras 2 API on TF 2.16+."""
    session.install("-e", ".[test]", "tensorflow-cpu==2.21.0", "tf-keras==2.21.0")
    session.run(*PYTEST, "-m", "tf", *session.posargs, env={"TF_USE_LEGACY_KERAS": "1"})


@nox.session(name="tests-2.15")
def tests_215(session: nox.Session) -> None:
    """TensorFlow 2.15, the last release with Keras 2 inside."""
    session.install("-e", ".[test]", "tensorflow-cpu==2.15.1")
    session.run(*PYTEST, "-m", "tf", *session.posargs)
