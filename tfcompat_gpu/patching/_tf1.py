"""``tfcompat-gpu run --tf1``: the script's ``import tensorflow`` gets ``tensorflow.compat.v1``.

Only modules whose file lives in the script's directory see the v1 API; libraries (Keras among
them) import the real module.  An import hook cannot tell who imports, but ``__import__`` gets
the importer's globals, so the switch is a wrapper around ``builtins.__import__`` that lasts
as long as the run.
"""

from __future__ import annotations

import builtins
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["V1Import"]


class V1Import:
    """Hands ``tensorflow.compat.v1`` to ``import tensorflow`` in files under ``directories``.

    A symlinked script lives in two folders: the link's (its ``__file__``) and the target's
    (where Python finds its sibling modules); both are given.
    """

    def __init__(self, *directories: str) -> None:
        self.directories = {os.path.normcase(os.path.abspath(d)) for d in directories}
        self._original: Callable[..., Any] | None = None

    def _ours(self, importer: Mapping[str, Any] | None) -> bool:
        if not importer:
            return False
        filename = importer.get("__file__")
        if not isinstance(filename, str):
            return False
        folder = os.path.dirname(os.path.normcase(os.path.abspath(filename)))
        return folder in self.directories

    def __call__(
        self,
        name: str,
        globals: Mapping[str, Any] | None = None,
        locals: Mapping[str, Any] | None = None,
        fromlist: Sequence[str] | None = (),
        level: int = 0,
    ) -> Any:
        assert self._original is not None
        module = self._original(name, globals, locals, fromlist, level)
        if level == 0 and name == "tensorflow" and self._ours(globals):
            return module.compat.v1
        return module

    def start(self) -> None:
        if self._original is None:
            self._original = builtins.__import__
            builtins.__import__ = self

    def stop(self) -> None:
        if self._original is not None and builtins.__import__ is self:
            builtins.__import__ = self._original
        self._original = None
