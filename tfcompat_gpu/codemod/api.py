"""Migrate one source text: every command that may apply, in one parse and one metadata pass.

Each command's cheap pre-check (its ``PRECHECK``, made of :mod:`._triage`'s parts) tells whether
it can concern the file; a file none can is returned as it is after a syntax check with
Python's own parser, without loading LibCST, which is what most files of a real tree are.  A file only the renames of deprecated names
concern is renamed on its text where that is sure (:mod:`._renames`), also without LibCST.
The others go to :mod:`._engine`.
"""

from __future__ import annotations

import ast
import warnings
from dataclasses import dataclass

from tfcompat_gpu.codemod._renames import rename_only
from tfcompat_gpu.codemod._triage import TARGETS, Target
from tfcompat_gpu.codemod.commands import commands_for
from tfcompat_gpu.codemod.commands.rename_deprecated_config import RenameDeprecatedConfigCommand

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


def migrate_source(
    code: str,
    *,
    target: Target = "facade",
    filename: str = "",
    upgrade: bool = False,
    keras: int | None = 3,
) -> MigrationResult:
    """Apply every migration command to ``code``.

    ``upgrade``: also the Keras 2 → Keras 3 and TF1 → TF2 API rewrites (optimizer arguments,
    ``fit_generator``, removed module paths, weight file names, ``tensorflow.compat.v1``), which
    ``tfcompat-gpu migrate`` applies unless given ``--gpu-only``.  ``keras``: the Keras major
    version the code is to run on (2: the rewrites that only Keras 3 needs, such as
    ``K.get_value``, are not made; None: the Keras installed, read from package metadata only
    where such a rewrite is in question).

    Raises :class:`SyntaxError` (with the line and column Python reports) when ``code`` does
    not parse, :class:`libcst.ParserSyntaxError` for code Python accepts and LibCST not, and
    :class:`~tfcompat_gpu.codemod._limits.TooComplex` (a :class:`ValueError`) for code nested
    deeper than LibCST's parser can take without crashing the process.

    >>> result = migrate_source("import tensorflow as tf\\ntf.debugging.set_log_device_placement = True\\n")
    >>> print(result.code, end="")
    import tensorflow as tf
    tf.debugging.set_log_device_placement(True)
    >>> result.changed, result.warnings
    (True, ())
    """
    with warnings.catch_warnings():
        # invalid escapes and the like are not the migration's business
        warnings.simplefilter("ignore")
        try:
            syntax = ast.parse(code, filename or "<unknown>")
        except MemoryError as error:
            # CPython 3.13's parser reports code nested too deeply ("Parser stack overflowed")
            # as a MemoryError, where 3.12 raised a SyntaxError: refused like any code too deep
            raise RecursionError(f"cannot parse: {error}") from None
    if target not in TARGETS:
        raise ValueError(f"Expected target to be one of {TARGETS}. Received: target={target!r}")
    wanted = commands_for(code, syntax, upgrade=upgrade)
    if not wanted:
        return MigrationResult(code=code, warnings=(), _original=code)
    if wanted == (RenameDeprecatedConfigCommand,):
        renamed = rename_only(code, syntax)
        if renamed is not None:
            return MigrationResult(code=renamed, warnings=(), _original=code)
    from tfcompat_gpu.codemod._engine import migrate_parsed

    if keras not in (2, 3, None):
        raise ValueError(f"Expected keras to be 2, 3 or None. Received: keras={keras!r}")
    new, notes = migrate_parsed(code, syntax, target, filename, upgrade=upgrade, keras=keras)
    return MigrationResult(code=new, warnings=notes, _original=code)
