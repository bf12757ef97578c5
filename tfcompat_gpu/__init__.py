"""tfcompat_gpu: one GPU/thread configuration for TensorFlow 1 and 2.

``import tfcompat_gpu`` never imports TensorFlow; the functions that need it import it on use.

Example::

    import tfcompat_gpu
    tfcompat_gpu.configure(allow_growth=True, per_process_gpu_memory_fraction=0.5)
"""

from __future__ import annotations

import importlib

from tfcompat_gpu.errors import (
    GPUConfigConflictError,
    GPUConfigError,
    GPUConfigWarning,
    TooLateError,
)

TYPE_CHECKING = False  # (not typing's: importing typing costs some ms at every start)
if TYPE_CHECKING:
    from typing import Any

    from tfcompat_gpu.dropin import GPUPlacement, install, is_installed, on_gpu, uninstall
    from tfcompat_gpu.lint.api import Finding, Report, check
    from tfcompat_gpu.machine.inventory import GPUInfo, Inventory, inventory
    from tfcompat_gpu.machine.launchers import local_rank
    from tfcompat_gpu.runtime.configuring import configure, current_config
    from tfcompat_gpu.runtime.conflicts import get_conflict_policy, set_conflict_policy
    from tfcompat_gpu.runtime.distribute import StrategyPlan, explain, strategy
    from tfcompat_gpu.runtime.environment import Environment, environment
    from tfcompat_gpu.runtime.mode import Mode, detect_mode
    from tfcompat_gpu.runtime.sessions import session
    from tfcompat_gpu.settings.config import GPUConfig

__version__ = "0.1.0"

__all__ = [
    "Environment",
    "Finding",
    "GPUConfig",
    "GPUConfigConflictError",
    "GPUConfigError",
    "GPUConfigWarning",
    "GPUInfo",
    "GPUPlacement",
    "Inventory",
    "Mode",
    "Report",
    "StrategyPlan",
    "TooLateError",
    "__version__",
    "check",
    "configure",
    "current_config",
    "detect_mode",
    "environment",
    "explain",
    "get_conflict_policy",
    "install",
    "inventory",
    "is_installed",
    "local_rank",
    "on_gpu",
    "session",
    "set_conflict_policy",
    "strategy",
    "uninstall",
]

# Loaded on first use, so that ``import tfcompat_gpu`` costs next to nothing (a few ms).
_LAZY = {
    "Environment": "tfcompat_gpu.runtime.environment",
    "Mode": "tfcompat_gpu.runtime.mode",
    "configure": "tfcompat_gpu.runtime.configuring",
    "current_config": "tfcompat_gpu.runtime.configuring",
    "detect_mode": "tfcompat_gpu.runtime.mode",
    "environment": "tfcompat_gpu.runtime.environment",
    "session": "tfcompat_gpu.runtime.sessions",
    "GPUConfig": "tfcompat_gpu.settings.config",
    "GPUInfo": "tfcompat_gpu.machine.inventory",
    "Inventory": "tfcompat_gpu.machine.inventory",
    "inventory": "tfcompat_gpu.machine.inventory",
    "get_conflict_policy": "tfcompat_gpu.runtime.conflicts",
    "set_conflict_policy": "tfcompat_gpu.runtime.conflicts",
    "check": "tfcompat_gpu.lint.api",
    "Report": "tfcompat_gpu.lint.api",
    "Finding": "tfcompat_gpu.lint.api",
    "GPUPlacement": "tfcompat_gpu.dropin",
    "install": "tfcompat_gpu.dropin",
    "is_installed": "tfcompat_gpu.dropin",
    "on_gpu": "tfcompat_gpu.dropin",
    "uninstall": "tfcompat_gpu.dropin",
    "local_rank": "tfcompat_gpu.machine.launchers",
    "strategy": "tfcompat_gpu.runtime.distribute",
    "explain": "tfcompat_gpu.runtime.distribute",
    "StrategyPlan": "tfcompat_gpu.runtime.distribute",
}


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'tfcompat_gpu' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
