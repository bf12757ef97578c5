"""``K.function(inputs, outputs)`` of Keras 2 to a Keras 3 model's ``predict_on_batch``.

Keras 2's ``K.function([model.input, K.learning_phase()], [layer.output])`` built a graph
function that, called with a list of arrays (``f([x, 0])``), returned the list of the outputs'
values as NumPy arrays: the way layer activations and attention weights were read out
(keras/backend/tensorflow_backend.py, ``function``; tf_keras/src/backend.py).  Keras 3 has no
``K.function`` and no learning phase.  Where the outputs are a literal list of tensors, the
call becomes a callable with the same calling convention::

    (lambda values, predict=keras.Model([model.input], [layer.output]).predict_on_batch:
        [predict(values[:-1])])

``predict_on_batch`` computes the outputs in inference mode and returns NumPy arrays, and a
one-output model gives its array bare, hence the list around it.  A last input that is
``K.learning_phase()`` is cut from the values given: Keras 2 computed in inference mode for a
learning phase of 0, which is what the model does; where the function is not bound to a name
that every call gives a literal 0, a warning says that a learning phase of 1 (dropout and batch
normalisation in training mode) is no longer honoured.  Anything else (``updates=``, inputs
that are not a literal list, a learning phase elsewhere than last) is left with a warning.
"""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._imports import need_import
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import imports_keras
from tfcompat_gpu.tfapi.keras_names import keras2_backend_function

__all__ = ["KerasBackendFunctionCommand"]

_TEXT = re.compile(r"\.\s*function\s*\(")


def _wanted(text: str, tree: object = None) -> bool:
    return "keras" in text and _TEXT.search(text) is not None


def _list_items(node: cst.BaseExpression) -> list[cst.BaseExpression] | None:
    """The elements of a literal list, or of a ``+`` of literal lists; None for anything else
    (a starred element included)."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        left, right = _list_items(node.left), _list_items(node.right)
        return None if left is None or right is None else left + right
    if isinstance(node, cst.List) and not node.lpar:
        items: list[cst.BaseExpression] = []
        for element in node.elements:
            if not isinstance(element, cst.Element):
                return None
            items.append(element.value)
        return items
    return None


class KerasBackendFunctionCommand(MigrationCommand):
    DESCRIPTION = (
        "K.function(inputs, outputs) of Keras 2 (layer activations, attention weights) to a "
        "Keras 3 model's predict_on_batch, called the same way."
    )
    PRECHECK = Precheck.text(_TEXT, "function")
    UPGRADE = True
    REPLACES_READS = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        self._keras = "keras" if imports_keras(node) else None

    def _backend(self, call: cst.Call) -> str | None:
        for name in self.names_of(call.func):
            found = keras2_backend_function(name)
            if found is not None:
                return found
        return None

    def _plan(self, call: cst.Call) -> tuple[list[cst.BaseExpression], int, bool] | None:
        """(the model's inputs, how many outputs, whether a learning phase is cut) where
        ``call`` (a ``K.function(...)``) can be rewritten."""
        if len(call.args) != 2 or any(a.keyword is not None or a.star for a in call.args):
            return None
        inputs = _list_items(call.args[0].value)
        outputs = _list_items(call.args[1].value)
        if not inputs or not outputs:
            return None
        phases = [
            i
            for i, item in enumerate(inputs)
            if isinstance(item, cst.Call) and self._backend(item) == "learning_phase"
        ]
        if phases and phases != [len(inputs) - 1]:
            return None
        if phases:
            call_of = inputs[-1]
            assert isinstance(call_of, cst.Call)
            if call_of.args:
                return None
            inputs = inputs[:-1]
        if not inputs:
            return None
        return inputs, len(outputs), bool(phases)

    def replaces_read(self, node: cst.CSTNode) -> bool:
        """Whether ``node`` (a name read in the original tree) goes with a call rewritten here:
        the ``K`` of ``K.function`` and of the ``K.learning_phase()`` in it."""
        call = self.method_call_of(node)
        if call is None or self.keras_major() < 3:
            return False
        kind = self._backend(call)
        if kind == "function":
            return self._plan(call) is not None
        if kind == "learning_phase":
            parent = self.parent(call)
            while parent is not None and not isinstance(parent, cst.BaseSmallStatement):
                if isinstance(parent, cst.Call) and self._backend(parent) == "function":
                    return self._plan(parent) is not None
                parent = self.parent(parent)
        return False

    def visit_Call(self, node: cst.Call) -> None:
        if self.keras_major() >= 3 and self._backend(node) == "function" and self._plan(node):
            self.silence(node)  # its K.learning_phase() goes with it

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if self.keras_major() < 3 or self._backend(original_node) != "function":
            return updated_node
        plan = self._plan(original_node)
        if plan is None:
            return updated_node  # keras_backend_ops warns
        inputs, count, phase = plan
        if self._keras is None:
            need_import(self.context, "keras")
            self._keras = "keras"
        # the code of both lists as the other rewrites of this walk left it
        items = _list_items(updated_node.args[0].value) or inputs
        ins = ", ".join(self.module.code_for_node(item) for item in items[: len(inputs)])
        outs = self.module.code_for_node(updated_node.args[1].value)
        values = "values[:-1]" if phase else "values"
        result = f"[predict({values})]" if count == 1 else f"predict({values})"
        if phase and not self._inference_only(original_node):
            self.warn_at(
                original_node,
                "K.function(...) with K.learning_phase() now computes in inference mode "
                "(keras.Model(...).predict_on_batch): a learning phase of 1 given to it "
                "(dropout, batch normalisation in training mode) is not honoured; call the "
                "model with training=True where that was meant [K.function learning phase]",
            )
        return cst.parse_expression(
            f"(lambda values, predict={self._keras}.Model([{ins}], {outs}).predict_on_batch: "
            f"{result})"
        )

    def _inference_only(self, call: cst.Call) -> bool:
        """Whether the function is bound to a name (``f = K.function(...)``) that the file only
        ever calls with a literal 0 as its last value (``f([x, 0])``)."""
        parent = self.parent(call)
        if not isinstance(parent, cst.Assign) or len(parent.targets) != 1:
            return False
        target = parent.targets[0].target
        if not isinstance(target, cst.Name):
            return False
        name = re.escape(target.value)
        text = self.source_text()
        uses = len(re.findall(rf"(?<![\w.]){name}\b", text))
        calls = len(re.findall(rf"(?<![\w.]){name}\s*\(\s*\[[^\[\]()]*,\s*0\s*\]\s*\)", text))
        binds = len(re.findall(rf"(?<![\w.]){name}\s*=[^=]", text))
        return binds == 1 and calls >= 1 and uses == calls + binds
