"""Which Keras the test environment has, read from package metadata (nothing is imported)."""

from __future__ import annotations

import importlib.metadata

import pytest


def major(name: str) -> int:
    """The installed major version of distribution ``name``; 0 when it is not installed."""
    try:
        return int(importlib.metadata.version(name).split(".")[0])
    except importlib.metadata.PackageNotFoundError:
        return 0


KERAS3 = major("keras") >= 3
needs_keras3 = pytest.mark.skipif(not KERAS3, reason="Keras 2 is `keras` here (TF <= 2.15)")
needs_tf_keras = pytest.mark.skipif(
    not KERAS3 or major("tf-keras") < 2, reason="needs Keras 3 and tf_keras installed"
)
