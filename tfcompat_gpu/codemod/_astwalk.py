"""The :mod:`ast` helpers of the migration's text side (focus, renames, pre-checks).


:func:`ast.walk` goes breadth-first through two nested generators per node and yields every
expression context (``Load``, ``Store``, ``Del``: a third of a module's nodes) as a node of its
own.  :func:`walk` goes depth-first (a node before its children) over the child fields of each
node type, looked up once, and leaves the contexts out: read them as ``node.ctx``.  On a 10 KB
module it takes half the time.  :func:`statement_spans` gives the lines of a module's
statements, as the focus and the text renames cut them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

__all__ = [
    "DEFINITIONS",
    "MATCH_CAPTURES",
    "NAMED_BINDINGS",
    "children",
    "dotted",
    "named_bindings",
    "nested_statements",
    "statement_spans",
    "walk",
]


def dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for a chain of Names and Attributes, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
"""The statements that open a scope of their own."""
_FIELDS: dict[type[ast.AST], tuple[str, ...]] = {}
# nodes without child nodes (but their context): most of a data literal's nodes
_LEAVES = frozenset({ast.Constant, ast.Name, ast.Pass, ast.Break, ast.Continue})


def _fields(kind: type[ast.AST]) -> tuple[str, ...]:
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(name for name in kind._fields if name != "ctx")
    return names


def _node_types(*names: str) -> tuple[type[ast.AST], ...]:
    # the ast node types of these names this Python has (match: 3.10, type parameters: 3.12)
    return tuple(getattr(ast, name) for name in names if hasattr(ast, name))


_CAPTURES = _node_types("MatchAs", "MatchStar")
_MAPPINGS = _node_types("MatchMapping")
_TYPE_PARAMETERS = _node_types("TypeVar", "ParamSpec", "TypeVarTuple")
MATCH_CAPTURES = (*_CAPTURES, *_MAPPINGS)
"""The ``match`` pattern nodes that bind names (``case x``, ``case [*x]``, ``case {**x}``)."""
NAMED_BINDINGS = frozenset(
    {
        ast.ExceptHandler,
        ast.Import,
        ast.ImportFrom,
        *DEFINITIONS,
        *MATCH_CAPTURES,
        *_TYPE_PARAMETERS,
    }
)
"""The node types :func:`named_bindings` finds names in (a set: test ``type(node) in``)."""


def named_bindings(node: ast.AST) -> tuple[str, ...]:
    """The names ``node`` binds by a plain string field, not by an :class:`ast.Name` store
    below it: ``except E as name``, ``case name`` / ``case [*name]`` / ``case {**name}`` /
    ``case P() as name``, ``import a.b as name``, a type parameter (3.12), and a ``def`` or
    ``class`` name.  With the names of stored :class:`ast.Name` nodes (assignments, ``for``,
    ``with ... as``, walrus, ``del``, ``type X = ...``) and of ``global`` / ``nonlocal``,
    these are every name a Python program binds.

    >>> named_bindings(ast.parse("try: pass\\nexcept E as err: pass").body[0].handlers[0])
    ('err',)
    """
    if isinstance(node, ast.ExceptHandler):
        return (node.name,) if node.name else ()
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return tuple(alias.asname or alias.name.split(".")[0] for alias in node.names)
    if isinstance(node, DEFINITIONS):
        return (node.name,)
    if isinstance(node, _CAPTURES):
        name = getattr(node, "name", None)
        return (name,) if name else ()
    if isinstance(node, _MAPPINGS):
        rest = getattr(node, "rest", None)
        return (rest,) if rest else ()
    if isinstance(node, _TYPE_PARAMETERS):
        return (getattr(node, "name"),)  # noqa: B009 (3.12 node types, unknown to mypy on 3.9)
    return ()


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
        if type(node) not in _LEAVES:
            todo.extend(reversed(children(node)))


def statement_spans(body: list[ast.stmt]) -> list[tuple[int, int]] | None:
    """(first line, last line) of each statement, decorators included; None when two
    statements share a line (``a = 1; b = 2``), which a cut by lines cannot separate.

    >>> statement_spans(ast.parse("@d\\ndef f():\\n    pass\\nx = 1\\n").body)
    [(1, 3), (4, 4)]
    """
    spans: list[tuple[int, int]] = []
    for statement in body:
        decorators = getattr(statement, "decorator_list", [])
        start = min([statement.lineno, *(d.lineno for d in decorators)])
        end = statement.end_lineno or statement.lineno
        if spans and start <= spans[-1][1]:
            return None
        spans.append((start, end))
    return spans


def nested_statements(body: list[ast.stmt], *, scopes: bool = True) -> Iterator[ast.stmt]:
    """Every statement of ``body``, nested ones included, without walking into expressions.

    ``scopes=False``: not the statements inside functions and classes (those of the module's
    own scope only).
    """
    todo = list(body)
    while todo:
        statement = todo.pop()
        yield statement
        if not scopes and isinstance(statement, DEFINITIONS):
            continue
        for name in ("body", "orelse", "finalbody"):
            inner = getattr(statement, name, None)
            if isinstance(inner, list):
                todo.extend(inner)
        for handler in getattr(statement, "handlers", ()):
            todo.extend(handler.body)
        for case in getattr(statement, "cases", ()):
            todo.extend(case.body)
