"""``np.float``, ``np.int``, ``np.NaN``, ``np.float_`` ... → what they meant (``float``, ``int``,
``np.nan``, ``np.float64``).

Old Keras 2 and TF1 scripts wrote ``dtype=np.float`` and ``astype(np.int)``, aliases of the
builtin types that NumPy 1.24 removed; NumPy 2.0 removed more spellings (``np.NaN``,
``np.Inf``, ``np.float_``, ``np.product``).  TensorFlow 2.21 installs NumPy >= 1.26, where each
is an ``AttributeError``.  The table :data:`~tfcompat_gpu.tfapi.numpy_names.NUMPY_REMOVED` gives
each name the spelling that means the same on NumPy 1.26 and 2.x; a name with none
(``np.asscalar``, ``np.in1d``, ``np.trapz``) is left with a warning that says what to write.
``np.asfarray(a)`` is ``np.asarray(a, dtype=float)`` (NumPy 1.26 made every non-float dtype
float64), and so is ``np.asfarray(a, dtype=np.float32)`` with ``dtype=`` a float type; only
other calls of it get the warning.  Only names reached through ``numpy`` count (``import numpy as np``, ``import numpy``), and an
assignment to one (``np.float = float``, a script's own fix) is left alone.
"""

from __future__ import annotations

import ast
import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.tfapi.numpy_names import NUMPY_REMOVED

__all__ = ["NumpyRemovedNamesCommand"]

_NAMES = re.compile(
    r"\.\s*(?:" + "|".join(sorted(NUMPY_REMOVED, key=len, reverse=True)) + r")\b(?!\s*=[^=])"
)
# what to write instead, for the names the table cannot replace
_HINTS = {
    "asscalar": "write a.item() (removed in NumPy 1.23)",
    "asfarray": "write np.asarray(a, dtype=float) (removed in NumPy 2.0)",
    "in1d": "write np.isin(a, b).ravel(), which gives in1d's 1-D result (removed in NumPy 2.4)",
    "trapz": "write np.trapezoid, which NumPy 2.0 added (np.trapz is gone from NumPy 2.4)",
    "msort": "write np.sort(a, axis=0) (removed in NumPy 2.0)",
    "find_common_type": "write np.result_type (removed in NumPy 2.0)",
    "PZERO": "write 0.0 (removed in NumPy 2.0)",
    "NZERO": "write -0.0 (removed in NumPy 2.0)",
    "alen": "write len(a) (removed in NumPy 1.23)",
    "loads": "write pickle.loads (removed in NumPy 1.23)",
    "sctypes": "list the dtypes of each kind by hand, e.g. [np.float16, np.float32, np.float64] "
    "for np.sctypes['float'] (removed in NumPy 2.0)",
}

_FLOATS = frozenset({"float16", "float32", "float64", "double", "single", "longdouble", "half"})


def _wanted(text: str, tree: ast.Module | None = None) -> bool:
    return "numpy" in text and _NAMES.search(text) is not None


def _relevant(text: str) -> bool:
    return _NAMES.search(text) is not None


class NumpyRemovedNamesCommand(MigrationCommand):
    DESCRIPTION = (
        "NumPy names removed by NumPy 1.24 and 2.0 (np.float, np.int, np.NaN, np.float_, ...) "
        "to what they meant (float, int, np.nan, np.float64)."
    )
    PRECHECK = Precheck(_wanted, _relevant)
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def _asfarray_call(self, attribute: cst.Attribute) -> cst.Call | None:
        """The call ``np.asfarray(a[, dtype])`` of ``attribute`` that has an exact rewrite."""
        call = self.parent(attribute)
        if not isinstance(call, cst.Call) or call.func is not attribute:
            return None
        args = list(call.args)
        if not args or len(args) > 2 or any(arg.star for arg in args) or args[0].keyword:
            return None
        if len(args) == 2:
            dtype = args[1]
            if dtype.keyword is not None and dtype.keyword.value != "dtype":
                return None
            if not (
                (isinstance(dtype.value, cst.Name) and dtype.value.value == "float")
                or (
                    isinstance(dtype.value, cst.Attribute)
                    and dtype.value.attr.value in _FLOATS
                    and f"numpy.{dtype.value.attr.value}" in self.names_of(dtype.value)
                )
            ):
                return None
        return call

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if not (
            isinstance(func, cst.Attribute)
            and func.attr.value == "asfarray"
            and isinstance(original_node.func, cst.Attribute)
            and self._asfarray_call(original_node.func) is original_node
        ):
            return updated_node
        first = updated_node.args[0]
        dtype = updated_node.args[1].value if len(updated_node.args) == 2 else cst.Name("float")
        comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        return updated_node.with_changes(
            func=func.with_changes(attr=cst.Name("asarray")),
            args=[
                first.with_changes(comma=comma),
                cst.Arg(
                    keyword=cst.Name("dtype"),
                    value=dtype,
                    equal=cst.AssignEqual(
                        whitespace_before=cst.SimpleWhitespace(""),
                        whitespace_after=cst.SimpleWhitespace(""),
                    ),
                ),
            ],
        )

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        name = original_node.attr.value
        if name not in NUMPY_REMOVED or f"numpy.{name}" not in self.names_of(original_node):
            return updated_node
        parent = self.parent(original_node)
        if isinstance(parent, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del)):
            return updated_node  # the script binds the name itself
        new = NUMPY_REMOVED[name]
        spelled = self.module.code_for_node(updated_node)
        if new is None:
            if name == "asfarray" and self._asfarray_call(original_node) is not None:
                return updated_node  # the call is rewritten (leave_Call)
            self.warn_at(
                original_node,
                f"{spelled} left unchanged: NumPy no longer has it; {_HINTS[name]} "
                "[numpy name removed]",
            )
            return updated_node
        if not new.startswith((".", "-.")):
            return cst.Name(new)  # the builtin the alias stood for
        renamed = updated_node.with_changes(attr=cst.Name(new.lstrip("-.")))
        if new.startswith("-"):
            return cst.UnaryOperation(
                operator=cst.Minus(),
                expression=renamed,
                lpar=[cst.LeftParen()],
                rpar=[cst.RightParen()],
            )
        return renamed
