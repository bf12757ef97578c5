"""``Dense(64, weights=[W, b])`` → ``Dense(64, kernel_initializer=Constant(W),
bias_initializer=Constant(b))``.

Keras 2 layers took their first weights as ``weights=`` (``Layer.__init__`` kept them and
``set_weights`` ran when the layer was built); Keras 3 layers reject the keyword ("Unrecognized
keyword arguments passed to Dense", keras/src/layers/layer.py), except ``Embedding`` and
``Bidirectional``, which still take it.  A literal pair given to a layer whose weights are a
kernel and a bias (``Dense``, the convolutions) becomes the two initializers, which give the
layer the same values when it is built (``keras.initializers.Constant`` takes an array).
Anything else (a variable, another count, a layer with other weights, an initializer given
too) is left with a warning: build the layer, then call ``layer.set_weights(...)``.
"""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._imports import need_import
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import dotted, top_level_imports

__all__ = ["KerasLayerWeightsCommand"]

_WEIGHTS = re.compile(r"\bweights\s*=(?!=)")
_ROOTS = {"keras": "keras", "tensorflow.keras": "tensorflow.keras", "tf_keras": "tf_keras"}
# layers that still take weights= in Keras 3 (keras/src/layers/core/embedding.py,
# keras/src/layers/rnn/bidirectional.py)
_TAKE_WEIGHTS = frozenset({"Embedding", "Bidirectional"})
# layers whose weights are [kernel, bias], in that order
_KERNEL_BIAS = frozenset(
    {
        "Dense",
        *(f"Conv{n}D" for n in (1, 2, 3)),
        *(f"Convolution{n}D" for n in (1, 2, 3)),
        *(f"Conv{n}DTranspose" for n in (1, 2, 3)),
        *(f"Convolution{n}DTranspose" for n in (1, 2, 3)),
        "Deconvolution2D",
        "Deconvolution3D",
    }
)


def _layer(names: set[str]) -> tuple[str, str] | None:
    """``(root, class)`` of a Keras layer class: ``("keras", "Dense")`` for
    ``keras.layers.Dense`` or ``keras.layers.core.Dense``."""
    for name in sorted(names):
        head, _, last = name.rpartition(".")
        for root in _ROOTS:
            if head == f"{root}.layers" or head.startswith(f"{root}.layers."):
                return root, last
    return None


class KerasLayerWeightsCommand(MigrationCommand):
    DESCRIPTION = (
        "Keras 2 layers' weights=[kernel, bias] to Keras 3 initializers (Dense, convolutions)."
    )
    PRECHECK = Precheck.text(_WEIGHTS, "weights")
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        self._aliases: dict[str, str] = {}
        """How the file spells each Keras root: ``{"keras": "keras"}`` after ``import keras``."""
        for _, small in top_level_imports(node):
            if isinstance(small, cst.Import):
                for alias in small.names:
                    name = dotted(alias.name)
                    if name in ("keras", "tf_keras", "tensorflow"):
                        bound = alias.asname.name if alias.asname else alias.name
                        spelled = dotted(bound) if isinstance(bound, cst.BaseExpression) else None
                        if spelled is not None:
                            self._aliases[name] = spelled

    def _constant(self, root: str) -> str:
        if root == "tensorflow.keras":
            if "tensorflow" not in self._aliases:
                need_import(self.context, "tensorflow", asname="tf")
                self._aliases["tensorflow"] = "tf"
            return f"{self._aliases['tensorflow']}.keras.initializers.Constant"
        if root not in self._aliases:
            need_import(self.context, root)
            self._aliases[root] = root
        return f"{self._aliases[root]}.initializers.Constant"

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        args = list(updated_node.args)
        at = next(
            (
                i
                for i, a in enumerate(args)
                if a.keyword is not None and a.keyword.value == "weights"
            ),
            None,
        )
        if at is None:
            return updated_node
        found = _layer(self.names_of(original_node.func))
        if found is None or found[1] in _TAKE_WEIGHTS:
            return updated_node
        root, name = found
        given = {a.keyword.value for a in args if a.keyword is not None}
        value = args[at].value
        pair = (
            isinstance(value, (cst.List, cst.Tuple))
            and len(value.elements) == 2
            and all(isinstance(e, cst.Element) for e in value.elements)
        )
        if (
            name not in _KERNEL_BIAS
            or not pair
            or given & {"kernel_initializer", "bias_initializer", "use_bias"}
            or any(a.star for a in args)
        ):
            self.warn_at(
                original_node,
                f"{name}(weights=...) left unchanged: Keras 3 layers take no weights= (only "
                "Embedding and Bidirectional do); build the layer, then call "
                "layer.set_weights(...), or give [kernel, bias] as a literal pair to a Dense or "
                "convolution layer [layer weights=]",
            )
            return updated_node
        assert isinstance(value, (cst.List, cst.Tuple))
        constant = self._constant(root)
        kernel, bias = (e.value for e in value.elements)
        equal = args[at].equal
        space = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        new = [
            cst.Arg(
                keyword=cst.Name("kernel_initializer"),
                equal=equal,
                value=cst.parse_expression(f"{constant}({self.module.code_for_node(kernel)})"),
                comma=space,
            ),
            cst.Arg(
                keyword=cst.Name("bias_initializer"),
                equal=equal,
                value=cst.parse_expression(f"{constant}({self.module.code_for_node(bias)})"),
                comma=args[at].comma,
            ),
        ]
        return updated_node.with_changes(args=[*args[:at], *new, *args[at + 1 :]])
