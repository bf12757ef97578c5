"""``tf.config`` names that do not exist in the target TensorFlow: TFG030.

The names come from :mod:`tfcompat_gpu.lint._tfconfig_api`, generated from TensorFlow's own API
(``python -m tfcompat_gpu.lint.tfconfig_gen``).  For a target older than every release in that table, a
name of the table is checked against the oldest release (a name added later is reported), and a
name the table does not know is reported only when it is one or two letters away from a real one
(a typo): older releases had names the table does not list.
"""

from __future__ import annotations

import ast
import difflib
import functools

from tfcompat_gpu.lint._tfconfig_api import API
from tfcompat_gpu.lint.context import FileContext
from tfcompat_gpu.lint.dispatch import on_ref

__all__ = ["config_name_problem"]

_OLDEST, _NEWEST = min(API), max(API)
_ALL = {flavour: frozenset().union(*(t[flavour] for t in API.values())) for flavour in ("v2", "v1")}
_MODULES = {
    flavour: frozenset(n.rpartition(".")[0] for n in names if "." in n)
    for flavour, names in _ALL.items()
}
# TensorFlow 2.0.0-alpha0 exported these (`tensorflow/python/framework/config.py` at that tag,
# `@tf_export("config.gpu.set_per_process_memory_growth")`, ...); no release kept them, yet
# code copied from that preview still calls them.
_PREVIEW = {
    "gpu.set_per_process_memory_growth": "experimental.set_memory_growth",
    "gpu.get_per_process_memory_growth": "experimental.get_memory_growth",
    "gpu.set_per_process_memory_fraction": "set_logical_device_configuration",
    "gpu.get_per_process_memory_fraction": "get_logical_device_configuration",
}
_PREFIXES = {"tensorflow.config.": "v2", "tensorflow.compat.v1.config.": "v1"}


def _names(flavour: str, target: tuple[int, int] | None) -> frozenset[str]:
    if target is None or target >= _NEWEST:
        return API[_NEWEST][flavour]
    if target in API:
        return API[target][flavour]
    if target > _OLDEST:  # between two releases of the table: what either has
        below = max(r for r in API if r < target)
        above = min(r for r in API if r > target)
        return API[below][flavour] | API[above][flavour]
    # Older than the table: a name its oldest release lacks yet a later one has came later.
    return API[_OLDEST][flavour]


def _typo(name: str, names: frozenset[str]) -> str | None:
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.85)
    return close[0] if close else None


@functools.lru_cache(maxsize=1024)
def config_name_problem(
    rest: str, flavour: str, target: tuple[int, int] | None
) -> tuple[str, str | None] | None:
    """(the missing part of ``tf.config.<rest>``, a suggestion), or None when it exists.

    >>> config_name_problem("experimental.set_memory_grwoth", "v2", None)
    ('experimental.set_memory_grwoth', 'experimental.set_memory_growth')
    """
    names = _names(flavour, target)
    older = target is not None and target < _OLDEST
    known, modules = _ALL[flavour], _MODULES[flavour]
    parts = rest.split(".")
    for end in range(1, len(parts) + 1):
        head = ".".join(parts[:end])
        if head in modules and head in names:
            continue  # a module: its next part decides
        if older and head not in known:  # a name the table cannot vouch for: typos only
            suggestion = _typo(head, known)
            return (head, suggestion) if suggestion is not None else None
        if head in names:
            return None  # a function or a class: what follows is its own
        preview = _PREVIEW.get(".".join(parts[:2]))
        if preview is not None:
            return ".".join(parts[:2]), preview
        close = difflib.get_close_matches(head, names, n=1, cutoff=0.6)
        return head, close[0] if close else None
    return None


@on_ref
def _ref(ctx: FileContext, node: ast.expr, qual: str, root: str) -> None:
    if ".config." not in qual:
        return
    prefix = next((p for p in _PREFIXES if qual.startswith(p)), None)
    if prefix is None:
        return
    flavour, rest = _PREFIXES[prefix], qual[len(prefix) :]
    problem = config_name_problem(rest, flavour, ctx.target)
    if problem is None:
        return
    missing, suggestion = problem
    shown = "tf.config" if flavour == "v2" else "tf.compat.v1.config"
    target = ctx.target or _NEWEST
    hint = f"did you mean `{shown}.{suggestion}`?" if suggestion else f"see `dir({shown})`"
    ctx.report(
        "TFG030",
        node,
        f"{shown}.{suggestion}" if suggestion else f"a name of dir({shown})",
        used=f"{shown}.{missing}",
        version=f"{target[0]}.{target[1]}"
        if ctx.target
        else f"{target[0]}.{target[1]} (the latest)",
        hint=hint,
    )
