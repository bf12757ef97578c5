"""The findings of files already checked, kept between runs of ``check`` (and ``migrate``).

An entry maps a file's content (a BLAKE2 hash of its bytes) to its findings, in a JSON file per
project and settings (the tool's version and code, the target TensorFlow): a file that has not
changed since the last run is neither parsed nor walked again, as ruff does with its own cache.

A cache is a file someone else may have written (a copy committed to a repository, another
version of the tool, a run killed half-way), so it is only ever data: plain JSON read with
``json.loads``, never pickle, and checked field by field; anything that does not look exactly
as this version writes it is ignored as a whole (the run checks every file and writes a fresh
cache).  Runs at once never see a half-written file: each writes a temporary file beside the
cache and renames it over the old one, which POSIX and Windows make atomic; the last run to
finish wins, and the entries it drops are only checked again next time.

The cache lives under the user's cache folder by default (``~/.cache/tfcompat-gpu`` on Linux),
outside every repository, so a cache that came with a repository is never read unless asked
for (``--cache-dir``); any folder the cache creates carries its own ``.gitignore``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from tfcompat_gpu.lint.registry import RULES_BY_CODE
from tfcompat_gpu.lint.report import Finding
from tfcompat_gpu.utils.files import read_bytes

__all__ = ["CACHE_DIR_ENV", "FileCache", "content_key", "default_cache_dir", "fingerprint"]

CACHE_DIR_ENV = "TFCOMPAT_GPU_CACHE_DIR"
_FORMAT = 1
_MAX_BYTES = 64 * 1024 * 1024
"""A cache larger than this is not read (and is replaced): it cannot be one of ours."""
_KEEP = 20_000
"""Entries kept from earlier runs beyond those this run used."""


def default_cache_dir() -> str:
    """``$TFCOMPAT_GPU_CACHE_DIR``, else the platform's per-user cache folder."""
    configured = os.environ.get(CACHE_DIR_ENV)
    if configured:
        return configured
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~\\AppData\\Local")
    elif sys.platform == "darwin":
        base = os.path.expanduser("~/Library/Caches")
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, "tfcompat-gpu")


def _code_stamp() -> str:
    # A changed rule must not be answered from a cache filled by the code before it, even when
    # the version number did not move (a development checkout): the size and time of every
    # module that decides findings go into the key.
    from tfcompat_gpu import __version__

    package = Path(__file__).resolve().parents[1]
    parts = [__version__]
    modules = [*package.joinpath("lint").rglob("*.py"), *package.joinpath("codemod").rglob("*.py")]
    for path in sorted([*modules, *package.glob("_*.py")]):
        with contextlib.suppress(OSError):
            info = path.stat()
            parts.append(f"{path.relative_to(package)}:{info.st_size}:{info.st_mtime_ns}")
    return "\n".join(parts)


def fingerprint(*settings: object) -> str:
    """What findings depend on besides a file's bytes: the tool and ``settings``."""
    text = _code_stamp() + "\n" + repr(settings)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def content_key(data: bytes, notebook: bool) -> str:
    digest = hashlib.blake2b(data, digest_size=20)
    if notebook:  # the same bytes read as a notebook and as Python differ
        digest.update(b"\0ipynb")
    return digest.hexdigest()


Entry = list[list[object]]


def _valid_entry(value: object) -> bool:
    if not isinstance(value, list):
        return False
    for item in value:
        if not (isinstance(item, list) and len(item) == 7):
            return False
        code, line, col, message, fix, severity, cell = item
        if (
            not isinstance(code, str)
            or code not in RULES_BY_CODE
            or type(line) is not int
            or type(col) is not int
            or line < 1
            or col < 1
            or not isinstance(message, str)
            or not isinstance(fix, str)
            or severity not in ("error", "warning")
            or not (cell is None or (type(cell) is int and cell >= 1))
        ):
            return False
    return True


def _load(path: str, stamp: str, valid: Callable[[object], bool]) -> dict[str, Any]:
    """The entries of a cache file; empty when it is missing, foreign, or damaged in any way."""
    try:
        loaded = json.loads(read_bytes(path, _MAX_BYTES))  # never blocks on a FIFO
    except (OSError, ValueError, RecursionError):
        return {}
    if not (
        isinstance(loaded, dict)
        and loaded.get("format") == _FORMAT
        and loaded.get("settings") == stamp
        and isinstance(loaded.get("entries"), dict)
    ):
        return {}
    entries: dict[str, Any] = loaded["entries"]
    for key, value in entries.items():
        if len(key) != 40 or not valid(value):
            return {}
    return entries


def _ensure_folder(folder: str) -> None:
    if os.path.isdir(folder):
        return
    os.makedirs(folder, exist_ok=True)
    # Never committed by accident (git), nor backed up (CACHEDIR.TAG, bford.net/cachedir).
    for name, text in (
        (".gitignore", "# Created by tfcompat-gpu: this folder is a cache.\n*\n"),
        ("CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n"),
    ):
        with contextlib.suppress(OSError), open(os.path.join(folder, name), "x") as handle:
            handle.write(text)


class FileCache:
    """Findings by file content for one project and one set of settings.

    >>> cache = FileCache("/tmp/cache", "/src/project", fingerprint((2, 16)))  # doctest: +SKIP
    >>> cache.get(key, "train.py") or cache.put(key, check(...))  # doctest: +SKIP
    >>> cache.save()  # doctest: +SKIP
    """

    def __init__(
        self,
        folder: str,
        project: str,
        stamp: str,
        kind: str = "lint",
        valid: Callable[[object], bool] = _valid_entry,
    ) -> None:
        self.folder = folder
        name = hashlib.blake2b(os.path.abspath(project).encode("utf-8"), digest_size=8)
        self.path = os.path.join(folder, f"{kind}-{name.hexdigest()}-{stamp[:16]}.json")
        self._stamp = stamp
        self._entries = _load(self.path, stamp, valid)
        self._used: dict[str, Any] = {}
        self._dirty = False

    def get(self, key: str, path: str) -> list[Finding] | None:
        """The findings cached for content ``key``, shown at ``path``; None when unknown."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        self._used[key] = entry
        return [
            Finding(
                code,
                RULES_BY_CODE[code].name,
                message,
                path,
                line,
                col,
                severity,
                fix,
                cell,
            )
            for code, line, col, message, fix, severity, cell in entry
        ]

    def put(self, key: str, findings: Iterable[Finding]) -> None:
        self.put_data(
            key, [[f.code, f.line, f.col, f.message, f.fix, f.severity, f.cell] for f in findings]
        )

    def get_data(self, key: str) -> Any:
        """The plain entry of ``key`` (checked by ``valid`` when loaded); None when unknown."""
        entry = self._entries.get(key)
        if entry is not None:
            self._used[key] = entry
        return entry

    def put_data(self, key: str, entry: Any) -> None:
        self._used[key] = entry
        if self._entries.get(key) != entry:
            self._entries[key] = entry
            self._dirty = True

    def save(self) -> None:
        """Write the cache atomically; a cache that cannot be written is only a slower run."""
        if not self._dirty:
            return
        entries = self._entries
        if len(entries) > len(self._used) + _KEEP:
            entries = self._used
        # One string written at once: json.dump into a file encodes in pure Python, chunk by
        # chunk, several times slower than json.dumps with its C encoder.
        text = json.dumps(
            {"format": _FORMAT, "settings": self._stamp, "entries": entries},
            separators=(",", ":"),
        )
        try:
            _ensure_folder(self.folder)
            fd, temp = tempfile.mkstemp(dir=self.folder, prefix=".lint-", suffix=".tmp")
        except OSError:
            return
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(temp, self.path)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(temp)
        self._dirty = False
