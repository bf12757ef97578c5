"""Keras 2 idioms of custom layers' ``build()`` that Keras 3 refuses → what Keras 3 takes.

* ``self.add_weight('kernel', (n, n), initializer=...)``: Keras 2.1+ read a first argument as
  the ``name``, then ``shape``, ``dtype``, ``initializer``, ``regularizer``, ``trainable``,
  ``constraint`` (keras/engine/base_layer.py of 2.2); Keras 3 reads a first positional argument
  as the shape and raises "`name` must be passed as a keyword argument" for a string
  (``Layer.add_weight`` in keras/src/layers/layer.py).  Where the first argument is written as
  text (a literal, ``'{}_W'.format(self.name)``, ``self.name + '_W'``), each positional argument
  becomes its keyword.  Keras 2.0's order (``add_weight(shape, initializer, ...)``), which Keras
  3 reads the same, is left.
* ``self.trainable_weights = [self.W]`` (``non_trainable_weights``): Keras 2 had a setter for
  them; Keras 3's are read-only properties ("has no setter").  Where every weight listed is an
  ``add_weight`` of the class, the statement goes: Keras 3 lists those already (a
  ``non_trainable_weights`` one gets ``trainable=False``).  Where one is ``K.variable(
  self.init(shape))`` (an initializer of the layer called on a shape, the attention layers of
  the hierarchical attention networks), it becomes ``self.add_weight(shape=shape,
  initializer=self.init)``, the same draw, listed by Keras 3 itself.  Any other list keeps a
  warning.
"""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst, visit_with
from tfcompat_gpu.codemod._names import dotted
from tfcompat_gpu.codemod._triage import text_search

__all__ = ["KerasCustomLayersCommand"]

_ADD_WEIGHT_KEYWORDS = (
    "name",
    "shape",
    "dtype",
    "initializer",
    "regularizer",
    "trainable",
    "constraint",
)
"""Keras 2.1-2.3's ``Layer.add_weight`` parameters in their order."""

_LISTS = frozenset({"trainable_weights", "non_trainable_weights"})
_VARIABLES = frozenset({"keras.backend.variable", "tensorflow.keras.backend.variable"})
_TEXT = re.compile(r"\badd_weight\s*\(|\b(?:non_)?trainable_weights\s*=[^=]")
# the statements it changes: those and the ``K.variable(...)`` a list names
_STATEMENT = re.compile(rf"{_TEXT.pattern}|\bvariable\s*\(")


def _relevant(statement: str) -> bool:
    return _STATEMENT.search(statement) is not None


def _is_text(node: cst.BaseExpression) -> bool:
    """Whether ``node`` is written as a string: a literal, ``'...'.format(...)``, ``a + 'x'``."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
        return True
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        return node.func.attr.value == "format" and _is_text(node.func.value)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Modulo)):
        return _is_text(node.left) or _is_text(node.right)
    return False


def _self_attribute(node: cst.BaseExpression) -> str | None:
    """``W`` of ``self.W``."""
    if (
        isinstance(node, cst.Attribute)
        and isinstance(node.value, cst.Name)
        and node.value.value == "self"
    ):
        return node.attr.value
    return None


def _listed(statement: cst.BaseSmallStatement) -> tuple[str, list[str] | None] | None:
    """``("trainable_weights", ["W", "b"])`` of ``self.trainable_weights = [self.W, self.b]``;
    the names are None where an item is not a ``self`` attribute."""
    if not isinstance(statement, cst.Assign) or len(statement.targets) != 1:
        return None
    which = _self_attribute(statement.targets[0].target)
    if which not in _LISTS:
        return None
    value = statement.value
    if not isinstance(value, (cst.List, cst.Tuple)):
        return which, None
    names = [_self_attribute(element.value) for element in value.elements]
    if any(
        name is None or isinstance(e, cst.StarredElement) for name, e in zip(names, value.elements)
    ):
        return which, None
    return which, [name for name in names if name is not None]


def _self_assignment(statement: cst.BaseSmallStatement) -> tuple[str, cst.BaseExpression] | None:
    if isinstance(statement, cst.Assign) and len(statement.targets) == 1:
        name = _self_attribute(statement.targets[0].target)
        if name is not None:
            return name, statement.value
    return None


class _Layer:
    """What one class's methods assign to ``self``, read before its body is rewritten
    (walked with ``visit_with``)."""

    def __init__(self) -> None:
        self.values: dict[str, list[cst.BaseExpression]] = {}
        self.lists: list[tuple[cst.Assign, str, list[str] | None]] = []

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False  # a nested class is a layer of its own

    def visit_Assign(self, node: cst.Assign) -> None:
        listed = _listed(node)
        if listed is not None:
            self.lists.append((node, *listed))
            return
        assigned = _self_assignment(node)
        if assigned is not None:
            self.values.setdefault(assigned[0], []).append(assigned[1])


def _equal() -> cst.AssignEqual:
    """``=`` without spaces, as a keyword argument is written."""
    return cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
    )


def _positional_to_keywords(call: cst.Call) -> cst.Call:
    args = list(call.args)
    positional = [a for a in args if a.keyword is None and not a.star]
    given = {a.keyword.value for a in args if a.keyword is not None}
    if len(positional) > len(_ADD_WEIGHT_KEYWORDS) or any(
        keyword in given for keyword in _ADD_WEIGHT_KEYWORDS[: len(positional)]
    ):
        return call
    new = []
    for index, arg in enumerate(args):
        if arg.keyword is None and not arg.star and index < len(positional):
            arg = arg.with_changes(
                keyword=cst.Name(_ADD_WEIGHT_KEYWORDS[index]),
                equal=_equal(),
            )
        new.append(arg)
    return call.with_changes(args=new)


class KerasCustomLayersCommand(MigrationCommand):
    DESCRIPTION = (
        "Keras 2 custom layers' add_weight('name', shape, ...) and self.trainable_weights = "
        "[...] to the keywords and the add_weight Keras 3 takes."
    )
    PRECHECK = Precheck(text_search(_TEXT, "weight"), _relevant)
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        self._drop: set[int] = set()  # ids of the list assignments that go
        self._variables: dict[int, tuple[cst.BaseExpression, cst.BaseExpression]] = {}
        self._frozen: set[int] = set()  # add_weight calls that get trainable=False

    def _is_add_weight(self, value: cst.BaseExpression) -> bool:
        return (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Attribute)
            and value.func.attr.value == "add_weight"
            and _self_attribute(value.func) is not None
        )

    def _initializer_of(self, layer: _Layer, value: cst.BaseExpression) -> bool:
        """Whether ``value`` (called on a shape) is an initializer: ``self.init`` bound to an
        ``initializers`` / ``initializations`` call, or such a call itself."""
        name = _self_attribute(value)
        if name is not None:
            bound = layer.values.get(name, [])
            return len(bound) == 1 and self._initializer_of(layer, bound[0])
        if isinstance(value, cst.Call):
            spelled = dotted(value.func) or ""
            return re.search(r"\binitiali[sz](?:ers|ations)\b", spelled) is not None
        return False

    def _variable(
        self, layer: _Layer, value: cst.BaseExpression
    ) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
        """``(shape, initializer)`` of ``K.variable(self.init(shape))``."""
        if not isinstance(value, cst.Call) or len(value.args) != 1 or value.args[0].keyword:
            return None
        if not self.names_of(value.func) & _VARIABLES:
            return None
        inner = value.args[0].value
        if (
            not isinstance(inner, cst.Call)
            or len(inner.args) != 1
            or inner.args[0].keyword is not None
            or inner.args[0].star
            or not self._initializer_of(layer, inner.func)
        ):
            return None
        return inner.args[0].value, inner.func

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        if self.keras_major() < 3:
            return
        layer = _Layer()
        visit_with(node.body, layer)
        for statement, which, names in layer.lists:
            plan = self._plan(layer, which, names)
            if plan is None:
                self.warn_at(
                    statement,
                    f"self.{which} = ... left unchanged: Keras 3's {which} is read-only; make "
                    f"each weight with self.add_weight(...){' trainable=False' if which.startswith('non') else ''} "
                    f"and drop the assignment [{which} assigned]",
                )
                continue
            self._drop.add(id(statement))

    def _plan(self, layer: _Layer, which: str, names: list[str] | None) -> bool | None:
        if not names:
            return None
        adds: list[cst.Call] = []
        variables: dict[int, tuple[cst.BaseExpression, cst.BaseExpression]] = {}
        for name in names:
            bound = layer.values.get(name, [])
            if len(bound) != 1:
                return None
            value = bound[0]
            if self._is_add_weight(value):
                assert isinstance(value, cst.Call)
                adds.append(value)
                continue
            variable = self._variable(layer, value)
            if variable is None:
                return None
            variables[id(value)] = variable
            self.silence(value)  # keras_backend_ops' warning on K.variable does not apply
        self._variables.update(variables)
        if which == "non_trainable_weights":
            self._frozen.update(id(call) for call in adds)
            self._frozen.update(variables)
        return True

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if self.keras_major() < 3:
            return updated_node
        variable = self._variables.get(id(original_node))
        if variable is not None:
            shape, initializer = variable
            args = [
                cst.Arg(keyword=cst.Name("shape"), value=shape, equal=_equal()),
                cst.Arg(keyword=cst.Name("initializer"), value=initializer, equal=_equal()),
            ]
            updated_node = cst.Call(func=cst.parse_expression("self.add_weight"), args=args)
        elif (
            self._is_add_weight(original_node)
            and original_node.args
            and original_node.args[0].keyword is None
            and _is_text(original_node.args[0].value)
        ):
            updated_node = _positional_to_keywords(updated_node)
        if id(original_node) in self._frozen and not any(
            a.keyword is not None and a.keyword.value == "trainable" for a in updated_node.args
        ):
            last = updated_node.args[-1].with_changes(
                comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
            )
            frozen = cst.Arg(keyword=cst.Name("trainable"), value=cst.Name("False"), equal=_equal())
            updated_node = updated_node.with_changes(args=[*updated_node.args[:-1], last, frozen])
        return updated_node

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.RemovalSentinel:
        kept = [
            new
            for old, new in zip(original_node.body, updated_node.body)
            if id(old) not in self._drop
        ]
        if len(kept) == len(updated_node.body):
            return updated_node
        if not kept:
            return cst.RemoveFromParent()
        kept[-1] = kept[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
        return updated_node.with_changes(body=kept)
