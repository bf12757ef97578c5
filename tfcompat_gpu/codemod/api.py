"""Migrate one source text: every command that may apply, in one parse and one metadata pass.

A cheap pre-check (:meth:`MigrationCommand.wanted`) picks the commands a file may need; a file
that needs none is returned as it is without being parsed, which is what most files of a real
tree are.  The commands that remain share one parsed tree and one metadata resolution, and run
together in a single transforming walk, in :data:`COMMANDS` order at every node.
"""

from __future__ import annotations

import ast
import dataclasses
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar, Union

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor
from libcst.metadata import MetadataWrapper, ProviderT

from tfcompat_gpu.codemod._base import RENAMER, SOURCE, TAKEN, MigrationCommand, Target
from tfcompat_gpu.codemod._focus import focus, unfocus
from tfcompat_gpu.codemod.commands import COMMANDS
from tfcompat_gpu.codemod.commands.rename_deprecated_config import RenameDeprecatedConfigCommand

__all__ = ["MigrationResult", "commands_for", "migrate_source"]

_N = TypeVar("_N", bound=cst.CSTNode)
_IDENTIFIER = re.compile(r"[^\W\d]\w*")
_Left = Union[cst.CSTNode, cst.RemovalSentinel, cst.FlattenSentinel[cst.CSTNode]]


@dataclass(frozen=True)
class MigrationResult:
    """The migrated code and the ``"LINE: message"`` warnings about what was left alone."""

    code: str
    warnings: tuple[str, ...]

    @property
    def changed(self) -> bool:
        return self.code != self._original

    _original: str = ""


def commands_for(code: str) -> tuple[type[MigrationCommand], ...]:
    """The commands whose pre-check finds something in ``code``, in the order they run."""
    return tuple(command for command in COMMANDS if command.wanted(code))


class _Together(cst.CSTTransformer):
    """One walk that gives every node to each command in turn.

    A command sees the node as the commands before it left it; once one removes or splits a
    statement, the later ones do not see it (they match other statements).
    """

    def __init__(self, commands: list[MigrationCommand]) -> None:
        super().__init__()
        self._commands = commands

    def on_visit(self, node: cst.CSTNode) -> bool:
        for command in self._commands:
            command.on_visit(node)
        return True

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        pass  # no command has visit_<Node>_<attribute> methods

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        pass

    def on_leave(self, original_node: _N, updated_node: _N) -> _Left:  # type: ignore[override]
        result: _Left = updated_node
        for command in self._commands:
            if not isinstance(result, cst.CSTNode):
                break
            result = command.on_leave(original_node, result)
        return result


def migrate_source(code: str, *, target: Target = "facade", filename: str = "") -> MigrationResult:
    """Apply every migration command to ``code``.

    Raises :class:`SyntaxError` (with the line and column Python reports) when ``code`` does
    not parse, and :class:`libcst.ParserSyntaxError` for code Python accepts and LibCST not.

    >>> result = migrate_source("import tensorflow as tf\\ntf.debugging.set_log_device_placement = True\\n")
    >>> print(result.code, end="")
    import tensorflow as tf
    tf.debugging.set_log_device_placement(True)
    >>> result.changed, result.warnings
    (True, ())
    """
    with warnings.catch_warnings():
        # invalid escapes and the like are not the migration's business
        warnings.simplefilter("ignore")
        syntax = ast.parse(code, filename or "<unknown>")
    wanted = commands_for(code)
    context = CodemodContext(filename=filename or None)
    # the target is checked even when nothing is to be done
    for command in wanted or COMMANDS[:1]:
        command(context, target=target)
    if not wanted:
        return MigrationResult(code=code, warnings=(), _original=code)
    taken = set(_IDENTIFIER.findall(code))
    focused = focus(code, syntax, lambda text: any(c.relevant(text) for c in wanted))
    if focused is not None:
        new, notes = _migrate(focused.code, wanted, target, filename, set(taken))
        restored = unfocus(new, focused.stubs)
        if restored is not None:
            return MigrationResult(code=restored, warnings=notes, _original=code)
    new, notes = _migrate(code, wanted, target, filename, taken)
    return MigrationResult(code=new, warnings=notes, _original=code)


def _migrate(
    code: str,
    wanted: Sequence[type[MigrationCommand]],
    target: Target,
    filename: str,
    taken: set[str],
) -> tuple[str, tuple[str, ...]]:
    tree = cst.parse_module(code)
    wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)
    context = CodemodContext(filename=filename or None, wrapper=wrapper)
    # every identifier of the text: a superset of the names in use, found without a walk
    context.scratch[TAKEN] = taken
    context.scratch[SOURCE] = code
    commands = [command(context, target=target) for command in wanted]
    providers: set[ProviderT] = set()
    for command in commands:
        providers.update(command.get_inherited_dependencies())
    metadata = wrapper.resolve_many(providers)
    for command in commands:
        command.metadata = metadata
        if isinstance(command, RenameDeprecatedConfigCommand):
            context.scratch[RENAMER] = command
    tree = tree.visit(_Together(commands))
    if context.scratch.get(AddImportsVisitor.CONTEXT_KEY):
        # no metadata: the visitor runs on the tree as it is, without a copy
        tree = tree.visit(AddImportsVisitor(context))
    if context.scratch.get(RemoveImportsVisitor.CONTEXT_KEY):
        # the one other metadata pass, only where an import may have to go
        wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)
        remover = RemoveImportsVisitor(dataclasses.replace(context, wrapper=wrapper))
        with remover.resolve(wrapper):
            tree = tree.visit(remover)
    return tree.code, tuple(context.warnings)
