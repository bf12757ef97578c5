"""What a star import of a Keras module binds (``from keras.models import *``), for the
migration's qualified names (``codemod/_keras_star.py``) and ``run``'s auto mode."""

from __future__ import annotations

from tfcompat_gpu.tfapi.keras_names import (
    KERAS_LAYERS,
    KERAS_LOSSES,
    KERAS_MODELS,
    KERAS_MOVED_MODULES,
    KERAS_UTILS,
    OPTIMIZER_ALIASES,
    OPTIMIZER_CLASSES,
)

__all__ = [
    "KERAS2_STAR_ALIASES",
    "KERAS2_STAR_ALIAS_MODULES",
    "KERAS_CALLBACKS",
    "KERAS_STAR_EXPORTS",
]

KERAS_CALLBACKS = frozenset(
    {
        "BaseLogger",
        "CSVLogger",
        "Callback",
        "CallbackList",
        "EarlyStopping",
        "History",
        "LambdaCallback",
        "LearningRateScheduler",
        "ModelCheckpoint",
        "ProgbarLogger",
        "ReduceLROnPlateau",
        "RemoteMonitor",
        "TensorBoard",
        "TerminateOnNaN",
    }
)
"""The callbacks ``keras.callbacks`` of Keras 2.0-2.3 defined (``BaseLogger`` only there), which
``from keras.callbacks import *`` bound; the migration's rewrites look for some of them."""


def _star_exports() -> dict[str, frozenset[str]]:
    exports: dict[str, frozenset[str]] = {}
    optimizers = OPTIMIZER_CLASSES | frozenset(OPTIMIZER_ALIASES)
    for root in ("keras", "tensorflow.keras"):
        exports[f"{root}.models"] = KERAS_MODELS
        # and the cuDNN layers Keras 2.1-2.3 and TF 1.x's tf.keras had
        exports[f"{root}.layers"] = KERAS_LAYERS | {"CuDNNLSTM", "CuDNNGRU"}
        exports[f"{root}.optimizers"] = optimizers
        exports[f"{root}.losses"] = KERAS_LOSSES
        exports[f"{root}.utils"] = KERAS_UTILS
        exports[f"{root}.callbacks"] = KERAS_CALLBACKS
    for old, new in KERAS_MOVED_MODULES.items():
        if new in exports and old.startswith("keras.layers."):
            exports[old] = exports[new]
    return exports


KERAS_STAR_EXPORTS: dict[str, frozenset[str]] = _star_exports()
"""Keras module -> the names a ``from module import *`` of it binds that the migration's
rewrites look for: the Keras 3 names of the module, which Keras 2's module exported too under
the same names (its layer classes, ``Model``, the optimizers, losses and utilities); the Keras 2
``keras.layers.<submodule>`` modules bind the layers of theirs, a subset of ``keras.layers``."""

KERAS2_STAR_ALIASES: dict[str, str] = {"K": "keras.backend", "np": "numpy"}
"""Module aliases that a star import of a Keras 2 ``keras.layers.<submodule>`` bound too: each
such module did ``import numpy as np`` and ``from .. import backend as K`` (keras/layers/core.py,
recurrent.py, convolutional.py, ... of Keras 2.0-2.3), and scripts read ``K.`` and ``np.``
through ``from keras.layers.core import *``."""

KERAS2_STAR_ALIAS_MODULES: frozenset[str] = frozenset(
    {
        *(old for old in KERAS_MOVED_MODULES if old.startswith("keras.layers.")),
        "keras.models",
        "keras.callbacks",
        "keras.optimizers",
    }
)
"""The Keras 2 modules whose star import binds :data:`KERAS2_STAR_ALIASES` (none has an
``__all__``): the ``keras.layers.<submodule>`` modules, and keras/models.py, callbacks.py and
optimizers.py of Keras 2.0-2.3, which also did ``from . import backend as K`` (a transformer's
``from keras.models import *`` followed by ``K.batch_dot(...)``)."""
