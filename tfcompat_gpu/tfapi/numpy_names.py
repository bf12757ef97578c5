"""NumPy names that old TensorFlow / Keras 2 scripts use and that the NumPy TensorFlow 2.21
installs no longer has, as one table for ``migrate`` and ``run``.

TensorFlow 2.21 requires NumPy >= 1.26 (2.x where it can).  NumPy 1.24 removed the aliases of
Python's own types (``np.float``, ``np.int``, ``np.bool``, ``np.object``, ``np.str``,
``np.complex``, ``np.unicode``), deprecated since 1.20; NumPy 2.0 removed the spellings listed in
``numpy/_expired_attrs_2_0.py`` (``np.NaN``, ``np.Inf``, ``np.float_``, ``np.product``, ...)
and the aliases ``np.bool8``, ``np.int0``, ...; NumPy 2.0 deprecated ``np.row_stack``
(``np.vstack``), NumPy 1.18 removed ``np.rank`` (``np.ndim``), 1.23 ``np.alen`` and ``np.loads``.
Each name maps to what it meant, in a form that works on NumPy 1.26 and 2.x alike: a builtin
(``"float"``), another attribute of ``numpy`` (``".nan"``), or ``"-.inf"`` (the negated
attribute).  Names with no such form (``np.asscalar(a)`` is ``a.item()``, ``np.in1d`` is
``np.isin`` only for 1-D arrays, ``np.trapz`` is ``np.trapezoid`` only from NumPy 2.0) map to
``None``: ``migrate`` warns, ``run`` lets NumPy's own error stand.  Pure data: ``run`` reads it
when the script imports NumPy.
"""

from __future__ import annotations

__all__ = ["NUMPY_REMOVED"]

NUMPY_REMOVED: dict[str, str | None] = {
    # NumPy 1.24: the aliases of the builtin types (np.bool is back in 2.0 as np.bool_, which
    # 1.26 lacks; np.long is back in 2.0 as the C long, and is left alone)
    "float": "float",
    "int": "int",
    "bool": "bool",
    "object": "object",
    "str": "str",
    "complex": "complex",
    "unicode": "str",
    # NumPy 2.0 (numpy/_expired_attrs_2_0.py), with the replacement it names
    "NaN": ".nan",
    "NAN": ".nan",
    "Inf": ".inf",
    "Infinity": ".inf",
    "PINF": ".inf",
    "infty": ".inf",
    "NINF": "-.inf",
    "float_": ".float64",
    "complex_": ".complex128",
    "cfloat": ".complex128",
    "singlecomplex": ".complex64",
    "longfloat": ".longdouble",
    "clongfloat": ".clongdouble",
    "longcomplex": ".clongdouble",
    "string_": ".bytes_",
    "unicode_": ".str_",
    "round_": ".round",
    "product": ".prod",
    "cumproduct": ".cumprod",
    "alltrue": ".all",
    "sometrue": ".any",
    "mat": ".asmatrix",
    "issubclass_": "issubclass",
    # NumPy 2.0 also dropped the bit-less aliases (numpy/_core/_type_aliases.py of 1.26)
    "bool8": ".bool_",
    "int0": ".intp",
    "uint0": ".uintp",
    "object0": ".object_",
    "str0": ".str_",
    "bytes0": ".bytes_",
    "void0": ".void",
    # deprecated by NumPy 2.0 (row_stack is vstack's old name), removed earlier (rank is ndim)
    "row_stack": ".vstack",
    "rank": ".ndim",
    # removed, with no spelling that means the same on every NumPy TensorFlow 2.21 takes
    "asscalar": None,
    "asfarray": None,
    "in1d": None,
    "trapz": None,
    "msort": None,
    "sctypes": None,
    "find_common_type": None,
    "alen": None,
    "loads": None,
    "PZERO": None,
    "NZERO": None,
}
"""Removed NumPy name -> its replacement (see the module's text), or None."""
