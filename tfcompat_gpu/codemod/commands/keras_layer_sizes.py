"""``Dense(np.prod(shape))`` → ``Dense(int(np.prod(shape)))``: the sizes Keras 3 wants as ints.

Keras 2 took a layer's size as any number (tf.keras converted it with ``int(units)``, Keras 2.2
used it as it came); Keras 3 checks ``isinstance(units, int)``, which a NumPy integer is not,
and stops with "Received an invalid value for `units`, expected a positive integer"
(``Dense.__init__``, keras/src/layers/core/dense.py; ``Embedding.__init__`` does the same for
``input_dim`` and ``output_dim``).  The GAN scripts that size a layer by an image's pixel
count (``Dense(np.prod(img_shape))``) stop there.  A size computed by a NumPy call is wrapped
in ``int()``, which is what tf.keras did with it, and so is a name assigned once from such an
expression (``num_classes = np.max(y_train) + 1``, then ``Dense(num_classes)``); any other name
is left as it is.
"""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.tfapi.keras_names import KERAS_INT_SIZES, KERAS_ROOTS

__all__ = ["KerasLayerSizesCommand"]

_SIZE_CALL = re.compile(r"\b(?:Dense|Embedding|MultiHeadAttention|GroupNormalization)\s*\(")


def _wanted(text: str, tree: object = None) -> bool:
    return "keras" in text and "numpy" in text and _SIZE_CALL.search(text) is not None


def _relevant(text: str) -> bool:
    return _SIZE_CALL.search(text) is not None


def _layer(names: set[str]) -> str | None:
    """The class name of a Keras layer among ``names`` that checks its sizes are ints."""
    for name in sorted(names):
        head, _, last = name.rpartition(".")
        if last not in KERAS_INT_SIZES:
            continue
        if any(
            head == f"{root}.layers" or head.startswith(f"{root}.layers.") for root in KERAS_ROOTS
        ):
            return last
    return None


class KerasLayerSizesCommand(MigrationCommand):
    DESCRIPTION = (
        "Keras layer sizes computed by NumPy (Dense(np.prod(shape))) to int(), which Keras 3 "
        "requires."
    )
    PRECHECK = Precheck(_wanted, _relevant)
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        layer = _layer(self.names_of(original_node.func))
        if layer is None:
            return updated_node
        positions, keywords = KERAS_INT_SIZES[layer]
        args = list(updated_node.args)
        for at, (old, new) in enumerate(zip(original_node.args, args)):
            if old.star:
                break
            sized = old.keyword.value in keywords if old.keyword is not None else at < positions
            if sized and self._numpy_valued(old.value):
                args[at] = new.with_changes(
                    value=cst.Call(func=cst.Name("int"), args=[cst.Arg(value=new.value)])
                )
        return updated_node.with_changes(args=args)

    def _numpy_valued(self, node: cst.BaseExpression, depth: int = 0) -> bool:
        """Whether ``node`` is a NumPy call, arithmetic with one in it (``np.prod(s) * 2``), or
        a name assigned once, from such an expression (``n = np.max(y) + 1``)."""
        if isinstance(node, cst.Call):
            return any(name.split(".")[0] == "numpy" for name in self.names_of(node.func))
        if isinstance(node, cst.BinaryOperation):
            return self._numpy_valued(node.left, depth) or self._numpy_valued(node.right, depth)
        if isinstance(node, cst.Name) and depth < 3:
            value = self._only_value(node)
            return value is not None and self._numpy_valued(value, depth + 1)
        return False

    def _only_value(self, node: cst.Name) -> cst.BaseExpression | None:
        """The value of the one plain assignment ``node`` reads (``n = ...``), if that is all."""
        scope = self.scope_of(node)
        if scope is None:
            return None
        for access in scope.accesses[node.value]:
            if access.node is not node:
                continue
            referents = list(access.referents)
            if len(referents) != 1:
                return None
            target = getattr(referents[0], "node", None)  # an Assignment (not a builtin)
            assign_target = self.parent(target) if isinstance(target, cst.Name) else None
            assign = None if assign_target is None else self.parent(assign_target)
            if (
                isinstance(assign_target, cst.AssignTarget)
                and assign_target.target is target
                and isinstance(assign, cst.Assign)
                and len(assign.targets) == 1
            ):
                return assign.value
            return None
        return None
