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
    if len(node.targets) != 1 or node.targets[0].__class__ is not ast.Name:
        return
    name: str = node.targets[0].id
    if _v1_module(ctx, node.value):
        ctx.aliases[name] = _V1
        ctx.watch(name)
