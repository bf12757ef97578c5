"""One grammar for numbers written as text, whatever the source.

Environment variables (``TFCOMPAT_GPU_*``, ``CUDA_VISIBLE_DEVICES``, launcher ranks, SLURM's),
INI values, command-line flags, ``auto:N``, ``local_rank:K`` and GPU ids in device lists all read
their numbers here, so that a value means the same everywhere.

The grammar is the intersection of what TensorFlow's and CUDA's C parsers accept and what a
Python literal means:

- an integer is ASCII digits only.  TensorFlow reads ``visible_device_list`` entries with
  ``strings::safe_strto32`` (``xla/tsl/framework/device_id_utils.cc``, ``ParseVisibleDeviceList``),
  which tests characters with the C locale's ``isdigit``: ``"²"`` or a fullwidth one (U+FF11)
  are not digits there (Python's ``str.isdigit`` and ``int()`` accept them).  The CUDA driver
  reads ``CUDA_VISIBLE_DEVICES`` the same byte-wise way.  Digit separators (``1_000``, which
  ``int()`` and ``float()`` accept) are refused: ``0_5`` would otherwise be read as ``5``.
- an integer has at most :data:`MAX_DIGITS` digits: Python's ``int()`` refuses text over
  4,300 digits (``sys.get_int_max_str_digits``) with a ``ValueError`` of its own, and no
  setting is a number that long, so longer text is simply not a number here.
- a real number is a decimal literal as ``float()`` and ``strtod`` both read it
  (``0.5``, ``.5``, ``5e-1``, optionally signed), again ASCII only; ``inf``/``nan`` are refused.

Nothing here imports TensorFlow.

Example::

    >>> parse_int("12"), parse_int("\\uff11"), parse_int("1_0"), parse_int("²"), parse_int("9" * 5000)
    (12, None, None, None, None)
    >>> parse_float("5e-1"), parse_float("0_5"), parse_float("inf")
    (0.5, None, None)
"""

from __future__ import annotations

import math
import re

__all__ = ["INT_TEXT", "MAX_DIGITS", "REAL_TEXT", "is_int", "parse_float", "parse_int", "share_mb"]

MAX_DIGITS = 100
"""The most digits an integer in text may have (far beyond any count, id or size)."""
INT_TEXT = f"[0-9]{{1,{MAX_DIGITS}}}"
"""The integer grammar as a regular expression (ASCII digits; usable inside other patterns)."""
REAL_TEXT = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
"""The real-number grammar as a regular expression."""

# re.ASCII is not needed: the classes above are explicit ASCII ranges.
_INT = re.compile(INT_TEXT)
_REAL = re.compile(REAL_TEXT)


def is_int(text: str) -> bool:
    """``text`` (surrounding spaces allowed) is a non-negative integer in ASCII digits."""
    return _INT.fullmatch(text.strip()) is not None


def parse_int(text: str) -> int | None:
    """The non-negative integer ``text`` writes, or None when it does not follow the grammar."""
    stripped = text.strip()
    return int(stripped) if _INT.fullmatch(stripped) else None


def parse_float(text: str) -> float | None:
    """The finite real number ``text`` writes, or None when it does not follow the grammar."""
    stripped = text.strip()
    if not _REAL.fullmatch(stripped):
        return None
    value = float(stripped)
    return value if math.isfinite(value) else None  # "1e999" overflows to inf


def share_mb(fraction: float, total_mb: int) -> int | None:
    """``fraction`` of ``total_mb`` in whole MB, or None when no card could have that much.

    TensorFlow multiplies the card's total by the fraction in ``int64``
    (``tensorflow/core/common_runtime/gpu/gpu_device.cc``, ``SingleVirtualDeviceMemoryLimit``);
    a fraction such as ``1e308`` gives no meaningful size, so callers say so instead of
    converting an infinite float.
    """
    mb = fraction * total_mb
    if not math.isfinite(mb) or mb >= 2**63 / (1 << 20):
        return None
    return int(mb)
