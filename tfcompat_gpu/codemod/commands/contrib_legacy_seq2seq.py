"""``tf.contrib.legacy_seq2seq``'s ``rnn_decoder`` and ``sequence_loss_by_example`` → v1 code.

``tf.contrib.legacy_seq2seq`` has no TF2 successor; TF 1.15's functions
(tensorflow/contrib/legacy_seq2seq/python/ops/seq2seq.py) work on Python lists of per-step
tensors, and two of them are a few v1 calls:

- ``rnn_decoder(inputs, state, cell)`` calls ``cell`` on each input from ``state`` under the
  variable scope ``"rnn_decoder"``, making the cell's variables at the first step and reusing
  them after: that is ``tf.compat.v1.nn.static_rnn(cell, inputs, initial_state=state,
  scope="rnn_decoder")`` (the same variable names).  With a ``loop_function`` (each output fed
  back as the next input) it is left with a warning.
- ``sequence_loss_by_example(logits, targets, weights)`` sums, over the steps, each step's sparse
  softmax cross-entropy (of the target flattened to ``[-1]``) or
  ``softmax_loss_function(labels=target, logits=logit)`` times its weight, and with
  ``average_across_timesteps`` (True by default) divides by the weights' sum plus ``1e-12``:
  ``tf.compat.v1.truediv(tf.compat.v1.add_n([... * _weight for _logit, _target, _weight in
  zip(logits, targets, weights)]), tf.compat.v1.add_n(weights) + 1e-12)``.  Its ``name`` (a name scope for the ops
  inside) is dropped, and so is the check that the three lists have one length (``zip`` stops at
  the shortest).

A call is rewritten when it is spelled ``<tf>.contrib.legacy_seq2seq.<function>(...)``, without
``*args`` / ``**kwargs``, ``average_across_timesteps`` left out or a literal ``True`` /
``False``, and ``weights``, read twice when averaging, an expression that computes the same value
again (names, attributes, subscripts, numbers, lists, arithmetic, ``ones`` / ``ones_like`` /
``cast`` / ``to_float`` / ``reshape`` calls of such).  A ``softmax_loss_function`` is called
inside the comprehension, so it is not taken in a class body or where it names the
comprehension's variables.  Every other call, and ``sequence_loss``, the seq2seq models and the
aliases (``decoder = tf.contrib.legacy_seq2seq.rnn_decoder``) are left with the warning that
``tf.contrib`` was removed (``tfcompat-gpu run`` serves ``rnn_decoder``, both losses and the
aliases).
"""

from __future__ import annotations

import ast
import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import bind_arguments, dotted, prefix_for
from tfcompat_gpu.codemod.commands.contrib_layers import CONTRIB_LAYERS_DONE
from tfcompat_gpu.codemod.commands.contrib_seq2seq import _filled
from tfcompat_gpu.tfapi.contrib_names import LEGACY_SEQ2SEQ_PARAMETERS

__all__ = ["ContribLegacySeq2seqCommand"]

_MODULE = "tensorflow.contrib.legacy_seq2seq."
_CALL = re.compile(r"\bcontrib\b[\s\S]*?\blegacy_seq2seq\b")
# calls whose result may be written twice: they compute the same value again, nothing else
_PURE = frozenset({"ones", "ones_like", "cast", "to_float", "reshape", "constant"})
_VARIABLES = ("_logit", "_target", "_weight")  # the comprehension's


def _wanted(text: str, tree: ast.Module | None = None) -> bool:
    return "legacy_seq2seq" in text and _CALL.search(text) is not None


def _repeatable(node: cst.BaseExpression) -> bool:
    """Whether writing ``node`` twice computes the same value (no variable, no random op)."""
    if isinstance(node, (cst.Name, cst.Attribute, cst.Integer, cst.Float, cst.SimpleString)):
        return True
    if isinstance(node, cst.Subscript):
        return _repeatable(node.value) and all(
            isinstance(element.slice, cst.Index) and _repeatable(element.slice.value)
            for element in node.slice
        )
    if isinstance(node, (cst.List, cst.Tuple)):
        return all(isinstance(e, cst.Element) and _repeatable(e.value) for e in node.elements)
    if isinstance(node, cst.BinaryOperation):
        return _repeatable(node.left) and _repeatable(node.right)
    if isinstance(node, cst.UnaryOperation):
        return _repeatable(node.expression)
    if isinstance(node, cst.Call):
        name = dotted(node.func) or ""
        return name.rpartition(".")[2] in _PURE and all(
            not arg.star and _repeatable(arg.value) for arg in node.args
        )
    return False


def _literal(bound: dict[str, cst.Arg], name: str, default: str) -> str | None:
    arg = bound.get(name)
    return default if arg is None else dotted(arg.value)


def _decoder(bound: dict[str, cst.Arg], v1: str) -> str | None:
    if not {"decoder_inputs", "initial_state", "cell"} <= bound.keys():
        return None
    if _literal(bound, "loop_function", "None") != "None":
        return None
    scope = bound.get("scope")
    if scope is None or dotted(scope.value) == "None":
        where = '"rnn_decoder"'
    elif isinstance(scope.value, cst.SimpleString):
        where = "__scope__"
    else:
        where = '__scope__ or "rnn_decoder"'
    return (
        f"{v1}nn.static_rnn(__cell__, __decoder_inputs__, initial_state=__initial_state__, "
        f"scope={where})"
    )


def _loss(bound: dict[str, cst.Arg], v1: str, in_class: bool) -> str | None:
    if not {"logits", "targets", "weights"} <= bound.keys():
        return None
    average = _literal(bound, "average_across_timesteps", "True")
    if average not in ("True", "False"):
        return None
    if average == "True" and not _repeatable(bound["weights"].value):
        return None
    function = bound.get("softmax_loss_function")
    logit, target, weight = _VARIABLES
    if function is None or dotted(function.value) == "None":
        crossent = (
            f"{v1}nn.sparse_softmax_cross_entropy_with_logits("
            f"labels={v1}reshape({target}, [-1]), logits={logit})"
        )
    else:
        code = cst.Module([]).code_for_node(function.value)
        if in_class or any(re.search(rf"\b{name}\b", code) for name in _VARIABLES):
            return None
        crossent = f"__softmax_loss_function__(labels={target}, logits={logit})"
    total = (
        f"{v1}add_n([{crossent} * {weight} for {logit}, {target}, {weight} in "
        "zip(__logits__, __targets__, __weights__)])"
    )
    if average == "False":
        return total
    return f"{v1}truediv({total}, {v1}add_n(__weights__) + 1e-12)"


class ContribLegacySeq2seqCommand(MigrationCommand):
    DESCRIPTION = (
        "tf.contrib.legacy_seq2seq.rnn_decoder and sequence_loss_by_example to the tf.compat.v1 "
        "code they ran (static_rnn, the weighted cross-entropy summed over the steps)."
    )
    PRECHECK = Precheck(_wanted, lambda statement: _CALL.search(statement) is not None)
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every call it changes is in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        self._calls: dict[cst.Call, tuple[str, dict[str, int]]] = {}  # code, argument indexes
        self._done: set[cst.CSTNode] = self.context.scratch.setdefault(CONTRIB_LAYERS_DONE, set())

    def _in_class_body(self, node: cst.CSTNode) -> bool:
        """Whether ``node``'s nearest enclosing scope is a class body."""
        parents = self.context.parents()
        current = parents.get(node)
        while current is not None:
            if isinstance(current, cst.ClassDef):
                return True
            if isinstance(current, (cst.FunctionDef, cst.Lambda)):
                return False
            current = parents.get(current)
        return False

    def visit_Call(self, node: cst.Call) -> bool:
        func = node.func
        if not isinstance(func, cst.Attribute):
            return True
        function = func.attr.value
        parameters = LEGACY_SEQ2SEQ_PARAMETERS.get(function)
        if parameters is None or _MODULE + function not in self.names_of(func):
            return True
        prefix = prefix_for(func, _MODULE + function)
        if prefix is None:
            return True
        v1 = prefix if prefix.endswith("compat.v1.") else prefix + "compat.v1."
        bound = bind_arguments(node, parameters)
        code = None
        if bound is not None:
            if function == "rnn_decoder":
                code = _decoder(bound, v1)
            else:
                code = _loss(bound, v1, self._in_class_body(node))
        self._done.add(func.value)
        if code is None or bound is None:
            self.warn_at(
                node,
                f"tf.contrib.legacy_seq2seq.{function} left unchanged: tf.contrib was removed in "
                "TensorFlow 2.0 and the rewrite to tf.compat.v1 code covers rnn_decoder without "
                "a loop_function and sequence_loss_by_example with a literal "
                "average_across_timesteps, weights that may be written twice (bind them to a "
                "name first), a softmax_loss_function outside a class body and no *args; "
                "`tfcompat-gpu run` serves it as it is "
                "[tf.contrib removed]",
            )
            return True
        where = {name: list(node.args).index(arg) for name, arg in bound.items()}
        self._calls[node] = (code, where)
        return True

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        planned = self._calls.get(original_node)
        if planned is None:
            return updated_node
        code, where = planned
        values = {f"__{name}__": updated_node.args[index].value for name, index in where.items()}
        return _filled(code, values).with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
