"""The project's exceptions and warnings: a small hierarchy under built-ins."""

from __future__ import annotations

__all__ = [
    "GPUConfigConflictError",
    "GPUConfigError",
    "GPUConfigWarning",
    "TooLateError",
]


class GPUConfigError(ValueError):
    """A GPU/thread setting is invalid, contradictory or cannot be applied.

    The message names the field, the value received, what is expected and how to fix it.
    """


class TooLateError(GPUConfigError, RuntimeError):
    """A process-wide setting was asked to change after the TensorFlow runtime started."""


class GPUConfigConflictError(GPUConfigError):
    """A session asked for process-wide GPU options that differ from the ones in force."""


class GPUConfigWarning(UserWarning):
    """A GPU setting is ignored, approximated or overridden."""
