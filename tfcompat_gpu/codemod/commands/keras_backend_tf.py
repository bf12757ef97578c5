"""Keras 2's ``K.tf`` → the ``tensorflow`` module the file imports.

Keras 2.0-2.3's ``keras/backend/tensorflow_backend.py`` did ``import tensorflow as tf`` and
``keras/backend/__init__.py`` star-imported that module without an ``__all__``, so ``K.tf`` was
TensorFlow itself; Keras 2 code reached TensorFlow through it (``K.set_session(K.tf.Session(
config=K.tf.ConfigProto(...)))``, ``Lambda(lambda x: K.tf.image.resize_images(x, size))``).
Neither Keras 3's ``keras.backend`` nor tf_keras's has ``tf``.

``K.tf.X`` becomes ``tf.X`` through the file's own ``import tensorflow as tf`` (added where the
file has none); a name only TensorFlow 1's API has (``K.tf.image.resize_images``,
``K.tf.Session``) becomes ``tf.compat.v1.X``, the same function, which is what ``K.tf`` gave on
TensorFlow 1.  The GPU configuration spelled through ``K.tf`` is the GPU commands' (it becomes
``configure()`` like ``tf.ConfigProto``: :func:`tfcompat_gpu.tfapi.names.canonical` reads
``keras.backend.tf.X`` as ``tensorflow.X``).
"""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._imports import need_import
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import dotted, top_level_imports
from tfcompat_gpu.tfapi.tf1_module_names import TF1_ONLY_IN
from tfcompat_gpu.tfapi.tf1_names import TF1_ONLY

__all__ = ["KERAS_BACKEND_MODULES", "KerasBackendTfCommand"]

KERAS_BACKEND_MODULES = frozenset({"keras.backend", "keras.backend.tensorflow_backend"})
"""The Keras 2 modules whose ``tf`` was the ``tensorflow`` module."""

_DOT_TF = re.compile(r"\.\s*tf\b")
_OWN_TF = re.compile(r"(?<![.\w])tf\b")


class KerasBackendTfCommand(MigrationCommand):
    DESCRIPTION = "Keras 2's K.tf (the tensorflow module) to the file's own TensorFlow import."
    PRECHECK = Precheck.text(_DOT_TF, "tf")
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        self._tf: str | None = None
        """How the file spells the ``tensorflow`` module (``import tensorflow as tf``)."""
        self._added: str | None = None
        """The name of the ``tensorflow`` import this command adds, if it adds one."""
        for _, small in top_level_imports(node):
            if isinstance(small, cst.Import):
                for alias in small.names:
                    if dotted(alias.name) != "tensorflow":
                        continue
                    bound = alias.asname.name if alias.asname else alias.name
                    if isinstance(bound, cst.Name):
                        self._tf = bound.value

    def _is_keras_tf(self, node: cst.BaseExpression) -> bool:
        """Whether ``node`` is Keras 2's ``K.tf`` (any spelling of a Keras 2 backend)."""
        return (
            isinstance(node, cst.Attribute)
            and node.attr.value == "tf"
            and bool(self.names_of(node.value) & KERAS_BACKEND_MODULES)
        )

    def _module(self) -> str:
        if self._tf is None:
            # ``tf`` unless the file has a ``tf`` of its own (not the one after ``K.``)
            own = _OWN_TF.search(self.source_text()) is not None
            self._tf = self._added = "tensorflow" if own else "tf"
            self.taken_names(self.module).add(self._tf)
        return self._tf

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        # The import goes in only where a rewritten name is left: the GPU commands turn
        # ``K.set_session(K.tf.Session(config=K.tf.ConfigProto(...)))`` into configure()
        added = self._added
        if added is not None and re.search(rf"(?<![.\w]){added}\b", updated_node.code):
            need_import(self.context, "tensorflow", asname=None if added == "tensorflow" else "tf")
        return updated_node

    def _after(self, node: cst.CSTNode) -> list[str]:
        """The attribute names read after ``node`` in its chain (``["image", "resize"]``)."""
        names = []
        parent = self.parent(node)
        while isinstance(parent, cst.Attribute) and parent.value is node:
            names.append(parent.attr.value)
            node, parent = parent, self.parent(parent)
        return names

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        if not self._is_keras_tf(original_node):
            return updated_node
        rest = self._after(original_node)
        module = self._module()
        if rest and (
            rest[0] in TF1_ONLY or (len(rest) > 1 and rest[1] in TF1_ONLY_IN.get(rest[0], ()))
        ):
            module += ".compat.v1"
        replacement = cst.parse_expression(module)
        return replacement.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
