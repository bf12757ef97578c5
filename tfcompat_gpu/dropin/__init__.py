"""The drop-in for legacy code: ``install()``, ``uninstall()``, ``on_gpu()`` and ``tfcompat-gpu run``.

Importing this package imports neither TensorFlow nor Keras; the patches land when they are.

Example::

    import tfcompat_gpu
    tfcompat_gpu.install()          # then run TF1 / Keras 2 session code as it is
"""

from __future__ import annotations

from tfcompat_gpu.dropin._install import install, is_installed, uninstall
from tfcompat_gpu.dropin.placement import GPUPlacement, on_gpu

__all__ = ["GPUPlacement", "install", "is_installed", "on_gpu", "uninstall"]
