"""TF1 names imported by name from ``tensorflow`` → from ``tensorflow.compat.v1``.

``from tensorflow import set_random_seed`` (the reproducibility preamble of Keras 2 scripts and
Kaggle kernels, before ``np.random.seed(1); set_random_seed(2)``) fails on TensorFlow 2 with
``ImportError``: the top-level module no longer has the name, ``tf.compat.v1`` does
(tensorflow/_api/v2/compat/v1).  ``tf1_compat`` follows the ``tf.X`` reads of a module; a name
imported by itself is this command's.  The names that run the same under eager execution
(``tf1_compat.EAGER_SAFE``: ``set_random_seed``, ``logging``, ``app``, ``flags``,
``reset_default_graph``, the config protos) move to a ``from tensorflow.compat.v1 import``
beside the names TensorFlow 2 kept; a graph-mode name (``placeholder``, ``Session``) is left
with a warning, since it needs the whole module in graph mode.
"""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import dotted
from tfcompat_gpu.codemod._triage import text_search
from tfcompat_gpu.codemod.commands.tf1_compat import EAGER_SAFE
from tfcompat_gpu.tfapi.tf1_names import TF1_ONLY

__all__ = ["Tf1NameImportsCommand"]

_TEXT = re.compile(r"^\s*from\s+tensorflow\s+import\b", re.M)


def _relevant(statement: str) -> bool:
    return _TEXT.search(statement) is not None


class Tf1NameImportsCommand(MigrationCommand):
    DESCRIPTION = (
        "TF1 names imported from tensorflow by name (from tensorflow import set_random_seed) "
        "to an import from tensorflow.compat.v1."
    )
    PRECHECK = Precheck(text_search(_TEXT, "from tensorflow import"), _relevant)
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.FlattenSentinel[cst.SimpleStatementLine]:
        if len(updated_node.body) != 1:
            return updated_node
        node = updated_node.body[0]
        if (
            not isinstance(node, cst.ImportFrom)
            or node.relative
            or node.module is None
            or dotted(node.module) != "tensorflow"
            or isinstance(node.names, cst.ImportStar)
        ):
            return updated_node
        moved: list[cst.ImportAlias] = []
        kept: list[cst.ImportAlias] = []
        for alias in node.names:
            name = str(dotted(alias.name))
            if name not in TF1_ONLY:
                kept.append(alias)
            elif name in EAGER_SAFE:
                moved.append(alias)
            else:
                kept.append(alias)
                self.warn_at(
                    original_node,
                    f"from tensorflow import {name} left unchanged: TensorFlow 2 has "
                    f"{name} in tf.compat.v1 only, and it needs TF1 graph mode; write "
                    "import tensorflow.compat.v1 as tf, tf.disable_v2_behavior() and "
                    f"tf.{name} [TF1 name imported]",
                )
        if not moved:
            return updated_node
        v1 = cst.ImportFrom(
            module=cst.parse_expression("tensorflow.compat.v1"),  # type: ignore[arg-type]
            names=_commas(moved),
        )
        if not kept:
            return updated_node.with_changes(body=[v1])
        first = updated_node.with_changes(body=[node.with_changes(names=_commas(kept))])
        return cst.FlattenSentinel([first, cst.SimpleStatementLine(body=[v1])])


def _commas(aliases: list[cst.ImportAlias]) -> list[cst.ImportAlias]:
    last = len(aliases) - 1
    return [
        alias.with_changes(
            comma=cst.MaybeSentinel.DEFAULT
            if index == last
            else cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        )
        for index, alias in enumerate(aliases)
    ]
