"""SciPy module paths that SciPy removed, served again under ``run``.

``from scipy.sparse.linalg.eigen.arpack import eigsh`` fails on current SciPy ("'scipy.sparse.
linalg.eigen' is not a package"), while ``scipy.sparse.linalg`` exports the same functions
(:data:`~tfcompat_gpu.tfapi.scipy_names.SCIPY_MOVED_MODULES`).  When ``scipy.sparse.linalg`` is
imported, each old path that does not import is entered in ``sys.modules`` as that module:
the import system looks there again once the parents are imported (``importlib._bootstrap.
_find_and_load_unlocked``), before it asks whether the parent is a package, and ``import ... as``
falls back to ``sys.modules`` too.  Nothing is imported until the script imports SciPy.
"""

from __future__ import annotations

import sys
from types import ModuleType

from tfcompat_gpu.tfapi.scipy_names import SCIPY_MOVED_MODULES
from tfcompat_gpu.utils import postimport

__all__ = ["install", "uninstall"]

_PUBLIC = frozenset(public for public, _ in SCIPY_MOVED_MODULES.values())
_entered: dict[str, ModuleType] = {}  # old path -> the module entered for it
_active = False
_registered: set[str] = set()


def _on_import(module: ModuleType) -> None:
    if not _active:
        return
    name = module.__name__
    for old, (public, _) in SCIPY_MOVED_MODULES.items():
        if public == name and old not in sys.modules and not _importable(old):
            sys.modules[old] = module
            _entered[old] = module


def _importable(name: str) -> bool:
    """Whether SciPy itself still has ``name`` (an older SciPy keeps its deprecated shims)."""
    import importlib.util

    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a parent that is not a package
        return False


def install() -> None:
    global _active
    _active = True
    for public in sorted(_PUBLIC):
        if public not in _registered:
            _registered.add(public)
            postimport.register(_on_import, public)
        elif public in sys.modules:
            _on_import(sys.modules[public])


def uninstall() -> None:
    global _active
    _active = False
    for old, module in list(_entered.items()):
        if sys.modules.get(old) is module:
            del sys.modules[old]
        del _entered[old]
