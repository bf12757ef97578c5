"""What every migration command shares: the target, name lookup and warnings with a line."""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import libcst as cst
from libcst.metadata import (
    MetadataWrapper,
    ProviderT,
    QualifiedName,
    Scope,
    ScopeProvider,
)

from tfcompat_gpu.codemod._emit import names_in
from tfcompat_gpu.codemod._names import imported_names
from tfcompat_gpu.codemod._positions import SpanProvider
from tfcompat_gpu.codemod._triage import PRECHECKS, TARGETS, Target

__all__ = ["TARGETS", "MigrationCommand", "MigrationContext", "Target"]


# context.scratch keys shared by the commands of one run
RENAMER = "tfcompat_gpu.renamer"
TAKEN = "tfcompat_gpu.taken"
SOURCE = "tfcompat_gpu.source"
KERAS = "tfcompat_gpu.keras"
"""The Keras major version the migrated code is for (``codemod/_stack.py``)."""
PARENTS = "tfcompat_gpu.parents"

_FIELDS: dict[type[cst.CSTNode], tuple[str, ...]] = {}


def parent_map(module: cst.Module) -> dict[cst.CSTNode, cst.CSTNode]:
    """Each node's parent, read from the node fields without rebuilding any node.

    ``ParentNodeProvider`` answers the same through ``node.children``, which rebuilds every
    node it asks; this costs a fraction of that.
    """
    parents: dict[cst.CSTNode, cst.CSTNode] = {}
    todo: list[cst.CSTNode] = [module]
    while todo:
        node = todo.pop()
        kind = type(node)
        names = _FIELDS.get(kind)
        if names is None:
            names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(node))
        for name in names:
            value = getattr(node, name)
            if isinstance(value, cst.CSTNode):
                parents[value] = node
                todo.append(value)
            elif isinstance(value, (list, tuple)):
                for item in value:
                    if isinstance(item, cst.CSTNode):
                        parents[item] = node
                        todo.append(item)
    return parents


@dataclass
class MigrationContext:
    """What the commands of one file's run share.

    The fields of LibCST's ``CodemodContext`` the commands use: building on this instead of
    LibCST's codemod framework spares every process that migrates a file the import of
    ``libcst.matchers`` (about 0.3 s), which that framework loads.
    """

    filename: str | None = None
    wrapper: MetadataWrapper | None = None
    warnings: list[str] = field(default_factory=list)
    """``"LINE: message"`` about what was left alone."""
    scratch: dict[str, Any] = field(default_factory=dict)
    """What the commands leave for each other and for the passes after the walk."""

    @property
    def module(self) -> cst.Module | None:
        return None if self.wrapper is None else self.wrapper.module

    def parents(self) -> dict[cst.CSTNode, cst.CSTNode]:
        """Each node's parent in :attr:`module` (:func:`parent_map`), found once per run."""
        parents: dict[cst.CSTNode, cst.CSTNode] | None = self.scratch.get(PARENTS)
        if parents is None:
            module = self.module
            parents = {} if module is None else parent_map(module)
            self.scratch[PARENTS] = parents
        return parents


class MigrationCommand(cst.CSTTransformer):
    """Base of the migration commands.

    Warnings are ``"LINE: message"`` strings in ``context.warnings``; the CLI prefixes the path.
    ``PRECHECK`` names the command's cheap pre-check in :data:`~._triage.PRECHECKS`: a file it
    finds nothing in is one the command leaves alone and says nothing about, so it need not be
    parsed for it (None: every file).
    """

    DESCRIPTION: str = ""
    PRECHECK: ClassVar[str | None] = None
    METADATA_DEPENDENCIES: ClassVar[tuple[ProviderT, ...]] = (
        SpanProvider,
        ScopeProvider,
    )

    def __init__(self, context: MigrationContext, target: Target = "facade") -> None:
        # plain transformers (visit_/leave_ methods): LibCST's matcher machinery, with its
        # set-up per instance and checks per node, would make a walk several times dearer
        super().__init__()
        if target not in TARGETS:
            raise ValueError(f"Expected target to be one of {TARGETS}. Received: target={target!r}")
        self.context = context
        self.target: Target = target

    @property
    def module(self) -> cst.Module:
        """The module being migrated (known while the engine's walk runs)."""
        module = self.context.module
        if module is None:
            raise ValueError("the module is known only during the engine's walk")
        return module

    def warn(self, warning: str) -> None:
        self.context.warnings.append(warning)

    @classmethod
    def wanted(cls, source: str, tree: ast.Module | None = None) -> bool:
        """Whether ``source`` may hold something for this command (never a false "no").

        ``tree`` is ``source`` parsed by :mod:`ast`, where the caller has it.
        """
        return cls.PRECHECK is None or PRECHECKS[cls.PRECHECK].wanted(source, tree)

    @classmethod
    def relevant(cls, statement: str) -> bool:
        """Whether a module-level statement's text may hold something for this command.

        Asked only of a file :meth:`wanted` says yes to; the statements no command finds
        relevant (and that share no module-level name with those) are not given to LibCST.
        """
        return cls.PRECHECK is None or PRECHECKS[cls.PRECHECK].relevant(statement)

    @classmethod
    def tracks_reads(cls, statement: str) -> bool:
        """Whether the command reports the lines that read the names this import binds.

        Asked of the text of module-level import statements.  Where no command does, the
        statements left out of LibCST's input read such a name once (whether an import is
        still used is all the commands ask), not on each of their lines.
        """
        return False

    def planned(self) -> Iterable[cst.CSTNode]:
        """Nodes this command decided to change when it saw the module (``visit_Module``).

        The shared walk goes into every statement that holds one of them, as well as into the
        statements :meth:`relevant` finds something in; a command that changes a node in any
        other statement must list it here.
        """
        return ()

    def line_of(self, node: cst.CSTNode) -> int:
        return self.get_metadata(SpanProvider, node)[0]

    def warn_at(self, node: cst.CSTNode, message: str) -> None:
        self.warn(f"{self.line_of(node)}: {message}")

    def qualified_names(self, node: cst.CSTNode) -> Collection[QualifiedName]:
        # asked of the scope for the few nodes that need them: QualifiedNameProvider would
        # walk the whole tree to prepare an answer for every node
        scope: Scope | None = self.get_metadata(ScopeProvider, node, None)
        return set() if scope is None else scope.get_qualified_names_for(node)

    def names_of(self, node: cst.CSTNode) -> set[str]:
        return imported_names(self.qualified_names(node))

    def source_text(self) -> str:
        """The text of the file being migrated."""
        source: str | None = self.context.scratch.get(SOURCE)
        return self.module.code if source is None else source

    def parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        return self.context.parents().get(node)

    def code_of(self, node: cst.CSTNode) -> str:
        """The code of a node of the file, as it reads once the renames of this run are done.

        Code a command moves elsewhere (a setting's value into ``configure()``) is taken from
        the original tree; without this a deprecated name in it would survive the run.
        """
        renamer = self.context.scratch.get(RENAMER)
        if renamer is not None and renamer is not self:
            renamed = node.visit(renamer)
            if isinstance(renamed, cst.CSTNode):
                node = renamed
        return self.module.code_for_node(node)

    def taken_names(self, module: cst.Module) -> set[str]:
        """Identifiers in use in the file; every command adds the names it introduces."""
        taken: set[str] | None = self.context.scratch.get(TAKEN)
        if taken is None:
            taken = names_in(module)
            self.context.scratch[TAKEN] = taken
        return taken
