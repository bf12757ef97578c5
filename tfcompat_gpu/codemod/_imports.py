"""Imports the migrated code no longer needs and that would break it under TF2 / Keras 3."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import RemoveImportsVisitor

from tfcompat_gpu.codemod._names import (
    CONFIG_PROTO,
    GPU_OPTIONS,
    INTERACTIVE_SESSION,
    KERAS_BACKEND_MODULES,
    SESSION,
    SET_SESSION,
    canonical,
    dotted,
    top_level_imports,
)

__all__ = ["schedule_removal", "stale_imports", "without_aliases"]

_STALE_NAMES = SET_SESSION | {CONFIG_PROTO, GPU_OPTIONS, SESSION, INTERACTIVE_SESSION}


def stale_imports(
    module: cst.Module,
) -> Iterator[tuple[cst.Import | cst.ImportFrom, cst.ImportAlias, str | None]]:
    """Each import alias that may have served only the migrated code, with the name it binds.

    The name is None for ``import a.b.c`` without ``as``, whose binding is a dotted path.
    """
    for _, small in top_level_imports(module):
        if isinstance(small, cst.Import):
            for alias in small.names:
                if dotted(alias.name) in KERAS_BACKEND_MODULES:
                    bound = alias.evaluated_alias
                    yield small, alias, bound
        elif small.module is not None and not isinstance(small.names, cst.ImportStar):
            module_name = dotted(small.module)
            for alias in small.names:
                full = f"{module_name}.{alias.evaluated_name}"
                if full in KERAS_BACKEND_MODULES or canonical(full) in _STALE_NAMES:
                    yield small, alias, alias.evaluated_alias or alias.evaluated_name


def schedule_removal(
    context: CodemodContext, small: cst.Import | cst.ImportFrom, alias: cst.ImportAlias
) -> None:
    """Have LibCST's import remover drop ``alias`` after the walk, if nothing uses it then."""
    if isinstance(small, cst.Import):
        RemoveImportsVisitor.remove_unused_import(
            context, str(dotted(alias.name)), asname=alias.evaluated_alias
        )
    else:
        assert small.module is not None
        RemoveImportsVisitor.remove_unused_import(
            context, str(dotted(small.module)), alias.evaluated_name, alias.evaluated_alias
        )


def without_aliases(
    node: cst.Import | cst.ImportFrom, drop: set[int]
) -> cst.Import | cst.ImportFrom | cst.RemovalSentinel:
    """``node`` without the aliases at the positions in ``drop``; removed if none is left."""
    names = node.names
    if isinstance(names, cst.ImportStar):
        return node
    kept = [alias for index, alias in enumerate(names) if index not in drop]
    if not kept:
        return cst.RemoveFromParent()
    kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return node.with_changes(names=kept)
