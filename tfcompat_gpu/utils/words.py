"""Counted nouns as every output writes them: ``1 file``, ``2 files``, ``0 warnings``.

One helper, so that no message says ``file(s)``.  Nothing here imports TensorFlow.

Example::

    >>> plural(1, "file"), plural(2, "file"), plural(0, "warning")
    ('1 file', '2 files', '0 warnings')
    >>> plural(3, "GPU"), plural(1, "process", "processes"), plural(2, "process", "processes")
    ('3 GPUs', '1 process', '2 processes')
"""

from __future__ import annotations

__all__ = ["plural"]


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, the noun in the plural (``many``, else ``noun + "s"``) unless
    ``count`` is 1."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"
