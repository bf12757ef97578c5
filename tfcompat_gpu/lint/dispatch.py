"""The callbacks rules register (by node, call, reference, end of file); the walk calls them.

A rule registers by node class (:func:`on_node`), by the canonical qualified name of a called
function (:func:`on_call`), for every resolved reference to an imported name (:func:`on_ref`),
or for the end of the file (:func:`on_end`), where rules that combine statements decide.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from tfcompat_gpu.lint.context import FileContext

__all__ = [
    "CALL_HANDLERS",
    "END_HANDLERS",
    "KEYWORD_HANDLERS",
    "NODE_HANDLERS",
    "REF_HANDLERS",
    "on_call",
    "on_end",
    "on_keyword",
    "on_node",
    "on_ref",
]

CallHandler = Callable[[FileContext, ast.Call, str], None]
RefHandler = Callable[[FileContext, ast.expr, str, str], None]
NodeHandler = Callable[[FileContext, Any], None]
EndHandler = Callable[[FileContext], None]
KeywordHandler = Callable[[FileContext, ast.Call, ast.keyword], None]

CALL_HANDLERS: dict[str, list[CallHandler]] = {}
"""Canonical qualified name of the called function -> callbacks."""
REF_HANDLERS: list[RefHandler] = []
"""Called with (ctx, node, raw qualified name, root alias) for every resolved load."""
NODE_HANDLERS: dict[type[ast.AST], list[NodeHandler]] = {}
END_HANDLERS: list[EndHandler] = []
KEYWORD_HANDLERS: dict[str, list[KeywordHandler]] = {}
"""Keyword argument name -> callbacks, for every call the walk meets, resolved or not."""


def on_call(*names: str) -> Callable[[CallHandler], CallHandler]:
    def register(func: CallHandler) -> CallHandler:
        for name in names:
            CALL_HANDLERS.setdefault(name, []).append(func)
        return func

    return register


def on_node(*types: type[ast.AST]) -> Callable[[NodeHandler], NodeHandler]:
    def register(func: NodeHandler) -> NodeHandler:
        for cls in types:
            NODE_HANDLERS.setdefault(cls, []).append(func)
        return func

    return register


def on_keyword(*names: str) -> Callable[[KeywordHandler], KeywordHandler]:
    def register(func: KeywordHandler) -> KeywordHandler:
        for name in names:
            KEYWORD_HANDLERS.setdefault(name, []).append(func)
        return func

    return register


def on_ref(func: RefHandler) -> RefHandler:
    REF_HANDLERS.append(func)
    return func


def on_end(func: EndHandler) -> EndHandler:
    END_HANDLERS.append(func)
    return func
