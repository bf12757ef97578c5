"""``tfcompat-gpu run`` in the children a script starts with ``multiprocessing``.

A forked child inherits the patched process as it is.  A child started with ``spawn`` or
``forkserver`` is a new interpreter that imports the script again as ``__mp_main__``: it gets
the same settings and mode through the environment (:data:`CHILD_ENV`, inherited by every
child) and a one-line prefix to the ``-c`` command ``multiprocessing`` starts it with, which
calls :func:`bootstrap` before anything of the script runs.  The forkserver process itself is
started the same way, so the children it forks are ready too, and they pass it on to theirs.
"""

from __future__ import annotations

import ast
import json
import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from tfcompat_gpu.dropin._tf1 import V1Import

__all__ = ["CHILD_ENV", "RunMode", "activate", "bootstrap", "export"]

CHILD_ENV = "TFCOMPAT_GPU_RUN_MODE"
"""JSON of the :class:`RunMode` in force, set by ``tfcompat-gpu run`` for its children."""

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_PREFIX = (
    f"import sys as _tfc_sys; _tfc_sys.path.insert(0, {_ROOT!r}); "
    "from tfcompat_gpu.dropin._children import bootstrap as _tfc_boot; "
    "del _tfc_sys.path[0]; _tfc_boot(); del _tfc_sys, _tfc_boot; "
)


@dataclass(frozen=True)
class RunMode:
    """What ``tfcompat-gpu run`` set up: the same in the script's process and its children."""

    settings: dict[str, Any] = field(default_factory=dict)
    """:meth:`GPUConfig.to_dict` of the settings in force (flags, file, environment)."""
    tf1: bool = False
    legacy_keras: bool = False
    policy: str | None = None
    script_dirs: tuple[str, ...] = ()
    """Folders whose modules get the v1 API under ``--tf1`` (the script's, as given and resolved)."""

    def to_json(self) -> str:
        return json.dumps(
            {
                "settings": repr(self.settings),
                "tf1": self.tf1,
                "legacy_keras": self.legacy_keras,
                "policy": self.policy,
                "script_dirs": list(self.script_dirs),
            }
        )

    @classmethod
    def from_json(cls, text: str) -> RunMode:
        data = json.loads(text)
        return cls(
            settings=ast.literal_eval(data["settings"]),
            tf1=bool(data["tf1"]),
            legacy_keras=bool(data["legacy_keras"]),
            policy=data["policy"],
            script_dirs=tuple(data["script_dirs"]),
        )


def activate(mode: RunMode) -> V1Import | None:
    """Set the process up as ``mode`` says: the drop-in, the settings, children.

    Returns the ``--tf1`` import switch, not started yet (None without ``--tf1``).
    """
    import tfcompat_gpu
    from tfcompat_gpu.dropin import _sessions
    from tfcompat_gpu.settings.config import GPUConfig

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the parent warned about these values already
        settings = GPUConfig(**mode.settings)
    if mode.policy:
        from tfcompat_gpu.runtime.conflicts import set_conflict_policy

        set_conflict_policy(mode.policy)  # type: ignore[arg-type]
    if mode.legacy_keras:
        from tfcompat_gpu.dropin import _legacy_keras

        _legacy_keras.enable(v1=mode.tf1)
    tfcompat_gpu.install(legacy_keras=mode.legacy_keras)
    _sessions.set_overrides(settings)
    _on_tensorflow(settings, mode.tf1)
    export(mode)
    return V1Import(*mode.script_dirs) if mode.tf1 else None


def _on_tensorflow(settings: Any, tf1: bool) -> None:
    """Apply the settings (and ``--tf1``) once TensorFlow is imported, whoever imports it."""
    if not settings.to_dict() and not tf1:
        return
    from tfcompat_gpu.utils import postimport as _postimport

    def hook(module: ModuleType) -> None:
        if tf1:
            module.compat.v1.disable_v2_behavior()
        if settings.to_dict():
            from tfcompat_gpu.runtime.configuring import configure_at

            configure_at(settings, "tfcompat-gpu run options")

    _postimport.register(hook, "tensorflow")


def bootstrap() -> None:
    """First thing a spawned child runs: take on the parent's :class:`RunMode`."""
    text = os.environ.get(CHILD_ENV)
    if text:
        v1 = activate(RunMode.from_json(text))
        if v1 is not None:
            v1.start()  # for the rest of the child's life


# -- passing it on ------------------------------------------------------------------------------

_hooked = False


def export(mode: RunMode) -> None:
    """Make children started with ``spawn``/``forkserver`` run :func:`bootstrap` first."""
    global _hooked
    os.environ[CHILD_ENV] = mode.to_json()
    if _hooked:
        return
    _hooked = True
    from tfcompat_gpu.utils import postimport as _postimport

    # Looked up as module attributes at each start, so patching the modules reaches every
    # context (``get_context("spawn")``, ``set_start_method``, ``concurrent.futures``).
    _postimport.register(_patch_spawn, "multiprocessing.spawn")
    _postimport.register(_patch_util, "multiprocessing.util")


def _with_prefix(args: Any) -> Any:
    args = list(args)
    for i, arg in enumerate(args[:-1]):
        if arg == "-c":
            if not args[i + 1].startswith(_PREFIX):
                args[i + 1] = _PREFIX + args[i + 1]
            break
    return args


def _patch_spawn(module: ModuleType) -> None:
    # spawn's command line, on every platform (``python -c "...spawn_main(...)"``).
    original: Callable[..., list[str]] = module.get_command_line

    def get_command_line(**kwds: Any) -> list[str]:
        return list(_with_prefix(original(**kwds)))

    get_command_line.__wrapped__ = original  # type: ignore[attr-defined]
    setattr(module, "get_command_line", get_command_line)  # noqa: B010


def _patch_util(module: ModuleType) -> None:
    # POSIX starts both the spawn children and the forkserver process through this one.
    if not hasattr(module, "spawnv_passfds"):
        return
    original: Callable[..., int] = module.spawnv_passfds

    def spawnv_passfds(path: Any, args: Any, passfds: Any) -> int:
        return original(path, _with_prefix(args), passfds)

    spawnv_passfds.__wrapped__ = original  # type: ignore[attr-defined]
    setattr(module, "spawnv_passfds", spawnv_passfds)  # noqa: B010
