"""``tfcompat-gpu run`` in the children a script starts with ``multiprocessing``.

A forked child inherits the patched process as it is.  A child started with ``spawn`` or
``forkserver`` is a new interpreter that imports the script again as ``__mp_main__``: it gets
the same settings and mode through the environment (:data:`CHILD_ENV`, inherited by every
child) and a one-line prefix to the ``-c`` command ``multiprocessing`` starts it with, which
calls :func:`bootstrap` before anything of the script runs.  The forkserver process itself is
started the same way, so the children it forks are ready too, and they pass it on to theirs.
"""

from __future__ import annotations

import os
import sys

# Every ``tfcompat-gpu run`` and every child it spawns imports this module first: ``ast``,
# ``json``, ``dataclasses`` and the ``--tf1`` machinery are imported where they are used.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
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


class RunMode:
    """What ``tfcompat-gpu run`` set up: the same in the script's process and its children."""

    __slots__ = ("legacy_keras", "policy", "script_dirs", "settings", "tf1")

    def __init__(
        self,
        settings: dict[str, Any] | None = None,
        tf1: bool = False,
        legacy_keras: bool = False,
        policy: str | None = None,
        script_dirs: tuple[str, ...] = (),
    ) -> None:
        self.settings: dict[str, Any] = {} if settings is None else settings
        """:meth:`GPUConfig.to_dict` of the settings in force (flags, file, environment)."""
        self.tf1 = tf1
        self.legacy_keras = legacy_keras
        self.policy = policy
        self.script_dirs = script_dirs
        """Folders whose modules get the v1 API under ``--tf1`` (the script's, as given and
        resolved)."""

    def _fields(self) -> tuple[Any, ...]:
        return (self.settings, self.tf1, self.legacy_keras, self.policy, self.script_dirs)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RunMode):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # settings is a dict

    def __repr__(self) -> str:
        return (
            f"RunMode(settings={self.settings!r}, tf1={self.tf1!r}, "
            f"legacy_keras={self.legacy_keras!r}, policy={self.policy!r}, "
            f"script_dirs={self.script_dirs!r})"
        )

    def to_json(self) -> str:
        """``json.dumps`` of the fields, character for character (tests check it)."""
        fields = {
            "settings": repr(self.settings),
            "tf1": self.tf1,
            "legacy_keras": self.legacy_keras,
            "policy": self.policy,
            "script_dirs": list(self.script_dirs),
        }
        return (
            "{" + ", ".join(f"{_json(key)}: {_json(value)}" for key, value in fields.items()) + "}"
        )

    @classmethod
    def from_json(cls, text: str) -> RunMode:
        import ast
        import json

        data = json.loads(text)
        return cls(
            settings=ast.literal_eval(data["settings"]),
            tf1=bool(data["tf1"]),
            legacy_keras=bool(data["legacy_keras"]),
            policy=data["policy"],
            script_dirs=tuple(data["script_dirs"]),
        )


def _json(value: object) -> str:
    # Every run writes its mode, and ``import json`` (its decoder's patterns) costs some ms at
    # every start: the few types of a RunMode are written here as json.dumps writes them.
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, str):
        return _quoted(value)
    if isinstance(value, list):
        return "[" + ", ".join(_json(item) for item in value) + "]"
    raise TypeError(f"not part of a RunMode: {value!r}")


try:
    from _json import encode_basestring_ascii as _quoted  # json.dumps's own, in C
except ImportError:  # another Python: json's pure-Python one

    def _quoted(text: str, /) -> str:
        import json

        return json.dumps(text)


def activate(mode: RunMode) -> V1Import | None:
    """Set the process up as ``mode`` says: the drop-in, the settings, children.

    Returns the ``--tf1`` import switch, not started yet (None without ``--tf1``).
    """
    import tfcompat_gpu

    settings = None
    if mode.settings:
        import warnings

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
    if settings is not None or "tfcompat_gpu.dropin._sessions" in sys.modules:
        # (Without settings, a _sessions not imported yet has no overrides to clear.)
        from tfcompat_gpu.dropin import _sessions

        _sessions.set_overrides(settings)
    _on_tensorflow(settings, mode.tf1)
    export(mode)
    if not mode.tf1:
        return None
    from tfcompat_gpu.dropin._tf1 import V1Import

    return V1Import(*mode.script_dirs)


def _on_tensorflow(settings: Any, tf1: bool) -> None:
    """Apply the settings (and ``--tf1``) once TensorFlow is imported, whoever imports it."""
    if (settings is None or not settings.to_dict()) and not tf1:
        return
    from tfcompat_gpu.utils import postimport as _postimport

    def hook(module: ModuleType) -> None:
        if tf1:
            module.compat.v1.disable_v2_behavior()
        if settings is not None and settings.to_dict():
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
