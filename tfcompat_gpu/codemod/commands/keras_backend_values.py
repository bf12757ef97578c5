"""Keras 2's ``K.get_value`` / ``K.set_value`` and ``optimizer.lr`` → their Keras 3 spelling.

Keras 3's ``keras.backend`` has no ``get_value`` / ``set_value`` (keras/backend/__init__.py);
its variables have ``assign`` (keras/src/backend/common/variables.py ``Variable.assign``) and
``keras.ops.convert_to_numpy`` returns a tensor's or variable's value as NumPy, which is what
Keras 2's ``get_value`` returned.  Keras 3's optimizers have ``learning_rate`` and no ``lr``
(keras/src/optimizers/base_optimizer.py ``BaseOptimizer.learning_rate``): reading ``.lr``
raises, and assigning it only adds an attribute nothing reads, so the learning rate silently
stays, hence ``.optimizer.lr`` → ``.optimizer.learning_rate`` for reads and writes.

``K.get_value(x)`` → ``keras.ops.convert_to_numpy(x)``; ``K.set_value(x, v)`` →
``x.assign(v)``; any other call of them (keywords, ``*args``) is left with a warning.
Keras 2.0-2.2's ``K.set_image_dim_ordering('th')`` → ``K.set_image_data_format(
'channels_first')`` and ``K.image_dim_ordering()`` → the ``'th'`` / ``'tf'`` it returned, from
``K.image_data_format()`` (every Keras since 2.3 has only those; tf_keras too).
``tf_keras.backend`` still has both and is left alone, and so are both where the code is for
Keras 2 (``migrate --keras 2``, the default where Keras 2 is installed).
"""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._imports import need_import
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import dotted, top_level_imports

__all__ = ["GET_VALUE", "SET_VALUE", "KerasBackendValuesCommand"]

_BACKENDS = (
    "keras.backend",
    "keras.backend.tensorflow_backend",
    "tensorflow.keras.backend",
    "tensorflow.python.keras.backend",
)
GET_VALUE = frozenset(f"{backend}.get_value" for backend in _BACKENDS)
SET_VALUE = frozenset(f"{backend}.set_value" for backend in _BACKENDS)
# Keras 2.0-2.2's legacy layout functions (keras/backend/common.py): 'th' is channels_first
_GET_ORDERING = frozenset(f"{backend}.image_dim_ordering" for backend in _BACKENDS)
_SET_ORDERING = frozenset(f"{backend}.set_image_dim_ordering" for backend in _BACKENDS)
_FORMATS = {"th": "channels_first", "tf": "channels_last"}


_KERAS_WORD = re.compile(r"\bkeras\b")
_BACKEND_VALUES = re.compile(
    r"\b[gs]et_value\b|\boptimizer\s*\.\s*lr\b|\b(?:set_)?image_dim_ordering\b"
)


class KerasBackendValuesCommand(MigrationCommand):
    DESCRIPTION = "K.get_value / K.set_value and optimizer.lr to their Keras 3 form."
    PRECHECK = Precheck.text(_BACKEND_VALUES, "_value", "lr", "dim_ordering")
    UPGRADE = True
    # known before any command's visit_Module: the GPU command decides there which imports go
    REPLACES_READS = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        # ``.optimizer.lr`` of code that is not Keras' (an optimizer class of its own) stays
        # the word: ``_keras1_samples``, which keras_generator_methods writes, is not Keras
        self._uses_keras = _KERAS_WORD.search(self.source_text()) is not None
        self._keras: str | None = None
        for _, small in top_level_imports(node):
            if isinstance(small, cst.Import):
                if any(dotted(a.name) == "keras" and a.asname is None for a in small.names):
                    self._keras = "keras"
            elif (
                small.module is not None
                and dotted(small.module) == "tensorflow"
                and not isinstance(small.names, cst.ImportStar)
                and any(dotted(a.name) == "keras" and a.asname is None for a in small.names)
            ):
                self._keras = "keras"  # tf.keras is Keras 3 where get_value is gone

    def _kind(self, call: cst.Call) -> str | None:
        names = self.names_of(call.func)
        if names & GET_VALUE:
            return "get_value"
        if names & SET_VALUE:
            return "set_value"
        return None

    @staticmethod
    def _exact(call: cst.Call, count: int) -> bool:
        return len(call.args) == count and all(
            arg.keyword is None and not arg.star for arg in call.args
        )

    def replaces_read(self, node: cst.CSTNode) -> bool:
        """Whether ``node`` (a name read in the original tree) goes with a call rewritten here."""
        call = self.method_call_of(node)
        if call is None:
            return False
        kind = self._kind(call)
        if self.keras_major() < 3:
            return False
        return kind is not None and self._exact(call, 1 if kind == "get_value" else 2)

    def _ordering(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression | None:
        """``K.set_image_dim_ordering('th')`` / ``K.image_dim_ordering()``, Keras 2.0-2.2's
        spelling of the image layout; None when the call is neither."""
        names = self.names_of(original.func)
        func = updated.func
        if not isinstance(func, cst.Attribute) or not names & (_GET_ORDERING | _SET_ORDERING):
            return None
        receiver = self.module.code_for_node(func.value)
        if names & _GET_ORDERING and not updated.args:
            return cst.parse_expression(
                f'("th" if {receiver}.image_data_format() == "channels_first" else "tf")'
            )
        value = updated.args[0].value if len(updated.args) == 1 else None
        text = value.evaluated_value if isinstance(value, cst.SimpleString) else None
        if names & _SET_ORDERING and text in _FORMATS and updated.args[0].keyword is None:
            assert isinstance(value, cst.SimpleString)
            layout = value.with_changes(
                value=f"{value.prefix}{value.quote}{_FORMATS[str(text)]}{value.quote}"
            )
            return updated.with_changes(
                func=func.with_changes(attr=cst.Name("set_image_data_format")),
                args=[updated.args[0].with_changes(value=layout)],
            )
        self.warn_at(
            original,
            "image_dim_ordering left unchanged: Keras 2.3 and later have only "
            "image_data_format(): 'th' is 'channels_first', 'tf' is 'channels_last' "
            "[image_dim_ordering not a literal]",
        )
        return updated

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        ordering = self._ordering(original_node, updated_node)
        if ordering is not None:
            return ordering
        kind = self._kind(original_node)
        if kind is None or self.keras_major() < 3:
            return updated_node  # Keras 2 has both
        if not self._exact(original_node, 1 if kind == "get_value" else 2):
            if self.silenced(original_node):
                return updated_node  # in a class left unchanged with a warning of its own
            self.warn_at(
                original_node,
                f"{kind}() left unchanged: Keras 3 has no keras.backend.{kind}; write "
                + (
                    "keras.ops.convert_to_numpy(x)"
                    if kind == "get_value"
                    else "x.assign(value) for a variable x"
                )
                + " [unexpected arguments]",
            )
            return updated_node
        if kind == "set_value":
            target, value = updated_node.args
            return cst.Call(
                func=cst.Attribute(
                    value=target.value.with_changes(lpar=[], rpar=[])
                    if isinstance(target.value, (cst.Name, cst.Attribute))
                    else cst.parse_expression(f"({cst.Module([]).code_for_node(target.value)})"),
                    attr=cst.Name("assign"),
                ),
                args=[value.with_changes(comma=cst.MaybeSentinel.DEFAULT)],
                lpar=updated_node.lpar,
                rpar=updated_node.rpar,
            )
        if self._keras is None:
            need_import(self.context, "keras")
            self._keras = "keras"
        return updated_node.with_changes(
            func=cst.parse_expression(f"{self._keras}.ops.convert_to_numpy"),
            args=[updated_node.args[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)],
        )

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        # ``model.optimizer.lr`` / ``self.model.optimizer.lr``
        if (
            self._uses_keras
            and updated_node.attr.value == "lr"
            and isinstance(updated_node.value, cst.Attribute)
            and updated_node.value.attr.value == "optimizer"
        ):
            return updated_node.with_changes(attr=cst.Name("learning_rate"))
        return updated_node
