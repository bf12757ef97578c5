"""Where each node of a module is, as LibCST's ``PositionProvider`` says, at a fraction of its cost.

LibCST's provider builds two frozen dataclasses (``CodePosition``, ``CodeRange``) per node and
enters a generator-based context manager for most of them; on a migration's input that is
about five times the cost of printing the module.  :class:`SpanProvider` records the same
numbers as a tuple ``(start line, start column, end line, end column)`` through the same
codegen hooks, with the same rules: a node's syntactic position (``record_syntactic_position``)
wins over its whitespace-inclusive one, lines are 1-based and columns 0-based.
"""

from __future__ import annotations

import re
from types import TracebackType
from typing import Any, cast

import libcst as cst
from libcst.metadata.base_provider import BaseMetadataProvider
from libcst.metadata.position_provider import PositionProvidingCodegenState

__all__ = ["Span", "SpanProvider"]

Span = tuple[int, int, int, int]
"""(start line, start column, end line, end column) of a node."""

_NEWLINE = re.compile(r"\r\n?|\n")


class _Syntactic:
    """``record_syntactic_position`` without a generator."""

    __slots__ = ("_end_node", "_node", "_start", "_start_node", "_state")

    def __init__(
        self,
        state: _SpanState,
        node: cst.CSTNode,
        start_node: cst.CSTNode | None,
        end_node: cst.CSTNode | None,
    ) -> None:
        self._state = state
        self._node = node
        self._start_node = start_node
        self._end_node = end_node
        self._start = (0, 0)

    def __enter__(self) -> None:
        self._start = (self._state.line, self._state.column)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        state = self._state
        computed = cast("dict[cst.CSTNode, Span]", state.provider._computed)
        start_line, start_column = self._start
        if self._start_node is not None:
            start_line, start_column = computed[self._start_node][:2]
        end_line, end_column = state.line, state.column
        if self._end_node is not None:
            end_line, end_column = computed[self._end_node][2:]
        computed[self._node] = (start_line, start_column, end_line, end_column)


class _SpanState(PositionProvidingCodegenState):
    """LibCST's position-providing codegen state, recording tuples."""

    def add_token(self, value: str) -> None:
        self.tokens.append(value)
        if "\n" not in value and "\r" not in value:
            self.column += len(value)
        else:
            self._update_position(value)

    def _update_position(self, value: str) -> None:
        segments = _NEWLINE.split(value)
        if len(segments) == 1:
            self.column += len(value)
        else:
            self.line += len(segments) - 1
            self.column = len(segments[-1])

    def before_codegen(self, node: cst.CSTNode) -> None:
        self._stack.append((self.line, self.column))  # type: ignore[arg-type]

    def after_codegen(self, node: cst.CSTNode) -> None:
        start_line, start_column = cast("tuple[int, int]", self._stack.pop())
        computed = cast("dict[cst.CSTNode, Span]", self.provider._computed)
        if node not in computed:  # a syntactic position, recorded inside, wins
            computed[node] = (start_line, start_column, self.line, self.column)

    def record_syntactic_position(  # type: ignore[override]
        self,
        node: cst.CSTNode,
        *,
        start_node: cst.CSTNode | None = None,
        end_node: cst.CSTNode | None = None,
    ) -> _Syntactic:
        return _Syntactic(self, node, start_node, end_node)


class SpanProvider(BaseMetadataProvider[Span]):
    """Each node's :data:`Span`: the numbers of LibCST's ``PositionProvider``, as a tuple."""

    def _gen_impl(self, module: cst.Module) -> None:
        state = _SpanState(
            default_indent=module.default_indent,
            default_newline=module.default_newline,
            provider=cast(Any, self),  # LibCST's type says a CodeRange provider
        )
        module._codegen(state)
