"""flake8 entry point ``TFG``: the same rules through flake8's AST plugin protocol.

flake8 handles ``# noqa``, ``--select`` / ``--extend-select`` and per-file ignores itself; the
plugin yields the rules that are on by default (opinionated ones are left to
``tfcompat-gpu check --select``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfcompat_gpu.lint.engine import check_tree
from tfcompat_gpu.lint.registry import default_codes

__all__ = ["Plugin"]


class Plugin:
    name = "tfcompat-gpu"
    version = "0.1.0"

    def __init__(self, tree: ast.AST, filename: str = "<unknown>") -> None:
        self.tree = tree
        self.filename = filename

    def run(self) -> Iterator[tuple[int, int, str, type[Plugin]]]:
        enabled = default_codes()
        try:
            findings = check_tree(self.tree, self.filename)
        except Exception as exc:  # flake8 must keep going over the other files
            yield 1, 0, f"TFG000 internal error while checking: {exc!r}", type(self)
            return
        for finding in findings:
            if finding.code in enabled:
                # flake8 columns count from 0, like the AST's.
                yield finding.line, finding.col, f"{finding.code} {finding.message}", type(self)
