"""Migrate one source text: every command in order, warnings collected with their line."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst
from libcst.codemod import CodemodContext

from tfcompat_gpu.codemod._base import Target
from tfcompat_gpu.codemod.commands import COMMANDS

__all__ = ["MigrationResult", "migrate_source"]


@dataclass(frozen=True)
class MigrationResult:
    """The migrated code and the ``"LINE: message"`` warnings about what was left alone."""

    code: str
    warnings: tuple[str, ...]

    @property
    def changed(self) -> bool:
        return self.code != self._original

    _original: str = ""


def migrate_source(code: str, *, target: Target = "facade", filename: str = "") -> MigrationResult:
    """Apply every migration command to ``code``.

    Raises :class:`libcst.ParserSyntaxError` when ``code`` does not parse.

    >>> result = migrate_source("import tensorflow as tf\\ntf.debugging.set_log_device_placement = True\\n")
    >>> print(result.code, end="")
    import tensorflow as tf
    tf.debugging.set_log_device_placement(True)
    >>> result.changed, result.warnings
    (True, ())
    """
    tree = cst.parse_module(code)
    warnings: list[str] = []
    for command in COMMANDS:
        context = CodemodContext(filename=filename or None)
        tree = command(context, target=target).transform_module(tree)
        warnings += context.warnings
    return MigrationResult(code=tree.code, warnings=tuple(warnings), _original=code)
