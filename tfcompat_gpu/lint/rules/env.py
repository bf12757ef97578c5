"""Environment variables: TFG003 misspelled names (in ``os.environ``, its copies, ``os.putenv``,
``os.environ.update`` / ``setdefault`` and the ``env=`` of child processes), TFG004 set too late, TFG015 non-str values,
TFG016 invalid TF_FORCE_GPU_ALLOW_GROWTH values.  Also records the names bound to environment
strings (for TFG008) and a literal CUDA_VISIBLE_DEVICES (for TFG017)."""

from __future__ import annotations

import ast
import re
from bisect import bisect_right

from tfcompat_gpu.lint.context import Event, FileContext
from tfcompat_gpu.lint.dispatch import on_call, on_end, on_keyword, on_node
from tfcompat_gpu.lint.values import allow_growth_env_problem, cuda_visible_count, suggest_env_var

__all__ = ["converted", "environ_key", "is_env_value"]

_ENV_READS = frozenset({"os.environ.get", "os.getenv", "os.environ.pop"})
_ENV_CALLS = _ENV_READS | {"os.environ.setdefault", "os.putenv", "os.unsetenv"}
_CUDA_VARS = frozenset({"CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER"})


def environ_key(ctx: FileContext, node: ast.AST) -> str | None:
    """``KEY`` of ``os.environ['KEY']`` (None if it is anything else)."""
    if node.__class__ is not ast.Subscript:
        return None
    key = node.slice
    if key.__class__ is not ast.Constant or not isinstance(key.value, str):
        return None
    if ctx.resolve(node.value) != "os.environ":
        return None
    return key.value


def converted(kind: str) -> str:
    """How an environment string becomes a ``kind`` (``"int"``, ``"float"``, ``"bool"``).

    Not ``bool(...)`` for a switch: ``bool("false")`` is True, so a switch compares the text.
    """
    if kind == "bool":
        return 'os.environ[...].lower() in ("1", "true")'
    return f"{kind}(os.environ[...])"


def is_env_value(ctx: FileContext, node: ast.AST) -> bool:
    """True when ``node`` evaluates to a str read from the environment."""
    cls = node.__class__
    if cls is ast.Name:
        return node.id in ctx.state.get("env_names", ())  # type: ignore[attr-defined]
    if cls is ast.Subscript:
        return ctx.resolve(node.value) == "os.environ"  # type: ignore[attr-defined]
    if cls is ast.Call:
        return (ctx.resolve(node.func) or "") in _ENV_READS  # type: ignore[attr-defined]
    return False


def _check_name(ctx: FileContext, node: ast.AST, name: str) -> None:
    known = suggest_env_var(name)
    if known is not None:
        ctx.report("TFG003", node, f"os.environ[{known!r}]", value=name, known=known)


@on_node(ast.Subscript)
def _subscript(ctx: FileContext, node: ast.Subscript) -> None:
    key = environ_key(ctx, node)
    if key is not None:
        _check_name(ctx, node.slice, key)


@on_node(ast.Compare)
def _compare(ctx: FileContext, node: ast.Compare) -> None:
    # "CUDA_VISIBLE_DEVCIES" in os.environ
    left = node.left
    if (
        left.__class__ is ast.Constant
        and isinstance(left.value, str)
        and len(node.ops) == 1
        and node.ops[0].__class__ in (ast.In, ast.NotIn)
        and ctx.resolve(node.comparators[0]) == "os.environ"
    ):
        _check_name(ctx, left, left.value)


@on_call(*_ENV_CALLS)
def _env_call(ctx: FileContext, node: ast.Call, name: str) -> None:
    if not node.args:
        return
    key = node.args[0]
    if key.__class__ is not ast.Constant or not isinstance(key.value, str):
        return
    _check_name(ctx, key, key.value)
    if name in ("os.environ.setdefault", "os.putenv") and len(node.args) > 1:
        _stored(ctx, node, key.value, node.args[1])


def _is_environ_copy(ctx: FileContext, node: ast.AST) -> bool:
    """``os.environ.copy()``, ``dict(os.environ, ...)``, ``{**os.environ, ...}``."""
    cls = node.__class__
    if cls is ast.Call:
        func = node.func  # type: ignore[attr-defined]
        if func.__class__ is ast.Name:
            args = node.args  # type: ignore[attr-defined]
            return func.id == "dict" and bool(args) and ctx.resolve(args[0]) == "os.environ"
        return (
            func.__class__ is ast.Attribute
            and func.attr == "copy"
            and ctx.resolve(func) == "os.environ.copy"
        )
    if cls is ast.Dict:
        return any(
            key is None and ctx.resolve(value) == "os.environ"
            for key, value in zip(node.keys, node.values)  # type: ignore[attr-defined]
        )
    return False


def _check_mapping(ctx: FileContext, node: ast.AST) -> None:
    """Names in an environment given as ``{...}`` or ``dict(..., KEY=...)``."""
    if node.__class__ is ast.Dict:
        for key in node.keys:
            if key is not None and key.__class__ is ast.Constant and isinstance(key.value, str):
                _check_name(ctx, key, key.value)
    elif node.__class__ is ast.Call:
        func = node.func
        if func.__class__ is ast.Name and func.id == "dict":
            for arg in node.args:
                _check_mapping(ctx, arg)
            for keyword in node.keywords:
                if keyword.arg is not None:
                    _check_name(ctx, keyword.value, keyword.arg)


@on_keyword("env")
def _env_keyword(ctx: FileContext, node: ast.Call, keyword: ast.keyword) -> None:
    # subprocess.run(..., env={...}), Popen(env=dict(os.environ, ...)), any launcher's env=.
    _check_mapping(ctx, keyword.value)


@on_call("os.environ.update")
def _environ_update(ctx: FileContext, node: ast.Call, name: str) -> None:
    for arg in node.args:
        _check_mapping(ctx, arg)
    for keyword in node.keywords:
        if keyword.arg is not None:
            _check_name(ctx, keyword.value, keyword.arg)


@on_node(ast.Assign)
def _assign(ctx: FileContext, node: ast.Assign) -> None:
    for target in node.targets:
        if target.__class__ is ast.Subscript and target.value.__class__ is ast.Name:
            # env = os.environ.copy(); env["CUDA_VISIBLE_DEVICES"] = "1"
            copies: set[str] | None = ctx.state.get("environ_copies")
            index = target.slice
            if (
                copies
                and target.value.id in copies
                and index.__class__ is ast.Constant
                and isinstance(index.value, str)
            ):
                _check_name(ctx, index, index.value)
                continue
        if target.__class__ is ast.Name:
            if _is_environ_copy(ctx, node.value):
                _check_mapping(ctx, node.value)
                ctx.state.setdefault("environ_copies", set()).add(target.id)
                ctx.watch(target.id)
            elif "environ_copies" in ctx.state:
                ctx.state["environ_copies"].discard(target.id)
            env_names: set[str] | None = ctx.state.get("env_names")
            if is_env_value(ctx, node.value):
                if env_names is None:
                    env_names = ctx.state["env_names"] = set()
                env_names.add(target.id)
                ctx.watch(target.id)
            elif env_names:
                env_names.discard(target.id)
            continue
        key = environ_key(ctx, target)
        if key is not None:
            _stored(ctx, target, key, node.value)


def _stored(ctx: FileContext, where: ast.AST, key: str, value: ast.expr) -> None:
    """Checks of ``os.environ[key] = value``."""
    literal = value.value if value.__class__ is ast.Constant else None
    if value.__class__ is ast.Constant and not isinstance(literal, str):
        kind = {"int": "an int", "float": "a float", "bool": "a bool", "NoneType": "None"}.get(
            type(literal).__name__, type(literal).__name__
        )
        fixed = repr(str(literal)) if literal is not None else "a str, or del os.environ[...]"
        ctx.report(
            "TFG015", value, f"os.environ[{key!r}] = {fixed}", key=key, kind=kind, fixed=fixed
        )
    if key in _CUDA_VARS:
        event = ctx.gpu_init_event(where)
        if event is not None:
            launches = ctx.state.get("launch_words")
            if launches is None:  # one search of the file, however many settings it has
                source = ctx.source
                launches = source is None or _LAUNCH_WORDS.search(source) is not None
                ctx.state["launch_words"] = launches
            if launches:
                # Maybe meant for a child process started later: decided at the end.
                ctx.state.setdefault("late_cuda", []).append((where, key, event))
            else:
                _late(ctx, where, key, event)
        if key == "CUDA_VISIBLE_DEVICES" and isinstance(literal, str):
            count = cuda_visible_count(literal)
            if count is not None:
                ctx.state["cuda_visible"] = (count, literal, value)
    elif key == "TF_FORCE_GPU_ALLOW_GROWTH" and isinstance(literal, str):
        wanted = allow_growth_env_problem(literal)
        if wanted is not None:
            ctx.report(
                "TFG016", value, f"os.environ[{key!r}] = {wanted!r}", value=literal, fixed=wanted
            )


# -- TFG004 for child processes --------------------------------------------------------------

# A variable set in os.environ after this process enumerated its GPUs still reaches the
# programs it starts afterwards (`os.environ["CUDA_VISIBLE_DEVICES"] = "-1"` before the
# `subprocess.Popen` of each worker): that is not the late setting TFG004 means.
_LAUNCHES = frozenset(
    {
        "subprocess.Popen",
        "subprocess.run",
        "subprocess.call",
        "subprocess.check_call",
        "subprocess.check_output",
        "subprocess.getoutput",
        "subprocess.getstatusoutput",
        "os.system",
        "os.popen",
    }
)
_LAUNCH_PREFIXES = ("os.exec", "os.spawn", "os.posix_spawn")
_LAUNCH_WORDS = re.compile(r"\b(?:subprocess|Popen|system|popen|exec\w*|spawn\w*)\b")


def _late(ctx: FileContext, where: ast.AST, key: str, event: Event) -> None:
    ctx.report(
        "TFG004",
        where,
        f"move os.environ[{key!r}] = ... above line {event.line}",
        var=key,
        event=event.label,
        line=event.line,
    )


def _launch(ctx: FileContext, node: ast.Call) -> bool:
    name = ctx.resolve(node.func)
    if name is None:
        return False
    return name in _LAUNCHES or name.startswith(_LAUNCH_PREFIXES)


@on_end
def _late_end(ctx: FileContext) -> None:
    pending = ctx.state.get("late_cuda")
    if not pending or not isinstance(ctx.tree, ast.Module):
        return
    launches: list[ast.Call] = []
    frames: list[ast.AST] = []
    for node in ast.walk(ctx.tree):
        cls = node.__class__
        if isinstance(node, ast.Call) and _launch(ctx, node):
            launches.append(node)
        elif cls is ast.FunctionDef or cls is ast.AsyncFunctionDef or cls is ast.Lambda:
            frames.append(node)
    innermost = _innermost(frames)
    # The launches of each frame, by position: each setting looks only at the later ones.
    by_frame: dict[int, list[tuple[tuple[int, int], ast.Call]]] = {}
    for node in launches:
        by_frame.setdefault(id(innermost.get(node.lineno)), []).append(
            ((node.lineno, node.col_offset), node)
        )
    starts: dict[int, list[tuple[int, int]]] = {}
    for frame, found in by_frame.items():
        found.sort(key=lambda item: item[0])
        starts[frame] = [at for at, _ in found]
    for where, key, event in pending:
        start = (where.lineno, where.col_offset)
        frame = id(innermost.get(where.lineno))
        found = by_frame.get(frame, [])
        first = bisect_right(starts.get(frame, []), start)
        if not any(ctx.flow.together(where, found[i][1]) for i in range(first, len(found))):
            _late(ctx, where, key, event)


def _innermost(frames: list[ast.AST]) -> dict[int, ast.AST]:
    """Line -> the innermost function holding it after its first line (absent: the module).

    One pass over the lines each function spans (the lines of the file times its nesting), so
    a file of thousands of functions stays linear.
    """
    best: dict[int, ast.AST] = {}
    for frame in frames:
        first = frame.lineno  # type: ignore[attr-defined]
        for line in range(first + 1, (frame.end_lineno or 0) + 1):  # type: ignore[attr-defined]
            held = best.get(line)
            if held is None or first > held.lineno:  # type: ignore[attr-defined]
                best[line] = frame
    return best
