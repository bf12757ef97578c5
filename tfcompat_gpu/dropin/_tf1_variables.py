"""TensorFlow 1's in-place operators on a variable in a v1 graph: a new tensor, not an error.

TF 1.x's ``RefVariable`` (what ``tf.Variable`` and Keras 2's ``K.variable`` made in a graph)
answered ``v += x``, ``-=``, ``*=``, ``/=`` and ``**=`` with ``v + x`` and so on: a new tensor
bound to the name, the variable left as it was (``tensorflow/python/ops/variables.py`` of 1.15,
which logged "Variable += will be deprecated").  Keras 2's deep-dream and style-transfer
examples build their loss that way (``loss = K.variable(0.)``, then ``loss += coeff * ...``
per layer).  TensorFlow 2 makes only resource variables, whose in-place operators raise
``RuntimeError: `variable += value` with `tf.Variable`s is not supported``.  In a v1 graph
(eager execution disabled, as ``run`` runs such scripts) they give the new tensor again;
eagerly and inside ``tf.function`` they still raise.
"""

from __future__ import annotations

import operator
from types import ModuleType

from tfcompat_gpu.dropin._moves import Move

TYPE_CHECKING = False  # (typing stays unloaded: every ``run`` imports the drop-in)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = ["INPLACE", "MOVES"]

INPLACE: dict[str, Callable[[Any, Any], Any]] = {
    "__iadd__": operator.add,
    "__isub__": operator.sub,
    "__imul__": operator.mul,
    "__idiv__": operator.truediv,
    "__itruediv__": operator.truediv,
    "__irealdiv__": operator.truediv,
    "__ipow__": operator.pow,
}
"""The in-place operators TF 1.x's ``RefVariable`` defined -> the operation it returned."""


def _graph_inplace(name: str) -> Callable[[ModuleType, Any], Any]:
    apply = INPLACE[name]

    def make(module: ModuleType, current: Any) -> Any:
        def inplace(self: Any, other: Any) -> Any:
            from tfcompat_gpu.tfapi import _tf

            if _tf.graph_mode() and not _tf.tf().compat.v1.get_default_graph().building_function:
                return apply(self, other)
            return current(self, other)

        inplace.__name__ = name
        inplace.__doc__ = getattr(current, "__doc__", None)
        return inplace

    return make


MOVES: tuple[Move, ...] = tuple(
    Move(
        "tensorflow.python.ops.resource_variable_ops",
        f"BaseResourceVariable.{name}",
        _graph_inplace(name),
        False,
        "TF1 graph code (Keras 2's `loss = K.variable(0.); loss += ...`) rebinds a variable to "
        "a new tensor with an in-place operator, which TF 1.x's RefVariable returned; resource "
        "variables raise instead",
    )
    for name in INPLACE
)
