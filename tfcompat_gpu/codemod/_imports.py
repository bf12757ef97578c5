"""Imports the migrated code no longer needs and that would break it under TF2 / Keras 3."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping
from typing import TYPE_CHECKING, cast

from tfcompat_gpu.codemod._base import READ_REPLACERS
from tfcompat_gpu.codemod._libcst import cst, meta
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

if TYPE_CHECKING:
    from libcst.metadata import Scope

    from tfcompat_gpu.codemod._base import MigrationCommand, MigrationContext

__all__ = [
    "add_imports",
    "import_reads",
    "lines_still_reading",
    "need_import",
    "remove_imports",
    "schedule_removal",
    "schedule_removal_by_node",
    "stale_imports",
    "unused_aliases",
    "without_aliases",
]

_NEEDED = "tfcompat_gpu.needed_imports"
_REMOVALS = "tfcompat_gpu.removals"

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


def lines_still_reading(
    command: MigrationCommand,
    scope: Scope | None,
    name: str,
    gone: Collection[cst.CSTNode],
    replaced: Mapping[cst.Call, cst.BaseExpression],
) -> list[int]:
    """Lines that read the name an import binds, outside what a rewrite removes or replaces.

    ``gone``: the statements the rewrite removes or replaces; ``replaced``: the calls it
    replaces, with their new code: a replaced call counts as gone unless its new code spells
    the name again.  Reads another command of the run rewrites away
    (``READ_REPLACERS``: ``K.get_value``) do not count.
    """
    if scope is None:
        return []
    spelled = re.compile(rf"(?<![\w.]){re.escape(name)}\b")
    away: set[cst.CSTNode] = set(gone)
    away.update(
        call
        for call, new in replaced.items()
        if not spelled.search(cst.Module([]).code_for_node(new))
    )
    replacers = command.context.scratch.get(READ_REPLACERS, ())
    lines: list[int] = []
    for assignment in scope.assignments[name]:
        for access in assignment.references:
            if any(replacer.replaces_read(access.node) for replacer in replacers):
                continue
            node: cst.CSTNode | None = access.node
            while node is not None and node not in away:
                node = command.parent(node)
            if node is None:
                lines.append(command.line_of(access.node))
    return lines


def unused_aliases(
    command: MigrationCommand,
    module: cst.Module,
    gone: Collection[cst.CSTNode],
    replaced: Mapping[cst.Call, cst.BaseExpression],
) -> dict[cst.Import | cst.ImportFrom, set[int]]:
    """The aliases (by position) of the imports only the rewritten code read, to drop.

    Decided on this walk's metadata: an alias goes when every read of its name is in what the
    rewrite removes or replaces (:func:`lines_still_reading`).  The aliases this cannot decide
    (``import a.b``, a module with ``__all__``) are left to LibCST's remover
    (:func:`schedule_removal`).
    """
    drop: dict[cst.Import | cst.ImportFrom, set[int]] = {}
    if "__all__" in command.source_text():
        # a name listed in __all__ is used without a read: LibCST's remover knows that
        for small, alias, _ in stale_imports(module):
            schedule_removal(command.context, small, alias)
        return drop
    for small, alias, bound in stale_imports(module):
        if bound is None or "." in bound:
            schedule_removal(command.context, small, alias)
            continue
        scope = command.scope_of(small)
        if scope is None or lines_still_reading(command, scope, bound, gone, replaced):
            continue
        names = small.names
        assert not isinstance(names, cst.ImportStar)
        index = next(i for i, a in enumerate(names) if a is alias)
        drop.setdefault(small, set()).add(index)
    return drop


def import_reads(
    command: MigrationCommand,
    module: cst.Module,
    imported: str,
    gone: Collection[cst.CSTNode],
    replaced: Mapping[cst.Call, cst.BaseExpression],
) -> Iterator[tuple[cst.SimpleStatementLine, list[int]]]:
    """Each module-level import of the module ``imported`` that code outside the rewrite still
    reads, with those lines (:func:`lines_still_reading`)."""
    for statement, small in top_level_imports(module):
        bound: list[cst.CSTNode] = []
        if isinstance(small, cst.Import):
            bound = [
                a.asname.name
                for a in small.names
                if dotted(a.name) == imported and a.asname is not None
            ]
        elif not isinstance(small.names, cst.ImportStar):
            module_name = dotted(small.module) if small.module is not None else None
            bound = [
                a.asname.name if a.asname is not None else a.name
                for a in small.names
                if module_name == imported or f"{module_name}.{a.evaluated_name}" == imported
            ]
        scope = command.scope_of(small)
        lines = sorted(
            {
                line
                for name in bound
                if isinstance(name, cst.Name)
                for line in lines_still_reading(command, scope, name.value, gone, replaced)
            }
        )
        if lines:
            yield statement, lines


def schedule_removal(
    context: MigrationContext, small: cst.Import | cst.ImportFrom, alias: cst.ImportAlias
) -> None:
    """Have LibCST's import remover drop ``alias`` after the walk, if nothing uses it then."""
    removals = context.scratch.setdefault(_REMOVALS, [])
    if isinstance(small, cst.Import):
        removals.append((str(dotted(alias.name)), None, alias.evaluated_alias))
    else:
        assert small.module is not None
        removals.append((str(dotted(small.module)), alias.evaluated_name, alias.evaluated_alias))


def schedule_removal_by_node(context: MigrationContext, node: cst.CSTNode) -> None:
    """Have LibCST's import remover drop the imports ``node`` uses, if nothing uses them then."""
    # LibCST's codemod framework, loaded only for the few files that need this
    from libcst.codemod import CodemodContext
    from libcst.codemod.visitors import RemoveImportsVisitor

    view = CodemodContext(filename=context.filename, wrapper=context.wrapper)
    RemoveImportsVisitor.remove_unused_import_by_node(view, node)
    found = view.scratch.get(RemoveImportsVisitor.CONTEXT_KEY, [])
    context.scratch.setdefault(_REMOVALS, []).extend(found)


def remove_imports(module: cst.Module, context: MigrationContext) -> cst.Module:
    """``module`` without the scheduled imports that nothing uses any more.

    LibCST's remover, with a second metadata pass, runs only where a command scheduled a
    removal it leaves to it: ``import a.b`` without ``as``, a module with ``__all__``, the
    imports of code the multi-GPU commands remove.
    """
    removals = context.scratch.get(_REMOVALS)
    if not removals:
        return module
    from libcst.codemod import CodemodContext
    from libcst.codemod.visitors import RemoveImportsVisitor

    wrapper = meta.MetadataWrapper(module, unsafe_skip_copy=True)
    remover = RemoveImportsVisitor(
        CodemodContext(filename=context.filename, wrapper=wrapper), removals
    )
    with remover.resolve(wrapper):
        return module.visit(remover)


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


def need_import(context: MigrationContext, module: str, asname: str | None = None) -> None:
    """Have :func:`add_imports` make sure ``import module [as asname]`` is at the top."""
    context.scratch.setdefault(_NEEDED, []).append((module, asname))


def _is_import_line(statement: cst.BaseStatement) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], (cst.Import, cst.ImportFrom))
    )


def _heads_module(statement: cst.BaseStatement) -> bool:
    """A docstring or a ``__strict__ = ...`` flag: no import is put above it."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return False
    small = statement.body[0]
    if isinstance(small, cst.Expr):
        return isinstance(small.value, cst.SimpleString)
    return (
        isinstance(small, cst.Assign)
        and len(small.targets) == 1
        and isinstance(small.targets[0].target, cst.Name)
        and small.targets[0].target.value == "__strict__"
    )


def add_imports(module: cst.Module, context: MigrationContext) -> cst.Module:
    """``module`` with the imports :func:`need_import` asked for that it lacks.

    Placed as LibCST's ``AddImportsVisitor`` places module imports: after the block of import
    lines that opens the module (below a docstring or ``__strict__`` flag), plain imports
    sorted then aliased ones, with an empty line before the next statement.  An import counts
    as there when that block has it.  This reads only the module's top statements, where
    LibCST's visitor sets up its matchers and walks the module for each file.
    """
    needed: list[tuple[str, str | None]] = context.scratch.get(_NEEDED, [])
    if not needed:
        return module
    body = list(module.body)
    start = 1 if body and _heads_module(body[0]) else 0
    end = start
    while end < len(body) and _is_import_line(body[end]):
        end += 1
    plain: set[str] = set()
    aliased: dict[str, str] = {}
    for statement in body[start:end]:
        small = cast("cst.SimpleStatementLine", statement).body[0]
        if isinstance(small, cst.Import):
            for alias in small.names:
                if alias.evaluated_alias is None:
                    plain.add(alias.evaluated_name)
                else:
                    aliased[alias.evaluated_name] = alias.evaluated_alias
    wanted_plain = {name for name, asname in needed if asname is None} - plain
    wanted_aliased = {name: asname for name, asname in needed if asname is not None}
    wanted_aliased = {
        name: asname for name, asname in wanted_aliased.items() if aliased.get(name) != asname
    }
    if not wanted_plain and not wanted_aliased:
        return module
    config = module.config_for_parsing
    new = [cst.parse_statement(f"import {name}", config=config) for name in sorted(wanted_plain)]
    new += [
        cst.parse_statement(f"import {name} as {asname}", config=config)
        for name, asname in wanted_aliased.items()
    ]
    after = body[end:]
    if after:
        first = after[0]
        lines = first.leading_lines
        if not lines or lines[0].comment is not None:
            after[0] = first.with_changes(leading_lines=(cst.EmptyLine(), *lines))
    return module.with_changes(body=(*body[:end], *new, *after))
