"""GPU options changed after protobuf copied them: TFG029.

``tf.ConfigProto(gpu_options=opts)`` stores a copy of ``opts`` (a protobuf message field set in
a constructor is copied, as ``config.gpu_options.CopyFrom(opts)`` would): ``opts.allow_growth =
True`` afterwards changes ``opts`` only, never the config or the sessions made from it.
"""

from __future__ import annotations

import ast

from tfcompat_gpu.lint.context import FileContext, call_keywords
from tfcompat_gpu.lint.dispatch import on_call, on_end, on_node

__all__ = ["copied_gpu_options"]

_Copy = tuple[str, ast.AST, object]
"""(name of the copied GPUOptions, the node that copied it, its scope)."""


def _state(ctx: FileContext) -> dict[str, list[_Copy]]:
    state = ctx.state.get("protocopy")
    if state is None:
        state = ctx.state["protocopy"] = {"copies": [], "changes": []}
    return state


def copied_gpu_options(node: ast.Call) -> str | None:
    """The name ``opts`` of ``ConfigProto(gpu_options=opts)`` (None for anything else)."""
    for keyword in call_keywords(node):
        if keyword.arg == "gpu_options" and isinstance(keyword.value, ast.Name):
            return keyword.value.id
    return None


@on_call("tensorflow.ConfigProto")
def _config(ctx: FileContext, node: ast.Call, name: str) -> None:
    opts = copied_gpu_options(node)
    if opts is not None:
        _state(ctx)["copies"].append((opts, node, ctx.scopes[-1]))
        ctx.state.setdefault("protocopy_names", set()).add(opts)
        ctx.watch(opts)


@on_node(ast.Expr)
def _copy_from(ctx: FileContext, statement: ast.Expr) -> None:
    # config.gpu_options.CopyFrom(opts) / MergeFrom(opts): a later copy takes the changes.
    node = statement.value
    if "protocopy_names" not in ctx.state or not isinstance(node, ast.Call):
        return
    func = node.func
    if (
        isinstance(func, ast.Attribute)
        and func.attr in ("CopyFrom", "MergeFrom")
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Name)
    ):
        _state(ctx)["copies"].append((node.args[0].id, node, ctx.scopes[-1]))


def _changed_name(target: ast.expr) -> tuple[str, str] | None:
    """``("opts", "allow_growth")`` for ``opts.allow_growth``, ``("opts", "experimental.x")``
    for ``opts.experimental.x``."""
    if not isinstance(target, ast.Attribute):
        return None
    fields = [target.attr]
    base = target.value
    while isinstance(base, ast.Attribute):
        fields.append(base.attr)
        base = base.value
    if isinstance(base, ast.Name):
        return base.id, ".".join(reversed(fields))
    return None


@on_node(ast.Assign, ast.AugAssign)
def _assign(ctx: FileContext, node: ast.Assign | ast.AugAssign) -> None:
    state = ctx.state.get("protocopy")
    if state is None or "protocopy_names" not in ctx.state:
        return
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    copied = ctx.state["protocopy_names"]
    for target in targets:
        if target.__class__ is ast.Name:
            if target.id in copied:  # rebound: later changes are to another message
                scope = ctx.scopes[-1]
                state["copies"] = [
                    c for c in state["copies"] if c[0] != target.id or c[2] is not scope
                ]
            continue
        base = target
        while base.__class__ is ast.Attribute:
            base = base.value
        if base.__class__ is not ast.Name or base.id not in copied:
            continue
        changed = _changed_name(target)
        if changed is not None:
            scope = ctx.scopes[-1]
            if any(c[0] == changed[0] and c[2] is scope for c in state["copies"]):
                state["changes"].append((changed[0] + "." + changed[1], target, scope))


@on_end
def _end(ctx: FileContext) -> None:
    state = ctx.state.get("protocopy")
    if state is None or not state["changes"]:
        return
    for used, node, scope in state["changes"]:
        name = used.partition(".")[0]
        copies = [(n, s) for opts, n, s in state["copies"] if opts == name and s is scope]
        before = [n for n, _ in copies if _pos(n) < _pos(node) and ctx.flow.after(n, node)]
        after = [n for n, _ in copies if _pos(n) > _pos(node) and ctx.flow.after(node, n)]
        if before and not after:
            field = used.partition(".")[2]
            ctx.report(
                "TFG029",
                node,
                f"set {used} before the ConfigProto is made, or config.gpu_options.{field}",
                used=used,
                name=name,
                line=before[-1].lineno,
                field=field,
            )


def _pos(node: ast.AST) -> tuple[int, int]:
    return (node.lineno, node.col_offset)  # type: ignore[attr-defined]
