"""Files ``migrate`` found nothing to change in, remembered by content between runs.

The second run of ``migrate --check`` in CI or pre-commit over an unchanged tree reads each
file and hashes it, and migrates only what changed since the run that found it clean.  The
cache is :class:`tfcompat_gpu.lint.cache.FileCache` (plain JSON, checked when read, replaced
atomically), in its own file: an entry holds the warnings of a file left as it is.  A file that
was changed, skipped or not parsed is never remembered, so an error is reported on every run;
nor is one whose migration read the files beside it (a helper module it star-imports, the
modules importing it: ``codemod/_siblings.py``), whose result can change with them alone.
"""

from __future__ import annotations

import os
import stat

from tfcompat_gpu.lint.cache import FileCache, content_key, fingerprint
from tfcompat_gpu.utils.notebooks import is_notebook

__all__ = ["UnchangedFiles"]


def _valid(entry: object) -> bool:
    return isinstance(entry, list) and all(isinstance(item, str) for item in entry)


class UnchangedFiles:
    """``needed(path)`` before migrating a file; ``done(path, ...)`` after."""

    def __init__(self, folder: str, project: str, target: str) -> None:
        self._cache = FileCache(folder, project, fingerprint("migrate", target), "migrate", _valid)
        self._keys: dict[str, str] = {}

    def cached_warnings(self, path: str) -> list[str] | None:
        """The warnings of ``path`` when its content is known to need no change, else None."""
        try:
            if not stat.S_ISREG(os.stat(path).st_mode):
                return None  # never opened here (a FIFO would block); the migration says why
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError:
            return None  # the migration reports why
        key = content_key(data, is_notebook(path))
        self._keys[path] = key
        found: list[str] | None = self._cache.get_data(key)
        return found

    def done(self, path: str, changed: bool, failed: bool, messages: list[str]) -> None:
        key = self._keys.get(path)
        if key is None or changed or failed:
            return
        self._cache.put_data(key, [line[len(path) :] for line in messages])

    def save(self) -> None:
        self._cache.save()
