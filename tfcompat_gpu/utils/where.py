"""Find the place in user code that asked for something (``file:line``), cheaply."""

from __future__ import annotations

import functools
import os
import sys

__all__ = ["is_user_code", "short_path", "user_frame"]

_SKIP = (
    os.sep + "tfcompat_gpu" + os.sep,
    os.sep + "tensorflow" + os.sep,
    os.sep + "tensorflow_estimator" + os.sep,
    os.sep + "tf_keras" + os.sep,
    os.sep + "keras" + os.sep,
    os.sep + "wrapt" + os.sep,
    os.sep + "importlib" + os.sep,
    "<frozen ",
    os.sep + "contextlib.py",
    os.sep + "threading.py",
    os.sep + "runpy.py",
)


_USER_CODE: dict[object, bool] = {}


def _is_user(code: object, filename: str) -> bool:
    known = _USER_CODE.get(code)
    if known is None:
        known = not any(part in filename for part in _SKIP)
        _USER_CODE[code] = known
    return known


def is_user_code(code: object) -> bool:
    """Whether a code object belongs to user code (not TensorFlow, Keras or this package)."""
    return _is_user(code, getattr(code, "co_filename", ""))


def user_frame(depth: int = 2) -> str:
    """``path:line`` of the first caller outside TensorFlow, Keras and this package."""
    try:
        frame = sys._getframe(depth)
    except ValueError:
        return "<unknown>"
    while frame is not None:
        code = frame.f_code
        if _is_user(code, code.co_filename):
            return f"{short_path(code.co_filename)}:{frame.f_lineno}"
        frame = frame.f_back  # type: ignore[assignment]
    return "<unknown>"


@functools.lru_cache(maxsize=256)
def short_path(filename: str) -> str:
    try:
        relative = os.path.relpath(filename)
    except ValueError:
        return filename
    return filename if relative.startswith(".." + os.sep + "..") else relative
