"""Whether two statements of a module can both run in one execution of the program.

Rules that combine two statements (two sessions, memory growth and a memory limit, a variable
set after the GPUs were enumerated) ask this before reporting, so that code like::

    if args.limit:
        tf.config.set_logical_device_configuration(gpu, [...])
    else:
        tf.config.experimental.set_memory_growth(gpu, True)

is not reported as asking for both.  Two statements can both run when, seen from some frame
(the module or a function) that reaches both, they sit on compatible sides of every ``if`` /
``match`` / ``except`` they share.  A function reaches another where its body names it (a
call, or a function handed on as a callback); the module body reaches everything it names.  A
function nothing in the file names is an entry point for other modules: two such functions
(``train()`` and ``evaluate()`` of a script that runs one of them) do not combine with each
other, but each combines with the module-level code that ran at import.

A reference that hands a function on decides how it leads there: a call runs it here; a
launcher that runs it in another process (``horovod.spark.run(fn)``, ``rdd.mapPartitions(fn)``,
``Process(target=fn)``, ``@ray.remote``: see :mod:`tfcompat_gpu.lint.processes`) makes it a
process of its own, combined with nothing outside it; a function only returned, stored or given
to an unknown call is not known to run here, and is treated like a function nothing names.  A
nested function is named only inside the function that defines it.

The answer is computed on demand, only for the few pairs of statements a rule wants to combine,
so files without such pairs cost nothing.
"""

from __future__ import annotations

import ast
import heapq
import re
from bisect import bisect_right
from collections.abc import Iterator

from tfcompat_gpu.lint.processes import (
    POOL_FACTORIES,
    POOL_METHODS,
    PROCESS_CALLS,
    PROCESS_DECORATORS,
    PROCESS_METHODS,
    RUNNER_FACTORIES,
)

__all__ = ["Flow", "Partners", "dotted_name"]

_Branch = tuple[int, int]
"""(id of an ``if`` / ``match`` / ``try`` node, arm): two different arms exclude each other."""
_Path = tuple[_Branch, ...]
_Frame = ast.AST  # ast.Module, ast.FunctionDef or ast.AsyncFunctionDef
_Site = tuple[int, _Path, int, tuple[int, int]]
"""(id of a frame, branches inside it, how it leads on, position of the statement that does)."""
_CALLED, _LAUNCHED, _HANDED = range(3)
"""How a reference to a function leads to it: a call, a launcher of other processes, else."""
_DIRECT, _CALL, _ENTRY = range(3)
"""The statement itself; a call (or a reference) to a function that leads on; the definition
of a function nothing in the file names."""

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
_TRY = tuple(t for t in (ast.Try, getattr(ast, "TryStar", None)) if t is not None)
_MATCH = getattr(ast, "Match", None)
_NOT_HEADER = tuple(
    t
    for t in (ast.stmt, ast.excepthandler, ast.expr_context, getattr(ast, "match_case", None))
    if t is not None
)


_TEXT_SEARCHES = 64
"""Functions whose references :meth:`Flow._references` finds in the text; then the tree."""


def _start(node: ast.AST) -> tuple[int, int]:
    return (node.lineno, node.col_offset)  # type: ignore[attr-defined]


def _end(node: ast.AST) -> tuple[int, int]:
    return (node.end_lineno or 0, node.end_col_offset or 0)  # type: ignore[attr-defined]


def _find(body: list[ast.stmt], pos: tuple[int, int]) -> ast.stmt | None:
    """The statement of ``body`` whose text holds ``pos`` (binary search: bodies are sorted)."""
    lo, hi = 0, len(body)
    while lo < hi:
        mid = (lo + hi) // 2
        if _start(body[mid]) <= pos:
            lo = mid + 1
        else:
            hi = mid
    if lo == 0:
        return None
    stmt = body[lo - 1]
    return stmt if pos <= _end(stmt) else None


def _inside(body: list[ast.stmt], pos: tuple[int, int]) -> bool:
    return bool(body) and _start(body[0]) <= pos <= _end(body[-1])


class _Place:
    __slots__ = ("frames", "stmt")

    def __init__(self) -> None:
        self.frames: list[tuple[_Frame, list[_Branch]]] = []
        self.stmt: ast.stmt | None = None
        """The innermost statement holding the position (a compound one: in its header)."""


class Flow:
    """Answers :meth:`together` for the statements of one parsed module."""

    def __init__(self, tree: ast.Module, source: str | None) -> None:
        self.tree = tree
        # Positions come from the syntax tree, which also breaks lines at a lone "\r".
        self.source = source if source is not None and "\r" not in source else None
        self._names: dict[str, list[tuple[int, int]]] | None = None
        self._lines: list[int] | None = None
        self._sites: dict[int, list[_Site]] = {}
        self._places: dict[tuple[int, int], _Place] = {}
        self._launchers: _Launchers | None = None
        self._searches = 0

    # -- where a position is -------------------------------------------------------------

    def _place(self, pos: tuple[int, int]) -> _Place:
        place = self._places.get(pos)
        if place is not None:
            return place
        place = _Place()
        frame: _Frame = self.tree
        branches: list[_Branch] = []
        body: list[ast.stmt] = self.tree.body
        while True:
            stmt = _find(body, pos)
            if stmt is None:
                break
            place.stmt = stmt
            cls = stmt.__class__
            if cls is ast.If:
                arms = [(stmt.body, 0), (stmt.orelse, 1)]  # type: ignore[attr-defined]
            elif cls in _FUNCS:
                if not _inside(stmt.body, pos):  # type: ignore[attr-defined]
                    break  # decorators, defaults: they run where the function is defined
                place.frames.append((frame, branches))
                frame, branches = stmt, []
                body = stmt.body  # type: ignore[attr-defined]
                continue
            elif cls is ast.ClassDef:
                body = stmt.body  # type: ignore[attr-defined]
                continue
            elif _TRY and cls in _TRY:
                handlers = stmt.handlers  # type: ignore[attr-defined]
                arms = [(stmt.body, -1), (stmt.orelse, 0), (stmt.finalbody, -1)]  # type: ignore[attr-defined]
                arms += [(h.body, i + 1) for i, h in enumerate(handlers)]
            elif _MATCH is not None and cls is _MATCH:
                arms = [(case.body, i) for i, case in enumerate(stmt.cases)]  # type: ignore[attr-defined]
            elif hasattr(stmt, "body") and isinstance(stmt.body, list):  # loops, with
                arms = [(stmt.body, -1), (getattr(stmt, "orelse", []), -1)]
            else:
                break
            for arm_body, arm in arms:
                if _inside(arm_body, pos):
                    if arm >= 0:
                        branches = [*branches, (id(stmt), arm)]
                    body = arm_body
                    break
            else:
                break  # in the statement's own expressions (a condition, a with item)
        place.frames.append((frame, branches))
        self._places[pos] = place
        return place

    # -- who reaches a function ----------------------------------------------------------

    def _position(self, text: str, offset: int) -> tuple[int, int]:
        if self._lines is None:
            self._lines = [0] + [m.end() for m in re.finditer("\n", text)]
        line = bisect_right(self._lines, offset)
        prefix = text[self._lines[line - 1] : offset]
        return (line, len(prefix) if prefix.isascii() else len(prefix.encode("utf-8")))

    def _callers(self, func: ast.AST) -> list[tuple[int, int]]:
        """Where the file names ``func`` (a ``Name`` or an attribute ``x.func``), in order;
        a nested function only inside the function that defines it."""
        found = self._references(func)
        outer = self._place(_start(func)).frames[-1][0]
        if outer is not self.tree:
            low, high = _start(outer), _end(outer)
            found = [pos for pos in found if low <= pos <= high]
        return found

    def _references(self, func: ast.AST) -> list[tuple[int, int]]:
        name: str = func.name  # type: ignore[attr-defined]
        self._searches += 1
        # Each text search reads the whole file: past a few dozen functions (a generated file
        # of thousands), one walk of the tree indexes every name at once.
        if self.source is None or self._searches > _TEXT_SEARCHES:
            if self._names is None:
                self._names = _all_references(self.tree)
            return self._names.get(name, [])
        # The text narrows the search to a few places; the syntax tree there decides, so
        # words in strings and comments do not count.
        found = []
        text = self.source
        size = len(name)
        start = text.find(name)
        while start >= 0:
            end = start + size
            # str.find with a boundary test: a pattern starting with \b gets no literal scan.
            if (start == 0 or not _word(text[start - 1])) and (
                end == len(text) or not _word(text[end])
            ):
                pos = self._position(text, start)
                stmt = self._place(pos).stmt
                if stmt is not None and _names_at(stmt, name, pos):
                    found.append(pos)
            start = text.find(name, end)
        return found

    def _sites_of(self, pos: tuple[int, int]) -> list[_Site]:
        """Every frame whose run can reach ``pos``, with the statement there that leads to it."""
        place = self._place(pos)
        frame, branches = place.frames[-1]
        sites: list[_Site] = [(id(frame), tuple(branches), _DIRECT, pos)]
        if frame is self.tree:
            return sites
        key = id(frame)
        cached = self._sites.get(key)
        if cached is None:
            cached = self._sites[key] = []
            seen = {key}
            pending = [frame]
            while pending:
                func = pending.pop()
                references = self._callers(func)
                kinds = [self._reference_kind(pos) for pos in references]
                callers = [pos for pos, kind in zip(references, kinds) if kind == _CALLED]
                if not callers:
                    if _LAUNCHED in kinds or self._remote(func):
                        continue  # runs in a process of its own: nothing outside combines
                    # Named nowhere, or only handed on: an entry point, called after its
                    # definition ran.
                    outer, outer_branches = self._place(_start(func)).frames[-1]
                    cached.append((id(outer), tuple(outer_branches), _ENTRY, _start(func)))
                    continue
                for caller in callers:
                    caller_frame, caller_branches = self._place(caller).frames[-1]
                    cached.append((id(caller_frame), tuple(caller_branches), _CALL, caller))
                    if caller_frame is not self.tree and id(caller_frame) not in seen:
                        seen.add(id(caller_frame))
                        pending.append(caller_frame)
        return sites + cached

    def _reference_kind(self, pos: tuple[int, int]) -> int:
        """Whether the function named at ``pos`` is called there, handed to a launcher of
        other processes, or only handed on (returned, stored, given to another call)."""
        stmt = self._place(pos).stmt
        if stmt is None:
            return _HANDED
        for part in _header(stmt):
            for node in ast.walk(part):
                if node.__class__ is ast.Call:
                    if _names_pos(node.func, pos):
                        return _CALLED
                    handed = self._launchers_of().handed(node)
                    if handed is not None and _names_pos(handed, pos):
                        return _LAUNCHED
        return _HANDED

    def _launchers_of(self) -> _Launchers:
        if self._launchers is None:
            self._launchers = _Launchers(self.tree)
        return self._launchers

    def _remote(self, func: ast.AST) -> bool:
        """Whether ``func`` is decorated to run in other processes (``@ray.remote``)."""
        decorators = func.decorator_list  # type: ignore[attr-defined]
        return bool(decorators) and any(
            self._launchers_of().qualified(d.func if isinstance(d, ast.Call) else d)
            in PROCESS_DECORATORS
            for d in decorators
        )

    def same_process(self, a: ast.AST | tuple[int, int], b: ast.AST | tuple[int, int]) -> bool:
        """Whether some frame (the module, a function) can run both ``a`` and ``b``: false when
        one of them only runs in a process of its own (a worker function handed to Horovod,
        Spark, a process pool)."""
        frames_b = {site[0] for site in self._sites_of(_pos(b))}
        return any(site[0] in frames_b for site in self._sites_of(_pos(a)))

    # -- the question --------------------------------------------------------------------

    def together(self, a: ast.AST | tuple[int, int], b: ast.AST | tuple[int, int]) -> bool:
        """Whether one run of the program can execute both ``a`` and ``b``."""
        pos_a, pos_b = _pos(a), _pos(b)
        if pos_a == pos_b:
            return True
        sites_b = self._sites_of(pos_b)
        for frame_a, path_a, how_a, via_a in self._sites_of(pos_a):
            for frame_b, path_b, how_b, via_b in sites_b:
                if (
                    frame_a == frame_b
                    # Through one call both are inside it: the frames below decide.
                    and via_a != via_b
                    # A function only other modules call runs after this module's own
                    # statements, not together with other such functions.
                    and (how_a != _ENTRY or how_b == _DIRECT)
                    and (how_b != _ENTRY or how_a == _DIRECT)
                    and _compatible(path_a, path_b)
                ):
                    return True
        return False

    def after(self, earlier: ast.AST | tuple[int, int], later: ast.AST | tuple[int, int]) -> bool:
        """Whether ``later`` can run after ``earlier``, for an ``earlier`` the walk met first in
        ``later``'s scope or an enclosing one: only the branches they share can part them."""
        place_a, place_b = self._place(_pos(earlier)), self._place(_pos(later))
        branches_a = tuple(b for _, bs in place_a.frames for b in bs)
        branches_b = tuple(b for _, bs in place_b.frames for b in bs)
        return _compatible(branches_a, branches_b)

    def maybe_skipped(
        self, earlier: ast.AST | tuple[int, int], later: ast.AST | tuple[int, int]
    ) -> bool:
        """Whether a run that executed ``earlier`` may skip ``later``: ``later`` sits in an arm
        of an ``if`` / ``match`` / ``try`` that ``earlier`` is not in (the other arm, an
        ``except`` after the ``try`` body, ``earlier`` before the ``if``)."""
        place_a, place_b = self._place(_pos(earlier)), self._place(_pos(later))
        branches_a = {b for _, bs in place_a.frames for b in bs}
        return any(b not in branches_a for _, bs in place_b.frames for b in bs)


class Partners:
    """Statements noted in order, asked which of them one run can execute together with
    another: :meth:`Flow.together` is asked only of those sharing a frame with it (every pair
    it accepts does), in the order they were noted.  A rule combining each statement with the
    earlier ones (two sessions) stays near linear on a file of thousands of them.
    """

    def __init__(self, flow: Flow) -> None:
        self._flow = flow
        self._nodes: list[ast.AST] = []
        # (frame, whether the site is an entry point's definition) -> indexes, ascending
        self._by_frame: dict[tuple[int, bool], list[int]] = {}

    def __len__(self) -> int:
        return len(self._nodes)

    def add(self, node: ast.AST) -> int:
        """Note ``node``; its index (0 for the first)."""
        index = len(self._nodes)
        self._nodes.append(node)
        for frame, _, how, _ in self._flow._sites_of(_pos(node)):
            bucket = self._by_frame.setdefault((frame, how == _ENTRY), [])
            if not bucket or bucket[-1] != index:
                bucket.append(index)
        return index

    def of(self, node: ast.AST) -> Iterator[int]:
        """The indexes of the noted statements one run can execute with ``node``, ascending."""
        buckets = []
        for frame, _, how, _ in self._flow._sites_of(_pos(node)):
            buckets.append(self._by_frame.get((frame, False), []))
            if how == _DIRECT:  # an entry point's definition combines only with direct code
                buckets.append(self._by_frame.get((frame, True), []))
        last = -1
        for index in heapq.merge(*buckets):
            if index != last:
                last = index
                if self._flow.together(self._nodes[index], node):
                    yield index


def _pos(node: ast.AST | tuple[int, int]) -> tuple[int, int]:
    return node if isinstance(node, tuple) else _start(node)


def _word(char: str) -> bool:
    return char.isalnum() or char == "_"


def _header(stmt: ast.stmt) -> list[ast.AST]:
    """The parts of ``stmt`` outside its nested statements (all of a simple statement)."""
    parts: list[ast.AST] = []
    for _, value in ast.iter_fields(stmt):
        for item in value if isinstance(value, list) else (value,):
            if isinstance(item, ast.AST) and not isinstance(item, _NOT_HEADER):
                parts.append(item)
    return parts


def _names_at(stmt: ast.stmt, name: str, pos: tuple[int, int]) -> bool:
    for part in _header(stmt):
        for node in ast.walk(part):
            cls = node.__class__
            if cls is ast.Name and node.id == name and _start(node) == pos:  # type: ignore[attr-defined]
                return True
            if (
                cls is ast.Attribute
                and node.attr == name  # type: ignore[attr-defined]
                and _end(node) == (pos[0], pos[1] + len(name))
            ):
                return True
    return False


def _all_references(tree: ast.AST) -> dict[str, list[tuple[int, int]]]:
    names: dict[str, list[tuple[int, int]]] = {}
    for node in ast.walk(tree):
        if node.__class__ is ast.Name:
            names.setdefault(node.id, []).append(_start(node))
        elif node.__class__ is ast.Attribute:
            line, col = _end(node)
            attr = node.attr
            names.setdefault(attr, []).append((line, col - len(attr)))
    for found in names.values():
        found.sort()
    return names


def _compatible(a: _Path, b: _Path) -> bool:
    if not a or not b:
        return True
    arms = dict(a)
    for node, arm in b:
        other = arms.get(node)
        if other is not None and other != arm:
            return False
    return True


def dotted_name(node: ast.AST) -> str | None:
    """The dotted text of a name or attribute chain (``tf.compat.v1.Session``), else None."""
    parts: list[str] = []
    while node.__class__ is ast.Attribute:
        parts.append(node.attr)
        node = node.value
    if node.__class__ is not ast.Name:
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


_COMPOUND = (
    ast.If,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.With,
    ast.AsyncWith,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    *_TRY,
)


class _Launchers:
    """The imports and the process pools / runners a module binds, read from its statements
    only (never every expression: this runs for files whose functions are handed on)."""

    def __init__(self, tree: ast.Module) -> None:
        self.imports: dict[str, str] = {}
        self.pools: set[str] = set()
        self.runners: dict[str, frozenset[str]] = {}
        binds: list[tuple[ast.expr, ast.expr]] = []
        pending: list[ast.stmt] = list(tree.body)
        while pending:
            stmt = pending.pop()
            if isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    if alias.asname:
                        self.imports[alias.asname] = alias.name
                    else:
                        root = alias.name.partition(".")[0]
                        self.imports[root] = root
            elif isinstance(stmt, ast.ImportFrom):
                if stmt.module and not stmt.level:
                    for alias in stmt.names:
                        self.imports[alias.asname or alias.name] = stmt.module + "." + alias.name
            elif isinstance(stmt, ast.Assign):
                if len(stmt.targets) == 1:
                    binds.append((stmt.targets[0], stmt.value))
            elif isinstance(stmt, _COMPOUND):
                if isinstance(stmt, (ast.With, ast.AsyncWith)):
                    binds += [
                        (item.optional_vars, item.context_expr)
                        for item in stmt.items
                        if item.optional_vars is not None
                    ]
                for field in ("body", "orelse", "finalbody"):
                    pending.extend(getattr(stmt, field, ()))
                for handler in getattr(stmt, "handlers", ()):
                    pending.extend(handler.body)
        for target, value in binds:
            if not isinstance(target, ast.Name) or not isinstance(value, ast.Call):
                continue
            maker = self.qualified(value.func) or ""
            if maker in POOL_FACTORIES or maker.rpartition(".")[2] in (
                "Pool",
                "ProcessPoolExecutor",
            ):
                self.pools.add(target.id)
            elif maker in RUNNER_FACTORIES:
                self.runners[target.id] = RUNNER_FACTORIES[maker]

    def qualified(self, func: ast.AST) -> str | None:
        dotted = dotted_name(func)
        if dotted is None:
            return None
        head, dot, rest = dotted.partition(".")
        return self.imports.get(head, head) + dot + rest

    def handed(self, call: ast.Call) -> ast.expr | None:
        """The function ``call`` runs in another process, if it is such a launcher."""
        func = call.func
        name = self.qualified(func)
        where = PROCESS_CALLS.get(name) if name is not None else None
        if where is None and isinstance(func, ast.Attribute):
            method = func.attr
            owner = func.value.id if isinstance(func.value, ast.Name) else None
            if method in PROCESS_METHODS:
                where = 0
            elif method == "Process":  # multiprocessing.get_context("spawn").Process(...)
                where = "target"
            elif (owner in self.pools and method in POOL_METHODS) or (
                owner in self.runners and method in self.runners[owner]
            ):
                where = 0
            elif method == "run" and (self.qualified(func.value) or "").endswith("TFCluster"):
                where = 1
        elif where is None and name is not None and name.rpartition(".")[2] == "Process":
            where = "target"
        if isinstance(where, int):
            return call.args[where] if len(call.args) > where else None
        if where is not None:
            return next((k.value for k in call.keywords if k.arg == where), None)
        return None


def _names_pos(node: ast.AST, pos: tuple[int, int]) -> bool:
    """Whether ``node`` is the name (or the attribute ``x.name``) found at ``pos``."""
    if node.__class__ is ast.Name:
        return _start(node) == pos
    if node.__class__ is ast.Attribute:
        return _end(node) == (pos[0], pos[1] + len(node.attr))
    return False
