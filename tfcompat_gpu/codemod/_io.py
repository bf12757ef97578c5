"""Reading a source file as Python does and writing it back without ever losing it.

A file is read as bytes: its declared encoding (BOM, PEP 263 cookie, else UTF-8) and its line
endings are noted so that the new text goes back in the same form, and only the lines that
changed differ.  A write goes to a temporary file in the same folder, flushed to disk, which
then atomically replaces the original with the original's mode (and owner, where allowed):
whatever fails, the original is either untouched or entirely replaced, never cut short.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import re
import stat
import tempfile
import tokenize
from dataclasses import dataclass

__all__ = [
    "MAX_BYTES",
    "Skip",
    "Source",
    "has_bare_cr",
    "read_source",
    "split_lines",
    "write_source",
]

MAX_BYTES = 5 * 1024 * 1024
_WRITABLE = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
_LONE_LF = re.compile(r"(?<!\r)\n")
_LINE = re.compile(r"[^\n]*\n|[^\n]+\Z")
_BARE_CR = re.compile(r"\r(?!\n)")


def split_lines(text: str) -> list[str]:
    """``text``'s lines, each with its ending, split at ``\n`` only (not at form feeds or
    other characters ``str.splitlines`` splits at); a last line without ending is kept."""
    return _LINE.findall(text)


def has_bare_cr(text: str) -> bool:
    """Whether a CR not followed by LF ends a line: Python and LibCST count it as a line end,
    :func:`split_lines` does not, so line numbers would not match."""
    return _BARE_CR.search(text) is not None


class Skip(Exception):
    """The file is left as it is; the message says why (``path: skipped: MESSAGE``)."""


@dataclass(frozen=True)
class Source:
    """A file's text and what is needed to write a new text back in the same form."""

    path: str
    """Where the bytes live (a symbolic link's target, resolved)."""
    text: str
    """Decoded, BOM removed, line endings as in the file."""
    encoding: str
    bom: bool
    crlf: bool
    """Every line ends with CRLF: new lines get CRLF too."""
    stat: os.stat_result

    def encode(self, text: str) -> bytes:
        if self.crlf:
            text = _LONE_LF.sub("\r\n", text)
        try:
            data = text.encode(self.encoding)
        except UnicodeEncodeError as error:
            raise Skip(f"the new code cannot be written in the file's encoding ({error})") from None
        return codecs.BOM_UTF8 + data if self.bom else data

    def full_text(self, text: str) -> str:
        """``text`` as the file holds it: BOM included, line endings converted."""
        if self.crlf:
            text = _LONE_LF.sub("\r\n", text)
        return ("\ufeff" if self.bom else "") + text


def _decode(data: bytes) -> tuple[str, str, bool]:
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        raise Skip(f"cannot read it ({error})") from None
    bom = encoding == "utf-8-sig"
    if bom:
        data = data[len(codecs.BOM_UTF8) :]
        encoding = "utf-8"
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as error:
        raise Skip(f"cannot read it as {encoding} ({error})") from None
    return text, encoding, bom


def read_source(path: str) -> Source:
    """Read a regular file; :class:`Skip` for anything else (a FIFO is never opened)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise Skip("dangling symbolic link" if os.path.islink(path) else "no such file") from None
    except OSError as error:
        raise Skip(f"cannot read it ({error.strerror or error})") from None
    if not stat.S_ISREG(info.st_mode):
        raise Skip("not a regular file")
    if info.st_size > MAX_BYTES:
        raise Skip(f"larger than {MAX_BYTES // (1024 * 1024)} MB")
    real = os.path.realpath(path)
    try:
        # O_NONBLOCK: a file swapped for a FIFO since the stat must not block the run
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise Skip("not a regular file")
            data = handle.read(MAX_BYTES + 1)
    except OSError as error:
        raise Skip(f"cannot read it ({error.strerror or error})") from None
    if len(data) > MAX_BYTES:
        raise Skip(f"larger than {MAX_BYTES // (1024 * 1024)} MB")
    if b"\x00" in data:
        raise Skip("it contains a NUL byte")
    text, encoding, bom = _decode(data)
    crlf = "\r\n" in text and _LONE_LF.search(text) is None
    return Source(real, text, encoding, bom, crlf, info)


def _read_only(path: str, info: os.stat_result) -> bool:
    # Permission bits are checked by hand: root passes os.access() and every write, but a
    # read-only file or folder says its owner does not want it changed.
    return not info.st_mode & _WRITABLE or not os.access(path, os.W_OK)


def write_source(source: Source, data: bytes) -> None:
    """Replace the file with ``data`` atomically; :class:`Skip` (file untouched) on failure."""
    folder = os.path.dirname(source.path) or "."
    try:
        now = os.stat(source.path)
        folder_info = os.stat(folder)
    except OSError as error:
        raise Skip(f"cannot write it ({error.strerror or error})") from None
    if _read_only(source.path, now):
        raise Skip("the file is read-only")
    if _read_only(folder, folder_info):
        raise Skip("its folder is read-only")
    if now.st_nlink > 1:
        # the new file replaces this name only: the other names would keep the old text
        raise Skip(
            f"it has {now.st_nlink} hard links, which replacing it would split into two "
            "files; migrate a copy (or run without --write and apply the diff)"
        )
    if (now.st_mtime_ns, now.st_size, now.st_ino) != (
        source.stat.st_mtime_ns,
        source.stat.st_size,
        source.stat.st_ino,
    ):
        raise Skip("it changed while it was being migrated")
    temp: str | None = None
    try:
        fd, temp = tempfile.mkstemp(dir=folder, prefix=_temp_prefix(source.path), suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, stat.S_IMODE(now.st_mode))
        if hasattr(os, "chown") and (now.st_uid, now.st_gid) != _owner(temp):
            # only root may give a file away; otherwise it now belongs to the user
            with contextlib.suppress(OSError):
                os.chown(temp, now.st_uid, now.st_gid)
        os.replace(temp, source.path)
        temp = None
    except OSError as error:
        raise Skip(f"cannot write it ({error.strerror or error}); the file is unchanged") from None
    finally:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)
    _sync_folder(folder)


def _temp_prefix(path: str) -> str:
    """``.NAME.`` for the temporary file, ``NAME`` cut so that the whole name (with mkstemp's
    8 random characters and ``.tmp``) fits in the folder's longest name, counted in bytes."""
    name = os.path.basename(path)
    try:
        longest = os.pathconf(os.path.dirname(path) or ".", "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        longest = 255
    room = max(longest, 32) - len(".") - len(".") - 8 - len(".tmp")
    while len(os.fsencode(name)) > room:
        name = name[:-1]
    return f".{name}."


def _owner(path: str) -> tuple[int, int]:
    info = os.stat(path)
    return info.st_uid, info.st_gid


def _sync_folder(folder: str) -> None:
    # the rename itself reaches the disk only when the folder is flushed (POSIX only)
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
