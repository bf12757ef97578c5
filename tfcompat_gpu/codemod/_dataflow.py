"""Following a name from where it is assigned to where it is read, on LibCST scope metadata.

Scope analysis is not flow-sensitive; :class:`Dataflow` adds the little flow sensitivity the
migration needs (a name assigned several times in one block) and gives up, with
:class:`CannotFollow` and a reason, wherever the value a read sees is not known for sure.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from tfcompat_gpu.codemod._libcst import cst, meta, visit_with

if TYPE_CHECKING:
    from libcst.metadata import Access, Scope

    from tfcompat_gpu.codemod._base import MigrationCommand

__all__ = ["CannotFollow", "Dataflow", "JumpFinder"]


class CannotFollow(Exception):
    """The value cannot be traced for sure; the message says why.

    ``construct`` names the one construct that stopped the migration (``"loop"``, a field's
    path, ...): warnings end with it in brackets, so that a summary can count them by reason.
    """

    def __init__(self, message: str, construct: str = "untraced use") -> None:
        super().__init__(message)
        self.construct = construct

    def warning(self, what: str) -> str:
        return f"{what} left unchanged: {self} [{self.construct}]"


class JumpFinder:
    """The statements that may leave a block before its end: ``return``, ``raise``, ``break``,
    ``continue`` (nested functions are not entered: theirs leave only them).

    Walked with :func:`~._libcst.visit_with`.
    """

    def __init__(self) -> None:
        self.jumps: list[cst.CSTNode] = []

    def visit_Return(self, node: cst.Return) -> None:
        self.jumps.append(node)

    def visit_Raise(self, node: cst.Raise) -> None:
        self.jumps.append(node)

    def visit_Break(self, node: cst.Break) -> None:
        self.jumps.append(node)

    def visit_Continue(self, node: cst.Continue) -> None:
        self.jumps.append(node)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False


class _Binding:
    """The assignments and reads of one name in one scope, and what :meth:`Dataflow.uses`
    derives from all of them at once."""

    def __init__(self, scope: Scope, name: str, line_of: Callable[[cst.CSTNode], int]) -> None:
        found = list(scope.assignments[name])
        self.other = not all(isinstance(a, meta.Assignment) for a in found)
        self.assignments = [a for a in found if isinstance(a, meta.Assignment)]
        self.reads: dict[cst.Name | cst.Attribute | cst.BaseString, Access] = {
            access.node: access for a in self.assignments for access in a.references
        }
        self.name_reads = sorted((n for n in self.reads if isinstance(n, cst.Name)), key=line_of)
        self._line_of = line_of
        self._branches: list[tuple[cst.If, cst.IndentedBlock] | None] | None = None
        self._block: cst.CSTNode | bool | None = False  # False: not computed yet
        self._ownership: tuple[list[int], dict[int, list[cst.Name]], dict[int, int]] | None = None

    def branches(self, flow: Dataflow) -> list[tuple[cst.If, cst.IndentedBlock] | None]:
        if self._branches is None:
            self._branches = [
                flow.branch_of(flow.target_statement(a.node)) for a in self.assignments
            ]
        return self._branches

    def block(self, flow: Dataflow) -> cst.CSTNode | None:
        """The block every assignment is a statement of, or None (not one block)."""
        if self._block is False:
            found: cst.CSTNode | None = None
            for assignment in self.assignments:
                statement = flow.target_statement(assignment.node)
                parent = flow._info.parent(statement) if statement is not None else None
                if parent is None or (found is not None and parent is not found):
                    found = None
                    break
                found = parent
            self._block = found
        return self._block if isinstance(self._block, cst.CSTNode) else None

    def ownership(
        self, flow: Dataflow, scope: Scope
    ) -> tuple[list[int], dict[int, list[cst.Name]], dict[int, int]]:
        """The assignments' lines in order; the reads each owns (those below it, up to the
        next one's line), in source order; the first read in a nested function each owns."""
        if self._ownership is None:
            line_of = self._line_of
            lines = sorted(
                line_of(flow.target_statement(a.node) or a.node) for a in self.assignments
            )
            owned: dict[int, list[cst.Name]] = {}
            nested: dict[int, int] = {}
            for node, access in self.reads.items():
                if not isinstance(node, cst.Name):
                    continue
                line = line_of(node)
                owner = bisect_left(lines, line) - 1
                if owner < 0:
                    continue
                if access.scope is not scope:
                    nested.setdefault(owner, line)
                owned.setdefault(owner, []).append(node)
            for names in owned.values():
                names.sort(key=line_of)
            self._ownership = (lines, owned, nested)
        return self._ownership


class Dataflow:
    """Assignments and reads of names, in the module a command is visiting (its metadata)."""

    def __init__(self, info: MigrationCommand) -> None:
        self._info = info
        # what every assignment of a name shares, computed once per name: a script assigning
        # `config` thousands of times stays linear
        self._bindings: dict[tuple[int, str], _Binding] = {}

    def _scope(self, node: cst.CSTNode) -> Scope | None:
        return self._info.scope_of(node)

    def statement_of(self, node: cst.CSTNode) -> cst.SimpleStatementLine | None:
        """The one-statement line whose only statement is ``node``, else None."""
        line = self._info.parent(node)
        if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1:
            return line
        return None

    def enclosing_statement(self, node: cst.CSTNode) -> cst.BaseStatement:
        current: cst.CSTNode | None = node
        while current is not None and not isinstance(current, cst.BaseStatement):
            current = self._info.parent(current)
        if current is None:
            raise CannotFollow("it is not inside a statement", "expression outside a statement")
        return current

    def assigned_name(self, value: cst.CSTNode) -> tuple[cst.Name, cst.SimpleStatementLine] | None:
        """For ``name = value`` on a line of its own: the target Name and the line."""
        assign = self._info.parent(value)
        if not isinstance(assign, cst.Assign) or len(assign.targets) != 1:
            return None
        target = assign.targets[0].target
        line = self.statement_of(assign)
        if not isinstance(target, cst.Name) or line is None:
            return None
        return target, line

    def assigned_value(self, target: cst.CSTNode) -> cst.BaseExpression | None:
        """``value`` of ``target = value``, when ``target`` is the only target."""
        assign_target = self._info.parent(target)
        assign = (
            self._info.parent(assign_target)
            if isinstance(assign_target, cst.AssignTarget)
            else None
        )
        if isinstance(assign, cst.Assign) and len(assign.targets) == 1:
            return assign.value
        return None

    def target_statement(self, target: cst.CSTNode) -> cst.SimpleStatementLine | None:
        """The line of ``target = value`` when that is a statement of its own."""
        assign_target = self._info.parent(target)
        if not isinstance(assign_target, cst.AssignTarget):
            return None
        assign = self._info.parent(assign_target)
        if not isinstance(assign, cst.Assign) or len(assign.targets) != 1:
            return None
        return self.statement_of(assign)

    def return_line(self, node: cst.CSTNode) -> cst.SimpleStatementLine | None:
        """The ``return node`` line, when ``node`` is what a function returns."""
        ret = self._info.parent(node)
        return self.statement_of(ret) if isinstance(ret, cst.Return) else None

    def declared_outside(self, name: cst.Name) -> bool:
        """Whether the function assigning ``name`` declares it ``global`` or ``nonlocal``.

        Such an assignment sets a variable other functions read at any time, so it stays.
        """
        node: cst.CSTNode | None = name
        while node is not None and not isinstance(node, (cst.FunctionDef, cst.Lambda)):
            node = self._info.parent(node)
        if not isinstance(node, cst.FunctionDef):
            return False
        found = False

        class _Declarations(cst.CSTVisitor):
            def visit_Global(self, statement: cst.Global) -> None:
                nonlocal found
                found = found or any(n.name.value == name.value for n in statement.names)

            def visit_Nonlocal(self, statement: cst.Nonlocal) -> None:
                nonlocal found
                found = found or any(n.name.value == name.value for n in statement.names)

            def visit_FunctionDef(self, inner: cst.FunctionDef) -> bool:
                return inner is node

            def visit_ClassDef(self, inner: cst.ClassDef) -> bool:
                return False

        node.visit(_Declarations())
        return found

    def uses(self, target: cst.Name) -> list[cst.Name]:
        """The Names that read the value assigned to ``target``, in source order.

        A name assigned again (``config`` built twice in one script) is split by position: a
        read belongs to the last assignment above it.  That holds only when every assignment
        is a statement of one block and no read sits in a nested function, which could run at
        any time.
        """
        scope = self._scope(target)
        if scope is None:
            raise CannotFollow(
                f"{target.value} is not in a scope the migration can follow", "unknown scope"
            )
        binding = self._binding(scope, target.value)
        if binding.other:
            raise CannotFollow(
                f"{target.value} is bound in a way the migration cannot follow", "other binding"
            )
        if len(binding.assignments) == 1:
            return list(binding.name_reads)
        own = self.target_statement(target)
        block = self._info.parent(own) if own is not None else None
        if own is not None:
            branches = binding.branches(self)
            mine_branch = self.branch_of(own)
            if (
                mine_branch is not None
                and all(b is not None and b[0] is mine_branch[0] for b in branches)
                and len({id(b[1]) for b in branches if b is not None}) == len(branches)
            ):
                return self._branch_uses(target, mine_branch, binding.reads, scope)
        if block is None or binding.block(self) is not block:
            raise CannotFollow(
                f"{target.value} is assigned more than once, not all in one block",
                "assigned in several blocks",
            )
        lines, owned, nested = binding.ownership(self, scope)
        index = bisect_left(lines, self._info.line_of(target))
        if index in nested:
            raise CannotFollow(
                f"{target.value} is assigned more than once and read in a nested function "
                f"(line {nested[index]}), so which value it reads is unknown",
                "read in a nested function",
            )
        return list(owned.get(index, ()))

    def _binding(self, scope: Scope, name: str) -> _Binding:
        key = (id(scope), name)
        binding = self._bindings.get(key)
        if binding is None:
            binding = self._bindings[key] = _Binding(scope, name, self._info.line_of)
        return binding

    def branch_of(self, statement: cst.CSTNode | None) -> tuple[cst.If, cst.IndentedBlock] | None:
        """(the whole ``if``/``elif``/``else`` statement, the arm) a statement sits directly in."""
        block = self._info.parent(statement) if statement is not None else None
        if not isinstance(block, cst.IndentedBlock):
            return None
        holder = self._info.parent(block)
        top = self._info.parent(holder) if isinstance(holder, cst.Else) else holder
        if not isinstance(top, cst.If):
            return None
        while True:
            parent = self._info.parent(top)
            if not isinstance(parent, cst.If) or parent.orelse is not top:
                return top, block
            top = parent  # an elif

    def _within(self, node: cst.CSTNode, outer: cst.CSTNode) -> bool:
        current: cst.CSTNode | None = node
        while current is not None and current is not outer:
            current = self._info.parent(current)
        return current is outer

    def _branch_uses(
        self,
        target: cst.Name,
        branch: tuple[cst.If, cst.IndentedBlock],
        reads: Mapping[cst.Name | cst.Attribute | cst.BaseString, Access],
        scope: Scope,
    ) -> list[cst.Name]:
        """Reads of a name assigned once in each arm of one ``if``: in its own arm after the
        assignment, and after the ``if`` (where every arm's value may arrive).

        The arms must not leave the ``if`` (``return``, ``break``, ...), so that every path
        through an arm reaches the code after it.
        """
        top, arm = branch
        line_of = self._info.line_of
        finder = JumpFinder()
        visit_with(top, finder)
        jumps = finder.jumps
        if jumps:
            raise CannotFollow(
                f"{target.value} is assigned in each arm of an if whose line "
                f"{line_of(jumps[0])} may leave it",
                "jump out of the if",
            )
        mine = line_of(target)
        after = self._info.parent(top)
        uses: list[cst.Name] = []
        for node, access in reads.items():
            if not isinstance(node, cst.Name):
                continue
            if access.scope is not scope:
                raise CannotFollow(
                    f"{target.value} is assigned more than once and read in a nested function "
                    f"(line {line_of(node)}), so which value it reads is unknown",
                    "read in a nested function",
                )
            if self._within(node, arm):
                if line_of(node) > mine:
                    uses.append(node)
            elif self._within(node, top):
                continue  # another arm's value
            elif after is not None and self._within(node, after) and line_of(node) > line_of(top):
                uses.append(node)
            else:
                raise CannotFollow(
                    f"{target.value} is read on line {line_of(node)}, where no arm's value "
                    "is known to have arrived",
                    "assigned in several blocks",
                )
        return sorted(uses, key=line_of)

    def definition(self, name: cst.Name) -> cst.Name | None:
        """The target Name whose assigned value ``name`` reads, when exactly one is known."""
        scope = self._scope(name)
        if scope is None:
            return None
        found: list[cst.Name] = []
        for access in scope.accesses[name]:
            for referent in access.referents:
                if not isinstance(referent, meta.Assignment) or not isinstance(
                    referent.node, cst.Name
                ):
                    return None
                try:
                    known = any(node is referent.node for node in found)
                    if not known and any(use is name for use in self.uses(referent.node)):
                        found.append(referent.node)
                except CannotFollow:
                    return None
        return found[0] if len(found) == 1 else None

    def value_of(self, node: cst.BaseExpression) -> cst.BaseExpression:
        """What a Name was assigned, when that is known; else the node itself."""
        if isinstance(node, cst.Name):
            target = self.definition(node)
            value = self.assigned_value(target) if target is not None else None
            if value is not None:
                return value
        return node
