"""A faster :func:`ast.walk` for the migration's text-side analysis (focus, renames, pre-checks).

:func:`ast.walk` goes breadth-first through two nested generators per node and yields every
expression context (``Load``, ``Store``, ``Del``: a third of a module's nodes) as a node of its
own.  :func:`walk` goes depth-first (a node before its children) over the child fields of each
node type, looked up once, and leaves the contexts out: read them as ``node.ctx``.  On a 10 KB
module it takes half the time.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

__all__ = ["children", "walk"]

_FIELDS: dict[type[ast.AST], tuple[str, ...]] = {}


def _fields(kind: type[ast.AST]) -> tuple[str, ...]:
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(name for name in kind._fields if name != "ctx")
    return names


def children(node: ast.AST) -> list[ast.AST]:
    """The child nodes of ``node``, without its expression context."""
    found: list[ast.AST] = []
    for name in _FIELDS.get(type(node)) or _fields(type(node)):
        value = getattr(node, name, None)
        if isinstance(value, list):
            found.extend(item for item in value if isinstance(item, ast.AST))
        elif isinstance(value, ast.AST):
            found.append(value)
    return found


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """``node`` and every node below it, each before its children; no expression contexts.

    >>> [type(n).__name__ for n in walk(ast.parse("x = y.z"))]
    ['Module', 'Assign', 'Name', 'Attribute', 'Name']
    """
    todo = [node]
    while todo:
        node = todo.pop()
        yield node
        todo.extend(reversed(children(node)))
