"""The static lint and the runtime check: ``tfcompat_gpu.check()`` / ``tfcompat-gpu check``.

Nothing in this package imports TensorFlow.
"""

from __future__ import annotations

__all__: list[str] = []
