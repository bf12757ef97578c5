"""``model.add_loss(tensor)`` on a Keras 2 functional model → a layer that adds the loss.

Keras 2's variational autoencoders build their loss from the model's symbolic tensors and hand
it to the model: ``vae = Model(inputs, outputs)``, ``vae.add_loss(K.mean(rec + kl))``,
``vae.compile(optimizer='adam')``.  Keras 3's ``Functional.add_loss`` raises
``NotImplementedError`` (keras/src/models/functional.py), while a layer's own
``self.add_loss()`` in ``call()`` still counts in training (keras/src/layers/layer.py,
``Layer.add_loss``; the trainer adds ``model.losses`` to the compiled loss).  So the statement
becomes::

    vae = keras.Model(vae.inputs, _AddModelLoss()([loss, *vae.outputs]), name=vae.name)

with ``_AddModelLoss``, a layer without weights that adds its first input as a loss and
returns the others, defined once below the file's imports.  The new model holds the same
layers, so their weights, ``fit`` / ``predict`` and ``save_weights`` are what they were; with
one output it returns that output, not a list.  Only a name or an attribute (``self.vae``) bound
in the file to a ``Model(...)`` call is rewritten, with one positional loss that is not a
``lambda`` (Keras 2 also took zero-argument callables, which only a layer's own code can call);
any other ``add_loss`` of a model is left with a warning.
"""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._imports import need_import
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import dotted, opens_module

__all__ = ["LAYER", "KerasModelAddLossCommand"]

LAYER = "_AddModelLoss"
_LAYER_CODE = f'''

class {LAYER}(keras.layers.Layer):
    """Keras 2's model.add_loss(tensor) on Keras 3: adds its first input as a loss."""

    def call(self, inputs):
        loss, *outputs = inputs
        self.add_loss(loss)
        return outputs[0] if len(outputs) == 1 else outputs
'''
_TEXT = re.compile(r"\.add_loss\s*\(")
_KERAS = re.compile(r"\bkeras\b")
# names bound to a functional model: `vae = Model(...)`, `self.vae = keras.models.Model(...)`
_FUNCTIONAL = re.compile(r"^[ \t]*([A-Za-z_][\w.]*)[ \t]*=[ \t]*(?:[\w.]+\.)?Model[ \t]*\(", re.M)
_TAG = "[add_loss on a model]"


def _wanted(text: str, tree: object = None) -> bool:
    return _KERAS.search(text) is not None and _TEXT.search(text) is not None


def _relevant(text: str) -> bool:
    return _TEXT.search(text) is not None


class KerasModelAddLossCommand(MigrationCommand):
    DESCRIPTION = (
        "model.add_loss(tensor) of Keras 2 functional models to a layer that adds the loss "
        "(Keras 3 models take no symbolic add_loss)."
    )
    PRECHECK = Precheck(_wanted, _relevant)
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # the statements it rewrites are those PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        text = self.source_text()
        self._functional = set(_FUNCTIONAL.findall(text))
        self._defined = re.search(rf"\bclass\s+{LAYER}\b", text) is not None
        self._used = False

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine:
        if len(updated_node.body) != 1 or not isinstance(updated_node.body[0], cst.Expr):
            self._warn_nested(original_node)
            return updated_node
        call = updated_node.body[0].value
        owner = _add_loss_owner(call)
        if owner is None:
            self._warn_nested(original_node)
            return updated_node
        if _is_self(owner):
            return updated_node  # a layer's or a subclassed model's own loss: Keras 3 keeps it
        args = cst.ensure_type(call, cst.Call).args
        name = dotted(owner)
        if (
            name is None
            or name not in self._functional
            or len(args) != 1
            or args[0].keyword is not None
            or args[0].star
            or isinstance(args[0].value, cst.Lambda)
        ):
            self._warn(original_node)
            return updated_node
        loss = self.module.code_for_node(args[0].value)
        new = cst.parse_statement(
            f"{name} = keras.Model({name}.inputs, {LAYER}()([{loss}, *{name}.outputs]), "
            f"name={name}.name)\n",
            config=self.module.config_for_parsing,
        )
        assert isinstance(new, cst.SimpleStatementLine)
        self._used = True
        need_import(self.context, "keras")
        return new.with_changes(
            leading_lines=updated_node.leading_lines,
            trailing_whitespace=updated_node.trailing_whitespace,
        )

    def _warn_nested(self, statement: cst.SimpleStatementLine) -> None:
        # `loss = vae.add_loss(x)`, `a; vae.add_loss(x)`: an add_loss the rewrite cannot own
        for small in statement.body:
            owner = _add_loss_owner(getattr(small, "value", None))
            if owner is not None and not _is_self(owner):
                self._warn(statement)

    def _warn(self, node: cst.CSTNode) -> None:
        self.warn_at(
            node,
            "add_loss(...) left unchanged: Keras 3 models take no add_loss() of symbolic "
            "tensors (Functional.add_loss raises NotImplementedError); compute the loss in a "
            f"layer that calls self.add_loss() in call(), or in a custom train_step {_TAG}",
        )

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if not self._used or self._defined:
            return updated_node
        body = list(updated_node.body)
        at = 0
        while at < len(body) and opens_module(body[at]):
            at += 1
        layer = cst.parse_module(_LAYER_CODE).body[0]
        layer = layer.with_changes(leading_lines=[cst.EmptyLine(), cst.EmptyLine()])
        body.insert(at, layer)
        return updated_node.with_changes(body=body)


def _add_loss_owner(node: object) -> cst.BaseExpression | None:
    """``m`` of a call ``m.add_loss(...)``, else None."""
    if not isinstance(node, cst.Call):
        return None
    func = node.func
    if isinstance(func, cst.Attribute) and func.attr.value == "add_loss":
        return func.value
    return None


def _is_self(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "self"
