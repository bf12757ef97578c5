"""Names bound by a star import of a Keras module (``from keras.models import *``).

LibCST's scope analysis cannot tell what ``from m import *`` binds, so ``Model`` after
``from keras.models import *`` has no qualified name and no rewrite would see a Keras call in
``Model(input=x, output=y)``.  Such a name read in the file, bound nowhere in the scopes that see
it, is taken for the Keras name of the last module-level star import whose module exports it
(``tfapi/keras_star_names.py``: ``KERAS_STAR_EXPORTS``), as Python would bind it; ``K`` and ``np``
after a star import of a Keras 2 ``keras.layers.<submodule>``, ``keras.models``,
``keras.callbacks`` or ``keras.optimizers`` are ``keras.backend`` and ``numpy``, which those
modules bound too (``KERAS2_STAR_ALIASES``, ``KERAS2_STAR_ALIAS_MODULES``).  A star import of a
helper module beside the file (``from model import *`` of a ``model.py`` that imports
``ModelCheckpoint`` from ``keras.callbacks``) binds the Keras names ``_siblings.py`` reads
in that module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Union

from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import dotted
from tfcompat_gpu.codemod._siblings import helper_star_names
from tfcompat_gpu.tfapi.keras_star_names import (
    KERAS2_STAR_ALIAS_MODULES,
    KERAS2_STAR_ALIASES,
    KERAS_STAR_EXPORTS,
)

if TYPE_CHECKING:
    from libcst.metadata import QualifiedName, Scope

__all__ = ["StarSource", "keras_star_modules", "star_qualified_names"]

# a Keras module a star import names, or the Keras names a helper module's star import binds
StarSource = Union[str, dict[str, str]]  # (no `|`: Python 3.9 evaluates this alias)


def _module_name(node: cst.BaseExpression | None) -> str | None:
    return None if node is None else dotted(node)


def keras_star_modules(module: cst.Module, filename: str | None = None) -> tuple[StarSource, ...]:
    """The Keras modules of the module-level ``from m import *`` statements, in file order, and
    for a helper module beside ``filename`` the Keras names it binds."""
    found: list[StarSource] = []
    for statement in module.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if (
                isinstance(small, cst.ImportFrom)
                and isinstance(small.names, cst.ImportStar)
                and not small.relative
            ):
                name = _module_name(small.module)
                if name in KERAS_STAR_EXPORTS:
                    found.append(name)
                elif name is not None:
                    helper = helper_star_names(filename, name)
                    if helper:
                        found.append(helper)
    return tuple(found)


def star_qualified_names(
    scope: Scope, node: cst.CSTNode, modules: tuple[StarSource, ...]
) -> set[QualifiedName]:
    """The qualified name a star import gives ``node`` (a name or an attribute chain read in
    ``scope``), or nothing where the name is bound in the file or no such import exports it."""
    from libcst.metadata import QualifiedName, QualifiedNameSource

    if not modules or not isinstance(node, (cst.Name, cst.Attribute)):
        return set()
    spelled = dotted(node)
    if spelled is None:
        return set()
    root = spelled.partition(".")[0]
    if root in scope:  # bound by an assignment, a def, an import the scope sees
        return set()
    for module in reversed(modules):
        if isinstance(module, dict):
            if root not in module:
                continue
            name = module[root] + spelled[len(root) :]
        elif root in KERAS_STAR_EXPORTS[module]:
            name = f"{module}.{spelled}"
        elif root in KERAS2_STAR_ALIASES and module in KERAS2_STAR_ALIAS_MODULES:
            name = KERAS2_STAR_ALIASES[root] + spelled[len(root) :]
        else:
            continue
        return {QualifiedName(name=name, source=QualifiedNameSource.IMPORT)}
    return set()
