"""TensorFlow names shared by the lint and the codemod: spelling folds and deprecated aliases.

``tensorflow.compat.v1.X`` and ``tensorflow.compat.v2.X`` are the same function as
``tensorflow.X`` for everything the project matches, so names are compared after
:func:`canonical`.  :data:`DEPRECATED_NAMES` maps each deprecated ``tf.config`` alias to the name
TensorFlow documents instead; both names exist in TF 2.x: the ``config.experimental.*``
aliases are second names in the ``@tf_export`` of the current functions in
``tensorflow/python/framework/config.py`` (``set_logical_device_configuration`` is also exported
as ``config.experimental.set_virtual_device_configuration``), and
``experimental_run_functions_eagerly`` / ``experimental_functions_run_eagerly`` are
``@deprecation.deprecated`` in
``tensorflow/python/eager/polymorphic_function/eager_function_run.py``.
Nothing here imports TensorFlow.

Example::

    >>> canonical("tensorflow.compat.v1.ConfigProto")
    'tensorflow.ConfigProto'
    >>> canonical("keras.backend.tf.Session")
    'tensorflow.Session'
    >>> DEPRECATED_NAMES["tensorflow.config.experimental.VirtualDeviceConfiguration"]
    'tensorflow.config.LogicalDeviceConfiguration'
"""

from __future__ import annotations

__all__ = ["DEPRECATED_NAMES", "canonical", "keras2_tf"]

_COMPAT = ("tensorflow.compat.v1", "tensorflow.compat.v2")
_KERAS2_TF = ("keras.backend.tf", "keras.backend.tensorflow_backend.tf")
"""Keras 2's TensorFlow backend module imported ``tensorflow as tf`` and ``keras.backend``
star-imported it (keras/backend/__init__.py of Keras 2.0-2.3, no ``__all__``): ``K.tf`` was
the ``tensorflow`` module itself, and Keras 2 code reached TensorFlow through it
(``K.tf.ConfigProto()``, ``Lambda(lambda x: K.tf.image.resize_images(x, size))``)."""
_CANONICAL: dict[str, str] = {}
_SESSIONS = frozenset({"Session", "InteractiveSession"})
_PRIVATE: dict[str, frozenset[str]] = {
    "tensorflow.python": _SESSIONS,
    "tensorflow.python.client.session": _SESSIONS,
    # tensorflow/python/proto_exports.py
    "tensorflow.core.protobuf.config_pb2": frozenset(
        {
            "ConfigProto",
            "GPUOptions",
            "GraphOptions",
            "OptimizerOptions",
            "RunMetadata",
            "RunOptions",
        }
    ),
}


def canonical(name: str) -> str:
    """``tensorflow.compat.v1.X`` and ``tensorflow.compat.v2.X`` -> ``tensorflow.X``; likewise
    the TF1 session and config names read from their private modules
    (``tensorflow.core.protobuf.config_pb2.ConfigProto``), and from Keras 2's backend
    (``keras.backend.tf.X``)."""
    cached = _CANONICAL.get(name)
    if cached is not None:
        return cached
    result = folded = keras2_tf(name)
    if folded.startswith(_COMPAT):
        rest = folded[len(_COMPAT[0]) :]
        if not rest or rest[0] == ".":
            result = "tensorflow" + rest
    elif folded.startswith(("tensorflow.python.", "tensorflow.core.")):
        # TF1 names read from their private modules: the same objects tf.compat.v1 exports
        # (tensorflow/_api/v2/compat/v1/__init__.py imports them from these modules)
        module, _, last = folded.rpartition(".")
        if last in _PRIVATE.get(module, ()):
            result = "tensorflow." + last
    _CANONICAL[name] = result
    return result


def keras2_tf(name: str) -> str:
    """``tensorflow.X`` for ``keras.backend.tf.X`` (Keras 2's ``K.tf``), else ``name``."""
    if name.startswith(_KERAS2_TF):
        for prefix in _KERAS2_TF:
            rest = name[len(prefix) :]
            if name.startswith(prefix) and (not rest or rest[0] == "."):
                return "tensorflow" + rest
    return name


_C = "tensorflow.config."

DEPRECATED_NAMES: dict[str, str] = {
    **{
        _C + "experimental." + old: _C + new
        for old, new in (
            ("list_physical_devices", "list_physical_devices"),
            ("list_logical_devices", "list_logical_devices"),
            ("set_visible_devices", "set_visible_devices"),
            ("get_visible_devices", "get_visible_devices"),
            ("set_virtual_device_configuration", "set_logical_device_configuration"),
            ("get_virtual_device_configuration", "get_logical_device_configuration"),
            ("VirtualDeviceConfiguration", "LogicalDeviceConfiguration"),
        )
    },
    _C + "experimental_run_functions_eagerly": _C + "run_functions_eagerly",
    _C + "experimental_functions_run_eagerly": _C + "functions_run_eagerly",
}
"""Deprecated canonical name -> current canonical name (the lint's TFG013 and the codemod's
``rename-deprecated-config`` read it)."""
