"""``tf.distribute`` strategies: TFG024 a strategy created before the GPU configuration, TFG025
``MirroredStrategy(devices=[...])`` naming GPUs the configuration does not leave."""

from __future__ import annotations

import ast
import re
from bisect import bisect_right
from dataclasses import dataclass

from tfcompat_gpu.lint.context import FileContext
from tfcompat_gpu.lint.dispatch import on_call, on_end, on_node
from tfcompat_gpu.lint.values import cuda_visible_count, parse_visible_device_list

__all__: list[str] = []

_D = "tensorflow.distribute."
# Creating one of these starts the runtime (MirroredStrategy lists the logical devices).
_STRATEGIES = (
    _D + "MirroredStrategy",
    _D + "MultiWorkerMirroredStrategy",
    _D + "experimental.MultiWorkerMirroredStrategy",
    _D + "experimental.CentralStorageStrategy",
    "tfcompat_gpu.strategy",
    "tfcompat_gpu.runtime.distribute.strategy",
)
_WITH_DEVICES = (
    _D + "MirroredStrategy",
    "tfcompat_gpu.strategy",
    "tfcompat_gpu.runtime.distribute.strategy",
)
_C = "tensorflow.config."
# The GPU settings a strategy freezes (the visible list, growth, virtual devices).
_GPU_SETTERS = (
    _C + "experimental.set_memory_growth",
    _C + "set_logical_device_configuration",
    _C + "experimental.set_virtual_device_configuration",
    _C + "set_visible_devices",
    _C + "experimental.set_visible_devices",
)
_CONFIGURE = ("tfcompat_gpu.configure", "tfcompat_gpu.runtime.configuring.configure")
_GPU_CONFIG = ("tfcompat_gpu.GPUConfig", "tfcompat_gpu.settings.config.GPUConfig")
_GPU_NAME = re.compile(
    r"(?i)^(?:/job:[^/]+(?:/replica:\d+)?(?:/task:\d+)?)?/?(?:device:)?gpu:(\d+)$"
)


@dataclass
class _State:
    strategies: list[tuple[object, ast.Call, str]]
    """(scope, call, shown name) of each strategy created."""
    configs: list[tuple[object, ast.Call, str]]
    """(scope, call, shown name) of each GPU configuration call."""
    gpus: tuple[int, int, str] | None = None
    """Logical GPUs the file's configuration leaves: (count, line, what set it)."""


def _state(ctx: FileContext) -> _State:
    state = ctx.state.get("distribute")
    if state is None:
        state = ctx.state["distribute"] = _State([], [])
    return state


def _keyword(node: ast.Call, name: str, index: int | None = None) -> ast.expr | None:
    for keyword in node.keywords:
        if keyword.arg == name:
            return keyword.value
    if index is not None and len(node.args) > index:
        return node.args[index]
    return None


def _literal(node: ast.expr | None) -> object:
    if node is None:
        return None
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


# -- TFG024 ----------------------------------------------------------------------------------


@on_call(*_STRATEGIES)
def _strategy(ctx: FileContext, node: ast.Call, name: str) -> None:
    _state(ctx).strategies.append((ctx.scopes[-1], node, ctx.shown(name)))
    if name in _WITH_DEVICES:
        _check_devices(ctx, node, name)


@on_call(*_GPU_SETTERS, *_CONFIGURE)
def _gpu_config(ctx: FileContext, node: ast.Call, name: str) -> None:
    _state(ctx).configs.append((ctx.scopes[-1], node, ctx.shown(name)))
    if name in _CONFIGURE:
        _note_configure(ctx, node, ctx.shown(name))
    elif name.endswith("set_visible_devices"):
        _note_set_visible(ctx, node)


@on_call(*_GPU_CONFIG)
def _gpu_config_object(ctx: FileContext, node: ast.Call, name: str) -> None:
    _note_configure(ctx, node, ctx.shown(name))


@on_end
def _strategy_before_config(ctx: FileContext) -> None:
    state = ctx.state.get("distribute")
    if state is None:
        return
    # Per scope, the configuration calls by line, and from each the first one the walk met
    # among it and the lines below: one lookup per strategy, however many calls the file has.
    by_scope: dict[int, list[tuple[int, int]]] = {}
    for n, (s, call, _) in enumerate(state.configs):
        by_scope.setdefault(id(s), []).append((call.lineno, n))
    firsts: dict[int, tuple[list[int], list[int]]] = {}
    for scope_id, found in by_scope.items():
        found.sort()
        first_met = [n for _, n in found]
        for i in range(len(first_met) - 2, -1, -1):
            first_met[i] = min(first_met[i], first_met[i + 1])
        firsts[scope_id] = ([line for line, _ in found], first_met)
    for scope, node, shown in state.strategies:
        lines, first_met = firsts.get(id(scope), ([], []))
        i = bisect_right(lines, node.lineno)
        if i < len(lines):
            _, call, what = state.configs[first_met[i]]
            ctx.report(
                "TFG024",
                node,
                f"move the strategy after line {call.lineno}, or use tfcompat_gpu.strategy()",
                strategy=shown,
                config=what,
                line=call.lineno,
            )


# -- TFG025 ----------------------------------------------------------------------------------


def _count_list(value: object) -> int | None:
    """GPUs a ``visible_device_list`` value leaves (a str, a list of ints, "local_rank[:K]")."""
    if isinstance(value, str):
        form, colon, per = value.strip().partition(":")
        if form.lower() == "local_rank":
            return int(per) if colon and per.strip().isdigit() else 1 if not colon else None
        ids, problem = parse_visible_device_list(value.strip())
        return None if problem or not ids else len(ids)
    if isinstance(value, (list, tuple)) and value and all(isinstance(i, int) for i in value):
        return len(value)
    return None


def _per_gpu(limits: object) -> int:
    if isinstance(limits, (list, tuple)) and limits:
        return len(limits)
    return 1


def _note_configure(ctx: FileContext, node: ast.Call, shown: str) -> None:
    visible = _literal(_keyword(node, "visible_device_list"))
    counts = _literal(_keyword(node, "device_count"))
    limits = _literal(_keyword(node, "memory_limit_mb"))
    count = _count_list(visible) if visible is not None else None
    if isinstance(counts, dict) and isinstance(counts.get("GPU"), int):
        gpu = counts["GPU"]
        count = gpu if count is None else min(count, gpu)
    if isinstance(limits, dict) and limits:
        total = sum(len(v) if isinstance(v, (list, tuple)) else 1 for v in limits.values())
        _state(ctx).gpus = (total, node.lineno, f"{shown}(memory_limit_mb=...)")
        return
    if count is not None:
        total = count * _per_gpu(limits)
        _state(ctx).gpus = (total, node.lineno, f"{shown}(...)")


def _note_set_visible(ctx: FileContext, node: ast.Call) -> None:
    devices = _keyword(node, "devices", 0)
    kind = _literal(_keyword(node, "device_type", 1))
    if kind not in (None, "GPU") or devices is None:
        return
    count: int | None = None
    if devices.__class__ is ast.Subscript:
        index = devices.slice
        if index.__class__ is ast.Slice:
            lower, upper = _literal(index.lower) or 0, _literal(index.upper)
            if isinstance(lower, int) and isinstance(upper, int) and index.step is None:
                count = max(upper - lower, 0)
        elif isinstance(_literal(index), int):
            count = 1
    elif devices.__class__ in (ast.List, ast.Tuple):
        count = len(devices.elts)
    if count is not None:
        _state(ctx).gpus = (count, node.lineno, "tf.config.set_visible_devices(...)")


@on_node(ast.Assign)
def _cuda_visible(ctx: FileContext, node: ast.Assign) -> None:
    # os.environ["CUDA_VISIBLE_DEVICES"] = "2,3": CUDA renumbers what it leaves from 0.
    for target in node.targets:
        if target.__class__ is not ast.Subscript:
            continue
        owner = ctx.resolve(target.value)
        key = _literal(target.slice)
        value = _literal(node.value)
        if owner == "os.environ" and key == "CUDA_VISIBLE_DEVICES" and isinstance(value, str):
            count = cuda_visible_count(value)
            if count is not None and _state(ctx).gpus is None:
                _state(ctx).gpus = (count, node.lineno, f"CUDA_VISIBLE_DEVICES={value!r}")


def _check_devices(ctx: FileContext, node: ast.Call, name: str) -> None:
    known = _state(ctx).gpus
    devices = _keyword(node, "devices", 0 if name.endswith("MirroredStrategy") else None)
    if known is None or devices is None or devices.__class__ not in (ast.List, ast.Tuple):
        return
    count, line, source = known
    for element in devices.elts:
        value = _literal(element)
        match = _GPU_NAME.match(value) if isinstance(value, str) else None
        if match is None or int(match.group(1)) < count:
            continue
        names = f"/gpu:0 to /gpu:{count - 1}" if count else "none"
        ctx.report(
            "TFG025",
            element,
            f"name devices from /gpu:0 to /gpu:{max(count - 1, 0)}",
            device=value,
            count=count,
            names=names,
            source=source,
            line=line,
        )
