"""Process-wide bookkeeping: what configuration took effect, where, and which sessions asked what.

TensorFlow creates GPU allocators and thread pools once per process; this module remembers the
values that won, and who asked for them, so that later requests can be compared against them.
It is the facade's one place of process state (:data:`STATE`): the conflict policy, the
session hook the drop-in registers, the one ``strategy()`` of the process and the one-time
warnings already given (:func:`warn_once`) live here too.  Nothing here imports TensorFlow.
"""

from __future__ import annotations

import _thread  # threading's own locks, without importing threading (some ms at every start)

from tfcompat_gpu.errors import GPUConfigWarning

# ``install()`` (and so every ``tfcompat-gpu run``) imports this module: ``logging``, ``typing``,
# ``dataclasses`` and ``functools`` (utils.where) would cost some ms at every start, so none is
# imported at import time.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from tfcompat_gpu.settings.config import GPUConfig

__all__ = ["STATE", "ProcessState", "SessionRecord", "StrategyRecord", "warn_once"]


class SessionRecord:
    """A session created in this process and the GPU options it asked for.

    ``where`` may be given as ``(filename, line)``: it is formatted on first read, which keeps
    recording off the cost of creating a session.
    """

    __slots__ = ("_where", "config", "kind")

    def __init__(self, config: GPUConfig, where: str | tuple[str, int], kind: str = "Session"):
        self.config = config
        self._where = where
        self.kind = kind

    @property
    def where(self) -> str:
        """``file:line`` in user code that created it (or ``"<unknown>"``)."""
        if isinstance(self._where, tuple):
            from tfcompat_gpu.utils.where import short_path

            self._where = f"{short_path(self._where[0])}:{self._where[1]}"
        return self._where

    def __repr__(self) -> str:
        return f"SessionRecord(config={self.config!r}, where={self.where!r}, kind={self.kind!r})"


class StrategyRecord:
    """The strategy ``strategy()`` built for the process, what it was, and where it was asked."""

    __slots__ = ("plan", "strategy", "where")

    def __init__(self, plan: Any, strategy: Any, where: str) -> None:
        self.plan = plan
        """The ``runtime.distribute.StrategyPlan`` it was built from (not named as a type here:
        ``distribute`` imports this module, and no two modules import each other)."""
        self.strategy = strategy
        self.where = where

    def __repr__(self) -> str:
        return (
            f"StrategyRecord(plan={self.plan!r}, strategy={self.strategy!r}, where={self.where!r})"
        )


class ProcessState:
    """The process's one record (:data:`STATE`); every field starts empty."""

    def __init__(self) -> None:
        self.lock = _thread.RLock()
        self.applied: GPUConfig | None = None
        """The config ``configure()`` last applied (None: never called)."""
        self.applied_where: str | None = None
        self.process_wide_where: str | None = None
        """Where the process-wide fields in force were set (a ``configure()`` or the first
        session)."""
        self.started_where: str | None = None
        """What started the TensorFlow runtime, when known."""
        self.sessions: list[SessionRecord] = []
        self.session_hook: Callable[[GPUConfig | None, Any, str], Any] | None = None
        """Set by ``install()``: ``hook(request, graph, target)`` creates the session that
        ``tfcompat_gpu.session()`` returns, through the patched ``tf.Session``."""
        self.policy: str | None = None
        """The conflict policy set by ``set_conflict_policy()`` (None: the environment's, or the
        default)."""
        self.warned: set[str] = set()
        """Keys of one-time warnings already given (by :func:`warn_once`)."""
        self.requested_as: dict[str, tuple[Any, Any]] = {}
        """Field -> (value requested, value in force) where applying changed the value (a
        reorder ``"1,0"`` TF2 applies as ``"0,1"``): asking for the requested value again is no
        conflict."""
        self.strategy: StrategyRecord | None = None
        """The strategy ``strategy()`` returned (None: not called yet): one per process."""


STATE = ProcessState()


def warn_once(key: str, message: str) -> None:
    """Warn ``message`` (a :class:`GPUConfigWarning`, also logged) the first time ``key`` is seen.

    The warning is attributed to the user's line, as the call may come from deep inside
    TensorFlow (a session); where no user line is known, to the caller's caller's caller.
    """
    if key in STATE.warned:
        return
    STATE.warned.add(key)
    import logging
    import warnings

    from tfcompat_gpu.utils.where import user_frame

    logging.getLogger("tfcompat_gpu").info("%s", message)
    filename, _, line = user_frame().rpartition(":")
    if filename and line.isdigit():
        warnings.warn_explicit(message, GPUConfigWarning, filename, int(line))
    else:
        warnings.warn(message, GPUConfigWarning, stacklevel=4)
