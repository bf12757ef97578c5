"""What a drop-in move is, and where Keras keeps the ``backend`` namespaces legacy code reaches.

Shared by the table of :mod:`tfcompat_gpu.dropin._install` and the legacy multi-GPU moves of
:mod:`tfcompat_gpu.dropin._legacy_gpu`, which ``_install`` appends to its table.
"""

from __future__ import annotations

TYPE_CHECKING = False  # (typing and dataclasses stay unloaded: every ``run`` imports this)
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType
    from typing import Any

__all__ = ["KERAS_BACKENDS", "Move"]


class Move:
    """One attribute the drop-in sets when ``module`` is imported."""

    __slots__ = ("make", "module", "only_if_missing", "only_where_needed", "target", "why")

    def __init__(
        self,
        module: str,
        target: str,
        make: Callable[[ModuleType, Any], Any],
        only_if_missing: bool,
        why: str,
        only_where_needed: bool = False,
    ) -> None:
        self.module = module
        """Module whose import triggers the move."""
        self.target = target
        """Dotted attribute path inside ``module`` (``"BaseSession.__init__"``, ``"Session"``)."""
        self.make = make
        """``(module, current value or _MISSING) -> new value``."""
        self.only_if_missing = only_if_missing
        """Leave the attribute alone when it exists (the real one wins)."""
        self.why = why
        self.only_where_needed = only_where_needed
        """``make`` returns the current value where the installed version needs no change
        (``np.reshape`` on a NumPy that still takes ``newshape=``)."""

    def __repr__(self) -> str:
        return (
            f"Move(module={self.module!r}, target={self.target!r}, make={self.make!r}, "
            f"only_if_missing={self.only_if_missing!r}, why={self.why!r}, "
            f"only_where_needed={self.only_where_needed!r})"
        )


# Where each Keras flavour keeps a ``backend`` namespace that legacy code reaches:
# Keras 3 (``keras.backend``, ``tf.keras.backend`` = ``tf.compat.v1.keras.backend``), Keras 2 of
# TF <= 2.15 (``keras.backend``, ``tf.keras.backend``, ``tf.compat.v1.keras.backend``) and
# tf_keras (``tf_keras.backend`` and its v1/v2 API modules).  The real functions win where
# they exist (the v1 API modules); the others get ones that delegate or emulate.
KERAS_BACKENDS: tuple[str, ...] = (
    "keras.backend",
    "keras._tf_keras.keras.backend",
    "keras.api._v2.keras.backend",
    "keras.api._v1.keras.backend",
    "tf_keras.backend",
    "tf_keras.api._v2.keras.backend",
    "tf_keras.api._v1.keras.backend",
)
