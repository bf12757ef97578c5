"""A progress line on a terminal's stderr for long runs: ``checked 1200/2592 files``."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TextIO

__all__ = ["MIN_FILES", "progress_line", "quiet"]

MIN_FILES = 300
"""Runs over fewer files end before a progress line would help."""
_EVERY = 0.1
"""Seconds between two redraws: a terminal is slower than the lint."""


def quiet(stream: TextIO) -> bool:
    """No progress line: the stream is a pipe or a file, or the run is in CI (``$CI``)."""
    try:
        terminal = stream.isatty()
    except (AttributeError, ValueError):
        return True
    return not terminal or bool(os.environ.get("CI")) or os.environ.get("TERM") == "dumb"


def progress_line(stream: TextIO, verb: str) -> Callable[[int, int], None] | None:
    """A ``(done, total)`` callback drawing ``VERB done/total files`` in place; None where
    :func:`quiet`.  The line is erased when the run ends (``done == total``)."""
    if quiet(stream):
        return None
    last = 0.0
    shown = False

    def draw(done: int, total: int) -> None:
        nonlocal last, shown
        if total < MIN_FILES:
            return
        if done >= total:
            if shown:
                stream.write("\r\x1b[K")
                stream.flush()
                shown = False
            return
        now = time.monotonic()
        if now - last < _EVERY:
            return
        last = now
        stream.write(f"\r{verb} {done}/{total} files")
        stream.flush()
        shown = True

    return draw
