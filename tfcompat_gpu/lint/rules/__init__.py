"""Rule families, one module each; importing this package registers their callbacks."""

from __future__ import annotations

from tfcompat_gpu.lint.rules import (  # noqa: F401  (imported for their registrations)
    apinames,
    compat,
    configproto,
    devices,
    distribute,
    env,
    keras_session,
    legacy,
    migration,
    multigpu,
    opinionated,
    protocopy,
    tfconfig,
)

__all__: list[str] = []
