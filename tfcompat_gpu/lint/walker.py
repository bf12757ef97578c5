"""One pass over a module's AST: import aliases, source-order events, callbacks by node type.

Rule modules register callbacks here (by node class, by the qualified name of a call, or for
every resolved reference) and read the shared state of :class:`FileContext`: the import
aliases, the enclosing loops, and the first point in each scope where TensorFlow enumerated the
GPUs or started its runtime.  The traversal is iterative, so deeply nested code cannot exhaust
the interpreter's stack, and it never descends into the names of an attribute chain once the
chain is resolved, which keeps it close to the cost of ``ast.parse`` itself.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tfcompat_gpu.lint.registry import RULES_BY_CODE, Severity

__all__ = [
    "CALL_HANDLERS",
    "END_HANDLERS",
    "NODE_HANDLERS",
    "REF_HANDLERS",
    "Event",
    "FileContext",
    "Loop",
    "RawFinding",
    "canonical",
    "display",
    "expr_key",
    "on_call",
    "on_end",
    "on_node",
    "on_ref",
    "walk",
]

# Attributes that rules check on any object (``cfg.gpu_options.allow_growth = ...``).
CONFIG_FIELDS = frozenset(
    {
        "allow_growth",
        "per_process_gpu_memory_fraction",
        "visible_device_list",
        "allocator_type",
        "intra_op_parallelism_threads",
        "inter_op_parallelism_threads",
    }
)

# Only these import roots can matter to a rule; ignoring numpy & co. keeps reference
# callbacks off the hot path.
_TRACKED_ROOTS = frozenset({"tensorflow", "keras", "tf_keras", "os", "tfcompat_gpu"})
_WATCHED = _TRACKED_ROOTS | CONFIG_FIELDS


@dataclass(frozen=True)
class RawFinding:
    code: str
    line: int
    col: int
    """0-based, as in the AST."""
    message: str
    fix: str
    severity: Severity


@dataclass(frozen=True)
class Event:
    line: int
    label: str


@dataclass(frozen=True)
class Loop:
    targets: frozenset[str]
    iter_key: str | None


class _Scope:
    __slots__ = ("gpu_init", "started")

    def __init__(self) -> None:
        self.gpu_init: Event | None = None
        self.started: Event | None = None


class FileContext:
    """Per-file state shared by the rules during one walk."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.findings: list[RawFinding] = []
        self.aliases: dict[str, str] = {}
        self.flagged_aliases: set[str] = set()
        """Aliases whose import was already reported; their uses are not reported again."""
        self.loops: list[Loop] = []
        self.scopes: list[_Scope] = [_Scope()]
        self.eager_disabled = False
        self.state: dict[str, Any] = {}
        """Scratch space of the rules, keyed by rule module."""
        self.watched: set[str] = set(_WATCHED)
        """Words whose presence makes a statement worth walking (see ``walk``)."""
        self._watch_changed = True

    def watch(self, name: str) -> None:
        """Walk every later statement that mentions ``name`` (a name a rule now tracks)."""
        if name not in self.watched:
            self.watched.add(name)
            self._watch_changed = True

    def report(
        self,
        code: str,
        node: ast.AST,
        fix: str,
        severity: Severity | None = None,
        **fields: object,
    ) -> None:
        rule = RULES_BY_CODE[code]
        self.findings.append(
            RawFinding(
                code,
                getattr(node, "lineno", 1),
                getattr(node, "col_offset", 0),
                rule.message.format(**fields),
                fix,
                severity or rule.severity,
            )
        )

    def resolve(self, node: ast.AST) -> str | None:
        """Qualified name of a ``Name`` / attribute chain through the import aliases."""
        parts: list[str] = []
        while node.__class__ is ast.Attribute:
            parts.append(node.attr)
            node = node.value
        if node.__class__ is not ast.Name:
            return None
        base = self.aliases.get(node.id)
        if base is None:
            return None
        if parts:
            parts.reverse()
            return base + "." + ".".join(parts)
        return base

    def gpu_init_event(self) -> Event | None:
        for scope in reversed(self.scopes):
            if scope.gpu_init is not None:
                return scope.gpu_init
        return None

    def started_event(self) -> Event | None:
        for scope in reversed(self.scopes):
            if scope.started is not None:
                return scope.started
        return None


CallHandler = Callable[[FileContext, ast.Call, str], None]
RefHandler = Callable[[FileContext, ast.expr, str, str], None]
NodeHandler = Callable[[FileContext, Any], None]
EndHandler = Callable[[FileContext], None]

CALL_HANDLERS: dict[str, list[CallHandler]] = {}
"""Canonical qualified name of the called function -> callbacks."""
REF_HANDLERS: list[RefHandler] = []
"""Called with (ctx, node, raw qualified name, root alias) for every resolved load."""
NODE_HANDLERS: dict[type[ast.AST], list[NodeHandler]] = {}
END_HANDLERS: list[EndHandler] = []


def on_call(*names: str) -> Callable[[CallHandler], CallHandler]:
    def register(func: CallHandler) -> CallHandler:
        for name in names:
            CALL_HANDLERS.setdefault(name, []).append(func)
        return func

    return register


def on_node(*types: type[ast.AST]) -> Callable[[NodeHandler], NodeHandler]:
    def register(func: NodeHandler) -> NodeHandler:
        for cls in types:
            NODE_HANDLERS.setdefault(cls, []).append(func)
        return func

    return register


def on_ref(func: RefHandler) -> RefHandler:
    REF_HANDLERS.append(func)
    return func


def on_end(func: EndHandler) -> EndHandler:
    END_HANDLERS.append(func)
    return func


_CANONICAL: dict[str, str] = {}


def canonical(name: str) -> str:
    """``tensorflow.compat.v1.X`` and ``tensorflow.compat.v2.X`` -> ``tensorflow.X``."""
    cached = _CANONICAL.get(name)
    if cached is not None:
        return cached
    result = name
    if name.startswith(("tensorflow.compat.v1", "tensorflow.compat.v2")):
        rest = name[len("tensorflow.compat.v1") :]
        if not rest or rest[0] == ".":
            result = "tensorflow" + rest
    _CANONICAL[name] = result
    return result


def display(name: str) -> str:
    """How users write a qualified name: ``tensorflow.config.x`` -> ``tf.config.x``."""
    if name == "tensorflow" or name.startswith("tensorflow."):
        return "tf" + name[len("tensorflow") :]
    return name


def expr_key(node: ast.AST, loops: list[Loop] | None = None) -> str | None:
    """A comparable spelling of a device expression: ``gpus[0]``, ``gpus[*]`` for a loop variable."""
    cls = node.__class__
    if cls is ast.Name:
        name: str = node.id  # type: ignore[attr-defined]
        if loops:
            for loop in reversed(loops):
                if name in loop.targets and loop.iter_key is not None:
                    return loop.iter_key + "[*]"
        return name
    if cls is ast.Subscript:
        base = _base_key(node.value)  # type: ignore[attr-defined]
        index = node.slice  # type: ignore[attr-defined]
        if base is None:
            return None
        if index.__class__ is ast.Constant:
            return f"{base}[{index.value!r}]"
        if loops and index.__class__ is ast.Name:
            for loop in reversed(loops):
                if index.id in loop.targets:
                    return base + "[*]"
        return None
    return None


def _base_key(node: ast.AST) -> str | None:
    if node.__class__ is ast.Name:
        return node.id
    if node.__class__ is ast.Call and node.func.__class__ is ast.Attribute:
        # tf.config.list_physical_devices('GPU')[0]: name the list by the call.
        return "<" + node.func.attr + ">"
    return None


# What makes TensorFlow enumerate the GPUs (CUDA reads CUDA_VISIBLE_DEVICES then) and what
# starts the runtime (process-wide setters are frozen then).  Canonical names.
_GPU_INIT = frozenset(
    f"tensorflow.config.{name}"
    for name in (
        "list_physical_devices",
        "experimental.list_physical_devices",
        "get_visible_devices",
        "experimental.get_visible_devices",
        "set_visible_devices",
        "experimental.set_visible_devices",
        "experimental.set_memory_growth",
        "experimental.get_memory_growth",
        "set_logical_device_configuration",
        "experimental.set_virtual_device_configuration",
        "get_logical_device_configuration",
        "experimental.get_virtual_device_configuration",
        "experimental.get_device_details",
    )
)
_STARTS = frozenset(
    {
        "tensorflow.config.list_logical_devices",
        "tensorflow.config.experimental.list_logical_devices",
        "tensorflow.config.experimental.get_memory_info",
        "tensorflow.config.experimental.get_memory_usage",
        "tensorflow.test.is_gpu_available",
        "tensorflow.test.gpu_device_name",
        "tensorflow.python.client.device_lib.list_local_devices",
        "tensorflow.distribute.MirroredStrategy",
        "tensorflow.distribute.MultiWorkerMirroredStrategy",
        "tensorflow.distribute.experimental.MultiWorkerMirroredStrategy",
        "tensorflow.distribute.experimental.CentralStorageStrategy",
    }
)
SESSIONS = frozenset(
    {
        "tensorflow.Session",
        "tensorflow.InteractiveSession",
        "tensorflow.train.MonitoredTrainingSession",
        "tensorflow.train.SingularMonitoredSession",
    }
)
# Eager ops start the runtime; graph building (after disable_eager_execution) does not.
_OP_MODULES = frozenset(
    {"random", "math", "linalg", "nn", "image", "signal", "strings", "sparse", "bitwise", "data"}
)
_NOT_OPS = frozenset(
    {
        "tensorflow.random.set_seed",
        "tensorflow.random.set_random_seed",
        "tensorflow.set_random_seed",
        "tensorflow.data.experimental.enable_debug_mode",
    }
)
_OPS = frozenset(
    [
        "constant",
        "Variable",
        "zeros",
        "ones",
        "fill",
        "range",
        "matmul",
        "add",
        "add_n",
        "subtract",
        "multiply",
        "divide",
        "reduce_sum",
        "reduce_mean",
        "reduce_max",
        "reduce_min",
        "convert_to_tensor",
        "cast",
        "reshape",
        "concat",
        "stack",
        "ones_like",
        "zeros_like",
        "eye",
        "linspace",
        "square",
        "sqrt",
        "exp",
        "identity",
        "transpose",
        "einsum",
        "tile",
        "gather",
        "where",
        "argmax",
        "argmin",
        "one_hot",
        "abs",
        "maximum",
        "minimum",
        "pow",
        "tensordot",
    ]
)
_DISABLE_EAGER = frozenset({"tensorflow.disable_eager_execution", "tensorflow.disable_v2_behavior"})


_NOTHING, _DISABLES, _STARTS_ALWAYS, _OP, _ENUMERATES = range(5)
_CALL_KIND: dict[str, int] = {}


def _call_kind(name: str) -> int:
    kind = _CALL_KIND.get(name)
    if kind is not None:
        return kind
    kind = _NOTHING
    if name in _DISABLE_EAGER:
        kind = _DISABLES
    elif name in _STARTS or name in SESSIONS:
        kind = _STARTS_ALWAYS
    elif name in _GPU_INIT:
        kind = _ENUMERATES
    elif name.startswith("tensorflow."):
        parts = name.split(".")
        if len(parts) == 2:
            kind = _OP if parts[1] in _OPS else _NOTHING
        elif parts[1] in _OP_MODULES and name not in _NOT_OPS:
            kind = _OP
    _CALL_KIND[name] = kind
    return kind


def _note_call(ctx: FileContext, name: str, line: int) -> None:
    """Record the first GPU enumeration / runtime start of the current scope."""
    kind = _call_kind(name)
    if kind == _NOTHING:
        return
    if kind == _DISABLES:
        ctx.eager_disabled = True
        return
    scope = ctx.scopes[-1]
    if kind == _STARTS_ALWAYS or (kind == _OP and not ctx.eager_disabled):
        if scope.started is None:
            scope.started = Event(line, f"`{display(name)}(...)`")
        if scope.gpu_init is None:
            scope.gpu_init = scope.started
    elif kind == _ENUMERATES and scope.gpu_init is None:
        scope.gpu_init = Event(line, f"`{display(name)}(...)`")


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
            if root not in _TRACKED_ROOTS:
                continue
            if alias.asname:
                aliases[alias.asname] = alias.name
                ctx.watch(alias.asname)
            else:
                aliases[root] = root
    else:
        module = node.module  # type: ignore[union-attr]
        if node.level or not module or module.partition(".")[0] not in _TRACKED_ROOTS:  # type: ignore[union-attr]
            return
        for alias in node.names:
            if alias.name != "*":
                aliases[alias.asname or alias.name] = module + "." + alias.name
                ctx.watch(alias.asname or alias.name)


# Node kinds of the walk loop: one dict lookup instead of a chain of isinstance tests.
_GENERIC, _NAME, _ATTR, _CALL, _LEAF, _EXIT, _IMPORT, _FUNC, _LOOP, _COMP = range(10)
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
}


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
    node_handlers = NODE_HANDLERS
    call_handlers = CALL_HANDLERS
    ref_handlers = REF_HANDLERS
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
            else:
                push(base)
            continue
        if kind == _CALL:
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
                        name = canonical(qual)
                        handlers = call_handlers.get(name)
                        if handlers:
                            for handler in handlers:
                                handler(ctx, node, name)
                        _note_call(ctx, name, node.lineno)
            else:
                push(base)
            if node.keywords:
                extend([kw.value for kw in reversed(node.keywords)])
            if node.args:
                extend(node.args[::-1])
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
                ctx.scopes.append(_Scope())
                push(_Exit(True, 0))
            elif kind == _LOOP:
                ctx.loops.append(Loop(_targets(node.target), expr_key(node.iter, ctx.loops)))
                push(_Exit(False, 1))
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
