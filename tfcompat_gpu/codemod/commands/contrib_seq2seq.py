"""``tf.contrib.seq2seq.sequence_loss(...)`` → the ``tf.compat.v1`` ops it computed.

``sequence_loss`` has no TF2 name (tensorflow_addons' ``tfa.seq2seq`` had one), but TF 1.15's
(tensorflow/contrib/seq2seq/python/ops/loss.py) is a few ops: the sparse softmax cross-entropy
of each step's logits times its weight, then, by ``average_across_timesteps`` and
``average_across_batch`` (both True by default), summed over those axes and divided
(``div_no_nan``) by the weights' sum there.  With ``xent`` for
``tf.compat.v1.nn.sparse_softmax_cross_entropy_with_logits(labels=targets, logits=logits) *
weights`` (the ``[batch, steps]`` losses, which TF1 computed on the flattened logits):

- both True: ``tf.compat.v1.div_no_nan(tf.compat.v1.reduce_sum(xent),
  tf.compat.v1.reduce_sum(weights))``;
- one True: the same with ``axis=[1]`` (timesteps) or ``axis=[0]`` (batch) in both sums;
- both False: ``xent``.

The name imported is rewritten too: ``from tensorflow.contrib.seq2seq import sequence_loss``
with ``sequence_loss(...)``, and ``from tensorflow.contrib import seq2seq`` with
``seq2seq.sequence_loss(...)``, through the file's module-level ``import tensorflow as tf``; the
import goes when every read of what it binds is such a call, else it stays with a warning.

A call is rewritten when the flags are left out or literal ``True`` / ``False``,
``sum_over_timesteps`` / ``sum_over_batch`` left out or ``False``, ``softmax_loss_function``
left out or ``None``, no ``name`` and no ``*args`` / ``**kwargs``, and ``weights``, read twice
when averaging, is a name, an attribute, a subscript or a call of ``ones`` / ``ones_like`` /
``sequence_mask`` / ``cast`` / ``to_float`` of such; else it is left with a warning (``tfcompat-gpu
run`` serves ``sequence_loss`` itself).  TF1's checks of the ranks (3, 2, 2) are not written.
"""

from __future__ import annotations

import ast
import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._imports import without_aliases
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import dotted, prefix_for, tf_root_alias, top_level_imports
from tfcompat_gpu.codemod.commands.contrib_layers import CONTRIB_LAYERS_DONE
from tfcompat_gpu.codemod.commands.tf_private_imports import contrib_successor, seq2seq_import
from tfcompat_gpu.tfapi.contrib_names import SEQUENCE_LOSS_PARAMETERS

__all__ = ["ContribSeq2seqCommand"]

_NAME = "tensorflow.contrib.seq2seq.sequence_loss"
_CALL = re.compile(r"\bcontrib\b[\s\S]*?\bseq2seq\b[\s\S]*?\bsequence_loss\b")
_FLAGS = ("average_across_timesteps", "average_across_batch")
_OFF = {"sum_over_timesteps": "False", "sum_over_batch": "False", "softmax_loss_function": "None"}
# calls whose result may be written twice: they compute the same value again, nothing else
_PURE = frozenset({"ones", "ones_like", "sequence_mask", "cast", "to_float"})
_MARKS = {"logits": "__logits__", "targets": "__targets__", "weights": "__weights__"}


def _wanted(text: str, tree: ast.Module | None = None) -> bool:
    return "seq2seq" in text and _CALL.search(text) is not None


def _bind(node: cst.Call) -> dict[str, cst.Arg] | str:
    """The call's arguments by parameter name, or why they are not read."""
    bound: dict[str, cst.Arg] = {}
    for index, arg in enumerate(node.args):
        if arg.star:
            return "*args / **kwargs"
        if arg.keyword is not None:
            name = arg.keyword.value
        elif index < len(SEQUENCE_LOSS_PARAMETERS):
            name = SEQUENCE_LOSS_PARAMETERS[index]
        else:
            return "too many arguments"
        if name not in SEQUENCE_LOSS_PARAMETERS or name in bound:
            return f"argument {name}"
        bound[name] = arg
    missing = [name for name in _MARKS if name not in bound]
    return f"no {missing[0]}" if missing else bound


def _repeatable(node: cst.BaseExpression) -> bool:
    """Whether writing ``node`` twice computes the same value (no variable, no random op)."""
    if isinstance(node, (cst.Name, cst.Attribute, cst.Integer, cst.Float)):
        return True
    if isinstance(node, cst.Subscript):
        return _repeatable(node.value)
    if isinstance(node, (cst.List, cst.Tuple)):
        return all(_repeatable(e.value) for e in node.elements)
    if isinstance(node, cst.Call):
        name = dotted(node.func) or ""
        return name.rpartition(".")[2] in _PURE and all(
            not arg.star and _repeatable(arg.value) for arg in node.args
        )
    return False


def _expression(bound: dict[str, cst.Arg], v1: str) -> str | None:
    """The code of the call's value with placeholders for its tensors, or None when a
    flag or an argument has no home."""
    flags = []
    for flag in _FLAGS:
        arg = bound.get(flag)
        value = "True" if arg is None else dotted(arg.value)
        if value not in ("True", "False"):
            return None
        flags.append(value == "True")
    for name, off in _OFF.items():
        if name in bound and dotted(bound[name].value) != off:
            return None
    if "name" in bound:
        return None
    if any(flags) and not _repeatable(bound["weights"].value):
        return None
    logits, targets, weights = _MARKS.values()
    xent = (
        f"{v1}nn.sparse_softmax_cross_entropy_with_logits(labels={targets}, logits={logits})"
        f" * {weights}"
    )
    timesteps, batch = flags
    if not (timesteps or batch):
        return xent
    axis = "" if timesteps and batch else f", axis=[{0 if batch else 1}]"
    return f"{v1}div_no_nan({v1}reduce_sum({xent}{axis}), {v1}reduce_sum({weights}{axis}))"


def _filled(code: str, values: dict[str, cst.BaseExpression]) -> cst.BaseExpression:
    """``code`` with the call's (updated) arguments in place of its placeholders."""

    class Fill(cst.CSTTransformer):  # defined here: importing the module loads no LibCST
        def __init__(self) -> None:
            super().__init__()
            self.used: set[str] = set()

        def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.BaseExpression:
            value = values.get(original_node.value)
            if value is None:
                return updated_node
            if original_node.value in self.used:
                return value.deep_clone()
            self.used.add(original_node.value)
            if isinstance(value, (cst.BinaryOperation, cst.BooleanOperation, cst.IfExp)):
                return value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
            return value

    new = cst.parse_expression(code).visit(Fill())
    assert isinstance(new, cst.BaseExpression)
    return new


class ContribSeq2seqCommand(MigrationCommand):
    DESCRIPTION = (
        "tf.contrib.seq2seq.sequence_loss to the tf.compat.v1 ops it computed (the weighted "
        "sparse softmax cross-entropy, averaged)."
    )
    PRECHECK = Precheck(_wanted, lambda statement: _CALL.search(statement) is not None)
    UPGRADE = True

    def declared_changes(self) -> list[cst.CSTNode]:
        # a call of the name imported sits in a statement PRECHECK finds irrelevant
        return [*self._of_imports, *self._drop]

    def visit_Module(self, node: cst.Module) -> None:
        self._calls: dict[cst.Call, tuple[str, dict[str, int]]] = {}  # code, argument indexes
        self._done: set[cst.CSTNode] = self.context.scratch.setdefault(CONTRIB_LAYERS_DONE, set())
        self._of_imports: list[cst.Call] = []
        self._drop: set[cst.ImportFrom] = set()
        root = tf_root_alias(node)
        for _, small in top_level_imports(node):
            if isinstance(small, cst.ImportFrom) and seq2seq_import(small):
                self._plan_import(small, root)

    def _planned(self, node: cst.Call, root: str) -> tuple[str, dict[str, int]] | None:
        bound = _bind(node)
        if isinstance(bound, str):
            return None
        v1 = root if root.endswith("compat.v1.") else root + "compat.v1."
        code = _expression(bound, v1)
        if code is None:
            return None
        return code, {name: list(node.args).index(arg) for name, arg in bound.items()}

    def _plan_import(self, node: cst.ImportFrom, root: str | None) -> None:
        """Each call of the name ``node`` binds (``sequence_loss``, or ``seq2seq`` read as
        ``seq2seq.sequence_loss``) planned, and the import dropped; all left, with the
        warning, when one read is not such a call or the file has no ``tensorflow`` name."""
        assert not isinstance(node.names, cst.ImportStar)
        assert node.module is not None
        module = dotted(node.module)
        whole = (
            dotted(node.module) == "tensorflow.contrib"
        )  # from tensorflow.contrib import seq2seq
        scope = self.scope_of(node)
        calls: dict[cst.Call, tuple[str, dict[str, int]]] = {}
        left = root is None or scope is None
        for alias in node.names:
            if left or scope is None:
                break
            bound = alias.evaluated_alias or alias.evaluated_name
            for assignment in scope.assignments[bound]:
                for access in assignment.references:
                    func: cst.CSTNode | None = access.node
                    if whole:
                        func = self.parent(access.node)
                        if (
                            not isinstance(func, cst.Attribute)
                            or func.attr.value != "sequence_loss"
                        ):
                            left = True
                            continue
                    call = self.parent(func) if func is not None else None
                    planned = (
                        self._planned(call, str(root))
                        if isinstance(call, cst.Call) and call.func is func
                        else None
                    )
                    if planned is None:
                        left = True
                        continue
                    assert isinstance(call, cst.Call)
                    calls[call] = planned
        if left:
            why = (
                "the file has no module-level `import tensorflow as tf` to write the v1 ops through"
                if root is None
                else "a use of it is not a call the rewrite covers (literal True/False "
                "averaging flags, no softmax_loss_function, sum_over_*, name or *args, a weights "
                "argument that may be written twice)"
            )
            self.warn_at(
                node,
                f"from {module} import ... left unchanged: TensorFlow 2.0 removed "
                f"tensorflow.contrib, so the import raises ModuleNotFoundError; {why}; "
                f"{contrib_successor('seq2seq')}; `tfcompat-gpu run` serves sequence_loss "
                "[tf.contrib removed]",
            )
            return
        self._calls.update(calls)
        self._of_imports.extend(calls)
        self._drop.add(node)

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.RemovalSentinel:
        if original_node not in self._drop or isinstance(updated_node.names, cst.ImportStar):
            return updated_node
        return without_aliases(updated_node, set(range(len(updated_node.names))))

    def visit_Call(self, node: cst.Call) -> bool:
        func = node.func
        if not isinstance(func, cst.Attribute) or func.attr.value != "sequence_loss":
            return True
        if _NAME not in self.names_of(func):
            return True
        prefix = prefix_for(func, _NAME)
        if prefix is None:
            return True
        bound = _bind(node)
        v1 = prefix if prefix.endswith("compat.v1.") else prefix + "compat.v1."
        code = None if isinstance(bound, str) else _expression(bound, v1)
        if code is None or isinstance(bound, str):
            self.warn_at(
                node,
                "tf.contrib.seq2seq.sequence_loss left unchanged: it has no TF2 name and the "
                "rewrite to tf.compat.v1 ops covers only literal True/False averaging flags, "
                "no softmax_loss_function, sum_over_*, name or *args, and a weights argument "
                "that may be written twice (bind it to a name first); `tfcompat-gpu run` serves "
                "it as it is [tf.contrib removed]",
            )
            self._done.add(func.value)
            return True
        where = {name: list(node.args).index(arg) for name, arg in bound.items()}
        self._calls[node] = (code, where)
        self._done.add(func.value)
        return True

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        planned = self._calls.get(original_node)
        if planned is None:
            return updated_node
        code, where = planned
        values = {mark: updated_node.args[where[name]].value for name, mark in _MARKS.items()}
        return _filled(code, values).with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
