"""TensorFlow 1 / standalone-Keras session APIs that are gone on TensorFlow 2: TFG009."""

from __future__ import annotations

import ast

from tfcompat_gpu.lint.context import FileContext
from tfcompat_gpu.lint.dispatch import on_node, on_ref
from tfcompat_gpu.lint.tfcalls import display

__all__ = ["legacy_replacement"]

_CONFIGURE = "`tfcompat_gpu.configure(...)` or `tf.config` calls"
_SESSION = "`tf.compat.v1.Session` (graph mode), or eager code"
_KERAS_SESSION = _CONFIGURE + " before building the model (Keras 3 has no session)"
_EXACT: dict[str, str] = {
    "tensorflow.Session": _SESSION,
    "tensorflow.InteractiveSession": "`tf.compat.v1.InteractiveSession`, or eager code",
    "tensorflow.ConfigProto": "`tf.compat.v1.ConfigProto`, or " + _CONFIGURE,
    "tensorflow.GPUOptions": "`tf.compat.v1.GPUOptions`, or " + _CONFIGURE,
    "tensorflow.GraphOptions": "`tf.compat.v1.GraphOptions`",
    "tensorflow.OptimizerOptions": "`tf.compat.v1.OptimizerOptions`",
    "tensorflow.RunOptions": "`tf.compat.v1.RunOptions`",
    "tensorflow.keras.backend.set_session": _KERAS_SESSION,
    "tensorflow.keras.backend.get_session": "`tf.compat.v1.Session`, or eager code",
    "tensorflow.compat.v1.keras.backend.set_session": _KERAS_SESSION
    + " (it exists only on TF <= 2.15 or with TF_USE_LEGACY_KERAS=1)",
    "tensorflow.compat.v1.keras.backend.get_session": "`tf.compat.v1.Session`, or eager code",
    "keras.backend.set_session": _KERAS_SESSION,
    "keras.backend.get_session": "`tf.compat.v1.Session`, or eager code",
}
# The classes among them: a member (``tf.RunOptions.FULL_TRACE``, ``tf.GPUOptions.Experimental``)
# is gone with its class.
_CLASSES = frozenset(name for name in _EXACT if name.count(".") == 1)
_CONTRIB_DISTRIBUTE = "tensorflow.contrib.distribute"
_PREFIXES: dict[str, str] = {
    "keras.backend.tensorflow_backend": _KERAS_SESSION,
    "tensorflow.contrib": "the TF2 module that replaced it (tf.contrib was removed in 2.0)",
    # tensorflow/examples/tutorials (read_data_sets) left the pip package in 2.0
    "tensorflow.examples.tutorials": "`tf.keras.datasets` (`mnist.load_data()` returns the "
    "MNIST arrays; tensorflow.examples.tutorials was removed in 2.0), or TF1's MNIST loader "
    "from `tfcompat_gpu.dropin.mnist_input_data` (tfcompat-gpu migrate imports it)",
}


def legacy_replacement(name: str) -> str | None:
    """What to use instead of ``name``, when ``name`` is gone on TensorFlow 2."""
    found = _EXACT.get(name)
    if found is not None:
        return found
    dot = name.find(".", 11)
    if dot > 0 and name[:dot] in _CLASSES:
        return _EXACT[name[:dot]]
    if "contrib" not in name and "tensorflow_backend" not in name and "examples" not in name:
        return None
    if name == _CONTRIB_DISTRIBUTE or name.startswith(_CONTRIB_DISTRIBUTE + "."):
        return None  # TFG020 names each one's tf.distribute successor
    for prefix, instead in _PREFIXES.items():
        if name == prefix or name.startswith(prefix + "."):
            return instead
    return None


@on_node(ast.Import, ast.ImportFrom)
def _import(ctx: FileContext, node: ast.Import | ast.ImportFrom) -> None:
    if isinstance(node, ast.Import):
        for alias in node.names:
            instead = legacy_replacement(alias.name)
            if instead is not None:
                ctx.report("TFG009", node, instead, used=alias.name, instead=instead)
                ctx.flagged_aliases.add(alias.asname or alias.name.partition(".")[0])
        return
    if node.level or not node.module:
        return
    module_instead = legacy_replacement(node.module)
    if module_instead is not None:
        ctx.report("TFG009", node, module_instead, used=node.module, instead=module_instead)
    for alias in node.names:
        if module_instead is not None:
            ctx.flagged_aliases.add(alias.asname or alias.name)
            continue
        qual = node.module + "." + alias.name
        instead = legacy_replacement(qual)
        if instead is not None:
            ctx.report("TFG009", node, instead, used=display(qual), instead=instead)
            ctx.flagged_aliases.add(alias.asname or alias.name)


@on_ref
def _ref(ctx: FileContext, node: ast.expr, qual: str, root: str) -> None:
    if root in ctx.flagged_aliases:
        return
    instead = legacy_replacement(qual)
    if instead is not None:
        ctx.report("TFG009", node, instead, used=display(qual), instead=instead)
