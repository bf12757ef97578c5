"""Opinionated rules, off by default: TFG014."""

from __future__ import annotations

import ast

from tfcompat_gpu.lint.context import FileContext
from tfcompat_gpu.lint.dispatch import on_call

__all__: list[str] = []

_C = "tensorflow.config."


@on_call(
    _C + "experimental.set_memory_growth",
    _C + "set_logical_device_configuration",
    _C + "experimental.set_virtual_device_configuration",
    _C + "set_visible_devices",
    _C + "experimental.set_visible_devices",
    _C + "set_soft_device_placement",
    _C + "threading.set_intra_op_parallelism_threads",
    _C + "threading.set_inter_op_parallelism_threads",
    "tensorflow.ConfigProto",
    "tensorflow.GPUOptions",
)
def _direct(ctx: FileContext, node: ast.Call, name: str) -> None:
    ctx.report("TFG014", node, "tfcompat_gpu.configure(...)", used=ctx.shown(name))
