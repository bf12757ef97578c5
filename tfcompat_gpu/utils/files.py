"""Finding the Python files under the paths a user names (shared by ``check`` and ``migrate``).

Directories are searched for ``*.py`` in a stable order, without following symbolic links to
directories, skipping version-control, cache, build and virtual-environment folders (any folder
holding a ``pyvenv.cfg``).  What the search finds but cannot use (a directory it cannot list, a
FIFO or socket named ``*.py``, which would block a reader) is handed to ``on_error`` instead of
being yielded, so every caller reports it the same way and none of them hangs or skips silently.

:func:`read_bytes` reads a settings file the user names (``--config``, a ``pyproject.toml``):
a directory, a file over the size limit or a FIFO no program writes to is an ``OSError`` saying
so, where a plain ``open()`` would return a directory's error only on reading or block forever;
a pipe with a writer (``--config <(...)``) is still read.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import stat
from collections.abc import Callable, Iterable, Iterator

__all__ = ["SKIP_DIRS", "excluded", "iter_python_files", "read_bytes"]

SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".tox",
        ".nox",
        ".venv",
        "venv",
        ".eggs",
        "__pycache__",
        "build",
        "dist",
        "node_modules",
        "site-packages",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        "__pypackages__",
        ".ipynb_checkpoints",
    }
)

OnError = Callable[[str, str], None]
"""Called with (path, reason) for what the search found but cannot use."""


def excluded(rel: str, name: str, patterns: Iterable[str]) -> bool:
    """Whether a glob in ``patterns`` matches the path ``rel`` (``/``-separated) or ``name``."""
    for pattern in patterns:
        pattern = pattern.rstrip("/")
        if fnmatch.fnmatchcase(name, pattern) or fnmatch.fnmatchcase(rel, pattern):
            return True
        if fnmatch.fnmatchcase(rel, pattern + "/*"):
            return True
    return False


def _skipped_dir(full: str, name: str) -> bool:
    return (
        name in SKIP_DIRS
        or name.endswith(".egg-info")
        or os.path.exists(os.path.join(full, "pyvenv.cfg"))
    )


def _reason(exc: OSError) -> str:
    return f"cannot read directory: {exc.strerror or exc}"


def _report_to(on_error: OnError | None, top: str) -> Callable[[OSError], None]:
    def report(exc: OSError) -> None:
        if on_error is not None:
            on_error(exc.filename or top, _reason(exc))

    return report


def iter_python_files(
    paths: Iterable[str],
    exclude: Iterable[str] = (),
    on_error: OnError | None = None,
    suffixes: tuple[str, ...] = (".py",),
) -> Iterator[str]:
    """Files to process, in a stable order.

    A file given explicitly is yielded unless an exclude pattern matches it (pre-commit passes
    every file); checking that it exists and is readable is the caller's job.  Under a
    directory, only regular files (or links to them) named ``*.py`` (or another of
    ``suffixes``, such as ``.ipynb``) are yielded.

    Example::

        for path in iter_python_files(["src/"], exclude=["legacy/*"]):
            ...
    """
    patterns = tuple(exclude)
    for top in paths:
        if not os.path.isdir(top):
            shown = os.path.normpath(top).replace(os.sep, "/")
            if not excluded(shown, os.path.basename(top), patterns):
                yield top
            continue
        for root, dirs, files in os.walk(top, onerror=_report_to(on_error, top)):
            rel_root = os.path.relpath(root, top)
            kept = []
            for name in sorted(dirs):
                rel = os.path.normpath(os.path.join(rel_root, name)).replace(os.sep, "/")
                if _skipped_dir(os.path.join(root, name), name) or excluded(rel, name, patterns):
                    continue
                kept.append(name)
            dirs[:] = kept
            for name in sorted(files):
                if not name.endswith(suffixes):
                    continue
                rel = os.path.normpath(os.path.join(rel_root, name)).replace(os.sep, "/")
                if excluded(rel, name, patterns):
                    continue
                full = os.path.join(root, name)
                try:
                    mode = os.stat(full).st_mode
                except OSError:
                    # A dangling link or a file removed meanwhile: the caller reports it.
                    yield full
                    continue
                if stat.S_ISREG(mode):
                    yield full
                elif on_error is not None:
                    on_error(full, "not a regular file")


def read_bytes(path: str | os.PathLike[str], max_bytes: int = 16 * 1024 * 1024) -> bytes:
    """The content of the file at ``path``; ``OSError`` (its ``strerror`` says why) otherwise.

    The file is opened without blocking (opening a FIFO for reading waits for a writer), then
    read normally: a pipe with a writer gives what it writes, one without gives nothing, which
    is an error rather than an empty file.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "it is a directory, not a file", os.fspath(path))
        regular = stat.S_ISREG(mode)
        if not regular:
            os.set_blocking(fd, True)
        chunks = []
        size = 0
        while size <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > max_bytes:
        raise OSError(
            errno.EFBIG, f"it is larger than {max_bytes // (1024 * 1024)} MB", os.fspath(path)
        )
    if not regular and not size:
        raise OSError(
            errno.ENODATA,
            "it is not a regular file and nothing was written to it (a FIFO no program writes to?)",
            os.fspath(path),
        )
    return b"".join(chunks)
