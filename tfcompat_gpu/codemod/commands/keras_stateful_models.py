"""Stateful recurrent models: ``model.reset_states()`` → the layers' own, ``batch_input_shape=``
warned.

Keras 2's ``Model.reset_states()`` reset each layer that has ``reset_states`` and is
``stateful`` (``Network.reset_states``, keras/engine/network.py, Keras 2.2); Keras 3 models
have no such method (only its RNN layers and ``Bidirectional`` do), so a stateful training loop
stops with ``AttributeError`` after its first epoch.  ``m.reset_states()`` becomes one
expression that does what Keras 2 did on a model and calls the method itself on anything
without ``layers`` (a Keras 3 RNN layer keeps its ``reset_states``).  The batch size such a
model needs was given to its first layer (``LSTM(4, batch_input_shape=(1, 3, 1),
stateful=True)``, or ``input_shape=`` with ``batch_size=``); Keras 3 layers reject both
keywords, and the model has to start with ``keras.Input(batch_shape=...)``.  Where the layer
is the first one a ``Sequential()`` built just above is given (``model.add(LSTM(...,
batch_input_shape=s))``, the stateful LSTM tutorials), ``model.add(keras.Input(batch_shape=s))``
goes before it and the keyword goes; a later layer's, which Keras 2's ``Sequential`` ignored,
just goes.  Anywhere else the call is left with a warning that says what to write.
"""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._imports import need_import
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import dotted

__all__ = ["KerasStatefulModelsCommand"]

_TEXT = re.compile(r"\.reset_states\s*\(\s*\)|\bbatch_input_shape\s*=|\bbatch_size\s*=")
_KERAS = re.compile(r"\bkeras\b")
_DEFINES = re.compile(r"def\s+reset_states\b")
_LAYER_ROOTS = ("keras.layers.", "tensorflow.keras.layers.")


def _wanted(text: str, tree: object = None) -> bool:
    return _KERAS.search(text) is not None and _TEXT.search(text) is not None


def _relevant(text: str) -> bool:
    # and the classes that define reset_states: source_text() holds the relevant statements
    return _TEXT.search(text) is not None or _DEFINES.search(text) is not None


class KerasStatefulModelsCommand(MigrationCommand):
    DESCRIPTION = (
        "model.reset_states() of stateful Keras 2 models to the layers' reset_states() "
        "(Keras 3 models have none)."
    )
    PRECHECK = Precheck(_wanted, _relevant)
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        # a class of the file that defines reset_states: its calls are its own business
        self._own = _DEFINES.search(self.source_text()) is not None
        # layer calls of ``model.add(...)`` whose batch keywords go -> the Input to add first
        self._added: dict[int, cst.BaseExpression | None] = {}

    def _sequential_add(self, statement: cst.SimpleStatementLine) -> tuple[str, cst.Call] | None:
        """``("model", LSTM(...))`` of ``model.add(LSTM(..., batch_input_shape=...))``."""
        if len(statement.body) != 1 or not isinstance(statement.body[0], cst.Expr):
            return None
        call = statement.body[0].value
        if (
            not isinstance(call, cst.Call)
            or not isinstance(call.func, cst.Attribute)
            or call.func.attr.value != "add"
            or len(call.args) != 1
            or call.args[0].keyword is not None
            or not isinstance(call.args[0].value, cst.Call)
        ):
            return None
        owner = dotted(call.func.value)
        layer = call.args[0].value
        given = {a.keyword.value for a in layer.args if a.keyword is not None}
        if owner is None or "batch_input_shape" not in given:
            return None
        if not any(n.startswith(_LAYER_ROOTS) for n in self.names_of(layer.func)):
            return None
        return owner, layer

    def _place(self, statement: cst.SimpleStatementLine, owner: str) -> str | None:
        """``"first"`` where the statements above it in its block build ``owner`` as an empty
        ``Sequential()`` and add nothing to it, ``"later"`` where one above adds to it."""
        block = self.parent(statement)
        body = getattr(block, "body", None)
        if not isinstance(body, (list, tuple)) or statement not in body:
            return None
        adds = re.compile(rf"(?<![\w.]){re.escape(owner)}\s*\.\s*add\s*\(")
        builds = re.compile(rf"^\s*{re.escape(owner)}\s*=\s*(?:[\w.]+\.)?Sequential\s*\(\s*\)\s*$")
        for above in reversed(body[: body.index(statement)]):
            text = self.module.code_for_node(above)
            if adds.search(text):
                return "later"
            if builds.match(text.strip("\n")):
                return "first"
        return None

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        if self.keras_major() < 3:
            return
        found = self._sequential_add(node)
        if found is None:
            return
        owner, layer = found
        place = self._place(node, owner)
        if place is None:
            return
        shape = next(
            a.value for a in layer.args if a.keyword and a.keyword.value == "batch_input_shape"
        )
        self._added[id(layer)] = shape if place == "first" else None

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.FlattenSentinel[cst.SimpleStatementLine]:
        found = self._sequential_add(original_node) if self._added else None
        if found is None or self._added.get(id(found[1])) is None:
            return updated_node
        owner, layer = found
        shape = self._added[id(layer)]
        assert shape is not None
        need_import(self.context, "keras")
        keyword = cst.Arg(
            keyword=cst.Name("batch_shape"),
            value=shape,
            equal=cst.AssignEqual(
                whitespace_before=cst.SimpleWhitespace(""),
                whitespace_after=cst.SimpleWhitespace(""),
            ),
        )
        add = cst.Call(
            func=cst.parse_expression(f"{owner}.add"),
            args=[cst.Arg(cst.Call(func=cst.parse_expression("keras.Input"), args=[keyword]))],
        )
        first = cst.SimpleStatementLine(body=[cst.Expr(add)])
        return cst.FlattenSentinel(
            [
                first.with_changes(leading_lines=updated_node.leading_lines),
                updated_node.with_changes(leading_lines=()),
            ]
        )

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if (
            isinstance(func, cst.Attribute)
            and func.attr.value == "reset_states"
            and not updated_node.args
            and not self._rewritten(original_node)
        ):
            return self._reset_states(updated_node, func)
        self._batch_keywords(original_node)
        if id(original_node) in self._added:
            args = [
                a
                for a in updated_node.args
                if a.keyword is None or a.keyword.value != "batch_input_shape"
            ]
            if args:
                args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            return updated_node.with_changes(args=args)
        return updated_node

    def _rewritten(self, node: cst.CSTNode) -> bool:
        """Whether a ``reset_states()`` call is part of the expression this command writes
        (a second run leaves it alone)."""
        parent = self.parent(node)
        while parent is not None and not isinstance(parent, cst.BaseSmallStatement):
            loop = parent.for_in.iter if isinstance(parent, cst.ListComp) else None
            if isinstance(loop, cst.Attribute) and loop.attr.value == "layers":
                return True
            if isinstance(parent, cst.IfExp) and "hasattr(" in self.module.code_for_node(
                parent.test
            ):
                return True
            parent = self.parent(parent)
        return False

    def _reset_states(self, node: cst.Call, func: cst.Attribute) -> cst.BaseExpression:
        owner = dotted(func.value)
        if self._own or owner is None:
            return node  # only a plain name or attribute chain is read twice safely
        return cst.parse_expression(
            f"[layer.reset_states() for layer in {owner}.layers if hasattr(layer, "
            f'"reset_states") and getattr(layer, "stateful", False)] if hasattr({owner}, '
            f'"layers") else {owner}.reset_states()'
        )

    def _batch_keywords(self, node: cst.Call) -> None:
        if id(node) in self._added:
            return
        given = {a.keyword.value for a in node.args if a.keyword is not None}
        if not given & {"batch_input_shape", "batch_size"}:
            return
        names = self.names_of(node.func)
        name = next((n for n in sorted(names) if n.startswith(_LAYER_ROOTS)), None)
        if name is None:
            return
        short = name.rpartition(".")[2]
        if "batch_input_shape" in given:
            self.warn_at(
                node,
                f"{short}(batch_input_shape=...) left unchanged: Keras 3 layers take no "
                "batch_input_shape=; start the model with keras.Input(batch_shape=...) (in a "
                "Sequential: model.add(keras.Input(batch_shape=...)) first) and drop the "
                "keyword [layer batch_input_shape=]",
            )
        elif short != "Input":
            self.warn_at(
                node,
                f"{short}(batch_size=...) left unchanged: Keras 3 layers take no batch_size=; "
                "start the model with keras.Input(shape=..., batch_size=...) (in a Sequential: "
                "model.add(keras.Input(...)) first) and drop the keyword [layer batch_size=]",
            )
