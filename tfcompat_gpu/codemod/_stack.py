"""The Keras the migrated code is for: the one installed, read from package metadata.

Nothing here imports TensorFlow or Keras (that would cost seconds and set up their process-wide
state): :func:`installed_keras` reads the versions of the installed distributions.  The
``keras`` package is what ``import keras`` gives; without it, TensorFlow before 2.16 bundled
Keras 2 as ``tf.keras`` and 2.16 onward uses Keras 3 (tensorflow/python/util/lazy_loader.py
``KerasLazyLoader``); without either, the newest release, Keras 3.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["KERAS_MAJORS", "LATEST_KERAS", "installed_keras"]

KERAS_MAJORS = (2, 3)
LATEST_KERAS = 3
_TENSORFLOW = ("tensorflow", "tensorflow-cpu", "tensorflow-gpu", "tensorflow-macos", "tf-nightly")


def _version(name: str) -> tuple[int, int] | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        parts = version(name).split(".")
    except PackageNotFoundError:
        return None
    try:
        return int(parts[0]), int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    except ValueError:
        return None


@lru_cache(maxsize=1)
def installed_keras() -> int:
    """The major version of the Keras the installed packages give (2 or 3)."""
    keras = _version("keras")
    if keras is not None:
        return 2 if keras[0] < 3 else 3
    for name in _TENSORFLOW:
        tensorflow = _version(name)
        if tensorflow is not None:
            return 2 if tensorflow < (2, 16) else 3
    return LATEST_KERAS
