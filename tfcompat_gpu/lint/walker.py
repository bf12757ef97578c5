"""One pass over a module's AST in source order, calling the registered callbacks.

The traversal is iterative, so deeply nested code cannot exhaust the interpreter's stack, and
it never descends into the names of an attribute chain once the chain is resolved, which keeps
it close to the cost of ``ast.parse`` itself.  On the way it keeps the import aliases, the
enclosing loops, and the first point in each scope where TensorFlow enumerated the GPUs or
started its runtime (:class:`~tfcompat_gpu.lint.context.FileContext`).
"""

from __future__ import annotations

import ast
import re
from typing import Any

from tfcompat_gpu.lint.context import (
    EVENTS_KEPT,
    Event,
    FileContext,
    Loop,
    Scope,
    call_keywords,
    expr_key,
)
from tfcompat_gpu.lint.dispatch import (
    CALL_HANDLERS,
    END_HANDLERS,
    KEYWORD_HANDLERS,
    NODE_HANDLERS,
    REF_HANDLERS,
)
from tfcompat_gpu.lint.flow import dotted_name
from tfcompat_gpu.lint.guards import (
    ATTR,
    FALLBACK,
    IMPORT,
    TF1,
    fallback_handlers,
    leaves,
    leaves_on_tf2,
    probes,
    raisers_on_tf2,
    tf1_arm,
    tf1_helpers,
    try_guards,
)
from tfcompat_gpu.lint.tfcalls import (
    DISABLES,
    ENUMERATES,
    NOTHING,
    OP,
    STARTS,
    TRACKED_ROOTS,
    call_kind,
    canonical,
    display,
)

__all__ = ["walk"]


def _note_call(ctx: FileContext, name: str, node: ast.Call) -> None:
    """Record the GPU enumerations / runtime starts of the current scope."""
    kind = call_kind(name)
    if kind == NOTHING:
        return
    if kind == DISABLES:
        ctx.eager_disabled = True
        return
    scope = ctx.scopes[-1]
    if kind == STARTS or (kind == OP and not ctx.eager_disabled):
        if len(scope.started) < EVENTS_KEPT:
            scope.note(Event(node.lineno, f"`{_shown(name, node)}(...)`", node.col_offset), True)
    elif kind == ENUMERATES and len(scope.gpu_init) < EVENTS_KEPT:
        scope.note(Event(node.lineno, f"`{_shown(name, node)}(...)`", node.col_offset), False)


def _shown(name: str, node: ast.Call) -> str:
    return dotted_name(node.func) or display(name)


_FALLBACK_KINDS = (IMPORT, FALLBACK)


class _Guard:
    """Stack marker: enter (``step`` 1) or leave (-1) the guarded part of a ``try`` / ``if``."""

    __slots__ = ("kinds", "step")

    def __init__(self, kinds: tuple[int, ...], step: int) -> None:
        self.kinds = kinds
        self.step = step


def _guarded_children(
    node: Any, kind: int, stack: list[Any], aliases: dict[str, str]
) -> list[Any] | None:
    """The children of a ``try`` / ``if`` / ``a if test else b`` in walk order with
    :class:`_Guard` markers around the part a guard covers (see :mod:`.guards`); None when
    nothing is guarded.  An ``if`` whose TensorFlow 2 arm leaves the block also guards the rest
    of the block, on the ``stack``; both arms of an ``if hasattr(tf, ...)`` probe are guarded
    like a ``try`` catching AttributeError."""
    if kind == _TRY:
        kinds = try_guards(node)
        if not kinds:
            return None
        if IMPORT in kinds and fallback_handlers(node):
            # try: the TensorFlow 2 import / except ImportError: the old release's
            handlers = [_Guard(_FALLBACK_KINDS, 1), *node.handlers, _Guard(_FALLBACK_KINDS, -1)]
        else:
            handlers = node.handlers
        return [
            _Guard(kinds, 1),
            *node.body,
            _Guard(kinds, -1),
            *handlers,
            *node.orelse,
            *node.finalbody,
        ]
    arm = tf1_arm(node.test)
    if arm == 0:
        test = node.test
        if node.__class__ is ast.IfExp and probes(test, aliases):
            # tf.placeholder if hasattr(tf, "placeholder") else tf.compat.v1.placeholder
            attr = (ATTR,)
            return [test, _Guard(attr, 1), node.body, node.orelse, _Guard(attr, -1)]
        if node.__class__ is ast.If and probes(test, aliases):
            attr = (ATTR,)
            if not node.orelse and leaves(node.body):
                _guard_rest(node, stack, attr)  # if hasattr(tf.random, "set_seed"): return
            if test.__class__ is ast.BoolOp and test.op.__class__ is ast.And:
                # hasattr(tf, "contrib") and hasattr(tf.contrib, "eager"): the first part
                # guards the rest of the test as well.
                return [
                    test.values[0],
                    _Guard(attr, 1),
                    *test.values[1:],
                    *node.body,
                    *node.orelse,
                    _Guard(attr, -1),
                ]
            return [test, _Guard(attr, 1), *node.body, *node.orelse, _Guard(attr, -1)]
        return None
    tf1 = (TF1,)
    if node.__class__ is ast.IfExp:
        if arm == 1:
            return [node.test, _Guard(tf1, 1), node.body, _Guard(tf1, -1), node.orelse]
        return [node.test, node.body, _Guard(tf1, 1), node.orelse, _Guard(tf1, -1)]
    if leaves_on_tf2(node, arm):
        _guard_rest(node, stack)
    if arm == 1:
        return [node.test, _Guard(tf1, 1), *node.body, _Guard(tf1, -1), *node.orelse]
    return [node.test, *node.body, _Guard(tf1, 1), *node.orelse, _Guard(tf1, -1)]


def _skipped_if(node: ast.If, stack: list[Any]) -> None:
    """An ``if`` the text search skips (``if is_tf2: return``, no watched word in it) still
    guards the rest of its block when its TensorFlow 2 arm leaves it."""
    if node.body[-1].__class__ in _EXIT_CLASSES or (
        node.orelse and node.orelse[-1].__class__ in _EXIT_CLASSES
    ):
        arm = tf1_arm(node.test)
        if arm and leaves_on_tf2(node, arm):
            _guard_rest(node, stack)


_EXIT_CLASSES = frozenset({ast.Return, ast.Raise, ast.Continue, ast.Break, ast.Expr})


def _guard_rest(node: ast.stmt, stack: list[Any], kinds: tuple[int, ...] = (TF1,)) -> None:
    """Guard the statements after ``node`` in its block as TensorFlow 1 code (``node`` left the
    block on TensorFlow 2), or with the other guard ``kinds``.  They are the statements on top of the walk's stack: the same
    indent, one after the other."""
    end = len(stack)
    line = node.end_lineno or node.lineno
    while end > 0:
        sibling = stack[end - 1]
        if not isinstance(sibling, ast.stmt) or sibling.col_offset != node.col_offset:
            break
        if sibling.lineno <= line:
            break
        line = sibling.end_lineno or sibling.lineno
        end -= 1
    if end < len(stack):
        stack.insert(end, _Guard(kinds, -1))
        stack.append(_Guard(kinds, 1))


def _function_children(node: Any, ctx: FileContext) -> list[Any] | None:
    """A function's children with the statements after a first call to a function that raises
    on TensorFlow 2 (:func:`~.guards.raisers_on_tf2`) guarded, or all of them in a helper only
    TensorFlow 1 calls (:func:`~.guards.tf1_helpers`); None when nothing is guarded."""
    body = node.body
    if node.name[:1] == "_":
        if ctx.tf1_helpers is None:
            tree = ctx.tree
            ctx.tf1_helpers = tf1_helpers(tree, ctx.source) if tree is not None else frozenset()
        if node in ctx.tf1_helpers:
            tf1 = (TF1,)
            return [node.args, _Guard(tf1, 1), *body, _Guard(tf1, -1), *node.decorator_list]
    first = 1 if _is_docstring(body[0]) and len(body) > 1 else 0
    stmt = body[first]
    if not (
        stmt.__class__ is ast.Expr
        and stmt.value.__class__ is ast.Call
        and stmt.value.func.__class__ is ast.Name
    ):
        return None
    if ctx.tf2_raisers is None:
        ctx.tf2_raisers = raisers_on_tf2(ctx.tree) if ctx.tree is not None else frozenset()
    if stmt.value.func.id not in ctx.tf2_raisers:
        return None
    tf1 = (TF1,)
    return [
        node.args,
        *body[: first + 1],
        _Guard(tf1, 1),
        *body[first + 1 :],
        _Guard(tf1, -1),
        *node.decorator_list,
    ]


def _is_docstring(stmt: ast.stmt) -> bool:
    return (
        stmt.__class__ is ast.Expr
        and stmt.value.__class__ is ast.Constant
        and isinstance(stmt.value.value, str)
    )


class _Exit:
    """Stack marker: leave a scope or a loop after its body was walked."""

    __slots__ = ("loops", "scope")

    def __init__(self, scope: bool, loops: int) -> None:
        self.scope = scope
        self.loops = loops


_SKIP_FIELDS = frozenset({"ctx", "op", "ops", "type_comment", "type_params", "returns"})
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(cls: type) -> tuple[str, ...]:
    fields = _CHILD_FIELDS.get(cls)
    if fields is None:
        # Lists in the AST also hold None (``{**d}`` keys, keyword-only defaults) and str
        # (``match`` class patterns): such items are leaves.
        names = getattr(cls, "_fields", ()) if issubclass(cls, ast.AST) else ()
        fields = tuple(f for f in names if f not in _SKIP_FIELDS)
        _CHILD_FIELDS[cls] = fields
    return fields


def _import(ctx: FileContext, node: ast.Import | ast.ImportFrom) -> None:
    aliases = ctx.aliases
    if node.__class__ is ast.Import:
        for alias in node.names:
            root = alias.name.partition(".")[0]
            if root not in TRACKED_ROOTS:
                continue
            if alias.asname:
                if alias.name == "tensorflow" and _is_v1(aliases.get(alias.asname)):
                    # `try: import tensorflow.compat.v1 as tf` / `except ImportError: import
                    # tensorflow as tf`: the fallback is TensorFlow 1, the same v1 API.
                    continue
                ctx.bind(alias.asname, alias.name, node)
                ctx.watch(alias.asname)
            elif not (root == "tensorflow" and _is_v1(aliases.get(root))):
                ctx.bind(root, root, node)
    else:
        module = node.module  # type: ignore[union-attr]
        if node.level or not module or module.partition(".")[0] not in TRACKED_ROOTS:  # type: ignore[union-attr]
            if node.names[0].name == "*":
                ctx.star_import(node)  # type: ignore[arg-type]
            return
        for alias in node.names:
            if alias.name != "*":
                ctx.bind(alias.asname or alias.name, module + "." + alias.name, node)
                ctx.watch(alias.asname or alias.name)


def _other_bindings(ctx: FileContext, node: ast.expr, qual: str, root: str) -> None:
    """Hand the reference rules ``node`` read through each other binding ``root`` may hold
    (:attr:`FileContext.alternatives`); a finding the latest binding already gave is not
    given twice."""
    rest = qual[len(ctx.aliases[root]) :]
    findings = ctx.findings
    line = node.lineno
    seen = {(f.code, f.line, f.col) for f in findings if f.line == line}
    start = len(findings)
    for other in ctx.alternatives[root]:
        for ref in REF_HANDLERS:
            ref(ctx, node, other + rest, root)
    kept = []
    for finding in findings[start:]:
        key = (finding.code, finding.line, finding.col)
        if key not in seen:
            seen.add(key)
            kept.append(finding)
    findings[start:] = kept


def _is_v1(qual: str | None) -> bool:
    return qual is not None and qual.startswith("tensorflow.compat.v1")


# Node kinds of the walk loop: one dict lookup instead of a chain of isinstance tests.
_GENERIC, _NAME, _ATTR, _CALL, _LEAF, _EXIT, _IMPORT, _FUNC, _LOOP, _COMP, _TRY, _IF, _GUARD = (
    range(13)
)
_KIND: dict[type, int] = {
    ast.Name: _NAME,
    ast.Attribute: _ATTR,
    ast.Call: _CALL,
    ast.Constant: _LEAF,
    ast.Pass: _LEAF,
    ast.Break: _LEAF,
    ast.Continue: _LEAF,
    ast.Global: _LEAF,
    ast.Nonlocal: _LEAF,
    _Exit: _EXIT,
    ast.Import: _IMPORT,
    ast.ImportFrom: _IMPORT,
    ast.FunctionDef: _FUNC,
    ast.AsyncFunctionDef: _FUNC,
    ast.Lambda: _FUNC,
    ast.For: _LOOP,
    ast.AsyncFor: _LOOP,
    ast.ListComp: _COMP,
    ast.SetComp: _COMP,
    ast.GeneratorExp: _COMP,
    ast.DictComp: _COMP,
    ast.Try: _TRY,
    ast.If: _IF,
    ast.IfExp: _IF,
    _Guard: _GUARD,
}
if hasattr(ast, "TryStar"):
    _KIND[ast.TryStar] = _TRY


# Statements worth a text search before walking them: the ones holding other statements (a
# search costs more than walking a simple statement).
_BLOCKS = frozenset(
    {
        ast.FunctionDef,
        ast.AsyncFunctionDef,
        ast.ClassDef,
        ast.For,
        ast.AsyncFor,
        ast.While,
        ast.If,
        ast.With,
        ast.AsyncWith,
        ast.Try,
        getattr(ast, "TryStar", ast.Try),
        getattr(ast, "Match", ast.Try),
    }
)


_NEWLINE = re.compile("\n")


def _line_starts(source: str) -> list[int] | None:
    """Offset of each line's start, then the text's end; None when lines are ambiguous.

    ``ast`` counts a lone carriage return as a line break too (and ``str.splitlines`` counts
    even more characters), so text with any ``\\r`` is walked without skipping.
    """
    if "\r" in source:
        return None
    starts = [0]
    starts.extend([match.end() for match in _NEWLINE.finditer(source)])
    starts.append(len(source))
    return starts


def walk(tree: ast.AST, ctx: FileContext, source: str | None = None) -> None:
    """Walk ``tree`` once in source order, calling the registered callbacks.

    With the ``source``, a statement whose text mentions no watched word (an import alias, a
    tracked module, a config field, a name a rule follows) is skipped with everything inside:
    no rule can fire there, since every rule starts from such a name.  Most code of a project
    is like that, so this roughly halves the walk on ordinary code.
    """
    ctx.tree = tree
    ctx.source = source
    stack: list[Any] = [tree]
    text = source or ""
    starts = _line_starts(text) if source is not None else None
    last_line = len(starts) - 2 if starts is not None else 0
    pattern: re.Pattern[str] | None = None
    pop = stack.pop
    push = stack.append
    extend = stack.extend
    Attribute, Load = ast.Attribute, ast.Load
    aliases = ctx.aliases
    alternatives = ctx.alternatives
    node_handlers = NODE_HANDLERS
    call_handlers = CALL_HANDLERS
    ref_handlers = REF_HANDLERS
    keyword_handlers = KEYWORD_HANDLERS
    kinds = _KIND
    child_fields = _CHILD_FIELDS
    AST = ast.AST
    qual: str | None
    while stack:
        node = pop()
        cls = node.__class__
        kind = kinds.get(cls, _GENERIC)
        if kind == _NAME:
            if node.id in aliases and node.ctx.__class__ is Load:
                qual = aliases[node.id]
                for ref in ref_handlers:
                    ref(ctx, node, qual, node.id)
                if alternatives and node.id in alternatives:
                    _other_bindings(ctx, node, qual, node.id)
            continue
        if kind == _LEAF:
            continue
        if kind == _ATTR:
            base = node.value
            while base.__class__ is Attribute:
                base = base.value
            if base.__class__ is ast.Name:
                if base.id in aliases and node.ctx.__class__ is Load:
                    qual = ctx.resolve(node)
                    if qual is not None:
                        for ref in ref_handlers:
                            ref(ctx, node, qual, base.id)
                        if alternatives and base.id in alternatives:
                            _other_bindings(ctx, node, qual, base.id)
            else:
                push(base)
            continue
        if kind == _CALL:
            if node.keywords:
                call_keywords(node)
            func = node.func
            base = func
            while base.__class__ is Attribute:
                base = base.value
            if base.__class__ is ast.Name:
                if base.id in aliases:
                    qual = ctx.resolve(func)
                    if qual is not None:
                        for ref in ref_handlers:
                            ref(ctx, func, qual, base.id)
                        if alternatives and base.id in alternatives:
                            _other_bindings(ctx, func, qual, base.id)
                        name = canonical(qual)
                        handlers = call_handlers.get(name)
                        if handlers:
                            ctx.spelt = func
                            for handler in handlers:
                                handler(ctx, node, name)
                            ctx.spelt = None
                        _note_call(ctx, name, node)
            else:
                push(base)
            if node.keywords:
                for kw in node.keywords:
                    if kw.arg in keyword_handlers:
                        for on_kw in keyword_handlers[kw.arg]:
                            on_kw(ctx, node, kw)
                extend([kw.value for kw in reversed(node.keywords)])
            if node.args:
                extend(node.args[::-1])
            continue
        if kind == _GUARD:
            for guard in node.kinds:
                ctx.guards[guard] += node.step
            continue
        if kind == _EXIT:
            if node.scope:
                ctx.scopes.pop()
            if node.loops:
                del ctx.loops[-node.loops :]
            continue
        if starts is not None and cls in _BLOCKS:
            if ctx._watch_changed or pattern is None:
                words = "|".join(sorted(ctx.watched))
                pattern = re.compile(r"\b(?:" + words + r")\b")
                ctx._watch_changed = False
            first = node.lineno
            decorators = getattr(node, "decorator_list", None)
            if decorators:
                first = min(first, decorators[0].lineno)
            last = node.end_lineno or first
            if (
                0 < first <= last <= last_line
                and pattern.search(text, starts[first - 1], starts[last]) is None
            ):
                if cls is ast.If:
                    _skipped_if(node, stack)
                continue
        visitors = node_handlers.get(cls)
        if visitors:
            for visitor in visitors:
                visitor(ctx, node)
        if kind != _GENERIC:
            if kind == _IMPORT:
                _import(ctx, node)
                continue
            if kind == _FUNC:
                ctx.scopes.append(Scope())
                push(_Exit(True, 0))
                if cls is not ast.Lambda:
                    guarded = _function_children(node, ctx)
                    if guarded is not None:
                        guarded.reverse()
                        extend(guarded)
                        continue
            elif kind == _LOOP:
                ctx.loops.append(Loop(_targets(node.target), expr_key(node.iter, ctx.loops)))
                push(_Exit(False, 1))
            elif kind in (_TRY, _IF):
                guarded = _guarded_children(node, kind, stack, aliases)
                if guarded is not None:
                    guarded.reverse()
                    extend(guarded)
                    continue
            else:
                for gen in node.generators:
                    ctx.loops.append(Loop(_targets(gen.target), expr_key(gen.iter, ctx.loops)))
                push(_Exit(False, len(node.generators)))
        fields = child_fields.get(cls)
        if fields is None:
            fields = _fields(cls)
        children = []
        for field in fields:
            value = getattr(node, field, None)
            if value is None:
                continue
            if value.__class__ is list:
                children.extend(value)
            elif isinstance(value, AST):
                children.append(value)
        if children:
            children.reverse()
            extend(children)
    for end in END_HANDLERS:
        end(ctx)


def _targets(node: ast.AST) -> frozenset[str]:
    if node.__class__ is ast.Name:
        return frozenset((node.id,))
    return frozenset(n.id for n in ast.walk(node) if n.__class__ is ast.Name)
