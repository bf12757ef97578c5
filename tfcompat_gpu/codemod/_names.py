"""Qualified names the codemods match, and small helpers shared by the commands.

Names are compared after folding ``tensorflow.compat.v1.`` (and ``v2``) into ``tensorflow.``:
``import tensorflow.compat.v1 as tf; tf.Session`` and ``import tensorflow as tf;
tf.compat.v1.Session`` are the same thing to a migration.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from typing import TYPE_CHECKING

from tfcompat_gpu.codemod._libcst import cst, meta
from tfcompat_gpu.codemod._renames import spelled_prefix
from tfcompat_gpu.tfapi.names import canonical

if TYPE_CHECKING:
    from libcst.metadata import QualifiedName

__all__ = [
    "CONFIG_PROTO",
    "GET_SESSION",
    "GPU_OPTIONS",
    "INTERACTIVE_SESSION",
    "KERAS_BACKEND_MODULES",
    "MONITORED_SESSION",
    "RUN_CONFIG",
    "SESSION",
    "SET_SESSION",
    "TENSORFLOW_BACKEND",
    "below_imports",
    "bind_arguments",
    "canonical",
    "config_keyword",
    "dotted",
    "imported_names",
    "imports_keras",
    "prefix_for",
    "tf_root_alias",
    "top_level_imports",
]

CONFIG_PROTO = "tensorflow.ConfigProto"
GPU_OPTIONS = "tensorflow.GPUOptions"
SESSION = "tensorflow.Session"
INTERACTIVE_SESSION = "tensorflow.InteractiveSession"
SET_SESSION = frozenset(
    {
        "keras.backend.tensorflow_backend.set_session",
        "keras.backend.set_session",
        "tensorflow.keras.backend.set_session",
        "tensorflow.python.keras.backend.set_session",
        "tf_keras.backend.set_session",
    }
)
# Estimator and monitored sessions: they take a session's config by keyword only
RUN_CONFIG = frozenset({"tensorflow.estimator.RunConfig", "tensorflow.contrib.learn.RunConfig"})
MONITORED_SESSION = frozenset(
    {
        "tensorflow.train.MonitoredTrainingSession",
        "tensorflow.train.SingularMonitoredSession",
        # MonitoredSession(session_creator=ChiefSessionCreator(config=...))
        "tensorflow.train.ChiefSessionCreator",
        "tensorflow.train.WorkerSessionCreator",
    }
)
GET_SESSION = frozenset(name.replace(".set_session", ".get_session") for name in SET_SESSION)
# Keras >= 2.4 has no such module; an import of it that the migrated code still needs stays.
TENSORFLOW_BACKEND = "keras.backend.tensorflow_backend"
# Modules whose only use in legacy GPU code is set_session: Keras 3 removed
# keras.backend.tensorflow_backend, so an import of it left behind breaks the script.
KERAS_BACKEND_MODULES = frozenset({TENSORFLOW_BACKEND, "keras.backend"})


def bind_arguments(call: cst.Call, parameters: tuple[str, ...]) -> dict[str, cst.Arg] | None:
    """The arguments of ``call`` by the name of the parameter each fills, ``parameters`` being
    the function's in order; None when they cannot be read so (``*args``, ``**kwargs``, an
    unknown keyword, one parameter given twice, more positions than parameters)."""
    bound: dict[str, cst.Arg] = {}
    for index, arg in enumerate(call.args):
        if arg.star:
            return None
        if arg.keyword is not None:
            name = arg.keyword.value
        elif index < len(parameters):
            name = parameters[index]
        else:
            return None
        if name not in parameters or name in bound:
            return None
        bound[name] = arg
    return bound


def config_keyword(names: set[str]) -> str | None:
    """The keyword that hands a session config to a call of one of ``names``, if any."""
    if names & RUN_CONFIG:
        return "session_config"
    if names & MONITORED_SESSION or names & {SESSION, INTERACTIVE_SESSION}:
        return "config"
    return None


def imported_names(qualified: Collection[QualifiedName]) -> set[str]:
    """Canonical names of the imported things a node may refer to (locals are ignored)."""
    return {canonical(q.name) for q in qualified if q.source is meta.QualifiedNameSource.IMPORT}


def dotted(node: cst.BaseExpression) -> str | None:
    """``a.b.c`` for a chain of Names and Attributes, else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted(node.value)
        return None if base is None else f"{base}.{node.attr.value}"
    return None


def prefix_for(node: cst.BaseExpression, canonical_name: str) -> str | None:
    """What stands for ``tensorflow.`` in ``node`` (``"tf."``, ``"tf.compat.v1."``, ``""``).

    ``node`` is spelled ``PREFIX + rest`` where ``rest`` is ``canonical_name`` without its
    ``tensorflow.``; the prefix lets a rewrite name another TensorFlow function through the
    alias the file already uses.  None when the node is not spelled that way (``from
    tensorflow.config import experimental``), in which case the caller leaves it alone.
    """
    return spelled_prefix(dotted(node), canonical_name)


_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


def _guards_imports(statement: cst.Try) -> bool:
    """``try: import x / except ImportError: ...`` (or a bare or broader ``except``)."""
    for handler in statement.handlers:
        kinds = handler.type
        if kinds is None:
            return True
        names = [e.value for e in kinds.elements] if isinstance(kinds, cst.Tuple) else [kinds]
        if any(dotted(name) in _IMPORT_ERRORS for name in names):
            return True
    return False


def top_level_imports(
    module: cst.Module,
) -> Iterator[tuple[cst.SimpleStatementLine, cst.Import | cst.ImportFrom]]:
    """Each module-level ``import`` / ``from ... import`` with the statement line holding it.

    Imports in the body of a module-level ``try`` that catches ``ImportError`` count: an
    import left there that fails under TF2 sends the whole block to its ``except``.
    """
    for statement in module.body:
        lines: Iterable[cst.CSTNode] = [statement]
        if (
            isinstance(statement, cst.Try)
            and isinstance(statement.body, cst.IndentedBlock)
            and _guards_imports(statement)
        ):
            lines = statement.body.body
        for line in lines:
            if isinstance(line, cst.SimpleStatementLine):
                for small in line.body:
                    if isinstance(small, (cst.Import, cst.ImportFrom)):
                        yield line, small


def imports_keras(module: cst.Module) -> bool:
    """Whether the module has a module-level ``import keras`` (no alias), so that code written
    into it may spell ``keras.layers...``."""
    return any(
        isinstance(small, cst.Import)
        and any(dotted(a.name) == "keras" and a.asname is None for a in small.names)
        for _, small in top_level_imports(module)
    )


def tf_root_alias(module: cst.Module) -> str | None:
    """A top-level name bound to ``tensorflow`` or ``tensorflow.compat.v1``, with a dot.

    Both modules carry every ``tf.config`` function the TF2 target emits.
    """
    found: str | None = None
    for _, small in top_level_imports(module):
        if isinstance(small, cst.Import):
            for alias in small.names:
                name = dotted(alias.name)
                if name not in ("tensorflow", "tensorflow.compat.v1"):
                    continue
                if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                    return alias.asname.name.value + "."
                found = found or name + "."
        elif not isinstance(small.names, cst.ImportStar):
            if small.module is None or dotted(small.module) != "tensorflow.compat":
                continue
            for alias in small.names:
                if dotted(alias.name) == "v1":
                    bound = alias.asname.name if alias.asname is not None else alias.name
                    if isinstance(bound, cst.Name):
                        return bound.value + "."
    return found


def opens_module(statement: cst.BaseStatement) -> bool:
    """A docstring or an import line: a helper a rewrite adds goes below the block they open
    the file with."""
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    return all(
        isinstance(small, (cst.Import, cst.ImportFrom))
        or (isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString))
        for small in statement.body
    )


def below_imports(module: cst.Module, code: str) -> cst.Module:
    """``module`` with the statements of ``code`` (helpers a rewrite adds) below the docstring
    and imports it opens with, two blank lines before them, and two after where the next
    statement has none."""
    body = list(module.body)
    at = 0
    while at < len(body) and opens_module(body[at]):
        at += 1
    helpers = list(cst.parse_module(code).body)
    helpers[0] = helpers[0].with_changes(leading_lines=[cst.EmptyLine(), cst.EmptyLine()])
    body[at:at] = helpers
    after = at + len(helpers)
    if after < len(body) and not body[after].leading_lines:
        body[after] = body[after].with_changes(leading_lines=[cst.EmptyLine(), cst.EmptyLine()])
    return module.with_changes(body=body)
