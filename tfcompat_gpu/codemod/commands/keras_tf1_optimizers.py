"""A ``tf.train`` optimizer handed to a Keras ``compile()`` → the Keras optimizer of the same rule.

TF 1.x's Keras guide compiled with ``model.compile(optimizer=tf.train.AdamOptimizer(0.001),
...)``: tf.keras wrapped the v1 optimizer (``TFOptimizer``).  TensorFlow 2 has no
``tf.train.AdamOptimizer`` and Keras 3 takes no v1 optimizer, so the call becomes the Keras
optimizer that computes the same update, its arguments renamed and TF1's defaults kept where
Keras' differ:

- ``AdamOptimizer(learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-08)`` →
  ``keras.optimizers.Adam(learning_rate, beta_1=, beta_2=, epsilon=)`` (both apply
  ``lr * sqrt(1 - beta2^t) / (1 - beta1^t) * m / (sqrt(v) + epsilon)``; TF1's epsilon, ``1e-08``,
  is written, Keras' default being ``1e-07``);
- ``GradientDescentOptimizer(learning_rate)`` → ``SGD(learning_rate)``;
- ``MomentumOptimizer(learning_rate, momentum, use_nesterov=False)`` → ``SGD(learning_rate,
  momentum=, nesterov=)`` (TF1's ``accum = momentum * accum + g; var -= lr * accum`` is Keras'
  ``m = momentum * m - lr * g; var += m`` at a constant rate).

Only a call written in the ``optimizer`` argument of ``.compile(...)`` changes, with a number or
name for each argument (``use_locking=False`` and ``name=`` dropped or kept as Keras reads them).
A rate computed by a call (``tf.train.exponential_decay(...)``, a v1 tensor) or another optimizer
(``RMSPropOptimizer``, whose accumulators TF1 started at one) is left to ``tf1_compat``'s warning.
"""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import bind_arguments, prefix_for
from tfcompat_gpu.codemod._triage import text_search

__all__ = ["KerasTf1OptimizersCommand"]

# tf.train.<name> -> (Keras class, its positional parameters as TF1 named them, TF1 keyword ->
# Keras keyword, keywords TF1 defaulted that Keras defaults otherwise)
_OPTIMIZERS: dict[str, tuple[str, tuple[str, ...], dict[str, str], dict[str, str]]] = {
    "AdamOptimizer": (
        "Adam",
        ("learning_rate", "beta1", "beta2", "epsilon", "use_locking", "name"),
        {"beta1": "beta_1", "beta2": "beta_2"},
        {"epsilon": "1e-08"},
    ),
    "GradientDescentOptimizer": (
        "SGD",
        ("learning_rate", "use_locking", "name"),
        {},
        {},
    ),
    "MomentumOptimizer": (
        "SGD",
        ("learning_rate", "momentum", "use_locking", "name", "use_nesterov"),
        {"use_nesterov": "nesterov"},
        {},
    ),
}
# Frameworks whose own model classes have a ``compile(optimizer=...)`` that takes a v1
# optimizer: tensorpack's ``KerasModel`` builds its training graph from one.  A model built from
# a class of the project's own modules may well be a Keras model, and stays a candidate.
_OTHER_FRAMEWORKS = frozenset({"tensorpack"})
_TEXT = re.compile(r"\.compile\s*\(")
_wanted = text_search(_TEXT, "compile")
_RELEVANT = re.compile(r"\.compile\s*\(|" + "|".join(_OPTIMIZERS))


def _relevant(statement: str) -> bool:
    return _RELEVANT.search(statement) is not None


def _plain(node: cst.BaseExpression) -> bool:
    """A value Keras takes as TF1 did: a number, a name, an attribute, arithmetic of those."""
    if isinstance(node, (cst.Integer, cst.Float, cst.Name, cst.Attribute)):
        return True
    if isinstance(node, cst.UnaryOperation):
        return _plain(node.expression)
    if isinstance(node, cst.BinaryOperation):
        return _plain(node.left) and _plain(node.right)
    return False


def _code(node: cst.BaseExpression) -> str:
    return cst.Module(body=[]).code_for_node(node)


class KerasTf1OptimizersCommand(MigrationCommand):
    DESCRIPTION = (
        "tf.train.AdamOptimizer / GradientDescentOptimizer / MomentumOptimizer handed to a "
        "Keras compile() to the Keras optimizer of the same update."
    )
    PRECHECK = Precheck(_wanted, _relevant)
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not self._in_compile(original_node):
            return updated_node
        for name in self.names_of(original_node.func):
            module, _, last = name.rpartition(".")
            if module not in ("tensorflow.train", "tensorflow.compat.v1.train"):
                continue
            if last not in _OPTIMIZERS:
                continue
            prefix = prefix_for(original_node.func, name)
            if prefix is None:
                continue
            if prefix.endswith("compat.v1."):
                prefix = prefix[: -len("compat.v1.")]
            code = self._keras_call(original_node, last, prefix)
            if code is not None:
                new = cst.parse_expression(code)
                return new.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
        return updated_node

    def _in_compile(self, node: cst.Call) -> bool:
        """``node`` is the ``optimizer`` argument of a ``.compile(...)`` call."""
        arg = self.parent(node)
        call = self.parent(arg) if isinstance(arg, cst.Arg) else None
        if not isinstance(arg, cst.Arg) or not isinstance(call, cst.Call):
            return False
        func = call.func
        if not isinstance(func, cst.Attribute) or func.attr.value != "compile":
            return False
        if arg.keyword is not None:
            if arg.keyword.value != "optimizer":
                return False
        elif arg is not call.args[0] or arg.star:
            return False
        return not self._foreign_model(func.value)

    def _foreign_model(self, receiver: cst.BaseExpression) -> bool:
        """``receiver`` is bound only to models of another framework: tensorpack's
        ``KerasModel(...)`` compiles a v1 optimizer itself, so it keeps it."""
        if not isinstance(receiver, cst.Name):
            return False
        scope = self.scope_of(receiver)
        if scope is None or receiver.value not in scope:
            return False
        foreign = False
        for assignment in scope[receiver.value]:
            target = getattr(assignment, "node", None)
            holder = self.parent(target) if target is not None else None
            statement = self.parent(holder) if isinstance(holder, cst.AssignTarget) else None
            if not isinstance(statement, cst.Assign) or not isinstance(statement.value, cst.Call):
                return False  # a parameter, an import, a loop: nothing known against Keras
            names = self.names_of(statement.value.func)
            if not names or any(name.split(".")[0] not in _OTHER_FRAMEWORKS for name in names):
                return False
            foreign = True
        return foreign

    def _keras_call(self, node: cst.Call, optimizer: str, prefix: str) -> str | None:
        keras_class, positional, renames, defaults = _OPTIMIZERS[optimizer]
        bound = bind_arguments(node, positional)
        if bound is None:
            return None
        given = {key: arg.value for key, arg in bound.items()}
        locking = given.pop("use_locking", None)
        if locking is not None and not (isinstance(locking, cst.Name) and locking.value == "False"):
            return None
        if not all(_plain(value) for value in given.values()):
            return None
        parts = []
        rate = given.pop("learning_rate", None)
        if rate is not None:
            # Keras 3 takes only a float rate
            parts.append(_code(rate) + (".0" if isinstance(rate, cst.Integer) else ""))
        parts += [f"{renames.get(key, key)}={_code(value)}" for key, value in given.items()]
        parts += [f"{key}={value}" for key, value in defaults.items() if key not in given]
        return f"{prefix}keras.optimizers.{keras_class}({', '.join(parts)})"
