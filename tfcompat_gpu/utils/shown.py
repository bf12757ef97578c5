"""File names as every output shows them: one escaping for text, JSON, workflow commands, SARIF.

A POSIX file name is bytes.  Python decodes the bytes that are not UTF-8 to lone surrogates
(``os.fsdecode``, the ``surrogateescape`` handler, PEP 383), which no UTF-8 stream can carry:
printing one raises ``UnicodeEncodeError``, and ``json.dumps`` writes a ``"\\udcff"`` that strict
JSON readers refuse.  :func:`shown` writes such a byte as ``\\xff`` and a control character
(a newline in a name would start a new output line) as its Python escape, so that every output
is valid UTF-8 with one file per line; :func:`uri_path` percent-encodes the name's real bytes
for a URI (RFC 3986), which is exact.  :func:`shown_value` is a value as an error message
quotes it: its ``repr``, cut to a length a terminal shows, and never an exception of its own.
Nothing here imports TensorFlow.

Example::

    >>> shown("bad\\udcffname.py"), shown("two\\nlines.py"), shown("café.py")
    ('bad\\\\xffname.py', 'two\\\\nlines.py', 'café.py')
    >>> uri_path("bad\\udcffname.py")
    'bad%FFname.py'
"""

from __future__ import annotations

import os
from urllib.parse import quote

__all__ = ["shown", "shown_value", "uri_path"]


def shown(text: str) -> str:
    """``text`` (a file name, or a message holding one) printable on any UTF-8 stream."""
    if text.isprintable():
        return text
    out = []
    for char in text:
        code = ord(char)
        if 0xDC80 <= code <= 0xDCFF:  # a byte surrogateescape could not decode
            out.append(f"\\x{code - 0xDC00:02x}")
        elif char.isprintable():
            out.append(char)
        else:
            out.append(char.encode("unicode_escape").decode("ascii"))
    return "".join(out)


def uri_path(path: str, safe: str = "/") -> str:
    """``path`` percent-encoded from its bytes on disk (``os.fsencode``), for a URI."""
    try:
        raw = os.fsencode(path)
    except UnicodeEncodeError:  # a surrogate that no file name decodes to
        raw = path.encode("utf-8", "backslashreplace")
    return quote(raw, safe=safe)


def shown_value(value: object, limit: int = 200) -> str:
    """``repr(value)`` for a message, at most ``limit`` characters; an int too long for
    ``repr`` (Python refuses more than 4,300 digits) is described by its size instead.

    >>> shown_value("x" * 300)[-6:], shown_value(10**5000)
    ('xxx...', '<an int of 16610 bits>')
    """
    try:
        text = repr(value)
    except ValueError:
        size = abs(value).bit_length() if isinstance(value, int) else "?"
        text = f"<an int of {size} bits>"
    return text if len(text) <= limit else text[: limit - 3] + "..."
