"""Whether a config setting made under an ``if`` can become a ``configure()`` call there."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tfcompat_gpu.codemod._dataflow import CannotFollow, JumpFinder
from tfcompat_gpu.codemod._libcst import cst, visit_with

if TYPE_CHECKING:
    from tfcompat_gpu.codemod._base import MigrationCommand

__all__ = ["condition_of"]


def condition_of(
    command: MigrationCommand,
    line: cst.SimpleStatementLine,
    block: cst.CSTNode | None,
    target: cst.Name,
) -> cst.BaseStatement:
    """The statement of ``block`` holding ``line``, when only ``if``/``else`` lie between.

    Then a ``configure()`` call in ``line``'s place runs exactly when the setting did, and
    every path through the statement goes on to the code after it, where the session is:
    a loop, ``try``, ``with`` or a jump (``return``, ``break``, ``raise``, ...) in it would
    not prove that, so those keep the config as it is.
    """
    where = f"{target.value} is changed on line {command.line_of(line)}"
    node: cst.CSTNode = line
    while True:
        parent = command.parent(node)
        if parent is None:
            raise CannotFollow(f"{where}, outside the block that builds it", "other scope")
        if parent is block:
            break
        if isinstance(parent, (cst.For, cst.While)):
            raise CannotFollow(f"{where} in a loop", "loop")
        if isinstance(parent, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            raise CannotFollow(f"{where} in a nested function", "nested function")
        if isinstance(parent, (cst.Try, cst.TryStar, cst.ExceptHandler, cst.Finally)):
            raise CannotFollow(f"{where} in a try statement", "try")
        if isinstance(parent, cst.With):
            raise CannotFollow(f"{where} in a with statement", "with")
        if not isinstance(parent, (cst.IndentedBlock, cst.If, cst.Else)):
            raise CannotFollow(
                f"{where} in a {type(parent).__name__} the migration does not follow",
                type(parent).__name__,
            )
        node = parent
    assert isinstance(node, cst.BaseStatement)
    tf_calls: list[cst.Call] = []

    class _Jumps(JumpFinder):
        # also a yield (the caller may never resume it) and calls that may start the runtime
        def visit_Yield(self, n: cst.Yield) -> None:
            self.jumps.append(n)

        def visit_FunctionDef(self, n: cst.FunctionDef) -> bool:
            return True

        def visit_Call(self, n: cst.Call) -> None:
            names = {q.name for q in command.qualified_names(n.func)}
            if any(name.split(".")[0] in ("tensorflow", "keras", "sys") for name in names):
                tf_calls.append(n)

    finder = _Jumps()
    visit_with(node, finder)
    jumps = finder.jumps
    if jumps:
        raise CannotFollow(
            f"{where} under an if whose line {command.line_of(jumps[0])} may leave it before "
            "the session",
            "jump out of the if",
        )
    if tf_calls:
        # a call to TensorFlow in the condition may start its runtime, after which the
        # process-wide options can no longer change (in the original they wait for the
        # session)
        raise CannotFollow(
            f"{where} under an if that calls TensorFlow (line {command.line_of(tf_calls[0])}), "
            "which may start its runtime before the setting",
            "TensorFlow call in the if",
        )
    return node
