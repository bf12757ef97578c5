"""Process-wide bookkeeping: what configuration took effect, where, and which sessions asked what.

TensorFlow creates GPU allocators and thread pools once per process; this module remembers the
values that won, and who asked for them, so that later requests can be compared against them.
Nothing here imports TensorFlow.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tfcompat_gpu.config import GPUConfig

__all__ = ["STATE", "ProcessState", "SessionRecord"]


@dataclass(frozen=True)
class SessionRecord:
    """A session created in this process and the GPU options it asked for."""

    config: GPUConfig
    where: str
    """``file:line`` in user code that created it (or ``"<unknown>"``)."""
    kind: str = "Session"


@dataclass
class ProcessState:
    lock: threading.RLock = field(default_factory=threading.RLock)
    applied: GPUConfig | None = None
    """The config ``configure()`` last applied (None: never called)."""
    applied_where: str | None = None
    process_wide: GPUConfig | None = None
    """The process-wide fields in force, recorded when they first took effect."""
    process_wide_where: str | None = None
    started_where: str | None = None
    """What started the TensorFlow runtime, when known."""
    sessions: list[SessionRecord] = field(default_factory=list)
    warned: set[str] = field(default_factory=set)
    """Keys of one-time warnings already given."""


STATE = ProcessState()
