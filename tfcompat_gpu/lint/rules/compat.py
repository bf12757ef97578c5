"""Names bound to ``tf.compat.v1``: ``tf = tf.compat.v1`` keeps the TensorFlow 1 API on
TensorFlow 2 knowingly, so the later ``tf.Session`` / ``tf.ConfigProto`` are not TFG009."""

from __future__ import annotations

import ast

from tfcompat_gpu.lint.context import FileContext
from tfcompat_gpu.lint.dispatch import on_node

__all__: list[str] = []

_V1 = "tensorflow.compat.v1"


def _v1_module(ctx: FileContext, node: ast.expr) -> bool:
    """``tf.compat.v1``, or ``tf.compat.v1 if ... else tf`` (either arm is v1 or plain tf)."""
    if node.__class__ is ast.IfExp:
        arms = [ctx.resolve(node.body), ctx.resolve(node.orelse)]
        return _V1 in arms and all(arm in (_V1, "tensorflow") for arm in arms)
    return ctx.resolve(node) == _V1


@on_node(ast.Assign)
def _assign(ctx: FileContext, node: ast.Assign) -> None:
    value = node.value
    # Cheap tests first: the walk calls this for every assignment.
    cls = value.__class__
    if not ((cls is ast.Attribute and value.attr == "v1") or cls is ast.IfExp):  # type: ignore[attr-defined]
        return
    target = node.targets[0]
    if len(node.targets) != 1 or not isinstance(target, ast.Name):
        return
    name = target.id
    if _v1_module(ctx, value):
        ctx.aliases[name] = _V1
        ctx.watch(name)
