"""Running the commands a file needs: one parse, one metadata pass, one transforming walk.

The commands share one parsed tree and one metadata resolution, and run together in a single
walk, in :data:`COMMANDS` order at every node.  LibCST is given only the statements the
commands can concern (:mod:`._focus`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, TypeVar, Union, cast

import libcst as cst
from libcst.metadata import MetadataWrapper, ProviderT, ScopeProvider

from tfcompat_gpu.codemod._base import (
    KERAS,
    RENAMER,
    SOURCE,
    TAKEN,
    MigrationCommand,
    MigrationContext,
    parent_map,
)
from tfcompat_gpu.codemod._focus import focus, unfocus
from tfcompat_gpu.codemod._formfeeds import with_form_feeds, without_form_feeds
from tfcompat_gpu.codemod._imports import add_imports, remove_imports
from tfcompat_gpu.codemod._io import has_bare_cr, split_lines
from tfcompat_gpu.codemod._limits import check_statements
from tfcompat_gpu.codemod._positions import Span, SpanProvider
from tfcompat_gpu.codemod._renames import TextRenamer
from tfcompat_gpu.codemod._triage import Target
from tfcompat_gpu.codemod.commands import commands_for
from tfcompat_gpu.codemod.commands.rename_deprecated_config import RenameDeprecatedConfigCommand

if TYPE_CHECKING:
    from libcst.metadata import Scope

__all__ = ["migrate_parsed"]

_N = TypeVar("_N", bound=cst.CSTNode)
_IDENTIFIER = re.compile(r"[^\W\d]\w*")
_STATEMENTS = frozenset(
    {
        cst.SimpleStatementLine,
        cst.If,
        cst.For,
        cst.While,
        cst.With,
        cst.Try,
        cst.FunctionDef,
        cst.ClassDef,
        cst.Match,
    }
    | ({cst.TryStar} if hasattr(cst, "TryStar") else set())
)
_Left = Union[cst.CSTNode, cst.RemovalSentinel, cst.FlattenSentinel[cst.CSTNode]]


class _Together(cst.CSTTransformer):
    """One walk that gives every node to each command in turn.

    A command sees the node as the commands before it left it; once one removes or splits a
    statement, the later ones do not see it (they match other statements).

    The walk does not go into a statement that no command can change: one whose text no
    command finds relevant (:meth:`MigrationCommand.relevant`, the test that also decides
    what LibCST is given) and that holds no node a command declared it changes when it saw the
    module (:meth:`MigrationCommand.declared_changes`).  LibCST rebuilds every node it walks into, so this is most of the walk's cost; the
    statement itself still gets every command's ``visit_`` and ``leave_`` calls, in pairs (a
    command keeping a stack of the functions it is in pops what it pushed).
    """

    def __init__(
        self,
        commands: list[MigrationCommand],
        code: str,
        positions: Mapping[cst.CSTNode, Span] | None,
    ) -> None:
        super().__init__()
        self._commands = commands
        # the commands' visit_<Node> methods by node type, looked up once per type
        self._visits: dict[type[cst.CSTNode], list[Callable[[cst.CSTNode], object]]] = {}
        self._lines = split_lines(code)
        # a bare CR ends a line for LibCST's positions but not for the split above
        self._positions = None if has_bare_cr(code) else positions
        self._open: set[cst.CSTNode] = set()

    def on_visit(self, node: cst.CSTNode) -> bool:
        kind = type(node)
        positions = self._positions
        enter = not (
            positions is not None
            and kind in _STATEMENTS
            and node not in self._open
            and not self._relevant(node, positions)
        )
        visits = self._visits.get(kind)
        if visits is None:
            name = f"visit_{kind.__name__}"
            visits = [getattr(c, name) for c in self._commands if hasattr(c, name)]
            self._visits[kind] = visits
        for visit in visits:
            visit(node)
        if kind is cst.Module and positions is not None:
            self._open = self._declared(cast("cst.Module", node))
        return enter

    def _relevant(self, node: cst.CSTNode, positions: Mapping[cst.CSTNode, Span]) -> bool:
        where = positions.get(node)
        if where is None:
            return True
        text = "".join(self._lines[where[0] - 1 : where[2]])
        return any(command.relevant(text) for command in self._commands)

    def _declared(self, module: cst.Module) -> set[cst.CSTNode]:
        """The nodes the commands declared they change, with every node above them."""
        declared = [node for command in self._commands for node in command.declared_changes()]
        if not declared:
            return set()
        context = self._commands[0].context  # the commands' parents, found once per run
        parents = context.parents() if context.module is module else parent_map(module)
        found: set[cst.CSTNode] = set()
        for node in declared:
            current: cst.CSTNode | None = node
            while current is not None and current not in found:
                found.add(current)
                current = parents.get(current)
        return found

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        pass  # no command has visit_<Node>_<attribute> methods

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        pass

    def on_leave(self, original_node: _N, updated_node: _N) -> _Left:  # type: ignore[override]
        result: _Left = updated_node
        for command in self._commands:
            if not isinstance(result, cst.CSTNode) or type(result) is not type(original_node):
                # removed, or replaced by another kind of node (a call by ``None``): the later
                # commands' leave_<Node> is for the node they saw, which is gone
                break
            result = command.on_leave(original_node, result)
        return result


def migrate_parsed(
    code: str,
    syntax: ast.Module,
    target: Target,
    filename: str,
    *,
    upgrade: bool = False,
    keras: int | None = 3,
) -> tuple[str, tuple[str, ...]]:
    """The migrated code and its warnings; ``syntax`` is ``code`` parsed by :mod:`ast`."""
    wanted = commands_for(code, syntax, upgrade=upgrade)
    if not wanted:
        return code, ()
    taken = set(_IDENTIFIER.findall(code))
    others = [command for command in wanted if command is not RenameDeprecatedConfigCommand]
    renamer = TextRenamer(syntax) if len(others) < len(wanted) else None

    def rewrite(statement: ast.stmt, first: int, text: str) -> str | None:
        # a statement that only the renames concern is renamed on its text, if that is sure
        if renamer is None or any(command.relevant(text) for command in others):
            return None
        return renamer.rename(statement, first, text)

    focused = focus(
        code,
        syntax,
        lambda text: any(c.relevant(text) for c in wanted),
        rewrite=rewrite,
        tracked=lambda text: any(c.tracks_reads(text) for c in wanted),
    )
    # what LibCST's parser cannot take must never reach it: it may crash the process
    if focused is not None:
        check_statements(syntax.body[index] for index in focused.kept)
        new, notes = _migrate(
            focused.code, wanted, target, filename, set(taken), keras=keras, source=code
        )
        restored = unfocus(new, focused.stubs)
        if restored is not None:
            return restored, notes
    check_statements(syntax.body)
    return _migrate(code, wanted, target, filename, taken, keras=keras)


def _migrate(
    code: str,
    wanted: Sequence[type[MigrationCommand]],
    target: Target,
    filename: str,
    taken: set[str],
    *,
    keras: int | None = 3,
    skip: bool = True,
    source: str | None = None,
) -> tuple[str, tuple[str, ...]]:
    """``code`` migrated by ``wanted``, all of it given to LibCST.

    ``skip=False``: the walk goes into every statement, not only those the commands' pre-checks
    or declared changes point to (the tests compare both).  ``source``: the whole file, where
    ``code`` is its focus (``._focus``): what the commands read as the file's text
    (:meth:`MigrationCommand.source_text`), so that a word in a statement left out of
    LibCST's input counts as it does on the whole file.
    """
    # LibCST drops form feeds at line starts and fails on some (see ._formfeeds)
    plain, stripped = without_form_feeds(code)
    text = plain if source is None else without_form_feeds(source)[0]
    new, notes = _migrate_plain(plain, wanted, target, filename, taken, keras, skip, text)
    return with_form_feeds(plain, new, stripped), notes


def _migrate_plain(
    code: str,
    wanted: Sequence[type[MigrationCommand]],
    target: Target,
    filename: str,
    taken: set[str],
    keras: int | None,
    skip: bool,
    source: str,
) -> tuple[str, tuple[str, ...]]:
    tree = cst.parse_module(code)
    wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)
    context = MigrationContext(filename=filename or None, wrapper=wrapper)
    # every identifier of the text: a superset of the names in use, found without a walk
    context.scratch[TAKEN] = taken
    context.scratch[SOURCE] = source
    context.scratch[KERAS] = keras
    commands = [command(context, target=target) for command in wanted]
    providers: set[ProviderT] = {ScopeProvider}
    if any(command.POSITIONS for command in commands):
        providers.add(SpanProvider)
    metadata = wrapper.resolve_many(providers)
    positions = cast("Mapping[cst.CSTNode, Span] | None", metadata.get(SpanProvider))
    scopes = cast("Mapping[cst.CSTNode, Scope]", metadata[ScopeProvider])
    for command in commands:
        command.spans = positions or {}
        command.scopes = scopes
        if isinstance(command, RenameDeprecatedConfigCommand):
            context.scratch[RENAMER] = (command, _Together([command], "", None))
    tree = tree.visit(_Together(commands, code, positions if skip else None))
    tree = add_imports(tree, context)
    tree = remove_imports(tree, context)
    return tree.code, tuple(context.warnings)
