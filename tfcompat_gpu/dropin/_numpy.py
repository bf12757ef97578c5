"""NumPy names old scripts use that the NumPy of TensorFlow 2.21 removed, answered again.

TensorFlow 2.21 installs NumPy >= 1.26, which has no ``np.float``/``np.int``/``np.object``
(NumPy 1.24) and, from 2.0, no ``np.NaN``/``np.Inf``/``np.float_``/``np.product`` ...; an old
Keras 2 or TF1 script stops at the first ``dtype=np.float``.  NumPy answers a missing name from
its module ``__getattr__``; the drop-in wraps it so that a name of
:data:`~tfcompat_gpu.tfapi.numpy_names.NUMPY_REMOVED` with a replacement gets it (``float`` for
``np.float``, ``numpy.nan`` for ``np.NaN``), with one warning per name that says what to write.
A removed function with no one-name replacement but a short exact definition
(``np.asscalar(a)`` is ``a.item()``, ``np.asfarray``, ``np.in1d``, ``np.trapz``, ``np.msort``,
``np.alen``, ``np.PZERO``) is served as that definition, with the same warning.  Every other name
reaches NumPy's own ``__getattr__`` and its error.  ``np.reshape(a, newshape=s)`` (the keyword
NumPy 2.1 renamed ``shape`` and 2.4 removed) is taken by :func:`numpy_reshape`.  ``np.array(rows)`` of rows of unequal lengths (``np.array(list(zip(x, y)))``
of a sentence matrix and its labels), which NumPy 1.24 made a ``ValueError``, is built with
``dtype=object`` as NumPy < 1.24 built it, when the script itself asked (:func:`numpy_array`).  Nothing is added to NumPy's namespace (``vars(numpy)``), and
TensorFlow, Keras and h5py read none of these names (checked on TensorFlow 2.21).
"""

from __future__ import annotations

import builtins
from types import ModuleType

TYPE_CHECKING = False  # (typing stays unloaded: every ``run`` imports the drop-in)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = ["SERVED", "numpy_array", "numpy_getattr", "numpy_reshape"]


def _asscalar(a: Any) -> Any:
    return a.item()


def _asfarray(module: ModuleType) -> Callable[..., Any]:
    def asfarray(a: Any, dtype: Any = module.float64) -> Any:
        # NumPy 1.26's numpy/lib/type_check.py
        if not module.issubdtype(dtype, module.inexact):
            dtype = module.float64
        return module.asarray(a, dtype=dtype)

    return asfarray


def _in1d(module: ModuleType) -> Callable[..., Any]:
    def in1d(
        ar1: Any, ar2: Any, assume_unique: bool = False, invert: bool = False, **kw: Any
    ) -> Any:
        return module.isin(ar1, ar2, assume_unique=assume_unique, invert=invert, **kw).ravel()

    return in1d


def _msort(module: ModuleType) -> Callable[[Any], Any]:
    def msort(a: Any) -> Any:
        return module.sort(a, axis=0)

    return msort


def _alen(module: ModuleType) -> Callable[[Any], int]:
    def alen(a: Any) -> int:
        return len(module.atleast_1d(a))

    return alen


def _sctypes(module: ModuleType) -> dict[str, list[Any]]:
    # NumPy 1.26's numpy/core/numerictypes.py on a 64-bit Linux (float128 is longdouble);
    # image-augmentation libraries of the Keras 2 era read np.sctypes["float"] at import
    return {
        "int": [module.int8, module.int16, module.int32, module.int64],
        "uint": [module.uint8, module.uint16, module.uint32, module.uint64],
        "float": [module.float16, module.float32, module.float64, module.longdouble],
        "complex": [module.complex64, module.complex128, module.clongdouble],
        "others": [bool, object, bytes, str, module.void],
    }


SERVED: dict[str, tuple[Callable[[ModuleType], Any], str]] = {
    "asscalar": (lambda np: _asscalar, "a.item()"),
    "asfarray": (_asfarray, "np.asarray(a, dtype=float)"),
    "in1d": (_in1d, "np.isin(a, b).ravel()"),
    "trapz": (lambda np: np.trapezoid, "np.trapezoid"),
    "msort": (_msort, "np.sort(a, axis=0)"),
    "alen": (_alen, "len(a)"),
    "PZERO": (lambda np: 0.0, "0.0"),
    "NZERO": (lambda np: -0.0, "-0.0"),
    "sctypes": (_sctypes, "the dtypes of each kind listed by hand ([np.float32, np.float64])"),
}
"""Removed name with no replacement in the table -> (its definition, given NumPy; what to write)."""


def numpy_reshape(module: ModuleType, current: Any) -> Any:
    """``numpy.reshape`` that takes ``newshape=`` again, where the installed NumPy does not."""
    import inspect

    try:
        if "newshape" in inspect.signature(current).parameters:
            return current  # NumPy < 2.4 still has it (2.1-2.3 with a DeprecationWarning)
    except (TypeError, ValueError):
        return current
    warned: list[bool] = []

    def reshape(*args: Any, **kwargs: Any) -> Any:
        if "newshape" in kwargs and "shape" not in kwargs:
            kwargs["shape"] = kwargs.pop("newshape")
            if not warned:
                warned.append(True)
                import warnings

                warnings.warn(
                    "np.reshape(a, newshape=s): NumPy 2.4 removed the keyword newshape; it is "
                    "np.reshape(a, s) (tfcompat-gpu migrate rewrites it)",
                    stacklevel=2,
                )
        return current(*args, **kwargs)

    reshape.__wrapped__ = current  # type: ignore[attr-defined]
    reshape.__name__ = getattr(current, "__name__", "reshape")
    reshape.__doc__ = getattr(current, "__doc__", None)
    return reshape


def numpy_array(module: ModuleType, current: Any) -> Any:
    """``numpy.array`` that builds ragged nested sequences as an object array again, as NumPy <
    1.24 did, when the call comes from user code and gives no ``dtype`` (TensorFlow's, Keras'
    and NumPy's own calls keep NumPy's error)."""
    import sys

    from tfcompat_gpu.utils.where import is_user_code

    warned: list[bool] = []

    def array(*args: Any, **kwargs: Any) -> Any:
        try:
            return current(*args, **kwargs)
        except ValueError as error:
            if (
                "inhomogeneous" not in str(error)
                or len(args) != 1
                or "dtype" in kwargs
                or not is_user_code(sys._getframe(1).f_code)
            ):
                raise
        if not warned:
            warned.append(True)
            import warnings

            warnings.warn(
                "np.array() of sequences of unequal lengths: NumPy 1.24 made it an error; it is "
                "built as NumPy < 1.24 built it, np.array(..., dtype=object)",
                stacklevel=2,
            )
        return current(*args, dtype=object, **kwargs)

    array.__wrapped__ = current  # type: ignore[attr-defined]
    array.__name__ = getattr(current, "__name__", "array")
    array.__qualname__ = array.__name__  # pickle finds it as numpy.array, which it is
    array.__module__ = "numpy"
    array.__doc__ = getattr(current, "__doc__", None)
    return array


def numpy_getattr(module: ModuleType, current: Any) -> Callable[[str], Any]:
    """``numpy.__getattr__`` that knows the removed names, around NumPy's own ``current``."""
    from tfcompat_gpu.tfapi.numpy_names import NUMPY_REMOVED

    warned: set[str] = set()

    def __getattr__(name: str) -> Any:
        value: Any
        new = NUMPY_REMOVED.get(name)
        if new is None and name in SERVED:
            make, written = SERVED[name]
            try:
                value = make(module)
            except AttributeError:  # np.trapezoid before NumPy 2.0 (which still has trapz)
                value = None
            if value is not None:
                _warn(name, f"was removed from NumPy; write {written}")
                return value
        if new is None:
            if callable(current):
                return current(name)
            raise AttributeError(f"module 'numpy' has no attribute {name!r}")
        if new.startswith("-."):
            value = -getattr(module, new[2:])
            shown = f"-np.{new[2:]}"
        elif new.startswith("."):
            value = getattr(module, new[1:])
            shown = f"np.{new[1:]}"
        else:
            value = getattr(builtins, new)
            shown = new
        _warn(name, f"was removed from NumPy; it is {shown} (tfcompat-gpu migrate rewrites it)")
        return value

    def _warn(name: str, text: str) -> None:
        if name not in warned:
            warned.add(name)
            import warnings

            warnings.warn(f"np.{name} {text}", stacklevel=3)

    __getattr__.__wrapped__ = current  # type: ignore[attr-defined]
    return __getattr__
