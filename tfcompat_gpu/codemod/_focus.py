"""Giving LibCST only the part of a file the migration can be about.

LibCST's parse and metadata cost grows with the whole file, while GPU configuration is a few
statements of it.  :func:`focus` keeps the module-level statements a command may concern, the
imports, and every statement that shares a module-level name with those (to a fixed point, so
that the dataflow sees every assignment and read of the names it follows).  Each other
statement becomes a stub on the same lines that still reads the imported names the statement
read (once, or on each line it read them where a command reports those lines; a stub without
such lines holds its lines in one string literal): line numbers and import uses stay as they
were.  A statement whose reads of an imported name a stub could not copy exactly is kept as
it is: one that binds, deletes or declares the name in a scope of its own, or names it in a
string LibCST's scope analysis reads as code (an annotation); so is every statement that
names ``__all__``.  Where the focus cannot tell how LibCST links a name (class bodies,
comprehensions, ``global`` in a nested scope), it counts the name as used: keeping a
statement too many changes nothing, leaving one out that decides what a name means does.
:func:`unfocus` puts the statements back in the migrated code.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from tfcompat_gpu.codemod._astwalk import (
    DEFINITIONS,
    MATCH_CAPTURES,
    NAMED_BINDINGS,
    children,
    named_bindings,
    statement_spans,
    walk,
)
from tfcompat_gpu.codemod._io import has_bare_cr, split_lines

__all__ = ["Focus", "focus", "unfocus"]

_MARK = "__tfcompat_gpu_kept_"
_STUB = _MARK + "{}__"
_EXPORTS = "__all__"


@dataclass(frozen=True)
class Focus:
    code: str
    """The file with the statements left out replaced by stubs."""
    stubs: tuple[tuple[str, str], ...]
    """(stub text, original text) of each statement left out (rewritten where ``rewrite`` did)."""
    kept: tuple[int, ...] = ()
    """The indexes (in the module's body) of the statements kept as they are."""


_ANNOTATED = frozenset({ast.arg, ast.AnnAssign, ast.FunctionDef, ast.AsyncFunctionDef})
_TYPING_HINTS = _ANNOTATED | {ast.Call, ast.Subscript}


def _annotations(node: ast.AST) -> tuple[ast.AST | None, ...]:
    if isinstance(node, (ast.arg, ast.AnnAssign)):
        return (node.annotation,)
    if isinstance(node, (ast.Call, ast.Subscript)):
        return tuple(children(node))  # a hint in a file that names typing (see _scan)
    return (getattr(node, "returns", None),)


def _scan(statement: ast.stmt, typing: bool) -> tuple[set[str], set[str], set[str]]:
    """(bound, inner, hinted) of a top-level statement.

    bound: the module-level names it binds.  inner: every name it binds or declares at any
    depth, in any scope (stores, deletions, arguments, imports, except-as, match captures,
    definitions, type parameters, ``global`` / ``nonlocal``).  hinted: the words of the strings
    LibCST's scope analysis may parse as code (each read of a name in them counts as a read
    of that name): those in annotations and, in a file that names ``typing`` (whose ``cast``,
    ``TypeVar``, ``NewType`` and subscripted types make hints of their arguments), those in
    call arguments and subscripts.
    """
    bound: set[str] = set()
    inner: set[str] = set()
    hinted: set[str] = set()
    definition = isinstance(statement, DEFINITIONS)
    if definition:
        bound.add(statement.name)  # type: ignore[attr-defined]
    hints = _TYPING_HINTS if typing else _ANNOTATED
    # the nodes below a hint are walked after the others, each stack on its own
    stacks: tuple[list[ast.AST], list[ast.AST]] = ([statement], [])
    for hint, todo in enumerate(stacks):
        while todo:
            node = todo.pop()
            kind = type(node)
            if kind is ast.Name:
                if type(node.ctx) is not ast.Load:  # type: ignore[attr-defined]
                    inner.add(node.id)  # type: ignore[attr-defined]
                    if not definition:
                        bound.add(node.id)  # type: ignore[attr-defined]
                continue
            if kind is ast.Constant:
                value = node.value  # type: ignore[attr-defined]
                if hint and isinstance(value, (str, bytes)):
                    text = value if isinstance(value, str) else value.decode("latin-1")
                    hinted.update(_WORD.findall(text))
                continue
            if kind is ast.Global or kind is ast.Nonlocal:
                inner.update(node.names)  # type: ignore[attr-defined]
                if kind is ast.Global:
                    bound.update(node.names)  # type: ignore[attr-defined]
            elif kind is ast.arg:
                inner.add(node.arg)  # type: ignore[attr-defined]
            elif kind in NAMED_BINDINGS:
                # imports, nested definitions, except-as, match captures, type parameters
                names = named_bindings(node)
                inner.update(names)
                if not definition:
                    bound.update(names)
            if hint or kind not in hints:
                todo.extend(children(node))
            else:
                annotations = _annotations(node)
                for child in children(node):
                    stacks[child in annotations].append(child)
    return bound, inner, hinted


_WORD = re.compile(r"[^\W\d]\w*")
_SCOPES = (*DEFINITIONS, ast.Lambda)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _collect(nodes: Sequence[ast.AST]) -> tuple[set[str], set[str], set[str]]:
    """(stored, read, escaping) of one scope, as LibCST's scope analysis links names, or more.

    stored: the names bound here that LibCST binds here too (so a read of them here is not a
    read of the module's); read: the names read here, with the free names of the nested
    scopes; escaping: the names declared ``global`` or ``nonlocal`` here or in a nested scope,
    which bind or read outside whatever the scopes around bind.  Where Python and LibCST
    differ, or the answer would need more care, a name counts as read and not as stored (a
    statement kept for a name it does not use is harmless; one left out that uses it is not):
    a ``del`` or a ``match`` capture (which LibCST takes for a read), every name of a
    comprehension (a scope of its own, walrus targets included, for LibCST).
    """
    stored: set[str] = set()
    read: set[str] = set()
    escaping: set[str] = set()
    todo = list(nodes)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Name):
            (stored if isinstance(node.ctx, ast.Store) else read).add(node.id)
            continue
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            escaping.update(node.names)
        elif isinstance(node, _SCOPES):
            if not isinstance(node, ast.Lambda):
                stored.add(node.name)
            free, declared = _free(node)
            read |= free
            escaping |= declared
            continue
        elif isinstance(node, _COMPREHENSIONS):
            read.update(n.id for n in walk(node) if isinstance(n, ast.Name))
            continue
        elif isinstance(node, MATCH_CAPTURES):
            read.update(named_bindings(node))
        else:
            # imports, except-as, type parameters
            stored.update(named_bindings(node))
        todo.extend(children(node))
    return stored, read, escaping


def _free(
    scope: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef,
) -> tuple[set[str], set[str]]:
    """(free, escaping) of a function or class: the names it reads from its surroundings (and
    binds there, evaluated where it stands: a walrus in a default), and those it or a scope in
    it declares ``global`` or ``nonlocal``.

    A class body's names are not seen in the scopes nested in it; they count as free (more
    than the class reads, never less).
    """
    outside: list[ast.AST] = list(getattr(scope, "decorator_list", []))
    outside += getattr(scope, "type_params", [])
    local: set[str] = set()
    if isinstance(scope, ast.ClassDef):
        outside += [*scope.bases, *scope.keywords]
        inside: list[ast.AST] = list(scope.body)
    else:
        arguments = scope.args
        outside += [*arguments.defaults, *(d for d in arguments.kw_defaults if d is not None)]
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
        local = {a.arg for a in every}
        outside += [a.annotation for a in every if a.annotation is not None]
        if not isinstance(scope, ast.Lambda) and scope.returns is not None:
            outside.append(scope.returns)
        inside = list(scope.body) if isinstance(scope.body, list) else [scope.body]
    around_stored, around, around_declared = _collect(outside)
    stored, read, declared = _collect(inside)
    # a class body's names: not seen in the scopes nested in it, all counted as read
    free = read if isinstance(scope, ast.ClassDef) else read - (stored | local)
    return around_stored | around | free, around_declared | declared


def _names(statement: ast.stmt) -> set[str]:
    """Module-level names a top-level statement may read or bind (or more)."""
    if isinstance(statement, DEFINITIONS):
        # what it binds besides its name is declared ``global`` inside: among the escaping
        free, escaping = _free(statement)
        return free | escaping | {statement.name}
    # what ``_scan`` finds bound (stores, deletions, imports, nested definitions, ``global``)
    # is among these
    stored, read, escaping = _collect([statement])
    return stored | read | escaping


def _has_import(statement: ast.stmt) -> bool:
    return any(isinstance(node, (ast.Import, ast.ImportFrom)) for node in walk(statement))


_NESTED_SCOPES = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.Lambda,
    ast.ClassDef,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)


def _reads(statement: ast.stmt) -> Iterator[tuple[str, int, bool]]:
    """(name, line, deferred) of each name a top-level statement reads, stores or deletes.

    Deferred: read in a function, class body or comprehension, a scope of its own, where
    LibCST links the read to every module-level binding of the name, even one further down
    the file; a module-level read only sees the bindings above it.
    """
    todo: list[tuple[ast.AST, bool]] = [(statement, False)]
    while todo:
        node, deferred = todo.pop()
        if isinstance(node, ast.Name):
            yield node.id, node.lineno, deferred
            continue
        if isinstance(node, _NESTED_SCOPES) and not deferred:
            # decorators, defaults, bases and annotations run where the statement stands
            around = _evaluated_around(node)
            todo.extend((child, child not in around) for child in children(node))
        else:
            todo.extend((child, deferred) for child in children(node))


def _evaluated_around(node: ast.AST) -> set[ast.AST]:
    around: list[ast.AST] = list(getattr(node, "decorator_list", ()))
    if isinstance(node, ast.ClassDef):
        around += [*node.bases, *node.keywords]
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        around.append(node.args)
        if not isinstance(node, ast.Lambda) and node.returns is not None:
            around.append(node.returns)
    return set(around)


def _read(name: str, deferred: bool) -> str:
    # a deferred read stays one inside the stub: a lambda is a scope of its own for LibCST
    return f"lambda: {name}, " if deferred else f"{name}, "


def focus(
    code: str,
    tree: ast.Module,
    relevant: Callable[[str], bool],
    min_left_out: float = 0.2,
    rewrite: Callable[[ast.stmt, int, str], str | None] | None = None,
    tracked: Callable[[str], bool] | None = None,
) -> Focus | None:
    """The focused file, or None when too little would be left out to be worth it.

    ``rewrite(statement, first_line, text)`` is asked of each statement ``relevant`` says yes
    to: the statement's text with the changes done without LibCST, or None when LibCST must
    see it.  A statement it rewrites is treated as not relevant; when it is left out, the
    rewritten text is what :func:`unfocus` puts back.

    A stub reads a name that only imports bind on each line its statement read it, when
    ``tracked`` says yes to the text of an import binding it (None: every import); else once,
    which is all that whether the import is still used needs.  Each read costs LibCST's
    scope analysis a node.
    """
    body = tree.body
    spans = statement_spans(body)
    if _MARK in code or not body or spans is None or has_bare_cr(code):
        return None
    # lines as Python counts them (splitlines would also split at form feeds)
    lines = split_lines(code)
    texts = ["".join(lines[start - 1 : end]) for start, end in spans]
    concerned = [relevant(t) for t in texts]
    rewritten: dict[int, str] = {}
    if rewrite is not None:
        for index, (statement, text, (start, _)) in enumerate(zip(body, texts, spans)):
            if concerned[index]:
                new = rewrite(statement, start, text)
                if new is not None:
                    rewritten[index] = new
    keep = [
        (c and i not in rewritten)
        or ("import" in t and _has_import(s))
        or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
        # a file's ``__all__`` uses the names it lists: LibCST's import remover reads it
        or _EXPORTS in t
        for i, (s, t, c) in enumerate(zip(body, texts, concerned))
    ]
    if all(keep):
        return None
    typing = "typing" in code
    scans = [_scan(statement, typing) for statement in body]
    bound = [b for b, _, _ in scans]
    # the names in strings LibCST reads as code are read too
    names = [_names(statement) | hinted for statement, (_, _, hinted) in zip(body, scans)]
    # A function or class the kept code only calls or names is not kept for that: when its
    # own text is not relevant, no command looks into it (what it returns or does with its
    # arguments is opaque to the dataflow either way), so only what it reads and what it binds
    # otherwise (``global`` names) count.  It is still kept when its name is bound again by
    # kept code, or when it reads or declares a name the kept code uses.
    defined = [{s.name} if isinstance(s, DEFINITIONS) else set() for s in body]
    matched = [n - d for n, d in zip(names, defined)]
    imported: set[str] = set()
    for statement, binds in zip(body, bound):
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            imported |= binds
    elsewhere = set().union(
        *(b for s, b in zip(body, bound) if not isinstance(s, (ast.Import, ast.ImportFrom)))
    )
    module_names = elsewhere | imported
    # names only imports bind stand for a module: stubs keep their reads instead
    only_imported = imported - elsewhere
    followed = module_names - only_imported
    # A stub reads such a name where the statement reads it; that is exact only when every
    # read is one of the module's name.  A statement that binds, deletes or declares the name
    # in a scope of its own (a local, an argument, ``del``, ``global``, a capture, a class
    # attribute, a comprehension's target ...) or names it in a string LibCST may read as
    # code is kept as it is: LibCST then judges its reads on the statement itself.
    for index, (_, inner, hinted) in enumerate(scans):
        if not keep[index] and (inner | hinted) & only_imported:
            keep[index] = True
    shared = set().union(*(n for n, k in zip(names, keep) if k)) & followed
    rebound = set().union(*(b for b, k in zip(bound, keep) if k)) & followed
    # to a fixed point: a statement that reads a shared name, or defines a rebound one, is
    # kept and shares its own names; each name is followed once (linear in the file)
    readers: dict[str, list[int]] = {}
    definers: dict[str, list[int]] = {}
    for index, (read, named) in enumerate(zip(matched, defined)):
        if not keep[index]:
            for name in read & followed:
                readers.setdefault(name, []).append(index)
            for name in named & followed:
                definers.setdefault(name, []).append(index)
    todo = [(name, readers) for name in shared] + [(name, definers) for name in rebound]
    while todo:
        name, users = todo.pop()
        for index in users.get(name, ()):
            if keep[index]:
                continue
            keep[index] = True
            for new in (names[index] & followed) - shared:
                shared.add(new)
                todo.append((new, readers))
            for new in (bound[index] & followed) - rebound:
                rebound.add(new)
                todo.append((new, definers))
    # counted in characters, not lines: one long line of data is most of a file
    left_out = sum(len(text) for text, k in zip(texts, keep) if not k)
    if left_out < min_left_out * max(len(code), 1):
        return None
    every_line = only_imported
    if tracked is not None:
        every_line = set()
        for statement, binds, text in zip(body, bound, texts):
            if isinstance(statement, (ast.Import, ast.ImportFrom)) and tracked(text):
                every_line |= binds
    out = list(lines)
    stubs: list[tuple[str, str]] = []
    # each run of statements left out side by side is one stub: LibCST's work then grows
    # with the statements kept, not with the file
    runs: list[list[int]] = []
    for index, k in enumerate(keep):
        if not k:
            if runs and runs[-1][-1] == index - 1:
                runs[-1].append(index)
            else:
                runs.append([index])
    for run in runs:
        start, end = spans[run[0]][0], spans[run[-1]][1]
        first_read: dict[str, tuple[int, bool]] = {}
        # line -> the names read there, once each, and whether any read is deferred
        reads: dict[int, dict[str, bool]] = {}
        for index in run:
            # each read of an import's name here reads the module's (the statements that
            # bind such a name in a scope of their own are kept)
            for name, number, deferred in _reads(body[index]):
                if name not in only_imported:
                    continue
                if name in every_line:
                    on_line = reads.setdefault(number, {})
                    on_line[name] = on_line.get(name, False) or deferred
                else:
                    line, later = first_read.get(name, (number, False))
                    first_read[name] = (min(number, line), later or deferred)
        newline = "\r\n" if lines[end - 1].endswith("\r\n") else "\n"
        ending = newline if lines[end - 1].endswith("\n") else ""
        if not reads:
            # one string literal holds the lines: for LibCST one node, where empty lines
            # inside the parentheses are several each
            used = "".join(_read(name, later) for name, (_, later) in sorted(first_read.items()))
            lines_held = f'"""{newline * (end - start)}"""' if end > start else ""
            stub = _STUB.format(run[0]) + "(" + (used + lines_held).rstrip(", ") + ")"
        else:
            for name, (number, later) in first_read.items():
                on_line = reads.setdefault(number, {})
                on_line[name] = on_line.get(name, False) or later
            stub_lines = []
            for number in range(start, end + 1):
                used = "".join(
                    _read(name, later) for name, later in sorted(reads.get(number, {}).items())
                )
                stub_lines.append(used.rstrip(" "))
            stub_lines[0] = _STUB.format(run[0]) + "(" + stub_lines[0]
            stub_lines[-1] += ")"
            stub = newline.join(stub_lines)
        out[start - 1] = stub + ending
        for number in range(start, end):
            out[number] = ""
        # the statements as they go back (rewritten where ``rewrite`` did), with the
        # comments and empty lines between them
        pieces: list[str] = []
        previous_end = start - 1
        for index in run:
            if pieces:
                pieces.append("".join(lines[previous_end : spans[index][0] - 1]))
            pieces.append(rewritten.get(index, texts[index]))
            previous_end = spans[index][1]
        original = "".join(pieces)
        stubs.append((stub, original[: len(original) - len(ending)]))
    return Focus("".join(out), tuple(stubs), tuple(i for i, k in enumerate(keep) if k))


_STUB_MARK = re.compile(re.escape(_MARK) + r"\d+__")


def unfocus(migrated: str, stubs: Sequence[tuple[str, str]]) -> str | None:
    """``migrated`` with the statements left out back in place; None if a stub was touched.

    One pass over the text: each stub must be found once, as it was written.
    """
    wanted = {stub[: stub.index("(")]: (stub, original) for stub, original in stubs}
    pieces: list[str] = []
    done = 0
    found = 0
    for match in _STUB_MARK.finditer(migrated):
        entry = wanted.pop(match.group(), None)
        if entry is None or not migrated.startswith(entry[0], match.start()):
            return None
        pieces += [migrated[done : match.start()], entry[1]]
        done = match.start() + len(entry[0])
        found += 1
    if wanted or found != len(stubs):
        return None
    pieces.append(migrated[done:])
    return "".join(pieces)
