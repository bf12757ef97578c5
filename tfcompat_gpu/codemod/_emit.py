"""Building the statements a rewrite inserts, from source text.

Statements are produced by parsing code, which keeps them formatted as a person would write
them; continuation lines are indented to the block the statement lands in.
"""

from __future__ import annotations

from collections.abc import Sequence

from tfcompat_gpu.codemod._libcst import cst

__all__ = ["call_code", "free_name", "growth_loop_code", "names_in", "parsed_statements"]

_WIDTH = 100


def names_in(module: cst.Module) -> set[str]:
    """Every identifier spelled in the module (used to pick a loop variable that clobbers none)."""
    found: set[str] = set()

    class _Collect(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            found.add(node.value)

    module.visit(_Collect())
    return found


def free_name(taken: set[str], *candidates: str) -> str:
    for name in candidates:
        if name not in taken:
            return name
    index = 2
    while f"{candidates[-1]}{index}" in taken:
        index += 1
    return f"{candidates[-1]}{index}"


def call_code(func: str, args: Sequence[str], indent: str = "") -> str:
    """``func(a, b)``, or one argument per line when that would be longer than the page.

    ``indent`` only counts towards the width: LibCST indents continuation lines by the block
    the statement lands in.
    """
    flat = f"{func}({', '.join(args)})"
    if len(indent) + len(flat) <= _WIDTH and "\n" not in flat:
        return flat
    inner = "".join(f"    {arg},\n" for arg in args)
    return f"{func}(\n{inner})"


def growth_loop_code(tf: str, value: str, var: str) -> str:
    # TensorFlow rejects memory growth that differs between GPUs, so it goes on every one.
    return (
        f'for {var} in {tf}config.list_physical_devices("GPU"):\n'
        f"    {tf}config.experimental.set_memory_growth({var}, {value})\n"
    )


def parsed_statements(code: str) -> list[cst.BaseStatement]:
    """The LibCST statements of ``code``, parsed as a module."""
    return list(cst.parse_module(code).body)
