"""The code the default target writes: ``tfcompat_gpu.configure()`` and its session."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tfcompat_gpu.codemod._emit import call_code

__all__ = [
    "IMPORT",
    "configure_code",
    "configure_given_code",
    "factory_return_code",
    "session_code",
]

IMPORT = "tfcompat_gpu"
SOFT_PLACEMENT = "tfcompat_gpu.GPUConfig(allow_soft_placement=True)"
"""The config of a session that places softly (ops pinned to GPUs a machine may lack)."""


def _keywords(settings: Mapping[str, str]) -> list[str]:
    return [f"{key}={value}" for key, value in settings.items()]


def configure_code(settings: Mapping[str, str], indent: str = "") -> str:
    """``tfcompat_gpu.configure(allow_growth=True)``: the process-wide options, once."""
    return call_code("tfcompat_gpu.configure", _keywords(settings), indent) + "\n"


def configure_given_code(config: str) -> str:
    """``tfcompat_gpu.configure(make_config())``: a config a function returns, for the process."""
    return f"tfcompat_gpu.configure({config})"


def factory_return_code(settings: Mapping[str, str], indent: str = "", proto: bool = False) -> str:
    """What a function that returned a ConfigProto returns instead: a ``GPUConfig``.

    ``proto``: its callers are elsewhere and may hand it to any TF1 API, so it returns the
    ConfigProto ``GPUConfig.to_config_proto()`` builds from the same settings.
    """
    suffix = ".to_config_proto()" if proto else ""
    # "return " and the suffix count towards the width too
    width = indent + " " * len(f"return {suffix}")
    return f"return {call_code('tfcompat_gpu.GPUConfig', _keywords(settings), width)}{suffix}\n"


def session_code(args: Sequence[str]) -> str:
    """A TF1 session built from the process configuration (or the config given first)."""
    return f"tfcompat_gpu.session({', '.join(args)})"
