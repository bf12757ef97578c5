"""Which way the process runs TensorFlow: eager (TF2) or graph mode with v1 sessions."""

from __future__ import annotations

import enum

from tfcompat_gpu.tfapi import _tf

__all__ = ["Mode", "detect_mode"]


class Mode(str, enum.Enum):
    """How the process runs TensorFlow."""

    EAGER = "eager"
    """TF2 behaviour (the default)."""
    GRAPH = "graph"
    """Eager disabled (``disable_eager_execution()`` / ``disable_v2_behavior()``): v1 sessions."""


def detect_mode() -> Mode:
    """``Mode.GRAPH`` once eager execution was disabled for the process, else ``Mode.EAGER``.

    Example::

        tf.compat.v1.disable_eager_execution()
        assert tfcompat_gpu.detect_mode() is tfcompat_gpu.Mode.GRAPH
    """
    return Mode.GRAPH if _tf.graph_mode() else Mode.EAGER
