"""Turn assignments to ``tf.config`` setters into the calls that were meant.

An assignment whose call would change what the program does (soft placement off: the
assignment left it on) is removed, with a comment line saying what was removed and why.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from tfcompat_gpu.codemod._astwalk import nested_statements
from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._emit import free_name, growth_loop_code, parsed_statements
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import prefix_for
from tfcompat_gpu.codemod.commands.rename_deprecated_config import RENAMES

__all__ = ["SETTERS", "ConfigFunctionAssignmentsCommand"]

# Setters that take one value; ``tf.config.set_log_device_placement = True`` replaces the
# function with True (and configures nothing), so the call is what the author meant.  Soft
# placement is on by default, so an assignment of anything but True is removed instead.
SETTERS = frozenset(
    {
        "tensorflow.config.set_soft_device_placement",
        "tensorflow.debugging.set_log_device_placement",
        "tensorflow.config.threading.set_intra_op_parallelism_threads",
        "tensorflow.config.threading.set_inter_op_parallelism_threads",
    }
)
GROWTH = "tensorflow.config.experimental.set_memory_growth"
SOFT_PLACEMENT = "tensorflow.config.set_soft_device_placement"
LOGICAL_DEVICES = frozenset(
    {
        "tensorflow.config.set_logical_device_configuration",
        "tensorflow.config.experimental.set_virtual_device_configuration",
    }
)


_LOGICAL_TOKENS = re.compile("|".join(sorted({name.rsplit(".", 1)[1] for name in LOGICAL_DEVICES})))
_ATTRIBUTE_ASSIGNMENT = re.compile(r"\w\s*\.\s*\w+\s*=[^=]")


def _assigns_tensorflow_attribute(source: str, tree: ast.Module | None = None) -> bool:
    """Whether ``source`` assigns to an attribute of a name imported from TensorFlow.

    ``tree`` is ``source`` parsed, where the caller has it.
    """
    if tree is None:
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return True  # let LibCST say what is wrong with it
    bound: set[str] = set()
    assigned: list[ast.Attribute] = []
    for node in nested_statements(tree.body):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "tensorflow":
                    bound.add(alias.asname or "tensorflow")
        elif isinstance(node, ast.ImportFrom):
            if node.module and node.module.split(".")[0] == "tensorflow" and not node.level:
                bound.update(alias.asname or alias.name for alias in node.names)
        elif (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Attribute)
        ):
            assigned.append(node.targets[0])
    for target in assigned:
        root: ast.expr = target
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root.id in bound:
            return True
    return False


def _assignments_wanted(source: str, tree: ast.Module | None) -> bool:
    return (
        "tensorflow" in source
        and _ATTRIBUTE_ASSIGNMENT.search(source) is not None
        and _assigns_tensorflow_attribute(source, tree)
    )


def _assignments_relevant(text: str) -> bool:
    return bool(_ATTRIBUTE_ASSIGNMENT.search(text) or _LOGICAL_TOKENS.search(text))


class ConfigFunctionAssignmentsCommand(MigrationCommand):
    DESCRIPTION = "Replace assignments to tf.config setters (tf.config.X = value) by calls to them."
    PRECHECK = Precheck(_assignments_wanted, _assignments_relevant)

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        self._taken = self.taken_names(node)
        # placeholders of removed assignments: their comment lines move to the next statement;
        # the placeholders are kept alive here so that their ids stay theirs
        self._removed_lines: dict[int, list[cst.EmptyLine]] = {}
        self._placeholders: list[cst.SimpleStatementLine] = []
        self._logical_devices = False

        class _FindLogical(cst.CSTVisitor):
            def __init__(self, outer: ConfigFunctionAssignmentsCommand) -> None:
                self.outer = outer

            def visit_Call(self, call: cst.Call) -> None:
                if self.outer.names_of(call.func) & LOGICAL_DEVICES:
                    self.outer._logical_devices = True

        if _LOGICAL_TOKENS.search(self.source_text()):
            node.visit(_FindLogical(self))

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        if len(original_node.body) != 1:
            return updated_node
        assign = original_node.body[0]
        if not isinstance(assign, cst.Assign) or len(assign.targets) != 1:
            return updated_node
        target = assign.targets[0].target
        if not isinstance(target, cst.Attribute):
            return updated_node
        names = self.names_of(target)
        setter = next(iter(sorted(names & (SETTERS | {GROWTH}))), None)
        if setter is None:
            # named as they read after this run's renames
            configured = sorted(
                RENAMES.get(n, n)
                for n in names
                if n.startswith(("tensorflow.config.", "tensorflow.debugging."))
            )
            if configured:
                self.warn_at(
                    original_node,
                    f"assignment to {configured[0]} replaces the function instead of calling "
                    "it; left unchanged because the intended call is not known: call it instead "
                    "[assignment to a config function]",
                )
            return updated_node
        prefix = prefix_for(target, setter)
        if prefix is None:
            self.warn_at(
                original_node,
                f"assignment to {setter} is spelled in a way the migration cannot follow; "
                "left unchanged: call the function instead [function imported from its module]",
            )
            return updated_node
        value = self.code_of(assign.value)
        if setter == SOFT_PLACEMENT and not (
            isinstance(assign.value, cst.Name) and assign.value.value == "True"
        ):
            return self._removed(original_node, prefix, setter, value)
        if setter == GROWTH:
            if self._logical_devices:
                self.warn_at(
                    original_node,
                    "memory growth and logical (virtual) devices are both configured: TensorFlow "
                    "drops growth on a GPU that has logical devices; keep one of them "
                    "[growth beside logical devices]",
                )
            var = free_name(self._taken, "gpu", "physical_gpu", "_gpu")
            self._taken.add(var)
            new = parsed_statements(growth_loop_code(prefix, value, var))
        else:
            new = parsed_statements(f"{prefix}{setter.split('.', 1)[1]}({value})\n")
        first = new[0].with_changes(leading_lines=original_node.leading_lines)
        trailing = original_node.trailing_whitespace
        if trailing.comment is not None and isinstance(first, cst.SimpleStatementLine):
            first = first.with_changes(trailing_whitespace=trailing)
        elif trailing.comment is not None and isinstance(first, cst.For):
            # a comment on the assignment stays on the line of the loop that replaces it
            body = first.body
            if isinstance(body, cst.IndentedBlock):
                first = first.with_changes(body=body.with_changes(header=trailing))
        return cst.FlattenSentinel([first, *new[1:]])

    def _removed(
        self, line: cst.SimpleStatementLine, prefix: str, setter: str, value: str
    ) -> cst.SimpleStatementLine:
        # The assignment configured nothing, so the program has always run with soft placement
        # on; the call would turn it off and make every op pinned to a missing device fail.
        # Removing the line keeps what the program does; a comment says what was there.
        code = self.module.code_for_node(line.body[0])
        call = f"{prefix}{setter.split('.', 1)[1]}({value})"
        wish = (
            "to turn it off"
            if isinstance(line.body[0], cst.Assign)
            and isinstance(line.body[0].value, cst.Name)
            and line.body[0].value.value == "False"
            else "if that is wanted"
        )
        text = (
            f'# tfcompat-gpu migrate: removed "{code}": the assignment never took effect, so '
            f"soft placement stayed on; call {call} {wish}"
        )
        lines = [*line.leading_lines, cst.EmptyLine(comment=cst.Comment(text))]
        if line.trailing_whitespace.comment is not None:
            lines.append(cst.EmptyLine(comment=line.trailing_whitespace.comment))
        placeholder = cst.SimpleStatementLine(body=[cst.Pass()], leading_lines=lines)
        self._removed_lines[id(placeholder)] = lines
        self._placeholders.append(placeholder)
        return placeholder

    def _drop_placeholders(
        self, body: Sequence[cst.BaseStatement], footer: Sequence[cst.EmptyLine]
    ) -> tuple[list[cst.BaseStatement], list[cst.EmptyLine]]:
        """``body`` without the placeholders, their lines on the statement after them."""
        kept: list[cst.BaseStatement] = []
        pending: list[cst.EmptyLine] = []
        for statement in body:
            lines = self._removed_lines.get(id(statement))
            if lines is not None:
                pending.extend(lines)
                continue
            if pending and isinstance(
                statement, (cst.SimpleStatementLine, cst.BaseCompoundStatement)
            ):
                statement = statement.with_changes(
                    leading_lines=[*pending, *statement.leading_lines]
                )
                pending = []
            kept.append(statement)
        if not kept:
            # the block held nothing else: a ``pass`` under the comment keeps it a block
            return [cst.SimpleStatementLine(body=[cst.Pass()], leading_lines=pending)], [*footer]
        return kept, [*pending, *footer]

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        if not any(id(s) in self._removed_lines for s in updated_node.body):
            return updated_node
        body, footer = self._drop_placeholders(updated_node.body, updated_node.footer)
        return updated_node.with_changes(body=body, footer=footer)

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if not any(id(s) in self._removed_lines for s in updated_node.body):
            return updated_node
        body, footer = self._drop_placeholders(updated_node.body, updated_node.footer)
        return updated_node.with_changes(body=body, footer=footer)
