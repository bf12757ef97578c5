"""``tf.config`` calls: TFG001 assignments instead of calls, TFG006 growth on some GPUs only,
TFG007 growth with a memory limit, TFG008 environment strings, TFG012 setters after the runtime
started, TFG013 deprecated aliases."""

from __future__ import annotations

import ast

from tfcompat_gpu.lint.context import FileContext, expr_key
from tfcompat_gpu.lint.dispatch import on_call, on_end, on_node, on_ref
from tfcompat_gpu.lint.flow import Partners
from tfcompat_gpu.lint.registry import TF2_CALLS
from tfcompat_gpu.lint.rules.env import converted, is_env_value
from tfcompat_gpu.lint.tfcalls import canonical, display
from tfcompat_gpu.tfapi.names import DEPRECATED_NAMES

__all__: list[str] = []

_C = "tensorflow.config."
_GROWTH = _C + "experimental.set_memory_growth"
_VIRTUAL = (
    _C + "set_logical_device_configuration",
    _C + "experimental.set_virtual_device_configuration",
)
_VISIBLE = (_C + "set_visible_devices", _C + "experimental.set_visible_devices")
_THREADS = (
    _C + "threading.set_intra_op_parallelism_threads",
    _C + "threading.set_inter_op_parallelism_threads",
)
_LOGICAL = (_C + "LogicalDeviceConfiguration", _C + "experimental.VirtualDeviceConfiguration")
# Setters frozen once the runtime starts: tensorflow/python/eager/context.py, Context's
# set_visible_devices, set_memory_growth, set_logical_device_configuration and the thread
# setters raise RuntimeError ("... cannot be modified after being initialized").
_FROZEN = frozenset((_GROWTH, *_VIRTUAL, *_VISIBLE, *_THREADS))

DEPRECATED = DEPRECATED_NAMES


def _arg(node: ast.Call, index: int, name: str) -> ast.expr | None:
    if len(node.args) > index:
        return node.args[index]
    for keyword in node.keywords:
        if keyword.arg == name:
            return keyword.value
    return None


def _assigned(ctx: FileContext, targets: list[ast.expr], value: ast.expr | None) -> None:
    for target in targets:
        if target.__class__ is not ast.Attribute:
            continue
        qual = ctx.resolve(target)
        if qual is None:
            continue
        name = canonical(qual)
        if not (name.startswith(_C) or name.startswith("tensorflow.debugging.set_")):
            continue
        func = name.rpartition(".")[2]
        if (
            func in TF2_CALLS
            and func != "set_memory_growth"
            and value is not None
            and (func.endswith("placement") or "threads" in func)
        ):
            call = f"{display(qual)}({ast.unparse(value)})"
        elif func in TF2_CALLS:
            call = TF2_CALLS[func]
        else:
            call = f"{display(qual)}(...)"
        ctx.report("TFG001", target, call, target=display(qual), call=call)


@on_node(ast.Assign)
def _assign(ctx: FileContext, node: ast.Assign) -> None:
    _assigned(ctx, node.targets, node.value)


@on_node(ast.AugAssign, ast.AnnAssign)
def _other_assign(ctx: FileContext, node: ast.AugAssign | ast.AnnAssign) -> None:
    _assigned(ctx, [node.target], node.value)


def _growth_state(ctx: FileContext) -> dict[str, list[tuple[str, ast.Call, bool]]]:
    state: dict[str, list[tuple[str, ast.Call, bool]]] = ctx.state.setdefault(
        "growth", {"growth": [], "virtual": [], "visible": []}
    )
    return state


@on_call(_GROWTH)
def _growth(ctx: FileContext, node: ast.Call, name: str) -> None:
    device, enable = _arg(node, 0, "device"), _arg(node, 1, "enable")
    if enable is not None and is_env_value(ctx, enable):
        ctx.report(
            "TFG008",
            enable,
            "set_memory_growth(gpu, os.environ[...] == 'true')",
            what="set_memory_growth",
            expected="a bool",
            converted=converted("bool"),
        )
    if device is None or (enable.__class__ is ast.Constant and not enable.value):
        return
    key = expr_key(device, ctx.loops)
    if key is None:
        return
    # A constant index outside any loop is one GPU of possibly many.
    partial = not ctx.loops and device.__class__ is ast.Subscript and not key.endswith("[*]")
    _growth_state(ctx)["growth"].append((key, node, partial))


@on_call(*_VIRTUAL)
def _virtual(ctx: FileContext, node: ast.Call, name: str) -> None:
    device = _arg(node, 0, "device")
    key = expr_key(device, ctx.loops) if device is not None else None
    if key is not None:
        _growth_state(ctx)["virtual"].append((key, node, False))


@on_call(*_VISIBLE)
def _visible(ctx: FileContext, node: ast.Call, name: str) -> None:
    device = _arg(node, 0, "devices")
    key = expr_key(device, ctx.loops) if device is not None else None
    if key is not None:
        _growth_state(ctx)["visible"].append((key, node, False))


@on_call(*_LOGICAL)
def _logical(ctx: FileContext, node: ast.Call, name: str) -> None:
    limit = _arg(node, 0, "memory_limit")
    if limit is not None and is_env_value(ctx, limit):
        ctx.report(
            "TFG008",
            limit,
            "memory_limit=int(os.environ[...])",
            what="memory_limit",
            expected="an int (MB)",
            converted=converted("int"),
        )


@on_call(*_THREADS)
def _threads(ctx: FileContext, node: ast.Call, name: str) -> None:
    count = _arg(node, 0, "num_threads")
    if count is not None and is_env_value(ctx, count):
        func = name.rpartition(".")[2]
        ctx.report(
            "TFG008",
            count,
            f"{func}(int(os.environ[...]))",
            what=func,
            expected="an int",
            converted=converted("int"),
        )


@on_call(*_FROZEN)
def _frozen(ctx: FileContext, node: ast.Call, name: str) -> None:
    event = ctx.started_event(node)
    if event is not None:
        setter = ctx.shown(name)
        ctx.report(
            "TFG012",
            node,
            f"call {setter} before line {event.line}",
            setter=setter,
            event=event.label,
            line=event.line,
        )


def _same_device(a: str, b: str) -> bool:
    if a == b:
        return True
    base_a, _, rest_a = a.partition("[")
    base_b, _, rest_b = b.partition("[")
    return base_a == base_b and bool(rest_a) and bool(rest_b) and "*" in (rest_a + rest_b)


@on_end
def _growth_end(ctx: FileContext) -> None:
    state = ctx.state.get("growth")
    if state is None:
        return
    # Only calls on one device and sharing a frame are paired (Partners): a file of thousands
    # of setters stays near linear.
    visible: dict[str, Partners] = {}
    for v_key, v_node, _ in state["visible"]:
        visible.setdefault(v_key, Partners(ctx.flow)).add(v_node)
    for key, node, partial in state["growth"]:
        partners = visible.get(key)
        if partial and (partners is None or next(partners.of(node), None) is None):
            ctx.report(
                "TFG006",
                node,
                "for gpu in gpus: tf.config.experimental.set_memory_growth(gpu, True)",
                device=key,
            )
    virtual: dict[str, tuple[Partners, list[tuple[str, ast.Call]]]] = {}
    for v_key, v_node, _ in state["virtual"]:
        # _same_device pairs only keys of one base ("gpus[0]" and "gpus[*]")
        partners, calls = virtual.setdefault(v_key.partition("[")[0], (Partners(ctx.flow), []))
        partners.add(v_node)
        calls.append((v_key, v_node))
    for g_key, g_node, _ in state["growth"]:
        partners, calls = virtual.get(g_key.partition("[")[0], (None, []))
        for index in partners.of(g_node) if partners is not None else ():
            v_key, v_node = calls[index]
            if _same_device(g_key, v_key):
                later, earlier = (
                    (v_node, g_node) if v_node.lineno >= g_node.lineno else (g_node, v_node)
                )
                ctx.report(
                    "TFG007",
                    later,
                    "keep either memory growth or the memory limit",
                    device=v_key if "*" not in v_key else g_key,
                    other=earlier.lineno,
                )
                break


@on_ref
def _deprecated(ctx: FileContext, node: ast.expr, qual: str, root: str) -> None:
    if "experimental" not in qual:
        return
    name = canonical(qual)
    new = DEPRECATED.get(name)
    if new is not None:
        # Keep the user's prefix (tf.compat.v1.config...) and swap only the deprecated tail.
        old_tail = name[len(_C) :]
        used = display(qual)
        instead = used[: len(used) - len(old_tail)] + new[len(_C) :]
        ctx.report("TFG013", node, instead, used=used, instead=instead)
