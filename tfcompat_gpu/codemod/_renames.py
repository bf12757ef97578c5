"""Renames of deprecated ``tf.config`` names done on the text, without LibCST.

``tf.config.experimental.list_physical_devices`` and its kin are most of what the migration
changes in a real tree, and often all of it in a file.  Such a statement needs no LibCST when
the name ``tf`` (the root of the dotted name) is bound once in the whole file, by a
module-level import: every read of it then means that module, which is what LibCST's scope
analysis would say.  :class:`TextRenamer` renames such statements where it is sure to write
what :class:`~.commands.rename_deprecated_config.RenameDeprecatedConfigCommand` writes, and
answers None where it is not (a root bound more than once or by a star import, a name spelled
over several lines, with parentheses or inside an f-string); those statements go to LibCST.
Nothing here imports LibCST.
"""

from __future__ import annotations

import ast
from collections import Counter

from tfcompat_gpu.codemod._astwalk import (
    DEFINITIONS,
    nested_statements,
    statement_spans,
    walk,
)
from tfcompat_gpu.codemod._astwalk import dotted as _ast_dotted
from tfcompat_gpu.codemod._io import has_bare_cr, split_lines
from tfcompat_gpu.tfapi.names import DEPRECATED_NAMES, canonical

__all__ = ["TextRenamer", "rename_only", "spelled_prefix"]

# every deprecated name is spelled through ``config.experimental``
_MARK = "experimental"


def _node_types(*names: str) -> tuple[type[ast.AST], ...]:
    """The :mod:`ast` node types of these names this Python has (``match``: 3.10, type
    parameters: 3.12)."""
    return tuple(getattr(ast, name) for name in names if hasattr(ast, name))


_CAPTURES = _node_types("MatchAs", "MatchStar")
_MAPPINGS = _node_types("MatchMapping")
_TYPE_PARAMETERS = _node_types("TypeVar", "ParamSpec", "TypeVarTuple")


def spelled_prefix(code: str | None, canonical_name: str) -> str | None:
    """What stands for ``tensorflow.`` in the dotted name ``code`` (``"tf."``, ``""``).

    ``code`` is spelled ``PREFIX + rest`` where ``rest`` is ``canonical_name`` without its
    ``tensorflow.``; None when it is not spelled that way.

    >>> spelled_prefix("tf.compat.v1.config.experimental.list_physical_devices",
    ...                "tensorflow.config.experimental.list_physical_devices")
    'tf.compat.v1.'
    >>> spelled_prefix("exp.list_physical_devices",
    ...                "tensorflow.config.experimental.list_physical_devices") is None
    True
    """
    rest = canonical_name.split(".", 1)[1] if "." in canonical_name else ""
    if code is None or not rest:
        return None
    if code == rest:
        return ""
    if code.endswith("." + rest):
        return code[: -len(rest)]
    return None


def _bindings(tree: ast.Module) -> tuple[Counter[str], set[str]]:
    """How many times each name is bound in the file, in any scope; the names imports bind."""
    counts: Counter[str] = Counter()
    imported: set[str] = set()
    for node in walk(tree):
        if isinstance(node, ast.Name):
            if not isinstance(node.ctx, ast.Load):
                counts[node.id] += 1
        elif isinstance(node, ast.arg):
            counts[node.arg] += 1
        elif isinstance(node, ast.alias):
            name = node.asname or node.name.split(".")[0]
            counts[name] += 1
            imported.add(name)
        elif isinstance(node, (*DEFINITIONS, *_TYPE_PARAMETERS)):
            counts[node.name] += 1  # type: ignore[attr-defined]
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            counts.update(node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            counts[node.name] += 1
        elif isinstance(node, _CAPTURES) and getattr(node, "name", None):
            counts[node.name] += 1  # type: ignore[attr-defined]
        elif isinstance(node, _MAPPINGS) and getattr(node, "rest", None):
            counts[node.rest] += 1  # type: ignore[attr-defined]
    return counts, imported


def _roots(tree: ast.Module) -> tuple[dict[str, str], Counter[str], set[str]] | None:
    """Names bound once in the file, by a module-level import, with the module they stand for;
    how often each name is bound; the names any import binds.  None when a star import may
    bind any name."""
    imported: dict[str, str] = {}
    for statement in nested_statements(tree.body, scopes=False):
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                if alias.asname:
                    imported[alias.asname] = alias.name
                elif "." not in alias.name:
                    imported[alias.name] = alias.name
        elif isinstance(statement, ast.ImportFrom):
            if statement.level or not statement.module:
                continue
            for alias in statement.names:
                if alias.name == "*":
                    return None
                imported[alias.asname or alias.name] = f"{statement.module}.{alias.name}"
    counts, anywhere = _bindings(tree)
    roots = {name: module for name, module in imported.items() if counts[name] == 1}
    return roots, counts, anywhere


def _column(line: str, offset: int) -> int:
    """The character index of the UTF-8 byte ``offset`` that :mod:`ast` reports in ``line``."""
    if line.isascii():
        return offset
    return len(line.encode("utf-8")[:offset].decode("utf-8"))


class TextRenamer:
    """Renames the deprecated names of one file's statements on their text.

    ``tree`` is the file parsed by :mod:`ast`.
    """

    def __init__(self, tree: ast.Module) -> None:
        self._found = _roots(tree)

    def rename(self, statement: ast.stmt, first: int, text: str) -> str | None:
        """``text`` (the statement's lines from line ``first``) with its deprecated names renamed.

        None when this cannot be sure to do what the LibCST command would.
        """
        if self._found is None:
            return None
        roots, counts, imported = self._found
        lines = split_lines(text)
        in_fstrings: set[ast.AST] = set()
        edits: list[tuple[int, int, int, str]] = []
        for node in walk(statement):
            if isinstance(node, ast.JoinedStr):
                in_fstrings.update(walk(node))
            if not isinstance(node, ast.Attribute):
                continue
            spelled = _ast_dotted(node)
            if spelled is None or _MARK not in spelled:
                continue  # a name not spelled through it is never renamed
            root, _, rest = spelled.partition(".")
            module = roots.get(root)
            if module is None:
                if counts[root] > 1 or root in imported:
                    # which binding a read means, or whether a function's import is seen
                    # from here: LibCST's scopes decide
                    return None
                continue  # never bound, or once but not by an import: not a module's name
            new = DEPRECATED_NAMES.get(canonical(f"{module}.{rest}"))
            if new is None:
                continue
            prefix = spelled_prefix(spelled, canonical(f"{module}.{rest}"))
            if prefix is None:
                continue  # the command leaves such a spelling alone
            if node in in_fstrings or node.end_lineno != node.lineno:
                return None
            try:
                line = lines[node.lineno - first]
                start = _column(line, node.col_offset)
                end = _column(line, node.end_col_offset or 0)
            except (IndexError, UnicodeError):
                return None
            if line[start:end] != spelled:
                return None  # parentheses, spaces or a comment inside the name
            edits.append((node.lineno - first, start, end, prefix + new.split(".", 1)[1]))
        if not edits:
            return text
        for index, start, end, replacement in sorted(edits, reverse=True):
            line = lines[index]
            lines[index] = line[:start] + replacement + line[end:]
        return "".join(lines)


def rename_only(code: str, tree: ast.Module) -> str | None:
    """``code`` with every deprecated name renamed on its text, for a file that needs nothing
    else (only the renames' pre-check finds something in it); None when a statement must go to
    LibCST.

    A statement whose text does not spell ``experimental`` is never changed by the renames.

    >>> code = "import tensorflow as tf\\ngpus = tf.config.experimental.list_physical_devices()\\n"
    >>> print(rename_only(code, ast.parse(code)), end="")
    import tensorflow as tf
    gpus = tf.config.list_physical_devices()
    """
    spans = statement_spans(tree.body)
    if spans is None or has_bare_cr(code):
        return None
    lines = split_lines(code)
    renamer = TextRenamer(tree)
    out = list(lines)
    for statement, (first, end) in zip(tree.body, spans):
        text = "".join(lines[first - 1 : end])
        if _MARK not in text:
            continue
        new = renamer.rename(statement, first, text)
        if new is None:
            return None
        out[first - 1 : end] = [new] + [""] * (end - first)
    return "".join(out)
