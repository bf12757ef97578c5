"""The drop-in for legacy code: ``install()``, ``uninstall()``, ``on_gpu()`` and ``tfcompat-gpu run``.

Importing this package imports neither TensorFlow nor Keras; the patches land when they are.

Example::

    import tfcompat_gpu
    tfcompat_gpu.install()          # then run TF1 / Keras 2 session code as it is
"""

from __future__ import annotations

from tfcompat_gpu.dropin._install import install, is_installed, uninstall

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tfcompat_gpu.dropin.placement import GPUPlacement, on_gpu

__all__ = ["GPUPlacement", "install", "is_installed", "on_gpu", "uninstall"]


def __getattr__(name: str) -> object:
    # Placement (the TensorFlow API, the settings kinds) loads on first use: ``tfcompat-gpu run``
    # installs the drop-in at every start and most scripts never place a graph by hand.
    if name in ("GPUPlacement", "on_gpu"):
        from tfcompat_gpu.dropin import placement

        value = globals()[name] = getattr(placement, name)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
