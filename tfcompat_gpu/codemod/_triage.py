"""What a command's pre-check is made of: the cheap text tests that decide whether LibCST runs.

Nothing here imports LibCST.  Each command holds its own :class:`Precheck`
(``MigrationCommand.PRECHECK``, next to its rewrite); a file no command's ``wanted`` says yes
to is answered without loading LibCST, which is what keeps ``migrate`` on a tree of model code
close to ``check``'s time.  ``wanted`` may answer yes wrongly, never no wrongly (the command
would miss a file), and ``relevant`` is asked of each module-level statement of a wanted file.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

__all__ = ["TARGETS", "Precheck", "Target", "TextSearch", "text_search"]

Target = Literal["facade", "tf2"]
TARGETS: tuple[Target, ...] = ("facade", "tf2")


class TextSearch(Protocol):
    def __call__(self, text: str, tree: ast.Module | None = None) -> bool: ...


def text_search(pattern: re.Pattern[str], *literals: str) -> TextSearch:
    """A check of a file's or a statement's text alone (a file's tree is not needed).

    ``literals``: strings every match contains, looked for first.  A substring test is a
    fast scan, where a pattern opening with ``\\b`` is tried at every position of the text
    (about 0.3 ms on a 10 KB file, for each such pattern).
    """

    def search(text: str, tree: ast.Module | None = None) -> bool:
        if literals and not any(literal in text for literal in literals):
            return False
        return pattern.search(text) is not None

    return search


@dataclass(frozen=True)
class Precheck:
    """A command's cheap test of a file, and of each module-level statement of a wanted one."""

    wanted: Callable[[str, ast.Module | None], bool]
    """Whether a file's text (and its :mod:`ast` tree, where known) may hold something."""
    relevant: Callable[[str], bool]
    """Whether a module-level statement's text may (asked only of wanted files)."""

    @classmethod
    def text(cls, pattern: re.Pattern[str], *literals: str) -> Precheck:
        """One :func:`text_search` for the file and for its statements."""
        search = text_search(pattern, *literals)
        return cls(search, search)
