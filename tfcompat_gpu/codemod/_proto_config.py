"""What :mod:`._proto_analysis` learns of one ``ConfigProto``: the :class:`Config` that
:mod:`._proto_rewrite` turns into new code."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Union

from tfcompat_gpu.codemod._dataflow import CannotFollow

__all__ = ["Config"]

if TYPE_CHECKING:
    from tfcompat_gpu.codemod._libcst import cst

    Block = Union[cst.Module, cst.IndentedBlock]


@dataclass
class Config:
    """One ConfigProto and everything that builds it or consumes it."""

    proto: cst.Call
    settings: dict[str, cst.BaseExpression] = field(default_factory=dict)
    building: list[cst.SimpleStatementLine] = field(default_factory=list)
    sinks: list[cst.Call] = field(default_factory=list)
    anchor: cst.BaseStatement | None = None
    block: Block | None = None
    # the anchor is a building statement or a removed sink (replaced), not a kept statement
    anchor_replaced: bool = True
    # ``def make_config(): ...; return config`` whose every call configures a session
    factory: cst.FunctionDef | None = None
    # settings made under an ``if`` of the block: the line setting them -> its settings, and
    # the statement of the block that holds it
    conditional: dict[cst.SimpleStatementLine, dict[str, cst.BaseExpression]] = field(
        default_factory=dict
    )
    outer: dict[cst.SimpleStatementLine, cst.BaseStatement] = field(default_factory=dict)
    # a factory whose callers are in other modules
    returns_proto: bool = False
    # ``name = ConfigProto(...)`` and each top-level ``name.a.b = v`` line, by (line, path)
    creation: cst.SimpleStatementLine | None = None
    mutations: dict[tuple[int, str], cst.SimpleStatementLine] = field(default_factory=dict)
    # fields with no successor, kept on a smaller ConfigProto the sessions still receive
    kept: list[tuple[cst.SimpleStatementLine, CannotFollow]] = field(default_factory=list)
    gpu_options_variable: bool = False
    # ``gpu_options = tf.GPUOptions(...)`` that other ConfigProtos copy too: removed once
    # every config copying it is migrated
    shared_options: cst.SimpleStatementLine | None = None
