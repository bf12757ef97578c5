"""Legacy multi-GPU code: TFG019 multi_gpu_model, TFG020 tf.contrib.distribute, TFG021
compile(distribute=...), TFG022 GPU discovery before GPU configuration, TFG023 a Horovod global
rank used as a GPU id."""

from __future__ import annotations

import ast
from bisect import bisect_right

from tfcompat_gpu.lint.context import FileContext
from tfcompat_gpu.lint.dispatch import on_call, on_end, on_node, on_ref
from tfcompat_gpu.lint.tfcalls import SESSIONS, canonical, display
from tfcompat_gpu.tfapi.multigpu_names import (
    CONTRIB_DISTRIBUTE,
    DISCOVERY_CALLS,
    HOROVOD_GLOBAL,
    MULTI_GPU_MODEL,
    MULTI_GPU_MODULES,
)

__all__: list[str] = []

_CONTRIB = "tensorflow.contrib.distribute"
_STRATEGY_FIX = (
    "strategy = tf.distribute.MirroredStrategy()\nwith strategy.scope():\n"
    "    model = ...\n    model.compile(...)"
)

# -- TFG019 / TFG020: removed names ---------------------------------------------------------


def _removed(name: str) -> tuple[str, str, str] | None:
    """(code, display name, what to use) for a removed multi-GPU name, else None."""
    name = canonical(name)
    if name in MULTI_GPU_MODEL or name in MULTI_GPU_MODULES:
        return ("TFG019", display(name), "tf.distribute.MirroredStrategy")
    if name == _CONTRIB or name.startswith(_CONTRIB + "."):
        member = name[len(_CONTRIB) + 1 :].partition(".")[0]
        successor = CONTRIB_DISTRIBUTE.get(member)
        instead = f"`tf.{successor}`" if successor else "`tf.distribute`"
        if not member:
            instead = "`tf.distribute` (same strategy names)"
        return ("TFG020", display(name), instead)
    return None


def _report_removed(ctx: FileContext, node: ast.AST, found: tuple[str, str, str]) -> None:
    code, used, instead = found
    if code == "TFG019":
        ctx.report(code, node, _STRATEGY_FIX, used=used)
    else:
        ctx.report(code, node, instead.strip("`"), used=used, instead=instead)


@on_node(ast.Import, ast.ImportFrom)
def _import(ctx: FileContext, node: ast.Import | ast.ImportFrom) -> None:
    if isinstance(node, ast.Import):
        for alias in node.names:
            found = _removed(alias.name)
            if found is not None:
                _report_removed(ctx, node, found)
                if alias.asname:  # a plain ``import a.b`` binds ``a``, used for much else
                    ctx.flagged_aliases.add(alias.asname)
        return
    if node.level or not node.module:
        return
    module = _removed(node.module)
    if module is not None:
        _report_removed(ctx, node, module)
    for alias in node.names:
        found = module or _removed(node.module + "." + alias.name)
        if found is None:
            continue
        if module is None:
            _report_removed(ctx, node, found)
        ctx.flagged_aliases.add(alias.asname or alias.name)


@on_ref
def _ref(ctx: FileContext, node: ast.expr, qual: str, root: str) -> None:
    if root in ctx.flagged_aliases:
        return
    if "multi_gpu" not in qual and "contrib" not in qual:
        return
    found = _removed(qual)
    if found is not None:
        _report_removed(ctx, node, found)


# -- TFG021: compile(distribute=...) -------------------------------------------------------


@on_node(ast.Module)
def _start(ctx: FileContext, node: ast.Module) -> None:
    # compile(distribute=...) is called on a model, not on an imported name: walk statements
    # that mention it.
    ctx.watch("distribute")


def _compile_call(node: ast.AST) -> ast.Call | None:
    value = getattr(node, "value", None)
    if (
        value.__class__ is ast.Call
        and value.func.__class__ is ast.Attribute
        and value.func.attr == "compile"
    ):
        return value
    return None


@on_node(ast.Expr, ast.Assign)
def _compile(ctx: FileContext, node: ast.Expr | ast.Assign) -> None:
    call = _compile_call(node)
    if call is None:
        return
    for keyword in call.keywords:
        if keyword.arg == "distribute":
            ctx.report("TFG021", keyword.value, _STRATEGY_FIX)


# -- TFG022: discovery that starts the runtime, then GPU configuration -------------------------

_SET_SESSION = frozenset(
    {
        "keras.backend.set_session",
        "keras.backend.tensorflow_backend.set_session",
        "tensorflow.keras.backend.set_session",
        "tf_keras.backend.set_session",
    }
)


def _state(ctx: FileContext) -> dict[str, list[tuple[ast.Call, str, object]]]:
    state = ctx.state.get("multigpu")
    if state is None:
        state = ctx.state["multigpu"] = {"discovery": [], "config": []}
    return state


@on_call(*DISCOVERY_CALLS)
def _discovery(ctx: FileContext, node: ast.Call, name: str) -> None:
    if name.endswith("list_local_devices") and (node.args or node.keywords):
        return  # given a session config, it uses it
    if name.endswith("list_logical_devices"):
        device_type = node.args[0] if node.args else None
        if not (isinstance(device_type, ast.Constant) and device_type.value == "GPU"):
            return  # the GPU question only
    _state(ctx)["discovery"].append((node, ctx.shown(name), ctx.scopes[-1]))


@on_call(*SESSIONS)
def _session(ctx: FileContext, node: ast.Call, name: str) -> None:
    if any(k.arg == "config" for k in node.keywords) or len(node.args) >= 3:
        _state(ctx)["config"].append((node, f"`{ctx.shown(name)}(config=...)`", ctx.scopes[-1]))


@on_call(*_SET_SESSION, "tfcompat_gpu.configure")
def _configure(ctx: FileContext, node: ast.Call, name: str) -> None:
    _state(ctx)["config"].append((node, f"`{ctx.shown(name)}(...)`", ctx.scopes[-1]))


@on_end
def _discovery_end(ctx: FileContext) -> None:
    state = ctx.state.get("multigpu")
    if state is None or not state["discovery"] or not state["config"]:
        return
    # The configuration calls of each scope by line: each enumeration looks up the next one.
    by_scope: dict[int, list[tuple[int, int, str, ast.Call]]] = {}
    for n, (node, label, scope) in enumerate(state["config"]):
        by_scope.setdefault(id(scope), []).append((node.lineno, n, label, node))
    lines: dict[int, list[int]] = {}
    for scope_id, found in by_scope.items():
        found.sort(key=lambda item: item[:2])
        lines[scope_id] = [item[0] for item in found]
    for call, used, scope in state["discovery"]:
        # the same function (or both at module level): calls in separate functions may never
        # run in that order
        found = by_scope.get(id(scope), [])
        first = bisect_right(lines.get(id(scope), []), call.lineno)
        if first < len(found):
            _, _, label, target = found[first]
            ctx.report(
                "TFG022",
                call,
                "tf.config.list_physical_devices('GPU')",
                used=used,
                config=label,
                line=target.lineno,
            )


# -- TFG023: a Horovod global rank as a GPU id ------------------------------------------------


def _global_rank(ctx: FileContext, value: ast.AST) -> tuple[str, str] | None:
    """(``hvd.rank()``, ``hvd.local_rank()``) when ``value`` uses a global rank or size."""
    for node in ast.walk(value):
        if node.__class__ is not ast.Call:
            continue
        qual = ctx.resolve(node.func)
        if qual is None or not qual.startswith("horovod."):
            continue
        func = qual.rpartition(".")[2]
        local = HOROVOD_GLOBAL.get(func)
        if local is not None:
            written = ast.unparse(node.func)
            prefix = written[: len(written) - len(func)]
            return f"{written}()", f"{prefix}{local}()"
    return None


def _check_ids(ctx: FileContext, value: ast.AST) -> None:
    found = _global_rank(ctx, value)
    if found is not None:
        used, local = found
        ctx.report("TFG023", value, local, used=used, local=local)


@on_node(ast.Assign)
def _assign(ctx: FileContext, node: ast.Assign) -> None:
    for target in node.targets:
        if target.__class__ is ast.Attribute and target.attr == "visible_device_list":
            _check_ids(ctx, node.value)
        elif target.__class__ is ast.Subscript:
            key = target.slice
            if isinstance(key, ast.Constant) and key.value == "CUDA_VISIBLE_DEVICES":
                _check_ids(ctx, node.value)


@on_call("tensorflow.GPUOptions", "tfcompat_gpu.configure", "tfcompat_gpu.GPUConfig")
def _gpu_options(ctx: FileContext, node: ast.Call, name: str) -> None:
    for keyword in node.keywords:
        if keyword.arg == "visible_device_list":
            _check_ids(ctx, keyword.value)


@on_call(
    "tensorflow.config.set_visible_devices", "tensorflow.config.experimental.set_visible_devices"
)
def _set_visible(ctx: FileContext, node: ast.Call, name: str) -> None:
    if node.args:
        _check_ids(ctx, node.args[0])
