"""``tfcompat-gpu migrate``: LibCST codemods that rewrite legacy GPU configuration for TF2.

LibCST is an optional dependency (``pip install "tfcompat-gpu[migrate]"``), so this package
imports nothing at import time: the CLI must be able to say how to install it.  The engine is
:func:`tfcompat_gpu.codemod.api.migrate_source`; each rewrite is one command in
``tfcompat_gpu.codemod.commands``.  Nothing here imports TensorFlow.
"""

from __future__ import annotations

__all__: list[str] = []
