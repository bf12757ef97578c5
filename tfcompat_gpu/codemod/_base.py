"""What every migration command shares: the target, name lookup and warnings with a line.

A command is a plain class, not a LibCST visitor: the engine (``_engine.py``) calls its
``visit_<Node>`` / ``leave_<Node>`` methods in its one walk, so that a command's module, with
its pre-check, loads without LibCST (see ``_libcst.py``).
"""

from __future__ import annotations

import ast
import dataclasses
import re
from abc import ABC, abstractmethod
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, Union

from tfcompat_gpu.codemod._emit import names_in
from tfcompat_gpu.codemod._keras_star import (
    StarSource,
    keras_star_modules,
    star_qualified_names,
)
from tfcompat_gpu.codemod._libcst import cst, meta
from tfcompat_gpu.codemod._names import dotted, imported_names
from tfcompat_gpu.codemod._stack import installed_keras
from tfcompat_gpu.codemod._triage import TARGETS, Precheck, Target
from tfcompat_gpu.tfapi.names import canonical

if TYPE_CHECKING:
    from libcst.metadata import MetadataWrapper, QualifiedName, Scope

    from tfcompat_gpu.codemod._positions import Span

    _N = TypeVar("_N", bound=cst.CSTNode)
    Left = Union[_N, cst.RemovalSentinel, cst.FlattenSentinel[_N]]

__all__ = ["TARGETS", "MigrationCommand", "MigrationContext", "Precheck", "Target"]


# context.scratch keys shared by the commands of one run
RENAMER = "tfcompat_gpu.renamer"
TAKEN = "tfcompat_gpu.taken"
SOURCE = "tfcompat_gpu.source"
KERAS = "tfcompat_gpu.keras"
"""The Keras major version the migrated code is for (``codemod/_stack.py``)."""
PARENTS = "tfcompat_gpu.parents"
READ_REPLACERS = "tfcompat_gpu.read_replacers"
"""Commands of this run (``replaces_read(node)``) that rewrite a read of an imported name away,
so that the import may go: those whose class sets :attr:`MigrationCommand.REPLACES_READS`."""
GPU_PINS = "tfcompat_gpu.gpu_pins"
"""Whether the file pins ops to a GPU by a literal device (``commands/session_soft_placement.py``,
which runs first): the sessions ``config_proto_to_configure`` builds then place softly too."""
KERAS_STARS = "tfcompat_gpu.keras_stars"
IMPORT_BOUND = "tfcompat_gpu.import_bound"
ATTRIBUTE_NAMES = "tfcompat_gpu.attribute_names"
MODULE_ALIASES = "tfcompat_gpu.module_aliases"
_STAR_IMPORT = re.compile(r"^from\s+[\w.]+\s+import\s*\*", re.M)  # module level only

_ALIASED_MODULES = frozenset(
    {
        "tensorflow",
        "tensorflow.compat.v1",
        "tensorflow.compat.v2",
        "tensorflow.keras",
        "tensorflow.keras.backend",
        "tensorflow.keras.layers",
        "tensorflow.compat.v1.keras",
        "tensorflow.compat.v1.keras.backend",
        "keras",
        "keras.backend",
        "keras.layers",
    }
)
"""Modules code binds to a second name by assignment (``tf1 = tf.compat.v1``, ``K =
tf.keras.backend``, ``tfkl = tf.keras.layers``): their names are followed through it."""


class _Everything:
    """A set holding every name."""

    def __contains__(self, name: object) -> bool:
        return True


"""The Keras modules the file star-imports (``_keras_star.py``)."""
SILENCED = "tfcompat_gpu.silenced"
"""Nodes left unchanged with one warning for all they hold (:meth:`MigrationCommand.silence`)."""

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


class MigrationCommand(ABC):
    """Base of the migration commands.

    A command is one module of ``codemod/commands/`` and one line of ``COMMANDS``; its class
    says what it does (``DESCRIPTION``), which files and statements may concern it
    (``PRECHECK``: a file it finds nothing in is one the command leaves alone and says
    nothing about, so it need not be parsed for it), and which nodes it changes outside the
    statements its pre-check finds (:meth:`declared_changes`).
    Warnings are ``"LINE: message"`` strings in ``context.warnings``; the CLI prefixes the path.
    """

    DESCRIPTION: ClassVar[str]
    PRECHECK: ClassVar[Precheck]
    UPGRADE: ClassVar[bool] = False
    """A Keras 2 → Keras 3 or TF1 → TF2 API rewrite: runs with ``upgrade=True`` only."""
    POSITIONS: ClassVar[bool] = True
    """Whether the command asks for node positions (:meth:`line_of`), a metadata pass."""
    REPLACES_READS: ClassVar[bool] = False
    """Whether the command rewrites reads of an imported name away (:meth:`replaces_read`), so
    that an import only those reads used may go; such a command is in ``READ_REPLACERS`` from
    its creation, before any command sees the module."""

    def __init__(self, context: MigrationContext, target: Target = "facade") -> None:
        if target not in TARGETS:
            raise ValueError(f"Expected target to be one of {TARGETS}. Received: target={target!r}")
        self.context = context
        self.target: Target = target
        # set by the engine once the metadata of the module is resolved
        self.spans: Mapping[cst.CSTNode, Span] = {}
        self.scopes: Mapping[cst.CSTNode, Scope] = {}
        if self.REPLACES_READS:
            context.scratch.setdefault(READ_REPLACERS, []).append(self)

    def replaces_read(self, node: cst.CSTNode) -> bool:
        """Whether ``node`` (a name read in the original tree) goes with a call this command
        rewrites (asked where :attr:`REPLACES_READS` is set)."""
        return False

    def keras_major(self) -> int:
        """The Keras major version the code is for (``migrate --keras``); where not given, the
        installed one's, read from package metadata only when first asked, so that files
        without a Keras 3 rewrite in question cost no metadata scan."""
        keras: int | None = self.context.scratch.get(KERAS, 3)
        return installed_keras() if keras is None else keras

    def silence(self, node: cst.CSTNode) -> None:
        """Say nothing more about what ``node`` holds: this command left it unchanged with one
        warning for all of it (a class of its own that the migration cannot port).  The
        commands that ask :meth:`silenced` leave their warnings inside it out."""
        self.context.scratch.setdefault(SILENCED, set()).add(node)

    def silenced(self, node: cst.CSTNode) -> bool:
        """Whether ``node`` (of the original tree) lies in a node given to :meth:`silence`."""
        silenced: set[cst.CSTNode] | None = self.context.scratch.get(SILENCED)
        if not silenced:
            return False
        current: cst.CSTNode | None = node
        while current is not None:
            if current in silenced:
                return True
            current = self.parent(current)
        return False

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
        return cls.PRECHECK.wanted(source, tree)

    @classmethod
    def relevant(cls, statement: str) -> bool:
        """Whether a module-level statement's text may hold something for this command.

        Asked only of a file :meth:`wanted` says yes to; the statements no command finds
        relevant (and that share no module-level name with those) are not given to LibCST.
        """
        return cls.PRECHECK.relevant(statement)

    @classmethod
    def tracks_reads(cls, statement: str) -> bool:
        """Whether the command reports the lines that read the names this import binds.

        Asked of the text of module-level import statements.  Where no command does, the
        statements left out of LibCST's input read such a name once (whether an import is
        still used is all the commands ask), not on each of their lines.
        """
        return False

    @abstractmethod
    def declared_changes(self) -> Iterable[cst.CSTNode]:
        """The nodes this command changes outside the statements :meth:`relevant` finds.

        Asked once the command has seen the module (``visit_Module``).  The shared walk goes
        into every statement that holds one of them, as well as into the statements
        :meth:`relevant` finds something in, and into no other: a change elsewhere that is not
        declared here is silently not made.  A command that changes only what it finds while
        the walk goes on returns ``()``.  ``tests/codemod/test_declared_changes.py`` runs each
        command with and without that focus over every case of the tests.
        """

    def on_leave(self, original_node: _N, updated_node: _N) -> Left[_N]:
        """The engine's call after a node's children: the command's ``leave_<Node>``, if any."""
        leave = getattr(self, f"leave_{type(original_node).__name__}", None)
        if leave is None:
            return updated_node
        result: Left[_N] = leave(original_node, updated_node)
        return result

    def line_of(self, node: cst.CSTNode) -> int:
        return self.spans[node][0]

    def column_of(self, node: cst.CSTNode) -> int:
        return self.spans[node][1]

    def warn_at(self, node: cst.CSTNode, message: str) -> None:
        self.warn(f"{self.line_of(node)}: {message}")

    def qualified_names(self, node: cst.CSTNode) -> Collection[QualifiedName]:
        # asked of the scope for the few nodes that need them: QualifiedNameProvider would
        # walk the whole tree to prepare an answer for every node
        scope = self.scope_of(node)
        if scope is None:
            return set()
        found = (
            self._attribute_names(scope, node)
            if isinstance(node, cst.Attribute)
            else scope.get_qualified_names_for(node)
        )
        if found:
            return found
        stars: tuple[StarSource, ...] | None = self.context.scratch.get(KERAS_STARS)
        if stars is None:
            stars = self.context.scratch[KERAS_STARS] = keras_star_modules(
                self.module, self.context.filename
            )
        return star_qualified_names(scope, node, stars) if stars else found

    def _attribute_names(self, scope: Scope, node: cst.Attribute) -> Collection[QualifiedName]:
        """LibCST's answer for an attribute read ``a.b.c``, kept per scope and dotted name.

        LibCST answers from the assignments of the name ``a`` in the scope, whichever node of
        that spelling asks (only a Name can be an assignment's own target), going through all
        of them each time: a notebook importing ``tf`` in each of hundreds of cells asked
        hundreds of times per read.
        """
        spelt = dotted(node)
        if spelt is None:
            return scope.get_qualified_names_for(node)
        cache: dict[tuple[int, str], Collection[QualifiedName]] = self.context.scratch.setdefault(
            ATTRIBUTE_NAMES, {}
        )
        key = (id(scope), spelt)
        found = cache.get(key)
        if found is None:
            found = cache[key] = scope.get_qualified_names_for(node)
        return found

    def scope_of(self, node: cst.CSTNode) -> Scope | None:
        return self.scopes.get(node)

    def names_of(self, node: cst.CSTNode) -> set[str]:
        root = node
        while isinstance(root, cst.Attribute):
            root = root.value
        if isinstance(root, cst.Name):
            module = self._module_aliases().get(root.value)
            if module is not None:
                spelt = dotted(node) if isinstance(node, cst.BaseExpression) else None
                if spelt is not None:
                    return {canonical(module + spelt[len(root.value) :])}
            if root.value not in self._import_bound():
                # Nothing imported under that name: no imported name to find.  LibCST would
                # go through every assignment of the name, for each read (a script assigning
                # `config` thousands of times).
                return set()
        return imported_names(self.qualified_names(node))

    def _module_aliases(self) -> dict[str, str]:
        """Names bound once in the file, by assigning them a module it imports (``tf1 =
        tf.compat.v1``), and that module's name: LibCST's qualified names stop at the
        assignment.  A name bound more than once (in any scope, a parameter too) is left out."""
        found: dict[str, str] | None = self.context.scratch.get(MODULE_ALIASES)
        if found is not None:
            return found
        found = {}
        self.context.scratch[MODULE_ALIASES] = found
        counts: dict[str, int] = {}
        candidates: dict[str, cst.CSTNode] = {}
        scopes = {id(scope): scope for scope in self.scopes.values() if scope is not None}
        for scope in scopes.values():
            for assignment in scope.assignments:
                counts[assignment.name] = counts.get(assignment.name, 0) + 1
                if type(assignment) is meta.Assignment and isinstance(assignment.node, cst.Name):
                    candidates[assignment.name] = assignment.node
        bound = self._import_bound()
        if (
            "tf" not in counts
            and not isinstance(bound, _Everything)
            and _STAR_IMPORT.search(self.source_text()) is not None
        ):
            # ``from utils import *`` and ``tf`` read, bound nowhere: the helper module's
            # ``import tensorflow as tf``, as the lint reads it (and ``tf1_compat`` imports it
            # into such a file, where TF1 names are left)
            found["tf"] = "tensorflow"
        for name, target in candidates.items():
            if counts[name] != 1 or name in bound:
                continue
            parent = self.parent(target)
            statement = self.parent(parent) if isinstance(parent, cst.AssignTarget) else None
            if not isinstance(statement, cst.Assign) or len(statement.targets) != 1:
                continue
            value = statement.value
            root = value
            while isinstance(root, cst.Attribute):
                root = root.value
            if not isinstance(root, cst.Name) or root.value not in bound:
                continue
            modules = {
                q.name
                for q in self.qualified_names(value)
                if q.source is meta.QualifiedNameSource.IMPORT
            }
            if len(modules) == 1 and modules <= _ALIASED_MODULES:
                found[name] = next(iter(modules))
        return found

    def _import_bound(self) -> frozenset[str] | _Everything:
        """The names an ``import`` binds anywhere in the module (``os`` of ``import os.path``
        too), or every name where a star import may bind any."""
        bound = self.context.scratch.get(IMPORT_BOUND)
        if bound is None:
            stars = self.context.scratch.get(KERAS_STARS)
            if stars is None:
                stars = self.context.scratch[KERAS_STARS] = keras_star_modules(
                    self.module, self.context.filename
                )
            if stars:
                bound = _Everything()
            else:
                scopes = {id(scope): scope for scope in self.scopes.values() if scope is not None}
                bound = frozenset(
                    assignment.name.partition(".")[0]
                    for scope in scopes.values()
                    for assignment in scope.assignments
                    if isinstance(assignment, meta.ImportAssignment)
                )
            self.context.scratch[IMPORT_BOUND] = bound
        return bound

    def source_text(self) -> str:
        """The text of the file being migrated: all of it, also where LibCST is given only the
        statements the commands may concern (``_focus.py``)."""
        source: str | None = self.context.scratch.get(SOURCE)
        return self.module.code if source is None else source

    def parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        return self.context.parents().get(node)

    def method_call_of(self, node: cst.CSTNode) -> cst.Call | None:
        """The call ``node.f(...)`` when ``node`` (a name of the original tree) is the object
        of a method call, else None: what a command that rewrites ``K.f(...)`` asks of a read
        of ``K`` (``replaces_read``)."""
        attribute = self.parent(node)
        if not isinstance(attribute, cst.Attribute) or attribute.value is not node:
            return None
        call = self.parent(attribute)
        if not isinstance(call, cst.Call) or call.func is not attribute:
            return None
        return call

    def code_of(self, node: cst.CSTNode) -> str:
        """The code of a node of the file, as it reads once the renames of this run are done.

        Code a command moves elsewhere (a setting's value into ``configure()``) is taken from
        the original tree; without this a deprecated name in it would survive the run.
        """
        renamer: tuple[MigrationCommand, cst.CSTTransformer] | None
        renamer = self.context.scratch.get(RENAMER)
        if renamer is not None and renamer[0] is not self:
            renamed = node.visit(renamer[1])
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
