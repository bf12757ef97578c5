"""Keras 2.0-2.15 module paths that tf_keras keeps under another name, as one table.

Keras split its big modules into packages over the 2.x series (``layers/merge.py`` became
``layers/merging/``, ``layers/recurrent.py`` became ``layers/rnn/``, ``engine/network.py`` became
``engine/functional.py``, ...).  tf_keras is the last of that line, so each old path is filled
from the tf_keras modules that hold its names now.  What goes into the old module is read off
tf_keras' own package, not listed by hand: every class and function a source module or any
module of a source package defines (``_Merge`` included, which custom layers subclass).  Paths
tf_keras still has under ``src`` (``keras.engine.training``, ``keras.utils.np_utils``) need no
entry: the finder in :mod:`_legacy_keras` maps them directly.
"""

from __future__ import annotations

import importlib
import types

TYPE_CHECKING = False  # (no ``typing`` at import time: every ``tfcompat-gpu run`` imports this)
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "ALIASES",
    "ENGINE_NAMES",
    "KERAS2_MODULES",
    "LAYER_MODULES",
    "MOVED",
    "RENAMED",
    "build",
    "control_flow_ops",
    "engine_getattr",
    "layers_getattr",
]

MOVED: dict[str, tuple[str, ...]] = {
    # Keras 2.0-2.1 engine/topology.py; 2.2 split it into base_layer, input_layer, network.
    "engine.topology": (
        "engine.base_layer",
        "engine.input_layer",
        "engine.input_spec",
        "engine.node",
        "engine.functional",
        "utils.layer_utils",
    ),
    "engine.network": ("engine.functional", "utils.layer_utils"),  # 2.2-2.4 -> functional.py
    # Keras 2.1-2.3 backend/common.py: floatx, epsilon, image_data_format, ..., and from 2.2.3
    # normalize_data_format (which conv_utils gave up then; tf_keras keeps it there again).
    "backend.common": ("backend_config", "backend", "utils.conv_utils"),
    # Keras 2.0-2.12 utils/generic_utils.py: its custom-object scope and serialization moved
    # to saving/ in 2.13 (``from keras.utils.generic_utils import CustomObjectScope``).
    "utils.generic_utils": (
        "utils.generic_utils",
        "saving.object_registration",
        "saving.legacy.serialization",
    ),
    # layers/*.py of Keras <= 2.8 -> packages of 2.9+ (one file per layer).
    "layers.merge": ("layers.merging",),
    "layers.core": ("layers.core", "layers.reshaping", "layers.regularization"),
    "layers.convolutional": ("layers.convolutional", "layers.reshaping"),
    "layers.pooling": ("layers.pooling",),
    "layers.normalization": ("layers.normalization",),
    "layers.normalization_v2": ("layers.normalization",),
    "layers.recurrent": ("layers.rnn",),
    "layers.recurrent_v2": ("layers.rnn",),
    "layers.cudnn_recurrent": ("layers.rnn",),
    "layers.convolutional_recurrent": ("layers.rnn",),
    "layers.wrappers": ("layers.rnn",),
    "layers.embeddings": ("layers.core",),
    "layers.advanced_activations": ("layers.activation",),
    "layers.noise": ("layers.regularization",),
    "layers.local": ("layers.locally_connected",),
    "layers.dense_attention": ("layers.attention",),
    "layers.multi_head_attention": ("layers.attention",),
    "layers.einsum_dense": ("layers.core",),
}
"""Old path (under ``keras.``) -> tf_keras ``src`` modules or packages that hold its names."""

RENAMED: dict[str, str] = {
    "optimizers.optimizer_v2": "optimizers.legacy",  # 2.11 moved the v2 optimizers to legacy
    "applications.resnet50": "applications.resnet",  # 2.2.5 merged resnet50 into resnet
    "objectives": "losses",  # Keras 1's name, which Keras 2.0-2.2 kept as an alias
}
"""Old package path -> the tf_keras ``src`` package that is it under a new name (and its
submodules: ``keras.optimizers.optimizer_v2.adam`` -> ``tf_keras.src.optimizers.legacy.adam``)."""

ALIASES: dict[str, dict[str, str]] = {
    "engine.topology": {"Container": "Functional", "Network": "Functional"},
    "engine.network": {"Network": "Functional"},
    "layers.convolutional": {"_Conv": "Conv"},
    "layers.pooling": {
        "_Pooling1D": "Pooling1D",
        "_Pooling2D": "Pooling2D",
        "_Pooling3D": "Pooling3D",
        "_GlobalPooling1D": "GlobalPooling1D",
        "_GlobalPooling2D": "GlobalPooling2D",
        "_GlobalPooling3D": "GlobalPooling3D",
    },
    "layers.recurrent": {"Recurrent": "RNN"},
}
"""Classes an old module had under a name Keras later changed (old name -> new name)."""

KERAS2_MODULES: frozenset[str] = frozenset(
    {
        *MOVED,
        *RENAMED,
        "engine",
        "engine.training",
        "engine.base_layer",
        "engine.input_layer",
        "engine.sequential",
        "engine.functional",
        "engine.saving",
        "engine.training_utils",
        "layers.kernelized",
        "utils.np_utils",
        "utils.generic_utils",
        "utils.data_utils",
        "utils.io_utils",
        "utils.conv_utils",
        "utils.layer_utils",
        "utils.vis_utils",
        "utils.tf_utils",
        "preprocessing.image",
        "preprocessing.sequence",
        "preprocessing.text",
        "callbacks_v1",
    }
)
"""Keras 2 module paths (under ``keras.``) old scripts import; the ones the installed Keras
lacks mark a script as Keras 2 code (:mod:`_auto` checks the files, never imports)."""


ENGINE_NAMES: dict[str, tuple[str, str]] = {
    "Input": ("engine.input_layer", "Input"),
    "InputLayer": ("engine.input_layer", "InputLayer"),
    "InputSpec": ("engine.input_spec", "InputSpec"),
    "Layer": ("engine.base_layer", "Layer"),
    "get_source_inputs": ("utils.layer_utils", "get_source_inputs"),
    "Model": ("engine.training", "Model"),
}
"""What Keras 2.0-2.2's ``keras/engine/__init__.py`` exported (``from keras.engine import Layer,
InputSpec``) -> the tf_keras ``src`` module and name that hold it; tf_keras's ``engine`` package
exports nothing."""


def engine_getattr(package: str) -> Any:
    """A module ``__getattr__`` for ``<package>.src.engine`` that serves :data:`ENGINE_NAMES`."""

    def __getattr__(name: str) -> Any:
        found = ENGINE_NAMES.get(name)
        if found is None:
            raise AttributeError(f"module '{package}.src.engine' has no attribute '{name}'")
        module, attr = found
        return getattr(importlib.import_module(f"{package}.src.{module}"), attr)

    return __getattr__


LAYER_MODULES: frozenset[str] = frozenset(
    old.partition(".")[2] for old in MOVED if old.startswith("layers.")
)
"""``keras.layers``' Keras 2 submodules, which its ``__init__`` imported (``from .normalization
import *``), so that ``keras.layers.normalization.BatchNormalization`` needed no import."""


def layers_getattr(module: types.ModuleType) -> Any:
    """A module ``__getattr__`` for a ``keras.layers`` API module that serves
    :data:`LAYER_MODULES` as its Keras 2 submodules (through the legacy-Keras finder)."""
    layers = module.__name__

    def __getattr__(name: str) -> Any:
        if name in LAYER_MODULES:
            try:
                return importlib.import_module(f"{layers}.{name}")
            except ImportError:  # the finder is not on: the attribute is missing as before
                pass
        raise AttributeError(f"module {layers!r} has no attribute {name!r}")

    return __getattr__


def _submodules(module: types.ModuleType) -> list[types.ModuleType]:
    import pkgutil  # here: every run imports this table, only legacy Keras builds modules

    out = [module]
    for info in pkgutil.iter_modules(getattr(module, "__path__", None) or []):
        if info.name.endswith("_test"):
            continue
        try:
            out.append(importlib.import_module(f"{module.__name__}.{info.name}"))
        except ImportError:  # an optional dependency of one layer: the others still count
            continue
    return out


class _MergeModule(types.ModuleType):
    """``keras.layers.merge``, which Keras 1 code calls: ``merge([a, b], mode='concat')``.

    Keras 1's ``merge()`` (keras/engine/topology.py of Keras 1.2) made a ``Merge`` layer; Keras 2
    kept the module ``keras.layers.merge`` under that name and dropped the function, so a call
    of the module raises "'module' object is not callable".  A call builds what the mode
    meant: the Keras 2 merge function of a named mode (``'cos'``: ``dot(normalize=True)``), or
    ``Lambda(mode, output_shape=...)`` for a function (Keras 1 called it on the list)."""

    def __call__(
        self,
        inputs: Any,
        mode: Any = "sum",
        concat_axis: int = -1,
        dot_axes: Any = -1,
        output_shape: Any = None,
        output_mask: Any = None,
        arguments: Any = None,
        node_indices: Any = None,
        tensor_indices: Any = None,
        name: str | None = None,
    ) -> Any:
        layers = importlib.import_module(self.__name__.rpartition(".")[0])
        if callable(mode):
            lambda_layer = layers.Lambda(
                mode, output_shape=output_shape, arguments=arguments or {}, name=name
            )
            return lambda_layer(inputs)
        from tfcompat_gpu.tfapi.keras1_names import MERGE_MODES  # the table migrate reads

        if mode not in MERGE_MODES:
            raise ValueError(f"merge(): unknown Keras 1 merge mode {mode!r}")
        function, axis = MERGE_MODES[mode]
        kwargs: dict[str, Any] = {} if name is None else {"name": name}
        if axis == "axis":
            kwargs["axis"] = concat_axis
        elif axis == "axes":
            kwargs["axes"] = dot_axes
            if mode == "cos":
                kwargs["normalize"] = True
        return getattr(layers, function)(inputs, **kwargs)


def build(package: str, old: str, name: str) -> types.ModuleType:
    """The module ``keras.<old>`` was, filled from ``<package>.src`` as :data:`MOVED` says."""
    names: dict[str, Any] = {}
    exported: list[str] = []
    for source in MOVED[old]:
        for module in _submodules(importlib.import_module(f"{package}.src.{source}")):
            for attr, value in vars(module).items():
                if attr.startswith("__") or attr in names:
                    continue
                if not isinstance(value, (type, types.FunctionType)):
                    continue
                if not getattr(value, "__module__", "").startswith(package + "."):
                    continue
                names[attr] = value
                if not attr.startswith("_"):
                    exported.append(attr)
    for old_name, new_name in ALIASES.get(old, {}).items():
        if new_name in names and old_name not in names:
            names[old_name] = names[new_name]
    kind = _MergeModule if old == "layers.merge" else types.ModuleType
    module = kind(name, f"Keras 2's keras.{old}, filled from {package}.src.")
    module.__dict__.update(names)
    module.__all__ = sorted(exported)  # type: ignore[attr-defined]
    return module


def control_flow_ops(module: types.ModuleType, current: Any) -> Any:
    """Keras 2.0-2.2's ``K.control_flow_ops``: its TensorFlow backend imported TensorFlow's
    ``control_flow_ops`` module, and code such as keras-yolo3's loss loops with
    ``K.control_flow_ops.while_loop``.  TensorFlow 2 moved ``while_loop``, ``cond`` and
    ``case`` out of that module; the backend gets a module holding them as TensorFlow 1 wrote
    them (``tf.compat.v1``, whose signatures these calls used), and ``group`` and ``tuple``."""
    from tfcompat_gpu.tfapi import _tf

    tf = _tf.tf()
    namespace = types.ModuleType(
        f"{module.__name__}.control_flow_ops", "Keras 2's K.control_flow_ops, from TensorFlow 1"
    )
    for name in ("while_loop", "cond", "case"):
        setattr(namespace, name, getattr(tf.compat.v1, name))
    namespace.group = tf.group  # type: ignore[attr-defined]
    namespace.tuple = tf.tuple  # type: ignore[attr-defined]
    return namespace
