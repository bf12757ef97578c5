"""tfcompat_gpu: one GPU/thread configuration for TensorFlow 1 and 2."""

from __future__ import annotations

from tfcompat_gpu._errors import (
    GPUConfigConflictError,
    GPUConfigError,
    GPUConfigWarning,
    TooLateError,
)

__version__ = "0.1.0"

__all__ = [
    "GPUConfigConflictError",
    "GPUConfigError",
    "GPUConfigWarning",
    "TooLateError",
    "__version__",
]
