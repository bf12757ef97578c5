"""The modules beside a file: the Keras names a star import of one binds, and those that
import the file and use Keras.

Keras 2 projects split a script in two: ``model.py`` imports what it needs
(``from keras.callbacks import ModelCheckpoint``, ``from keras.layers import *``) and defines
the network, and ``main.py`` takes all of it with ``from model import *`` and calls
``ModelCheckpoint('unet.hdf5')``.  Python binds every public name of ``model`` there, the ones
it imported included, so ``ModelCheckpoint`` in ``main.py`` is Keras' own.  Here the helper is
the file ``model.py`` (or the package ``model/__init__.py``) in the folder of the file
migrated; its module-level imports of Keras names, and the star imports of Keras modules and of
its own helpers beside it, are read with ``ast`` (its ``__all__`` respected), and each name it
so binds is given its Keras qualified name.  A helper that cannot be read or parsed binds
nothing.

The other way round, ``keras_importers()`` names the modules of the folder that import the file
(``from STN import transformer`` in a ``Model.py`` beside ``STN.py``) and use Keras: the TF1
code of such a file runs inside Keras layers, which ``tf1_compat`` must not put in graph mode.
"""

from __future__ import annotations

import ast
import os
import re

from tfcompat_gpu.tfapi.keras_star_names import KERAS_STAR_EXPORTS
from tfcompat_gpu.utils.files import read_bytes

__all__ = ["helper_star_names", "keras_importers", "read_neighbours"]

_MAX_BYTES = 2 * 1024 * 1024
_DEPTH = 3
# (path, size, mtime) -> what the file binds: a migration run reads each helper once
_READ: dict[tuple[str, int, int], dict[str, str]] = {}
_MAX_FILES = 500
# files whose migration looked at the files beside them (absolute paths): their result may change
# when only a neighbour does, so ``migrate``'s cache must not remember them
_LOOKED: set[str] = set()
_KERAS_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(?:tensorflow[ \t]*\.[ \t]*)?keras\b|import[ \t]+(?:tensorflow\.)?keras\b"
    r"|from[ \t]+tensorflow[ \t]+import[ \t]+(?:\(?[ \t]*)?keras\b)",
    re.M,
)


def _is_keras(module: str) -> bool:
    return module == "keras" or module.startswith(("keras.", "tensorflow.keras"))


def _helper_path(folder: str, module: str) -> str | None:
    if not module or not all(part.isidentifier() for part in module.split(".")):
        return None
    base = os.path.join(folder, *module.split("."))
    for path in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(path):
            return path
    return None


def helper_star_names(filename: str | None, module: str, depth: int = 0) -> dict[str, str]:
    """The names ``from <module> import *`` binds in ``filename`` that are Keras names, with
    their qualified names (``{"ModelCheckpoint": "keras.callbacks.ModelCheckpoint"}``); empty
    where ``module`` is no helper file beside ``filename``."""
    if filename:
        _LOOKED.add(os.path.abspath(filename))
    if not filename or depth >= _DEPTH:
        return {}
    folder = os.path.dirname(os.path.abspath(filename))
    path = _helper_path(folder, module)
    if path is None or os.path.abspath(path) == os.path.abspath(filename):
        return {}
    try:
        status = os.stat(path)
    except OSError:
        return {}
    key = (path, status.st_size, status.st_mtime_ns)
    if key not in _READ:
        _READ[key] = _bound(path, depth)
    return _READ[key]


def _bound(path: str, depth: int) -> dict[str, str]:
    try:
        tree = ast.parse(read_bytes(path, _MAX_BYTES), path)
    except (OSError, SyntaxError, ValueError):
        return {}
    found: dict[str, str] = {}
    public: set[str] | None = None
    for statement in tree.body:
        if isinstance(statement, ast.ImportFrom) and statement.module:
            module = statement.module
            if statement.level:
                continue
            for alias in statement.names:
                if alias.name == "*":
                    if module in KERAS_STAR_EXPORTS:
                        found.update({n: f"{module}.{n}" for n in KERAS_STAR_EXPORTS[module]})
                    elif not _is_keras(module):
                        found.update(helper_star_names(path, module, depth + 1))
                elif _is_keras(module):
                    found[alias.asname or alias.name] = f"{module}.{alias.name}"
                else:
                    found.pop(alias.asname or alias.name, None)
        elif isinstance(statement, ast.Import):
            for alias in statement.names:
                bound = alias.asname or alias.name.partition(".")[0]
                if _is_keras(alias.name):
                    found[bound] = alias.name if alias.asname else bound
                else:
                    found.pop(bound, None)
        elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.pop(statement.name, None)
        elif isinstance(statement, ast.Assign):
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    if target.id == "__all__" and isinstance(
                        statement.value, (ast.List, ast.Tuple)
                    ):
                        public = {
                            item.value
                            for item in statement.value.elts
                            if isinstance(item, ast.Constant) and isinstance(item.value, str)
                        }
                    found.pop(target.id, None)
    return {
        name: qualified
        for name, qualified in found.items()
        if not name.startswith("_") and (public is None or name in public)
    }


def keras_importers(filename: str | None) -> list[str]:
    """The ``.py`` files beside ``filename`` that import its module and use Keras, by name."""
    if not filename or not filename.endswith(".py"):
        return []
    path = os.path.abspath(filename)
    _LOOKED.add(path)
    folder, name = os.path.split(path)
    stem = name[: -len(".py")]
    if stem == "__init__" or not stem.isidentifier():
        return []
    imports = re.compile(
        rf"^[ \t]*(?:from[ \t]+\.?{stem}[ \t]+import\b|import[ \t]+(?:[\w.]+[ \t]*,[ \t]*)*"
        rf"{stem}\b(?![ \t]*\.))",
        re.M,
    )
    found: list[str] = []
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)[:_MAX_FILES]
    except OSError:
        return []
    for entry in entries:
        if not entry.name.endswith(".py") or entry.path == path:
            continue
        try:
            if not entry.is_file():
                continue
            text = read_bytes(entry.path, _MAX_BYTES).decode("utf-8", "replace")
        except OSError:
            continue
        if imports.search(text) and _KERAS_IMPORT.search(text):
            found.append(entry.name)
    return found


def read_neighbours(filename: str) -> bool:
    """Whether migrating ``filename`` looked at the files beside it (a star-imported helper, the
    modules importing it), since the last time this was asked of it."""
    path = os.path.abspath(filename)
    looked = path in _LOOKED
    _LOOKED.discard(path)
    return looked
