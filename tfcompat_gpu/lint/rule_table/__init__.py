"""The rule table: what one rule says (:class:`Rule`), and every rule, by family, in this
package's modules (``configuration``, ``multigpu``, ``migration``).

Messages and docs live in this table only, so that the checker, the CLI, the flake8 plugin, SARIF
output and ``docs/rules.md`` all say the same thing.  Message templates use ``str.format`` fields
that the rule fills in; each one says what is wrong, why, and what to write instead.
:mod:`tfcompat_gpu.lint.registry` indexes the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Rule", "Severity"]

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    default: bool
    """On unless deselected; opinionated rules are off and must be selected."""
    severity: Severity
    message: str
    """``str.format`` template of the one-line message (starts with what is wrong)."""
    what: str
    why: str
    example: str
    use_instead: str
    scope: str = "static"
    """"static" (source files), "runtime" (the live process) or "both"."""
    summary: str = ""
    """A few words for tables (`tfcompat-gpu rules`, the README)."""
    since: tuple[int, int] = (0, 0)
    """The oldest target TensorFlow (major, minor) the rule applies to: the rules about moving
    to TensorFlow 2 say nothing to a project that stays on TensorFlow 1."""
    absent_name: bool = False
    """The rule reports a name TensorFlow 2 / Keras 3 lacks (or deprecates): code that expects
    the name may be missing (an ``except ImportError`` import, the TensorFlow 1 arm of a
    version test; :mod:`tfcompat_gpu.lint.guards`) is not reported."""
