"""``tf.contrib.rnn.X`` → its v1 home, ``tf.compat.v1.nn.rnn_cell.X`` or ``tf.compat.v1.nn.X``.

TF1's ``tf.contrib.rnn`` re-exported the core cells and static RNN functions
(tensorflow/contrib/rnn/__init__.py: ``from tensorflow.python.ops.rnn_cell import *``,
``static_rnn``, ``static_bidirectional_rnn``, ``static_state_saving_rnn`` of
tensorflow/python/ops/rnn.py); TensorFlow 2 keeps them in the v1 API
(:data:`~tfcompat_gpu.tfapi.contrib_names.CONTRIB_RNN`), the cells served by tf_keras from
TensorFlow 2.16 on (a warning says so).  Three spellings are rewritten:

- ``tf.contrib.rnn.BasicLSTMCell`` → ``tf.compat.v1.nn.rnn_cell.BasicLSTMCell``;
- ``from tensorflow.contrib import rnn`` with ``rnn.X`` → ``tf.compat.v1.nn.rnn_cell.X`` (the
  import goes), through the module-level ``import tensorflow as tf`` of the file;
- ``from tensorflow.contrib.rnn import X`` with ``X`` → the same.

``stack_bidirectional_dynamic_rnn`` / ``stack_bidirectional_rnn`` were contrib's own
(tensorflow/contrib/rnn/python/ops/rnn.py, TF 1.15): layers of the v1 bidirectional RNNs, each
under ``<scope or "stack_bidirectional_rnn">/cell_<i>``, a dynamic layer's two outputs
concatenated as the next one's input.  Their reads become ``_stack_bidirectional_dynamic_rnn`` /
``_stack_bidirectional_rnn``, functions of the same parameters, scopes and results written below
the file's imports from ``tf.compat.v1`` calls.

An import is rewritten only when every read of what it binds is such a name: one without a home
(``rnn.NASCell``, ``rnn.LayerNormBasicLSTMCell``) leaves the import and its reads, with a warning
naming the successor, as a ``tf.contrib.rnn.X`` without a home is left.
"""

from __future__ import annotations

import ast
import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._imports import without_aliases
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import (
    below_imports,
    dotted,
    prefix_for,
    tf_root_alias,
    top_level_imports,
)
from tfcompat_gpu.codemod.commands.tf1_legacy_keras import LEGACY_KERAS_NAMES
from tfcompat_gpu.codemod.commands.tf_private_imports import contrib_successor, rnn_import
from tfcompat_gpu.tfapi.contrib_names import CONTRIB_RNN, RNN_CELLS

__all__ = ["TF_KERAS_WARNED", "ContribRnnCommand"]

_MODULE = "tensorflow.contrib.rnn"
_CONTRIB_RNN = re.compile(r"\bcontrib\b[\s\S]*?\brnn\b")
TF_KERAS_WARNED = "tfcompat_gpu.tf_keras_warned"
"""Scratch key: the run has said that ``tf.nn.rnn_cell`` comes from tf_keras (said once)."""


# contrib's own functions: the helper each read becomes, and the helper's code
_HELPERS = {
    "stack_bidirectional_dynamic_rnn": "_stack_bidirectional_dynamic_rnn",
    "stack_bidirectional_rnn": "_stack_bidirectional_rnn",
}
_HELPER_CODE = {
    "stack_bidirectional_dynamic_rnn": '''

def _stack_bidirectional_dynamic_rnn(cells_fw, cells_bw, inputs, initial_states_fw=None,
                                     initial_states_bw=None, dtype=None, sequence_length=None,
                                     parallel_iterations=None, time_major=False, scope=None,
                                     swap_memory=False):
    """TF 1.x's stack_bidirectional_dynamic_rnn: layers of bidirectional_dynamic_rnn,
    each layer's outputs concatenated as the next one's input."""
    if not cells_fw or not cells_bw or len(cells_fw) != len(cells_bw):
        raise ValueError("cells_fw and cells_bw must be lists of RNNCells of the same depth.")
    states_fw, states_bw = [], []
    prev_layer = inputs
    with {v1}variable_scope(scope or "stack_bidirectional_rnn"):
        for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
            with {v1}variable_scope("cell_%d" % i):
                outputs, (state_fw, state_bw) = {v1}nn.bidirectional_dynamic_rnn(
                    cell_fw, cell_bw, prev_layer,
                    initial_state_fw=initial_states_fw[i] if initial_states_fw else None,
                    initial_state_bw=initial_states_bw[i] if initial_states_bw else None,
                    sequence_length=sequence_length, parallel_iterations=parallel_iterations,
                    dtype=dtype, swap_memory=swap_memory, time_major=time_major)
                prev_layer = {v1}concat(outputs, 2)
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return prev_layer, tuple(states_fw), tuple(states_bw)
''',
    "stack_bidirectional_rnn": '''

def _stack_bidirectional_rnn(cells_fw, cells_bw, inputs, initial_states_fw=None,
                             initial_states_bw=None, dtype=None, sequence_length=None,
                             scope=None):
    """TF 1.x's stack_bidirectional_rnn: layers of static_bidirectional_rnn over a
    list of step inputs."""
    if not cells_fw or not cells_bw or len(cells_fw) != len(cells_bw):
        raise ValueError("cells_fw and cells_bw must be lists of RNNCells of the same depth.")
    states_fw, states_bw = [], []
    prev_layer = inputs
    with {v1}variable_scope(scope or "stack_bidirectional_rnn"):
        for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
            with {v1}variable_scope("cell_%d" % i) as cell_scope:
                prev_layer, state_fw, state_bw = {v1}nn.static_bidirectional_rnn(
                    cell_fw, cell_bw, prev_layer,
                    initial_state_fw=initial_states_fw[i] if initial_states_fw else None,
                    initial_state_bw=initial_states_bw[i] if initial_states_bw else None,
                    sequence_length=sequence_length, dtype=dtype, scope=cell_scope)
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return prev_layer, tuple(states_fw), tuple(states_bw)
''',
}


def _wanted(text: str, tree: ast.Module | None = None) -> bool:
    return "contrib" in text and _CONTRIB_RNN.search(text) is not None


# a statement that may read what ``from tensorflow.contrib import rnn`` (or ``from
# tensorflow.contrib.rnn import BasicLSTMCell``) binds: a read in any other (an alias of another
# name) is seen only as a read, and leaves the import with a warning
_READS = re.compile(r"contrib|rnn|RNN|" + "|".join(sorted({*CONTRIB_RNN, *_HELPERS})))


def _relevant(statement: str) -> bool:
    return _READS.search(statement) is not None


def _home(name: str, prefix: str) -> str:
    """``tf.compat.v1.nn.rnn_cell.X`` for ``tf.contrib.rnn.X`` written after ``prefix``."""
    home = CONTRIB_RNN[name]
    return prefix + ("" if prefix.endswith("compat.v1.") else "compat.v1.") + home


class ContribRnnCommand(MigrationCommand):
    DESCRIPTION = (
        "tf.contrib.rnn's core cells and static RNN functions to their tf.compat.v1.nn homes; "
        "its stack_bidirectional_dynamic_rnn / stack_bidirectional_rnn to functions of the same "
        "layers and scopes defined below the imports."
    )
    PRECHECK = Precheck(_wanted, _relevant)
    UPGRADE = True

    def visit_Module(self, node: cst.Module) -> None:
        self._replace: dict[cst.CSTNode, str] = {}  # read -> its new code
        self._drop: dict[cst.ImportFrom, set[int]] = {}
        self._warned: set[str] = set()
        self._helpers: set[str] = set()  # contrib functions whose helper the file gets
        root = tf_root_alias(node)
        self._root = root
        for _, small in top_level_imports(node):
            if isinstance(small, cst.ImportFrom) and rnn_import(small):
                self._plan_import(small, root)

    def declared_changes(self) -> list[cst.CSTNode]:
        return [*self._replace, *self._drop]

    def _plan_import(self, node: cst.ImportFrom, root: str | None) -> None:
        """Each read of the names ``node`` binds and its new code; left (and said) if one has
        no home or the file has no ``tensorflow`` name to write it through."""
        assert node.module is not None
        assert not isinstance(node.names, cst.ImportStar)
        module = dotted(node.module)
        whole = module != _MODULE  # from tensorflow.contrib import rnn
        scope = self.scope_of(node)
        replace: dict[cst.CSTNode, str] = {}
        missing: list[str] = []  # names without a home
        other: list[str] = []  # reads that are not ``rnn.X``
        for alias in node.names:
            bound = alias.evaluated_alias or alias.evaluated_name
            reads = (
                [access.node for a in scope.assignments[bound] for access in a.references]
                if scope is not None
                else []
            )
            if not whole and alias.evaluated_name not in {*CONTRIB_RNN, *_HELPERS}:
                missing.append(alias.evaluated_name)
                continue
            for read in reads:
                if not whole:
                    replace[read] = alias.evaluated_name
                    continue
                attribute = self.parent(read)
                if (
                    isinstance(attribute, cst.Attribute)
                    and attribute.value is read
                    and attribute.attr.value in {*CONTRIB_RNN, *_HELPERS}
                ):
                    replace[attribute] = attribute.attr.value
                elif isinstance(attribute, cst.Attribute) and attribute.value is read:
                    missing.append(f"{bound}.{attribute.attr.value}")
                else:
                    other.append(bound)
        if missing or other or root is None:
            if missing:
                why = f"{', '.join(sorted(set(missing)))} has no TF2 home"
            elif other:
                why = f"{other[0]} is read other than as {other[0]}.X"
            else:
                why = (
                    "the file has no module-level `import tensorflow as tf` to write the v1 "
                    "names through"
                )
            self.warn_at(
                node,
                f"from {module} import ... left unchanged: TensorFlow 2.0 removed "
                f"tensorflow.contrib, so the import raises ModuleNotFoundError; {why}: "
                f"{contrib_successor('rnn')} [tf.contrib removed]",
            )
            return
        for read_node, name in replace.items():
            self._replace[read_node] = _HELPERS[name] if name in _HELPERS else _home(name, root)
        self._drop[node] = set(range(len(node.names)))

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.RemovalSentinel:
        drop = self._drop.get(original_node)
        return updated_node if drop is None else without_aliases(updated_node, drop)

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.BaseExpression:
        return self._replaced(original_node, updated_node)

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        if original_node in self._replace:
            return self._replaced(original_node, updated_node)
        for name in self.names_of(original_node):
            if not name.startswith(_MODULE + "."):
                continue
            member = name[len(_MODULE) + 1 :]
            prefix = prefix_for(original_node, name)
            if prefix is None:
                return updated_node  # rnn.X of an import: planned (or warned) with it
            if member in _HELPERS and self._root is not None:
                self._helpers.add(member)
                helper = cst.Name(_HELPERS[member])
                return helper.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
            if member in CONTRIB_RNN:
                self._tf_keras(original_node, member)
                new = cst.parse_expression(_home(member, prefix))
                return new.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
            if member not in self._warned:
                self._warned.add(member)
                self.warn_at(
                    original_node,
                    f"tf.contrib.rnn.{member} left unchanged: it has no TF2 home (tf.contrib was "
                    f"removed in TensorFlow 2.0): {contrib_successor('rnn')} [tf.contrib removed]",
                )
        return updated_node

    def _replaced(
        self, original_node: cst.Name | cst.Attribute, updated_node: cst.BaseExpression
    ) -> cst.BaseExpression:
        code = self._replace.get(original_node)
        if code is None:
            return updated_node
        for member, helper in _HELPERS.items():
            if code == helper:
                self._helpers.add(member)
        self._tf_keras(original_node, code.rpartition(".")[2])
        new = cst.parse_expression(code)
        return new.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)

    def _tf_keras(self, node: cst.CSTNode, member: str) -> None:
        """Say once that the v1 cells come from tf_keras, as ``tf1_compat`` says of
        ``tf.nn.rnn_cell`` (the next run's warning, so it is the same)."""
        if member not in RNN_CELLS:
            return
        found = self.context.scratch.setdefault(LEGACY_KERAS_NAMES, [])
        found.append((self.line_of(node), f"tf.contrib.rnn.{member}"))
        if self.context.scratch.get(TF_KERAS_WARNED):
            return
        self.context.scratch[TF_KERAS_WARNED] = True
        self.warn_at(
            node,
            f"tf.contrib.rnn.{member} is now tf.compat.v1.nn.rnn_cell.{member}: on TensorFlow "
            ">= 2.16 it comes from tf_keras (Keras 2): pip install tf_keras and run with "
            "TF_USE_LEGACY_KERAS=1, or rewrite it with keras.layers [served by tf_keras only]",
        )

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        """The helpers of contrib's own functions the file reads, below its imports."""
        if not self._helpers or self._root is None:
            return updated_node
        v1 = self._root if self._root.endswith("compat.v1.") else self._root + "compat.v1."
        code = "".join(_HELPER_CODE[name] for name in sorted(self._helpers))
        return below_imports(updated_node, code.format(v1=v1))
