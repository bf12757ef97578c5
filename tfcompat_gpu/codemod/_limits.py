"""What LibCST's parser can take: a cheap check before it is given a statement.

LibCST's native parser (``libcst.native``, a recursive-descent PEG parser in Rust) and its
Python-side node builders recurse once per level of an expression.  A level is a nested
expression (``a[0][0]...``, ``f()()...``, ``not not ...``) or one operand of a chain LibCST
nests although :mod:`ast` keeps it flat (``a and b and ...`` is one ``BoolOp`` for
:mod:`ast`, a ``BooleanOperation`` per ``and`` for LibCST).  Measured with LibCST 1.9 on
CPython 3.11, one ``x = ...`` statement in a fresh interpreter:

- a chain of 8,000 ``and`` operands: the process dies with SIGSEGV (Python's own parser
  takes it);
- 8,000 nested ``lambda:``: SIGSEGV;
- 1,000 nested subscripts: 3.4 s, 3,000: more than 20 s (the time grows with the square of
  the depth); 400 levels of any form: under 0.4 s;
- between 300 and 400 levels, the migration of the parsed tree (LibCST's visitors, one Python
  call per level and node) exceeds Python's default recursion limit; 300 levels pass.

:func:`check_statements` refuses a statement deeper than :data:`MAX_DEPTH` levels, so that
what is given to LibCST never crashes the process nor takes more than a fraction of a
second per statement, with a message that names the line.  Python's own parser stops near 1,000 levels for nested forms
(``RecursionError`` or "too many nested parentheses"), so only flat chains and a few hundred
levels of nesting reach this check.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from tfcompat_gpu.codemod._astwalk import children

__all__ = ["MAX_DEPTH", "TooComplex", "check_statements", "depth"]

MAX_DEPTH = 300
"""Levels of expression LibCST is given at most (see the module's measurements)."""


class TooComplex(ValueError):
    """A statement is nested deeper than LibCST's parser can safely take."""

    def __init__(self, line: int, levels: int) -> None:
        super().__init__(
            f"line {line} nests {levels} levels of expression (operands of one and/or chain "
            f"count as levels), more than the {MAX_DEPTH} LibCST can parse safely; "
            "split the expression to migrate this file"
        )
        self.line = line
        self.levels = levels


def _levels(node: ast.AST) -> int:
    if isinstance(node, ast.BoolOp):
        # ``a and b and c``: one node for ast, nested operations for LibCST
        return max(1, len(node.values) - 1)
    if isinstance(node, ast.Compare):
        return max(1, len(node.ops))
    return 1


def depth(node: ast.AST) -> int:
    """The levels of nesting under ``node`` as LibCST's parser sees them (iterative)."""
    deepest = 0
    todo: list[tuple[ast.AST, int]] = [(node, 0)]
    while todo:
        current, above = todo.pop()
        here = above + _levels(current)
        if here > deepest:
            deepest = here
        todo.extend((child, here) for child in children(current))
    return deepest


def check_statements(statements: Iterable[ast.stmt]) -> None:
    """Raise :class:`TooComplex` for the first statement LibCST cannot safely parse."""
    for statement in statements:
        levels = depth(statement)
        if levels > MAX_DEPTH:
            raise TooComplex(statement.lineno, levels)
