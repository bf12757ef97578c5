"""Find the place in user code that asked for something (``file:line``), cheaply."""

from __future__ import annotations

import os
import sys

__all__ = ["user_frame"]

_SKIP = (
    os.sep + "tfcompat_gpu" + os.sep,
    os.sep + "tensorflow" + os.sep,
    os.sep + "tf_keras" + os.sep,
    os.sep + "keras" + os.sep,
    os.sep + "wrapt" + os.sep,
    os.sep + "importlib" + os.sep,
    "<frozen ",
    os.sep + "contextlib.py",
    os.sep + "threading.py",
    os.sep + "runpy.py",
)


def user_frame(depth: int = 2) -> str:
    """``path:line`` of the first caller outside TensorFlow, Keras and this package."""
    try:
        frame = sys._getframe(depth)
    except ValueError:
        return "<unknown>"
    while frame is not None:
        filename = frame.f_code.co_filename
        if not any(part in filename for part in _SKIP):
            return f"{_short(filename)}:{frame.f_lineno}"
        frame = frame.f_back  # type: ignore[assignment]
    return "<unknown>"


def _short(filename: str) -> str:
    try:
        relative = os.path.relpath(filename)
    except ValueError:
        return filename
    return filename if relative.startswith(".." + os.sep + "..") else relative
