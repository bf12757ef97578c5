"""NumPy calls that NumPy 2.x stopped taking → the call that does the same on NumPy 1.26 and 2.x.

Old TF1 and Keras scripts reshape a batch with ``np.reshape(g, newshape=(4, 28, 28, 1))`` (the
keyword NumPy 2.1 renamed ``shape`` and 2.4 removed), serialize an image for a TFRecord with
``img.tostring()`` (removed from ``ndarray`` in NumPy 2.3: ``tobytes``), read a buffer with
``np.fromstring(raw, dtype=np.uint8)`` (binary mode removed in 2.3) and call the ``ndarray``
methods NumPy 2.0 dropped (``a.ptp()``, ``a.itemset(i, v)``, ``a.newbyteorder(o)``).  What has
an exact equivalent is rewritten:

* ``np.reshape(a, newshape=s)`` → ``np.reshape(a, s)`` (the second parameter on every NumPy);
* ``x.tostring()`` → ``x.tobytes()`` (the same bytes; a call with positional arguments, such as
  ``ElementTree.tostring(root)``, is not a NumPy method and stays);
* ``np.fromstring(s, dtype)`` without ``sep`` → ``np.frombuffer(s, dtype).copy()`` (a writable
  copy, as fromstring gave);
* ``x.ptp(...)`` → ``np.ptp(x, ...)``;
* ``x.itemset(i, j, v)`` as a statement → ``x[i, j] = v``;
* ``np.histogram(a, normed=True)`` with equal-width bins (none given, or a number) →
  ``density=True``, which NumPy documents as the same for such bins.

* ``float(model.predict(x))`` / ``int(np.random.choice(n, 1))`` → ``float(model.predict(x).item())``:
  NumPy 2.4 no longer converts an array of one element but more than zero dimensions to a
  Python number (deprecated since 1.25); ``item()`` gives that element, as the conversion did.
  Only what surely returns such an array is rewritten: a model's ``predict`` /
  ``predict_on_batch`` (the driving script's ``steering_angle = float(model.predict(image[None,
  :, :, :], batch_size=1))``) and NumPy's random functions called with a size.

``x.newbyteorder(o)`` (``x.view(x.dtype.newbyteorder(o))`` for an array, unchanged for a dtype,
which the code cannot tell apart), ``itemset`` with one argument or inside an expression and
``histogram(normed=)`` with explicit bin edges are left with a warning that says what to write.
``run`` serves ``np.reshape(newshape=)`` (:mod:`tfcompat_gpu.dropin._numpy`); the ``ndarray``
methods it cannot give back.
"""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst

__all__ = ["NumpyRemovedCallsCommand"]

_CALLS = re.compile(
    r"\bnewshape\s*=|\.\s*(?:tostring|ptp|itemset|newbyteorder)\s*\(|\bfromstring\s*\("
    r"|\bnormed\s*="
)
_DTYPE_RECEIVERS = ("dtype",)
# float() / int() of a call that returns an array: a model's predictions, a random draw
_SCALAR = re.compile(
    r"\b(?:float|int)\s*\(\s*[\w.\[\]]*\.\s*(?:predict|predict_on_batch|choice|randint|rand"
    r"|randn|uniform|normal)\s*\("
)
_PREDICTIONS = frozenset({"predict", "predict_on_batch"})
# NumPy's random functions and the argument that gives an array when passed: its position
_SIZED = {"choice": 1, "randint": 2, "uniform": 2, "normal": 2}


def _wanted(text: str, tree: object = None) -> bool:
    return ("numpy" in text and _CALLS.search(text) is not None) or _SCALAR.search(text) is not None


def _relevant(text: str) -> bool:
    return _CALLS.search(text) is not None or _SCALAR.search(text) is not None


def _numpy_alias(module: cst.Module) -> str | None:
    """The name a module-level ``import numpy [as x]`` binds, if any."""
    for statement in module.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if not isinstance(small, cst.Import) or isinstance(small.names, cst.ImportStar):
                continue
            for alias in small.names:
                if isinstance(alias.name, cst.Name) and alias.name.value == "numpy":
                    if alias.asname is None:
                        return "numpy"
                    if isinstance(alias.asname.name, cst.Name):
                        return alias.asname.name.value
    return None


def _plain(call: cst.Call) -> bool:
    return all(arg.star == "" for arg in call.args)


def _positional(call: cst.Call) -> list[cst.Arg]:
    return [arg for arg in call.args if arg.keyword is None]


def _keyword(call: cst.Call, name: str) -> cst.Arg | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg
    return None


def _fix_commas(args: list[cst.Arg]) -> list[cst.Arg]:
    comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    fixed = [arg.with_changes(comma=comma) for arg in args]
    if fixed:
        fixed[-1] = fixed[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return fixed


class NumpyRemovedCallsCommand(MigrationCommand):
    DESCRIPTION = (
        "NumPy calls NumPy 2.x no longer takes (np.reshape(a, newshape=s), a.tostring(), "
        "np.fromstring(s, dtype), a.ptp(), a.itemset(i, v)) to their exact equivalents."
    )
    PRECHECK = Precheck(_wanted, _relevant)
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        self._numpy = _numpy_alias(node)

    def _numpy_function(self, func: cst.BaseExpression, name: str) -> bool:
        return isinstance(func, cst.Attribute) and f"numpy.{name}" in self.names_of(func)

    def leave_Expr(self, original_node: cst.Expr, updated_node: cst.Expr) -> cst.BaseSmallStatement:
        call = updated_node.value
        original = original_node.value
        if not (
            isinstance(original, cst.Call)
            and isinstance(original.func, cst.Attribute)
            and not self.names_of(original.func.value)
        ):
            return updated_node
        if not (
            isinstance(call, cst.Call)
            and isinstance(call.func, cst.Attribute)
            and call.func.attr.value == "itemset"
            and _plain(call)
            and len(call.args) >= 2
            and len(_positional(call)) == len(call.args)
        ):
            return updated_node
        *index, value = (arg.value for arg in call.args)
        subscript = cst.Subscript(value=call.func.value, slice=_elements(index))
        return cst.Assign(targets=[cst.AssignTarget(target=subscript)], value=value)

    def _an_array(self, original: cst.BaseExpression) -> bool:
        """Whether ``original`` surely returns an ndarray: ``model.predict(...)``,
        ``np.random.choice(n, 1)``, ``np.random.rand(1)``."""
        if not isinstance(original, cst.Call) or not isinstance(original.func, cst.Attribute):
            return False
        name = original.func.attr.value
        if name in _PREDICTIONS:
            return not self.names_of(original.func.value)  # a model, not a module's function
        if not self._numpy_function(original.func, f"random.{name}"):
            return False
        positional = _positional(original)
        if name in ("rand", "randn"):
            return bool(positional)
        given = _keyword(original, "size") is not None
        return name in _SIZED and (given or len(positional) > _SIZED[name])

    def _scalar(self, original: cst.Call, call: cst.Call) -> cst.Call:
        # float(a) / int(a) of an array of one element: a.item(), which NumPy 2.4 requires
        if len(call.args) != 1 or not _plain(call) or call.args[0].keyword is not None:
            return call
        if not self._an_array(original.args[0].value):
            return call
        value = call.args[0].value
        item = cst.Call(func=cst.Attribute(value=value, attr=cst.Name("item")))
        return call.with_changes(args=[call.args[0].with_changes(value=item)])

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if isinstance(func, cst.Name) and func.value in ("float", "int"):
            return self._scalar(original_node, updated_node)
        if not isinstance(func, cst.Attribute) or not _plain(updated_node):
            return updated_node
        name = func.attr.value
        original_func = original_node.func
        if name == "reshape" and self._numpy_function(original_func, "reshape"):
            return self._reshape(original_node, updated_node)
        if name == "fromstring" and self._numpy_function(original_func, "fromstring"):
            return self._fromstring(updated_node)
        if name == "histogram" and self._numpy_function(original_func, "histogram"):
            return self._histogram(original_node, updated_node)
        if self.names_of(original_func.value if isinstance(original_func, cst.Attribute) else func):
            return updated_node  # a module's function (ET.tostring, np.ptp), not a method
        if name == "tostring" and not _positional(updated_node):
            return updated_node.with_changes(func=func.with_changes(attr=cst.Name("tobytes")))
        if name == "ptp":
            if self._numpy is None:
                self.warn_at(
                    original_node,
                    "a.ptp() left unchanged: NumPy 2.0 removed the ndarray method; write "
                    "np.ptp(a) [numpy call removed]",
                )
                return updated_node
            return updated_node.with_changes(
                func=cst.Attribute(value=cst.Name(self._numpy), attr=cst.Name("ptp")),
                args=_fix_commas([cst.Arg(value=func.value), *updated_node.args]),
            )
        if name == "itemset":
            parent = self.parent(original_node)
            if not (isinstance(parent, cst.Expr) and len(updated_node.args) >= 2):
                self.warn_at(
                    original_node,
                    f"{self.module.code_for_node(original_node)} left unchanged: NumPy 2.0 "
                    "removed ndarray.itemset; write a[i] = v [numpy call removed]",
                )
            return updated_node
        if name == "newbyteorder":
            receiver = func.value
            if isinstance(receiver, cst.Attribute) and receiver.attr.value in _DTYPE_RECEIVERS:
                return updated_node  # x.dtype.newbyteorder(): dtypes keep it
            if isinstance(receiver, cst.Call):
                return updated_node  # np.dtype(np.uint32).newbyteorder('>'): a dtype
            self.warn_at(
                original_node,
                f"{self.module.code_for_node(original_node)} left unchanged: NumPy 2.0 removed "
                "ndarray.newbyteorder (dtypes keep it); for an array write "
                "a.view(a.dtype.newbyteorder(order)) [numpy call removed]",
            )
        return updated_node

    def _reshape(self, original: cst.Call, call: cst.Call) -> cst.Call:
        newshape = _keyword(call, "newshape")
        if newshape is None:
            return call
        positional = _positional(call)
        if len(positional) != 1 or call.args[0] is not positional[0]:
            self.warn_at(
                original,
                "np.reshape(..., newshape=s) left unchanged: NumPy 2.4 removed the keyword; "
                "write np.reshape(a, s) [numpy call removed]",
            )
            return call
        rest = [arg for arg in call.args[1:] if arg is not newshape]
        moved = newshape.with_changes(keyword=None, equal=cst.MaybeSentinel.DEFAULT)
        return call.with_changes(args=_fix_commas([positional[0], moved, *rest]))

    def _fromstring(self, call: cst.Call) -> cst.BaseExpression:
        if _keyword(call, "sep") is not None or len(_positional(call)) > 3:
            return call  # text mode: NumPy still has it
        if any(
            arg.keyword is not None and arg.keyword.value not in ("dtype", "count")
            for arg in call.args
        ):
            return call
        assert isinstance(call.func, cst.Attribute)
        read = call.with_changes(func=call.func.with_changes(attr=cst.Name("frombuffer")))
        return cst.Call(func=cst.Attribute(value=read, attr=cst.Name("copy")))

    def _histogram(self, original: cst.Call, call: cst.Call) -> cst.Call:
        normed = _keyword(call, "normed")
        if normed is None:
            return call
        bins = _keyword(call, "bins")
        positional = _positional(call)
        if bins is None and len(positional) > 1:
            bins = positional[1]
        equal_width = bins is None or isinstance(bins.value, cst.Integer)
        if equal_width and _keyword(call, "density") is None:
            return call.with_changes(
                args=[
                    arg.with_changes(keyword=cst.Name("density")) if arg is normed else arg
                    for arg in call.args
                ]
            )
        self.warn_at(
            original,
            "np.histogram(..., normed=) left unchanged: NumPy 1.24 removed normed; write "
            "density=, the same for bins of equal width [numpy call removed]",
        )
        return call


def _elements(index: list[cst.BaseExpression]) -> list[cst.SubscriptElement]:
    return [
        cst.SubscriptElement(
            slice=cst.Index(value=value),
            comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
            if i < len(index) - 1
            else cst.MaybeSentinel.DEFAULT,
        )
        for i, value in enumerate(index)
    ]
