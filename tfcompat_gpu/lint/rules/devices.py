"""``tf.device`` strings: TFG002."""

from __future__ import annotations

import ast

from tfcompat_gpu.lint.context import FileContext
from tfcompat_gpu.lint.dispatch import on_call
from tfcompat_gpu.lint.values import device_string_problem

__all__: list[str] = []


@on_call("tensorflow.device")
def _device(ctx: FileContext, node: ast.Call, name: str) -> None:
    spec = node.args[0] if node.args else None
    for keyword in node.keywords:
        if keyword.arg == "device_name":
            spec = keyword.value
    if spec is None or spec.__class__ is not ast.Constant or not isinstance(spec.value, str):
        return
    reason = device_string_problem(spec.value)
    if reason is not None:
        ctx.report("TFG002", spec, "tf.device('/GPU:0')", value=spec.value, reason=reason)
