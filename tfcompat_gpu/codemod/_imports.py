"""Imports the migrated code no longer needs and that would break it under TF2 / Keras 3."""

from __future__ import annotations

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import RemoveImportsVisitor

from tfcompat_gpu.codemod._names import (
    CONFIG_PROTO,
    GPU_OPTIONS,
    INTERACTIVE_SESSION,
    KERAS_BACKEND_MODULES,
    SESSION,
    SET_SESSION,
    canonical,
    dotted,
    top_level_imports,
)

__all__ = ["remove_stale_imports"]

_STALE_NAMES = SET_SESSION | {CONFIG_PROTO, GPU_OPTIONS, SESSION, INTERACTIVE_SESSION}


def remove_stale_imports(context: CodemodContext, module: cst.Module) -> None:
    """Drop imports that served only the migrated code, once nothing else uses them.

    Keras 3 has no ``keras.backend.tensorflow_backend`` and TF2 no ``tensorflow.ConfigProto``:
    such an import left behind breaks the script.  Module imports of TensorFlow stay even
    when unused, since importing TensorFlow has effects the program may rely on.
    """
    for _, small in top_level_imports(module):
        if isinstance(small, cst.Import):
            for alias in small.names:
                name = dotted(alias.name)
                if name in KERAS_BACKEND_MODULES:
                    RemoveImportsVisitor.remove_unused_import(
                        context, name, asname=alias.evaluated_alias
                    )
        elif small.module is not None and not isinstance(small.names, cst.ImportStar):
            module_name = dotted(small.module)
            for alias in small.names:
                name = alias.evaluated_name
                full = f"{module_name}.{name}"
                if full in KERAS_BACKEND_MODULES or canonical(full) in _STALE_NAMES:
                    RemoveImportsVisitor.remove_unused_import(
                        context, str(module_name), name, alias.evaluated_alias
                    )
