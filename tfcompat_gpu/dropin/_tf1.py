"""``tfcompat-gpu run --tf1``: the script's ``import tensorflow`` gets ``tensorflow.compat.v1``.

Only modules whose file lives in the script's directory see the v1 API; libraries (Keras among
them) import the real module.  An import hook cannot tell who imports, but ``__import__`` gets
the importer's globals.  A wrapper around ``builtins.__import__`` for the whole process would run
on each of the thousands of imports TensorFlow itself makes (about a tenth of a second of
start-up), so the wrapper is given to the script's own modules only: their globals get a
``__builtins__`` of their own whose ``__import__`` is the wrapper (CPython looks ``__import__``
up in the importing frame's builtins: ``Python/ceval.c``, ``import_name``).  The script gets it
from the runner; the modules beside it from a path-entry finder for its folders
(:meth:`V1Import.start_local`), and the modules of the packages in those folders from the same
finder for each package's folder (``model/ner_model.py`` of a script that imports
``from model.ner_model import NERModel``).  Children that ``multiprocessing`` spawns import the script
through ``runpy``, out of reach of both, and get the process-wide wrapper (:meth:`V1Import.start`).
"""

from __future__ import annotations

import builtins
import importlib.machinery
import os
import sys
import types
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
        self._folders = list(dict.fromkeys(os.path.abspath(d) for d in directories))
        self._original: Callable[..., Any] | None = None
        self._cached: dict[str, Any] = {}
        self._builtins: types.ModuleType | None = None
        self._packages: dict[str, bool] = {}  # folder -> a package of the script's folders
        self._details: list[tuple[Any, list[str]]] = []

    def _ours(self, importer: Mapping[str, Any] | None) -> bool:
        if not importer:
            return False
        filename = importer.get("__file__")
        if not isinstance(filename, str):
            return False
        folder = os.path.dirname(os.path.normcase(os.path.abspath(filename)))
        return folder in self.directories or self._in_package(folder)

    def _in_package(self, folder: str) -> bool:
        """Whether ``folder`` is a package (an ``__init__.py`` in it and in each folder above it)
        inside one of the script's folders: the project's own modules, as a spawned child
        imports them."""
        known = self._packages.get(folder)
        if known is None:
            known = False
            inner = folder
            while os.path.isfile(os.path.join(inner, "__init__.py")):
                parent = os.path.dirname(inner)
                if parent in self.directories:
                    known = True
                    break
                if parent == inner:
                    break
                inner = parent
            self._packages[folder] = known
        return known

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

    def builtins_for_script(self) -> types.ModuleType:
        """A ``__builtins__`` for the script's globals: the real ones, ``__import__`` ours.

        A module, as ``__main__`` has (``__builtins__.open`` keeps working); one per run.
        """
        if self._builtins is None:
            if self._original is None:
                self._original = builtins.__import__
            own = types.ModuleType("builtins", builtins.__doc__)
            own.__dict__.update(vars(builtins))
            own.__dict__["__import__"] = self
            self._builtins = own
        return self._builtins

    def start_local(self) -> None:
        """The modules beside the script, and those of the packages beside it, get
        :meth:`builtins_for_script` when imported."""
        own = self.builtins_for_script()
        outer = self

        class Loader(importlib.machinery.SourceFileLoader):
            def exec_module(self, module: Any) -> None:
                module.__dict__["__builtins__"] = own
                spec = getattr(module, "__spec__", None)
                locations = getattr(spec, "submodule_search_locations", None)
                if locations:  # a package: its modules are found by the same finder
                    outer._find_in(list(locations))
                super().exec_module(module)

        details: list[tuple[Any, list[str]]] = [
            (importlib.machinery.ExtensionFileLoader, importlib.machinery.EXTENSION_SUFFIXES),
            (Loader, importlib.machinery.SOURCE_SUFFIXES),
            (importlib.machinery.SourcelessFileLoader, importlib.machinery.BYTECODE_SUFFIXES),
        ]
        self._details = details
        self._find_in(self._folders)

    def _find_in(self, folders: list[str]) -> None:
        for folder in folders:
            if folder in self._cached or not isinstance(folder, str):
                continue
            self._cached[folder] = sys.path_importer_cache.get(folder)
            sys.path_importer_cache[folder] = importlib.machinery.FileFinder(folder, *self._details)
            self._packages[os.path.normcase(os.path.abspath(folder))] = True

    def stop_local(self) -> None:
        for folder, previous in self._cached.items():
            if previous is None:
                sys.path_importer_cache.pop(folder, None)
            else:
                sys.path_importer_cache[folder] = previous
        self._cached.clear()

    def start(self) -> None:
        if self._original is None:
            self._original = builtins.__import__
            builtins.__import__ = self

    def stop(self) -> None:
        if self._original is not None and builtins.__import__ is self:
            builtins.__import__ = self._original
