"""NumPy names old scripts use that the NumPy of TensorFlow 2.21 removed, answered again.

TensorFlow 2.21 installs NumPy >= 1.26, which has no ``np.float``/``np.int``/``np.object``
(NumPy 1.24) and, from 2.0, no ``np.NaN``/``np.Inf``/``np.float_``/``np.product`` ...; an old
Keras 2 or TF1 script stops at the first ``dtype=np.float``.  NumPy answers a missing name from
its module ``__getattr__``; the drop-in wraps it so that a name of
:data:`~tfcompat_gpu.tfapi.numpy_names.NUMPY_REMOVED` with a replacement gets it (``float`` for
``np.float``, ``numpy.nan`` for ``np.NaN``), with one warning per name that says what to write.
Every other name, and those with no replacement (``np.asscalar``), reach NumPy's own
``__getattr__`` and its error.  Nothing is added to NumPy's namespace (``vars(numpy)``), and
TensorFlow, Keras and h5py read none of these names (checked on TensorFlow 2.21).
"""

from __future__ import annotations

import builtins
from types import ModuleType

TYPE_CHECKING = False  # (typing stays unloaded: every ``run`` imports the drop-in)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = ["numpy_getattr"]


def numpy_getattr(module: ModuleType, current: Any) -> Callable[[str], Any]:
    """``numpy.__getattr__`` that knows the removed names, around NumPy's own ``current``."""
    from tfcompat_gpu.tfapi.numpy_names import NUMPY_REMOVED

    warned: set[str] = set()

    def __getattr__(name: str) -> Any:
        new = NUMPY_REMOVED.get(name)
        if new is None:
            if callable(current):
                return current(name)
            raise AttributeError(f"module 'numpy' has no attribute {name!r}")
        if new.startswith("-."):
            value: Any = -getattr(module, new[2:])
            shown = f"-np.{new[2:]}"
        elif new.startswith("."):
            value = getattr(module, new[1:])
            shown = f"np.{new[1:]}"
        else:
            value = getattr(builtins, new)
            shown = new
        if name not in warned:
            warned.add(name)
            import warnings

            warnings.warn(
                f"np.{name} was removed from NumPy; it is {shown} (tfcompat-gpu migrate "
                "rewrites it)",
                stacklevel=2,
            )
        return value

    __getattr__.__wrapped__ = current  # type: ignore[attr-defined]
    return __getattr__
