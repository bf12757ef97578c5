"""The drop-in's moves for legacy multi-GPU, GPU-discovery and monitored-session code.

Registered with the others in :mod:`tfcompat_gpu.dropin._install` (same post-import hooks,
same ``uninstall()``), plus a module finder for the module paths old code imports that no longer
exist: ``keras.utils.training_utils``, ``keras.utils.multi_gpu_utils``, ``tensorflow.contrib``
and its ``distribute``, ``layers``, ``rnn``, ``seq2seq``, ``legacy_seq2seq`` and ``learn``.  The finder sits
last on ``sys.meta_path``, so a real
module of that name always wins.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
from types import ModuleType

from tfcompat_gpu.dropin._moves import KERAS_BACKENDS, Move

TYPE_CHECKING = False  # (no ``typing`` at import time: every ``tfcompat-gpu run`` imports this)
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from importlib.abc import Loader as _LoaderBase
    from typing import Any
else:
    # Not importlib.abc at run time: it imports importlib.resources, some ms at every start.
    _LoaderBase = object

__all__ = ["KERAS_UTILS", "MOVES", "install_finder", "uninstall_finder"]

# Every namespace where some Keras flavour kept (or legacy code looks for) ``multi_gpu_model``:
# Keras 3 and Keras 2.15 (``keras.utils``, ``tf.keras.utils``, ``tf.compat.v1.keras.utils``)
# and tf_keras (``tf_keras.utils`` and its v1/v2 API modules, ``tf.keras.utils`` under
# ``TF_USE_LEGACY_KERAS=1``).
KERAS_UTILS: tuple[str, ...] = (
    "keras.utils",
    "keras._tf_keras.keras.utils",
    "keras.api._v2.keras.utils",
    "keras.api._v1.keras.utils",
    "tf_keras.utils",
    "tf_keras.api._v2.keras.utils",
    "tf_keras.api._v1.keras.utils",
)

# Where ``Model.compile`` is defined: Keras 3, Keras 2.15, tf_keras.
COMPILE_OWNERS: tuple[tuple[str, str], ...] = (
    ("keras.src.trainers.trainer", "Trainer.compile"),
    ("keras.src.engine.training", "Model.compile"),
    ("tf_keras.src.engine.training", "Model.compile"),
)

_UTILS_MODULES = ("keras.utils.training_utils", "keras.utils.multi_gpu_utils")


def _wrapper(name: str) -> Callable[[ModuleType, Any], Any]:
    def make(module: ModuleType, current: Any) -> Any:
        import wrapt

        from tfcompat_gpu.dropin import _discovery, _monitored, _multi_gpu

        owner = next(m for m in (_discovery, _monitored, _multi_gpu) if hasattr(m, name))
        return wrapt.FunctionWrapper(current, getattr(owner, name))

    make.__name__ = f"wrap_{name}"
    return make


def _value(module_name: str, name: str) -> Callable[[ModuleType, Any], Any]:
    def make(module: ModuleType, current: Any) -> Any:
        return getattr(importlib.import_module(module_name), name)

    make.__name__ = f"{module_name.rsplit('.', 1)[-1]}_{name}"
    return make


def _contrib(module: ModuleType, current: Any) -> Any:
    from tfcompat_gpu.dropin._contrib import contrib_module

    return contrib_module()


_DISCOVERY = "tfcompat_gpu.dropin._discovery"
_CONTRIB_MODULES = (
    "tensorflow.contrib.distribute",
    "tensorflow.contrib.framework",
    "tensorflow.contrib.layers",
    "tensorflow.contrib.rnn",
    "tensorflow.contrib.seq2seq",
    "tensorflow.contrib.legacy_seq2seq",
    "tensorflow.contrib.learn",
    "tensorflow.contrib.learn.preprocessing",
    "tensorflow.contrib.slim",
    "tensorflow.contrib.factorization",
    "tensorflow.contrib.crf",
    "tensorflow.contrib.eager",
    "tensorflow.contrib.eager.metrics",
    "tensorflow.contrib.eager.python",
    "tensorflow.contrib.eager.python.tfe",
    "tensorflow.contrib.summary",
    "tensorflow.contrib",
)

MOVES: tuple[Move, ...] = (
    Move(
        "tensorflow.python.eager.context",
        "Context.is_custom_device",
        _wrapper("is_custom_device"),
        only_if_missing=False,
        why="building a tf.train.Saver (every MonitoredSession's Scaffold, Supervisor) asks it and "
        "so started the runtime before the session's config could become the process config",
    ),
    *(
        Move(
            "tensorflow_estimator.python.estimator.estimator",
            f"Estimator.{method}",
            _wrapper("estimator_entry"),
            only_if_missing=False,
            why="an Estimator's graph starts the runtime (v2 tf.cond) before its session exists: "
            "its RunConfig(session_config=...) reaches the process first, as a first session's",
        )
        for method in ("train", "evaluate", "predict")
    ),
    Move(
        "tensorflow.python.client.device_lib",
        "list_local_devices",
        _wrapper("list_local_devices"),
        only_if_missing=False,
        why="without a config it creates every GPU's allocator with TensorFlow's defaults",
    ),
    *(
        Move(
            "tensorflow",
            f"{api}test.{name}",
            _value(_DISCOVERY, name),
            only_if_missing=False,
            why=f"TensorFlow's {name} lists devices through device_lib, which fixes the GPU "
            "allocators before the script configures them",
        )
        for api in ("", "compat.v1.")
        for name in ("is_gpu_available", "gpu_device_name")
    ),
    *(
        Move(
            "tensorflow",
            f"{api}contrib",
            _contrib,
            only_if_missing=True,
            why="tf.contrib was removed in TF 2.0; tf.contrib.distribute maps to tf.distribute",
        )
        for api in ("", "compat.v1.")
    ),
    *(
        Move(
            utils,
            "multi_gpu_model",
            _value("tfcompat_gpu.dropin._multi_gpu", "multi_gpu_model"),
            only_if_missing=True,
            why="multi_gpu_model was removed in TF 2.4; data-parallel with MirroredStrategy",
        )
        for utils in KERAS_UTILS
    ),
    *(
        Move(
            backend,
            "_get_available_gpus",
            _value(_DISCOVERY, "get_available_gpus"),
            only_if_missing=True,
            why="Keras 2's GPU discovery (K.tensorflow_backend._get_available_gpus(), which the "
            "tensorflow_backend shim reads from here), without starting the runtime",
        )
        for backend in KERAS_BACKENDS
    ),
    *(
        Move(
            module,
            target,
            _wrapper("compile_with_distribute"),
            only_if_missing=False,
            why="compile(distribute=strategy) was removed in TF 1.14",
        )
        for module, target in COMPILE_OWNERS
    ),
)


class _Finder(_LoaderBase):
    """Makes the removed module paths of legacy multi-GPU code importable again."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname in _UTILS_MODULES:
            return importlib.machinery.ModuleSpec(fullname, self)
        if fullname in _CONTRIB_MODULES:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        from tfcompat_gpu.dropin import _contrib

        if spec.name == "tensorflow.contrib":
            return _contrib.contrib_module()
        if spec.name == "tensorflow.contrib.distribute":
            return _contrib.distribute_module()
        if spec.name == "tensorflow.contrib.framework":
            return _contrib.framework_module()
        if spec.name == "tensorflow.contrib.layers":
            return _contrib.layers_module()
        if spec.name == "tensorflow.contrib.rnn":
            return _contrib.rnn_module()
        if spec.name == "tensorflow.contrib.seq2seq":
            return _contrib.seq2seq_module()
        if spec.name == "tensorflow.contrib.legacy_seq2seq":
            return _contrib.legacy_seq2seq_module()
        if spec.name == "tensorflow.contrib.slim":
            return _contrib.slim_module()
        if spec.name == "tensorflow.contrib.learn":
            return _contrib.learn_module()
        if spec.name == "tensorflow.contrib.learn.preprocessing":
            return _contrib.learn_preprocessing_module()
        if spec.name == "tensorflow.contrib.factorization":
            return _contrib.factorization_module()
        if spec.name == "tensorflow.contrib.crf":
            return _contrib.crf_module()
        if spec.name == "tensorflow.contrib.summary":
            from tfcompat_gpu.dropin._contrib_summary import summary_module

            return summary_module()
        from tfcompat_gpu.dropin._contrib_eager import MODULES

        if spec.name in MODULES:
            return MODULES[spec.name]()
        return None

    def exec_module(self, module: ModuleType) -> None:
        if module.__name__ in _UTILS_MODULES:
            from tfcompat_gpu.dropin._multi_gpu import multi_gpu_model

            module.__doc__ = f"{module.__name__} of Keras 2, restored by tfcompat_gpu."
            module.multi_gpu_model = multi_gpu_model  # type: ignore[attr-defined]
            module.__all__ = ["multi_gpu_model"]  # type: ignore[attr-defined]
            module.__tfcompat_gpu__ = True  # type: ignore[attr-defined]


_finder = _Finder()
_MADE = (*_UTILS_MODULES, *_CONTRIB_MODULES)


def install_finder() -> None:
    if _finder not in sys.meta_path:
        sys.meta_path.append(_finder)


def uninstall_finder() -> None:
    if _finder in sys.meta_path:
        sys.meta_path.remove(_finder)
    for name in _MADE:
        module = sys.modules.get(name)
        if module is None or not getattr(module, "__tfcompat_gpu__", False):
            continue
        del sys.modules[name]
        parent_name, _, child = name.rpartition(".")
        parent = sys.modules.get(parent_name)
        if parent is not None and vars(parent).get(child) is module:
            delattr(parent, child)
