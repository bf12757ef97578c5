"""``tf.contrib.layers``' initializer and regularizers as TF 1.15 built them, for ``tf1_compat``.

``xavier_initializer()`` (and ``xavier_initializer_conv2d``) is ``glorot_uniform_initializer()``
(tensorflow/contrib/layers/python/layers/initializers.py); ``l2_regularizer(scale)`` /
``l1_regularizer(scale)`` with a float literal for ``scale`` returned
``lambda weights: scale * tf.nn.l2_loss(weights)`` (``scale * tf.reduce_sum(tf.abs(weights))``)
(tensorflow/contrib/layers/python/layers/regularizers.py).
``tf.contrib.framework``'s global-step functions were ``tf.train``'s, re-exported
(tensorflow/contrib/framework/__init__.py): ``tf.contrib.framework.get_global_step`` is
``tf.train.get_global_step`` of ``tf.compat.v1``.
"""

from __future__ import annotations

from tfcompat_gpu.codemod._libcst import cst

__all__ = [
    "FRAMEWORK_TRAIN",
    "REGULARIZERS",
    "XAVIER",
    "XAVIER_KEYWORDS",
    "contrib_root",
    "equal",
    "framework_train",
    "regularizer",
    "regularizer_scale",
    "xavier_root",
]

XAVIER = frozenset(
    {
        "tensorflow.contrib.layers.xavier_initializer",
        "tensorflow.contrib.layers.xavier_initializer_conv2d",
    }
)
XAVIER_KEYWORDS = ("uniform", "seed", "dtype")  # its parameters, in order
# tf.contrib.layers' regularizers: name -> the loss TF 1.15's function returned, of ``weights``
REGULARIZERS = {
    "tensorflow.contrib.layers.l2_regularizer": "{tf}nn.l2_loss(weights)",
    "tensorflow.contrib.layers.l1_regularizer": "{tf}reduce_sum({tf}abs(weights))",
}

# tf.contrib.framework's names that were tf.train's functions
FRAMEWORK_TRAIN = frozenset(
    "tensorflow.contrib.framework." + name
    for name in (
        "assert_global_step",
        "create_global_step",
        "get_global_step",
        "get_or_create_global_step",
    )
)


def equal() -> cst.AssignEqual:
    # built on use: the commands load without LibCST (codemod._libcst)
    return cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
    )


def contrib_root(node: cst.Call) -> cst.BaseExpression | None:
    """``tf`` of ``tf.contrib.layers.name(...)``."""
    func = node.func
    if (
        isinstance(func, cst.Attribute)
        and isinstance(func.value, cst.Attribute)
        and func.value.attr.value == "layers"
        and isinstance(func.value.value, cst.Attribute)
        and func.value.value.attr.value == "contrib"
    ):
        return func.value.value.value
    return None


def regularizer_scale(node: cst.Call) -> float | None:
    """The float literal ``scale`` of ``l2_regularizer(scale)``, its only argument; None when
    TF1 checked it at run time (a name, an integer, a negative number) or a scope is given."""
    if len(node.args) != 1 or node.args[0].star:
        return None
    arg = node.args[0]
    if arg.keyword is not None and arg.keyword.value != "scale":
        return None
    if not isinstance(arg.value, cst.Float):
        return None
    try:
        return float(arg.value.value)
    except ValueError:
        return None


def regularizer(node: cst.Call, loss: str) -> cst.BaseExpression:
    """TF 1.15's regularizer function, of the float literal scale ``node`` gives."""
    root = contrib_root(node)
    scale = node.args[0].value
    assert root is not None
    assert isinstance(scale, cst.Float)
    if float(scale.value) == 0.0:
        return cst.parse_expression("lambda _: None")
    prefix = cst.Module([]).code_for_node(root) + "."
    return cst.parse_expression(f"lambda weights: {scale.value} * " + loss.format(tf=prefix))


def xavier_root(node: cst.Call) -> cst.BaseExpression | None:
    """``tf`` of ``tf.contrib.layers.xavier_initializer(...)`` when the call is exactly
    ``tf.glorot_uniform_initializer(...)``: no ``*args``/``**kwargs``, ``uniform`` left out or
    ``True``, at most its three parameters (uniform, seed, dtype)."""
    func = node.func
    if not (
        isinstance(func, cst.Attribute)
        and isinstance(func.value, cst.Attribute)
        and func.value.attr.value == "layers"
        and isinstance(func.value.value, cst.Attribute)
        and func.value.value.attr.value == "contrib"
    ):
        return None
    if len(node.args) > len(XAVIER_KEYWORDS):
        return None
    for index, arg in enumerate(node.args):
        if arg.star:
            return None
        keyword = arg.keyword.value if arg.keyword is not None else XAVIER_KEYWORDS[index]
        if keyword not in XAVIER_KEYWORDS:
            return None
        if keyword == "uniform" and not (
            isinstance(arg.value, cst.Name) and arg.value.value == "True"
        ):
            return None
    return func.value.value.value


def framework_train(node: cst.Attribute) -> cst.Attribute | None:
    """``tf.train.name`` for ``tf.contrib.framework.name``, spelt with the same ``tf``."""
    inner = node.value
    if not (
        isinstance(inner, cst.Attribute)
        and inner.attr.value == "framework"
        and isinstance(inner.value, cst.Attribute)
        and inner.value.attr.value == "contrib"
    ):
        return None
    return cst.Attribute(
        value=cst.Attribute(value=inner.value.value, attr=cst.Name("train")), attr=node.attr
    )
