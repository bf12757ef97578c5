"""A command changes only nodes the shared walk reaches: in statements its pre-check finds
relevant, or declared by ``declared_changes()``.

The walk does not go into other statements (``codemod/_engine.py``), so a change there that a
command forgot to declare is silently not made.  Each command runs alone over every
before/after case of these tests (its pre-check is then the only one that opens statements),
once walking every statement and once as ``migrate`` walks: a recorder lists the nodes the
command changed that the focused walk would not reach, and the two results must agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("libcst")

import libcst as cst
from cases_keras1 import KERAS1_CASES
from cases_multigpu import CASES as MULTIGPU_CASES
from cases_rewrites import CASES as REWRITE_CASES
from cases_upgrade import UPGRADE_CASES

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._engine import _IDENTIFIER, _STATEMENTS, _migrate
from tfcompat_gpu.codemod._io import split_lines
from tfcompat_gpu.codemod._positions import SpanProvider
from tfcompat_gpu.codemod.commands import COMMANDS, command_name, commands_for

FIXTURES = Path(__file__).parent / "fixtures"


def _cases() -> Iterator[Any]:
    for id, target, before, _, _ in REWRITE_CASES:
        yield pytest.param(before, target, False, id=f"rewrite-{id}")
    for id, before, _, _ in MULTIGPU_CASES:
        yield pytest.param(before, "facade", False, id=f"multigpu-{id}")
    for id, before, _, _ in UPGRADE_CASES:
        yield pytest.param(before, "facade", True, id=f"upgrade-{id}")
    for id, before, _, _ in KERAS1_CASES:
        yield pytest.param(before, "facade", True, id=f"keras1-{id}")
    for path in sorted(FIXTURES.glob("*.py")):
        for target in ("facade", "tf2"):
            yield pytest.param(path.read_text(), target, True, id=f"{path.stem}-{target}")


def _recording(command: type[MigrationCommand], found: list[str]) -> type[MigrationCommand]:
    """``command`` with a recorder: each node it changed that the focused walk misses."""

    class Recording(command):  # type: ignore[valid-type,misc]
        def on_leave(self, original_node: Any, updated_node: Any) -> Any:
            result = super().on_leave(original_node, updated_node)
            if result is not updated_node:
                self._changed.append(original_node)
            if isinstance(original_node, cst.Module):
                found.extend(self._unreached(original_node))
            return result

        def visit_Module(self, node: cst.Module) -> None:
            self._changed: list[cst.CSTNode] = []
            visit = getattr(super(), "visit_Module", None)
            if visit is not None:
                visit(node)

        def _unreached(self, module: cst.Module) -> Iterable[str]:
            parents = self.context.parents()
            opened: set[cst.CSTNode] = set()
            for node in self.declared_changes():
                current: cst.CSTNode | None = node
                while current is not None and current not in opened:
                    opened.add(current)
                    current = parents.get(current)
            assert self.context.wrapper is not None
            spans = self.context.wrapper.resolve(SpanProvider)
            lines = split_lines(module.code)
            for node in self._changed:
                parent = parents.get(node)
                while parent is not None:
                    if type(parent) in _STATEMENTS and parent not in opened:
                        start, _, end, _ = spans[parent]
                        if not self.relevant("".join(lines[start - 1 : end])):
                            yield (
                                f"{command_name(command)} changed a {type(node).__name__} on "
                                f"line {spans[node][0]}, in the statement on line {start}, "
                                "which its pre-check does not find and it did not declare"
                            )
                            break
                    parent = parents.get(parent)

    Recording.__module__ = command.__module__
    return Recording


def _check(code: str, command: type[MigrationCommand], target: str) -> None:
    taken = set(_IDENTIFIER.findall(code))
    unreached: list[str] = []
    whole, whole_notes = _migrate(
        code,
        [_recording(command, unreached)],
        target,  # type: ignore[arg-type]
        "",
        set(taken),
        skip=False,
    )
    assert unreached == []
    focused, focused_notes = _migrate(code, [command], target, "", set(taken))  # type: ignore[arg-type]
    assert focused == whole
    assert focused_notes == whole_notes


@pytest.mark.parametrize(("code", "target", "upgrade"), list(_cases()))
def test_each_command_changes_only_what_the_walk_reaches(
    code: str, target: str, upgrade: bool
) -> None:
    wanted = commands_for(code, upgrade=upgrade)
    for command in wanted:
        _check(code, command, target)


def test_the_cases_exercise_every_command() -> None:
    seen = set()
    for param in _cases():
        code, _, upgrade = param.values
        seen.update(commands_for(code, upgrade=upgrade))
    assert seen == set(COMMANDS)


class _Undeclared(MigrationCommand):
    """Renames ``old`` everywhere, but its pre-check finds only statements that call ``go``."""

    DESCRIPTION = "test"
    PRECHECK = Precheck(lambda text, tree: "old" in text, lambda text: "go(" in text)

    def declared_changes(self) -> tuple[()]:
        return ()

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        return (
            updated_node.with_changes(value="new") if updated_node.value == "old" else updated_node
        )


def test_an_undeclared_change_outside_relevant_statements_is_caught() -> None:
    code = "go(1)\nif True:\n    x = old\n"
    with pytest.raises(AssertionError, match="changed a Name on line 3"):
        _check(code, _Undeclared, "facade")
    # without the recorder: the change is silently not made by the focused walk
    whole, _ = _migrate(code, [_Undeclared], "facade", "", set(), skip=False)
    focused, _ = _migrate(code, [_Undeclared], "facade", "", set())
    assert "x = new" in whole
    assert "x = old" in focused
