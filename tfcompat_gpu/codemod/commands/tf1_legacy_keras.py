"""TF1 layers and RNN cells → ``os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")`` at the top.

From TensorFlow 2.16 on, ``tf.compat.v1.layers`` and ``tf.compat.v1.nn.rnn_cell`` (``tf.layers``
and ``tf.nn.rnn_cell`` of TF1 code under ``import tensorflow.compat.v1 as tf``) are Keras'
legacy layers and cells, loaded from Keras on first use
(tensorflow/_api/v2/compat/v1/__init__.py makes them ``KerasLazyLoader``\\ s,
tensorflow/python/util/lazy_loader.py): on Keras 3 each name raises "`conv2d` is not available
with Keras 3."  TensorFlow's documented way to keep such code is tf_keras (the 2.16 release
notes, RELEASE.md "Keras 3 will be the default Keras version": ``pip install tf-keras`` and set
``TF_USE_LEGACY_KERAS=1`` before TensorFlow is imported; ``_initialize`` of ``KerasLazyLoader``
then loads ``tf_keras.api._v1.keras``).  So where the migrated file uses one of those modules
(:data:`~tfcompat_gpu.tfapi.tf1_names.TF_KERAS_MODULES`, the table ``run`` reads too), or
another command wrote one (``contrib_rnn``'s ``tf.compat.v1.nn.rnn_cell`` cells,
``contrib_layers``' ``tf.compat.v1.layers.dense``: :data:`LEGACY_KERAS_NAMES`),
this command puts::

    # tf.layers / tf.nn.rnn_cell come from tf_keras on TensorFlow >= 2.16: pip install tf_keras
    import os
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")

after the module docstring and ``__future__`` imports (after a leading ``import os`` where the
file has one before its other imports), and warns once, naming the first such name.  The
variable is only defaulted: an environment that sets it otherwise wins.

Left alone, with the warning ``tf1_compat`` / ``contrib_rnn`` give: a file that names
``TF_USE_LEGACY_KERAS`` already (a second run finds its own line), and one that imports the
standalone ``keras`` package, which stays Keras 3 while ``tf.keras`` would become tf_keras:
objects of the two do not mix.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Sequence

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import dotted
from tfcompat_gpu.tfapi.names import canonical
from tfcompat_gpu.tfapi.tf1_names import needs_tf_keras

__all__ = ["LEGACY_KERAS_NAMES", "VARIABLE", "Tf1LegacyKerasCommand"]

VARIABLE = "TF_USE_LEGACY_KERAS"
LEGACY_KERAS_NAMES = "tfcompat_gpu.legacy_keras_names"
"""Scratch key: ``[(line, "tf.X"), ...]``, names another command wrote that tf_keras serves
(``tf.contrib.layers.flatten`` → ``tf.compat.v1.layers.flatten``)."""

_TAG = "[served by tf_keras only]"
_COMMENT = (
    "# tf.layers / tf.nn.rnn_cell come from tf_keras on TensorFlow >= 2.16: pip install tf_keras"
)
_LINE = f'os.environ.setdefault("{VARIABLE}", "1")'
_WORDS = re.compile(r"\b(?:layers|rnn_cell|contrib|keras)\b")
# What makes a file worth the command: a TF1 layers or cells module, or tf.contrib (whose
# rewrites may write one); `keras.layers` is Keras' own module, not tf_keras only.
_FILE_WORDS = re.compile(r"\b(?:rnn_cell|contrib)\b|(?<!keras\.)\blayers\b")


def _wanted(text: str, tree: ast.Module | None = None) -> bool:
    return "tensorflow" in text and VARIABLE not in text and _FILE_WORDS.search(text) is not None


def _relevant(statement: str) -> bool:
    return _WORDS.search(statement) is not None


def _tf_keras_name(name: str) -> str | None:
    """``tf.X`` for a qualified name tf_keras serves on TensorFlow >= 2.16, else None."""
    name = canonical(name)
    if not name.startswith("tensorflow."):
        return None
    rest = name[len("tensorflow.") :]
    # tf.contrib.rnn's cells: contrib_rnn hands over those it writes (LEGACY_KERAS_NAMES)
    return "tf." + rest if needs_tf_keras(rest) else None


class Tf1LegacyKerasCommand(MigrationCommand):
    DESCRIPTION = (
        "tf.layers and tf.nn.rnn_cell (served by tf_keras only from TensorFlow 2.16): "
        'os.environ.setdefault("TF_USE_LEGACY_KERAS", "1") at the top of the file.'
    )
    PRECHECK = Precheck(_wanted, _relevant)
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # the statements it reads are those PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        self._first: tuple[int, str] | None = None
        self._inner = ""  # _first's name while the next node left may be its chain's outer one
        self._keras = False

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            if (dotted(alias.name) or "").partition(".")[0] == "keras":
                self._keras = True

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        module = dotted(node.module) if node.module is not None else None
        if module is not None and module.partition(".")[0] == "keras" and not node.relative:
            self._keras = True

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        first, inner = self._first, self._inner
        self._inner = ""
        if first is not None and not inner:
            return updated_node
        for name in self.names_of(original_node):
            shown = _tf_keras_name(name)
            if shown is None:
                continue
            # the outermost chain names it best: tf.layers.dense, left just after tf.layers
            if first is None or shown.startswith(inner + "."):
                self._first = (self.line_of(original_node), shown)
                self._inner = shown
            break
        return updated_node

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        found = [*self.context.scratch.get(LEGACY_KERAS_NAMES, ())]
        if self._first is not None:
            found.append(self._first)
        if not found or self._keras:
            return updated_node
        line, shown = min(found)
        # the warnings tf1_compat and contrib_rnn gave ("pip install tf_keras and run with
        # TF_USE_LEGACY_KERAS=1") are done here: one says what was done instead
        self.context.warnings[:] = [w for w in self.context.warnings if not w.endswith(_TAG)]
        self.warn(
            f"{line}: {shown} comes from tf_keras on TensorFlow >= 2.16: "
            f'os.environ.setdefault("{VARIABLE}", "1") was put at the top of the file; '
            f"pip install tf_keras to run it {_TAG}"
        )
        return _with_variable(updated_node, _has_docstring(self.source_text()))


def _has_docstring(source: str) -> bool:
    # read from the whole text: LibCST may be given a stub (a string) for a first statement
    # no command concerns (codemod/_focus.py)
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    return ast.get_docstring(tree, clean=False) is not None


def _with_variable(module: cst.Module, docstring: bool) -> cst.Module:
    body = list(module.body)
    at = 0
    if docstring and body and _is_docstring(body[0]):
        at = 1
    while at < len(body) and _is_future(body[at]):
        at += 1
    config = module.config_for_parsing
    setdefault = cst.parse_statement(_LINE + "\n", config=config)
    comment = cst.EmptyLine(comment=cst.Comment(_COMMENT))
    os_at = _leading_os_import(body, at)
    if os_at is not None:
        body.insert(os_at + 1, setdefault.with_changes(leading_lines=[comment]))
        return module.with_changes(body=body)
    new_import = cst.parse_statement("import os\n", config=config)
    first = new_import.with_changes(leading_lines=[comment])
    if at and at < len(body):
        first = first.with_changes(leading_lines=[cst.EmptyLine(), comment])
    body[at:at] = [first, setdefault]
    return module.with_changes(body=body)


def _leading_os_import(body: Sequence[cst.BaseStatement], at: int) -> int | None:
    """Where ``import os`` is among the imports from ``at`` on, before any import that may
    load TensorFlow (one not of the standard library)."""
    for index in range(at, len(body)):
        statement = body[index]
        if not isinstance(statement, cst.SimpleStatementLine):
            return None
        for small in statement.body:
            if isinstance(small, cst.Import):
                names = [(dotted(a.name) or "", a.asname) for a in small.names]
                if any(name == "os" and asname is None for name, asname in names):
                    return index
                if not all(_stdlib(name) for name, _ in names):
                    return None
            elif isinstance(small, cst.ImportFrom):
                module = dotted(small.module) if small.module is not None else None
                if module is None or small.relative or not _stdlib(module):
                    return None
            else:
                return None
    return None


# Python 3.9 has no sys.stdlib_module_names: the modules scripts import before TensorFlow most
# often.  A standard module missing here only means a new `import os` above the imports.
_COMMON_STDLIB = frozenset(
    {
        "__future__", "argparse", "collections", "copy", "csv", "datetime", "functools",
        "glob", "itertools", "json", "logging", "math", "os", "pathlib", "pickle", "random",
        "re", "shutil", "subprocess", "sys", "time", "typing", "warnings",
    }
)  # fmt: skip
_STDLIB: frozenset[str] = getattr(sys, "stdlib_module_names", _COMMON_STDLIB)


def _stdlib(name: str) -> bool:
    return name.partition(".")[0] in _STDLIB


def _is_docstring(statement: cst.BaseStatement) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def _is_future(statement: cst.BaseStatement) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and bool(statement.body)
        and all(
            isinstance(small, cst.ImportFrom)
            and small.module is not None
            and dotted(small.module) == "__future__"
            for small in statement.body
        )
    )
