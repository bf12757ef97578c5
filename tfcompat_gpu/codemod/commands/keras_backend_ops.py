"""Keras 2's backend maths (``K.sum``, ``K.square``, ...) → ``keras.ops``.

Keras 3's ``keras.backend`` keeps 14 names (``epsilon``, ``clear_session``, ...; keras/backend/
__init__.py); the tensor functions of Keras 2's backend moved to ``keras.ops``
(keras/src/ops), most under the same name and arguments.  ``K.sum(x, axis=1, keepdims=True)``
becomes ``keras.ops.sum(x, axis=1, keepdims=True)`` where the two agree; where only a default
differs, the Keras 2 default is written out (``K.concatenate(xs)`` concatenated on the last
axis, ``keras.ops.concatenate`` on the first: ``keras.ops.concatenate(xs, axis=-1)``); a few
changed name (``K.pow`` → ``keras.ops.power``, ``K.permute_dimensions`` →
``keras.ops.transpose``, ``K.eval`` → ``keras.ops.convert_to_numpy``, ``K.flatten`` →
``keras.ops.ravel``, ``K.map_fn(fn, elems)`` → ``keras.ops.map(fn, elems)``).
``K.batch_normalization(x, mean, var, beta, gamma, epsilon=e)`` (the frozen batch norm of
detection models' custom layers, whose statistics are often reshaped for broadcasting, which
``keras.ops.batch_normalization``'s one-axis vectors refuse) becomes the arithmetic TensorFlow
did: ``(x - mean) * keras.ops.rsqrt(var + e) * gamma + beta``.
``K.random_normal`` / ``K.random_uniform`` / ``K.truncated_normal``
without a seed become ``keras.random.normal`` / ``uniform`` / ``truncated_normal`` (same
arguments); ``K.shape(x)`` becomes ``keras.ops.shape(x)`` where a tuple serves as well as
Keras 2's tensor: indexed by an integer (``K.shape(z)[0]``, a VAE's batch size) or the shape
of such a random call.  A call with other keywords, ``*args``, a seed, and every other
function Keras 3 dropped (``K.function``, ``K.gradients``, ...) is left with a warning that
names what to write; ``K.set_learning_phase(0)`` alone on its line is removed (Keras 3 predicts
in the test phase anyway).
Only for Keras 3 (``migrate --keras 2`` leaves the backend alone).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeVar

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._imports import need_import
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import imports_keras
from tfcompat_gpu.tfapi.keras_names import KERAS2_BACKEND_ONLY, keras2_backend_function

__all__ = ["KerasBackendOpsCommand"]

_S = TypeVar("_S", bound="cst.CSTNode")  # a string: cst loads LibCST on first use

_SAME = frozenset(
    {
        "abs", "all", "any", "cast", "clip", "cos", "sin", "exp", "log", "sqrt", "square",
        "sign", "round", "equal", "not_equal", "greater", "greater_equal", "less",
        "less_equal", "max", "min", "mean", "sum", "prod", "std", "var", "maximum", "minimum",
        "ones_like", "zeros_like", "reshape", "sigmoid", "softplus", "softsign", "tanh",
        "softmax", "squeeze", "stack", "tile", "transpose", "stop_gradient", "one_hot", "dot",
        "elu", "categorical_crossentropy", "binary_crossentropy",
        "sparse_categorical_crossentropy", "ndim",
    }
)  # fmt: skip
"""Same name, same positional arguments and the same defaults in ``keras.ops``."""
_RENAMED = {
    "pow": "power",
    "permute_dimensions": "transpose",
    "repeat_elements": "repeat",
    "eval": "convert_to_numpy",
    "gather": "take",
    "flatten": "ravel",  # K.flatten: tf.reshape(x, [-1])
    # keras.random (keras/src/random/random.py): the same (shape, mean|minval, stddev|maxval,
    # dtype) with floatx for dtype=None; without a seed both draw new numbers on every call
    "random_normal": "random.normal",
    "random_uniform": "random.uniform",
    "truncated_normal": "random.truncated_normal",
}
"""Keras 2 name → the ``keras.ops`` one (``random.…``: under ``keras`` itself)."""
_RANDOM_KEYWORDS = {
    "random_normal": frozenset({"shape", "mean", "stddev", "dtype"}),
    "random_uniform": frozenset({"shape", "minval", "maxval", "dtype"}),
    "truncated_normal": frozenset({"shape", "mean", "stddev", "dtype"}),
}
"""The keywords of the random functions that are exact: a ``seed`` is not (Keras 2's int seed
seeded one op that drew new numbers on each run; an int seed in ``keras.random`` draws the
same numbers on every call), nor a fifth positional argument (the seed)."""
# Keras 2's default that keras.ops does not share: (position, keyword, value) written out
_DEFAULTS: dict[str, tuple[int, str, str]] = {
    "argmax": (1, "axis", "-1"),
    "argmin": (1, "axis", "-1"),
    "concatenate": (1, "axis", "-1"),
    "expand_dims": (1, "axis", "-1"),
    "cumsum": (1, "axis", "0"),
    "cumprod": (1, "axis", "0"),
    "gather": (2, "axis", "0"),
}
_ONE_ARGUMENT = frozenset({"relu", "int_shape"})
"""Exact only with the tensor alone: ``K.relu(x)`` (keras.ops.relu has no ``alpha``),
``K.int_shape(x)`` (the static shape: ``tuple(x.shape)``)."""
_KEYWORDS = frozenset({"axis", "keepdims", "from_logits", "dtype", "alpha"})
"""Keywords that mean the same in both (any other is left with a warning)."""
_HINTS = {
    "int_shape": "tuple(x.shape)",
    "relu": "keras.ops.relu(x) for alpha=0, else keras.ops.leaky_relu(x, negative_slope=alpha)",
    "shape": "keras.ops.shape(x), a tuple where Keras 2 gave a tensor",
    "random_normal": "keras.random.normal(...) with seed=keras.random.SeedGenerator(seed)",
    "random_uniform": "keras.random.uniform(...) with seed=keras.random.SeedGenerator(seed)",
    "truncated_normal": (
        "keras.random.truncated_normal(...) with seed=keras.random.SeedGenerator(seed)"
    ),
    "variable": "keras.Variable(value)",
    "constant": "keras.ops.convert_to_tensor(value)",
    "l2_normalize": "keras.ops.normalize(x, axis=...) with the axis written out",
    "batch_normalization": (
        "(x - mean) * keras.ops.rsqrt(var + epsilon) * gamma + beta, with epsilon= by keyword "
        "and the default axis"
    ),
    "batch_flatten": "keras.layers.Flatten() or keras.ops.reshape(x, (keras.ops.shape(x)[0], -1))",
    "set_learning_phase": (
        "model(x, training=True) (or a layer's call with training=True) where the code is to "
        "run in the training phase; K.set_learning_phase(0) alone on its line is removed"
    ),
}
_BATCH_NORM = ("x", "mean", "var", "beta", "gamma")
"""``K.batch_normalization``'s tensors (keras/backend/tensorflow_backend.py of Keras 2.0-2.3),
which TensorFlow computed as ``tf.nn.batch_normalization`` does: broadcast, any shape."""


def _is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


_GRAPH = "a v1-graph API with no Keras 3 form: rewrite it with tf.GradientTape or a keras.Model"
_FALLBACK = "see keras.ops, or run the script as it is with tfcompat-gpu run (tf_keras)"

# a call of one of the dropped functions, on any object (the statements worth LibCST) ...
_DROPPED_CALL = re.compile(r"\.\s*(?:" + "|".join(sorted(KERAS2_BACKEND_ONLY)) + r")\s*\(")
# ... and, for the file, on a name its imports bind to a Keras backend
_BACKEND_ALIAS = re.compile(
    r"from\s+(?:tensorflow\.)?keras\s+import\s+backend(?:\s+as\s+(\w+))?"
    r"|import\s+(?:tensorflow\.)?keras\.backend(?:\.tensorflow_backend)?\s+as\s+(\w+)"
)


# ... or ``K`` bound by ``from keras.layers.core import *`` (codemod/_keras_star.py)
_LAYERS_STAR = re.compile(r"from\s+keras\.layers\.\w+\s+import\s+\*")


def _wanted(text: str, tree: object = None) -> bool:
    star = _LAYERS_STAR.search(text) is not None
    if ("backend" not in text and not star) or _DROPPED_CALL.search(text) is None:
        return False
    receivers = {"keras.backend", "K"} if star else {"keras.backend"}
    for alias, module_alias in _BACKEND_ALIAS.findall(text):
        receivers.add(alias or module_alias or "backend")
    names = "|".join(re.escape(r) for r in sorted(receivers))
    pattern = r"\b(?:" + names + r")\s*\.\s*(?:" + "|".join(sorted(KERAS2_BACKEND_ONLY)) + r")\s*\("
    return re.search(pattern, text) is not None


def _relevant(text: str) -> bool:
    return "backend" in text or _DROPPED_CALL.search(text) is not None or "import *" in text


class KerasBackendOpsCommand(MigrationCommand):
    DESCRIPTION = "Keras 2 backend maths (K.sum, K.square, ...) to keras.ops."
    PRECHECK = Precheck(_wanted, _relevant)
    UPGRADE = True
    # a `from keras import backend as K` only these calls used goes with them
    REPLACES_READS = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        self._keras: str | None = "keras" if imports_keras(node) else None
        self._test_phase: set[cst.Call] = set()

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        # ``K.set_learning_phase(0)`` alone on its line, before inference or an export: Keras 3
        # (and TF 2 eagerly) runs predict() and evaluate() in the test phase anyway, and has
        # no learning phase to set, so the statement goes.  Phase 1, which changed what
        # predict() computes (dropout on), is left with the warning.
        if len(node.body) != 1 or not isinstance(node.body[0], cst.Expr):
            return
        call = node.body[0].value
        if not isinstance(call, cst.Call) or self._function(call) != "set_learning_phase":
            return
        if len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
            return
        value = call.args[0].value
        if (isinstance(value, cst.Integer) and value.value == "0") or (
            isinstance(value, cst.Name) and value.value == "False"
        ):
            self._test_phase.add(call)

    def _dropped(self, statement: cst.CSTNode) -> bool:
        if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
            return False
        expr = statement.body[0]
        return (
            isinstance(expr, cst.Expr)
            and expr.value in self._test_phase
            and self.keras_major() >= 3
            and not self.silenced(expr.value)
        )

    def _without_test_phase(self, original: Sequence[cst.CSTNode], body: Sequence[_S]) -> list[_S]:
        """``body`` less the dropped statements, whose blank lines and comments go to the
        statement after them (LibCST gives an emptied block its ``pass``)."""
        kept: list[_S] = []
        carried: list[cst.EmptyLine] = []
        for old, new in zip(original, body):
            if self._dropped(old):
                carried.extend(getattr(new, "leading_lines", ()))
                continue
            if carried and hasattr(new, "leading_lines"):
                new = new.with_changes(leading_lines=[*carried, *new.leading_lines])
                carried = []
            kept.append(new)
        return kept

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        if not any(self._dropped(s) for s in original_node.body):
            return updated_node
        return updated_node.with_changes(
            body=self._without_test_phase(original_node.body, updated_node.body)
        )

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if not any(self._dropped(s) for s in original_node.body):
            return updated_node
        return updated_node.with_changes(
            body=self._without_test_phase(original_node.body, updated_node.body)
        )

    def _function(self, call: cst.Call) -> str | None:
        for name in self.names_of(call.func):
            found = keras2_backend_function(name)
            if found is not None:
                return found
        return None

    def _shape_exact(self, call: cst.Call) -> bool:
        """Whether ``K.shape(x)`` (``call``, of the original tree) means the same as
        ``keras.ops.shape(x)``, a tuple where Keras 2 gave a tensor: indexed by an integer
        (``K.shape(z)[0]``, the batch size) or the shape given to a ``K.random_*`` call."""
        parent = self.parent(call)
        if isinstance(parent, cst.Subscript) and parent.value is call:
            if len(parent.slice) != 1 or not isinstance(parent.slice[0].slice, cst.Index):
                return False
            index = parent.slice[0].slice.value
            if isinstance(index, cst.UnaryOperation) and isinstance(index.operator, cst.Minus):
                index = index.expression
            return isinstance(index, cst.Integer)
        if isinstance(parent, cst.Arg) and parent.value is call:
            outer = self.parent(parent)
            if not isinstance(outer, cst.Call) or self._function(outer) not in _RANDOM_KEYWORDS:
                return False
            if parent.keyword is not None:
                return parent.keyword.value == "shape"
            return outer.args[0] is parent
        return False

    def _plan(
        self, call: cst.Call, function: str, original: cst.Call
    ) -> tuple[str, list[cst.Arg]] | None:
        """The ``keras.ops`` function and arguments for ``call``; None when not exact."""
        args = list(call.args)
        if function == "shape":
            alone = len(args) == 1 and args[0].keyword is None and not args[0].star
            if not alone or not self._shape_exact(original):
                return None
            return function, [args[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)]
        random_keywords = _RANDOM_KEYWORDS.get(function)
        if random_keywords is not None:
            positional = [a for a in args if a.keyword is None]
            keywords = [a.keyword.value for a in args if a.keyword is not None]
            if any(a.star for a in args) or len(positional) > 4:
                return None
            if any(k not in random_keywords for k in keywords):
                return None
            return _RENAMED[function], args
        if function in _ONE_ARGUMENT:
            alone = len(args) == 1 and args[0].keyword is None and not args[0].star
            return (
                (function, [args[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)])
                if alone
                else None
            )
        if function == "map_fn":
            # K.map_fn(fn, elems): tf.map_fn with the output dtype of the elements, which
            # keras.ops.map (tf.map_fn with fn's own output signature) gives too; name= and
            # dtype= have no keras.ops.map form
            plain = len(args) == 2 and all(a.keyword is None and not a.star for a in args)
            return ("map", args) if plain else None
        if function == "l2_normalize":
            # exact with the axis written: keras.ops.normalize's default axis is -1, Keras 2's all
            axis = len([a for a in args if a.keyword is None]) > 1 or any(
                a.keyword is not None and a.keyword.value == "axis" for a in args
            )
            if not axis or any(a.star or (a.keyword and a.keyword.value != "axis") for a in args):
                return None
            return "normalize", args
        if function not in _SAME and function not in _RENAMED and function not in _DEFAULTS:
            return None
        if any(a.star for a in args) or any(
            a.keyword is not None and a.keyword.value not in _KEYWORDS for a in args
        ):
            return None
        default = _DEFAULTS.get(function)
        if default is not None:
            position, keyword, value = default
            given = len([a for a in args if a.keyword is None]) > position or any(
                a.keyword is not None and a.keyword.value == keyword for a in args
            )
            if not given:
                if args:
                    args[-1] = args[-1].with_changes(
                        comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
                    )
                args.append(
                    cst.Arg(
                        keyword=cst.Name(keyword),
                        value=cst.parse_expression(value),
                        equal=cst.AssignEqual(
                            whitespace_before=cst.SimpleWhitespace(""),
                            whitespace_after=cst.SimpleWhitespace(""),
                        ),
                    )
                )
        return _RENAMED.get(function, function), args

    def _batch_normalization(self, call: cst.Call) -> dict[str, cst.BaseExpression] | None:
        """``K.batch_normalization``'s tensors by parameter, where the call is one that
        ``(x - mean) * rsqrt(var + epsilon) * gamma + beta`` computes exactly: the five
        tensors, ``epsilon=`` by keyword (a sixth positional is 2.0's epsilon but 2.2's axis)
        and ``axis`` only as the default ``-1``."""
        found: dict[str, cst.BaseExpression] = {}
        for index, arg in enumerate(call.args):
            if arg.star:
                return None
            if arg.keyword is None:
                if index >= len(_BATCH_NORM):
                    return None
                found[_BATCH_NORM[index]] = arg.value
            elif arg.keyword.value == "axis":
                axis = arg.value
                if not (
                    isinstance(axis, cst.UnaryOperation)
                    and isinstance(axis.operator, cst.Minus)
                    and isinstance(axis.expression, cst.Integer)
                    and axis.expression.value == "1"
                ):
                    return None
            elif arg.keyword.value in (*_BATCH_NORM, "epsilon"):
                found[arg.keyword.value] = arg.value
            else:
                return None
        return found if all(name in found for name in _BATCH_NORM) else None

    def _normalized(self, found: dict[str, cst.BaseExpression]) -> cst.BaseExpression:
        def operand(name: str) -> str:
            node = found[name]
            code = self.code_of(node)
            atomic = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float)
            return code if isinstance(node, atomic) else f"({code})"

        epsilon = operand("epsilon") if "epsilon" in found else "1e-3"
        text = f"({operand('x')} - {operand('mean')}) * {self._keras}.ops.rsqrt("
        text += f"{operand('var')} + {epsilon})"
        if not _is_none(found["gamma"]):
            text += f" * {operand('gamma')}"
        if not _is_none(found["beta"]):
            text += f" + {operand('beta')}"
        return cst.parse_expression(f"({text})")

    def replaces_read(self, node: cst.CSTNode) -> bool:
        """Whether ``node`` (a name read in the original tree) goes with a call rewritten here."""
        call = self.method_call_of(node)
        if call is None:
            return False
        function = self._function(call)
        if function is None or self.keras_major() < 3:
            return False
        if function == "batch_normalization":
            return self._batch_normalization(call) is not None
        return self._plan(call, function, call) is not None

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        function = self._function(original_node)
        if function is None or function not in KERAS2_BACKEND_ONLY:
            return updated_node
        if self.keras_major() < 3:
            return updated_node  # Keras 2 has them all
        if function == "batch_normalization":
            found = self._batch_normalization(updated_node)
            if found is not None:
                if self._keras is None:
                    need_import(self.context, "keras")
                    self._keras = "keras"
                return self._normalized(found)
        plan = self._plan(updated_node, function, original_node)
        if plan is None:
            if original_node in self._test_phase:
                return updated_node  # the statement goes (leave_SimpleStatementLine)
            if function in ("get_value", "set_value"):
                return updated_node  # keras_backend_values rewrites or names them
            if self.silenced(original_node):
                return updated_node  # in a class left unchanged with a warning of its own
            if function in ("function", "gradients", "learning_phase", "placeholder"):
                hint = _GRAPH
            elif function in _HINTS:
                hint = f"write {_HINTS[function]}"
            elif function in _SAME or function in _RENAMED or function in _DEFAULTS:
                hint = "its keywords or *args differ from keras.ops; write the call by hand"
            else:
                hint = _FALLBACK
            self.warn_at(
                original_node,
                f"K.{function}() left unchanged: Keras 3's keras.backend has no {function}; "
                f"{hint} [keras.backend function removed]",
            )
            return updated_node
        name, args = plan
        if name == "int_shape":  # the static shape Keras 2 returned
            tensor = args[0].value
            if not isinstance(tensor, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)):
                tensor = tensor.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
            return cst.Call(
                func=cst.Name("tuple"),
                args=[cst.Arg(value=cst.Attribute(value=tensor, attr=cst.Name("shape")))],
                lpar=updated_node.lpar,
                rpar=updated_node.rpar,
            )
        if self._keras is None:
            need_import(self.context, "keras")
            self._keras = "keras"
        where = name if "." in name else f"ops.{name}"  # random.normal: under keras
        return updated_node.with_changes(
            func=cst.parse_expression(f"{self._keras}.{where}"), args=args
        )
