"""Post-import hooks: call a function with a module once it is imported, importing nothing.

The same contract as ``wrapt.register_post_import_hook`` (``wrapt/importer.py``): a hook for a
module already imported runs at once; otherwise a finder at the front of ``sys.meta_path``
finds the module's real spec through the rest of the import system, and its loader runs the
hooks right after the module's code.  Ours because ``import wrapt`` (2.x) imports ``asyncio``
and ``importlib.metadata``, some 100 ms of CPU that ``tfcompat-gpu run`` would add to every
script, including those that never import TensorFlow.
"""

from __future__ import annotations

import _thread  # threading's own locks, without importing threading (some ms at every start)
import sys

# (No ``typing``, ``contextlib`` or ``importlib.util`` at import time: every ``tfcompat-gpu run``
# registers hooks at start, and most scripts never import a hooked module.)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from importlib.abc import Loader as _LoaderBase
    from types import ModuleType
    from typing import Any

    Hook = Callable[[ModuleType], None]
else:
    # Not importlib.abc at run time: it imports importlib.resources, some ms at every start.
    _LoaderBase = object

__all__ = ["register"]

_lock = _thread.RLock()
_hooks: dict[str, list[Hook]] = {}
_finder: _Finder | None = None


def register(hook: Hook, name: str) -> None:
    """Call ``hook(module)`` when module ``name`` is imported, or now if it is already."""
    global _finder
    with _lock:
        if _finder is None:
            _finder = _Finder()
            sys.meta_path.insert(0, _finder)
        module = sys.modules.get(name)
        if module is None:
            _hooks.setdefault(name, []).append(hook)
    # Outside the lock, as wrapt does: a hook may import, or start threads that register.
    if module is not None:
        hook(module)


def _loaded(module: ModuleType) -> None:
    with _lock:
        hooks = _hooks.pop(getattr(module, "__name__", ""), [])
    for hook in hooks:
        hook(module)


class _Loader(_LoaderBase):
    """The real loader, and the hooks after its ``exec_module``."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def __getattr__(self, name: str) -> Any:  # get_source, get_filename, is_package...
        return getattr(self._loader, name)

    def create_module(self, spec: Any) -> ModuleType | None:
        create = getattr(self._loader, "create_module", None)
        return create(spec) if create is not None else None

    def exec_module(self, module: ModuleType) -> None:
        # Whoever looks at the module sees its real loader, as if we had never been there.
        if getattr(module, "__loader__", None) in (None, self):
            import contextlib

            with contextlib.suppress(AttributeError):  # a module that takes no attributes
                module.__loader__ = self._loader
        spec = getattr(module, "__spec__", None)
        if spec is not None and getattr(spec, "loader", None) is self:
            spec.loader = self._loader
        self._loader.exec_module(module)
        _loaded(module)


class _Finder:
    """Takes part only in the imports of modules with hooks, and only to wrap their loader."""

    def __init__(self) -> None:
        self._busy: set[str] = set()

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname not in _hooks:  # nearly every import (thousands under TensorFlow): no lock
            return None
        with _lock:
            if fullname not in _hooks or fullname in self._busy:
                return None
            self._busy.add(fullname)
        try:
            # Back into the import system, which skips us this time (``_busy``).
            import importlib.util

            spec = importlib.util.find_spec(fullname)
        finally:
            with _lock:
                self._busy.discard(fullname)
        loader = getattr(spec, "loader", None)
        if spec is None or loader is None or not hasattr(loader, "exec_module"):
            return spec
        if not isinstance(loader, _Loader):
            spec.loader = _Loader(loader)
        return spec

    def invalidate_caches(self) -> None:
        pass
