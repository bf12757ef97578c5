"""The drop-in as one table of moves, applied by post-import hooks and undone by ``uninstall()``.

Each :class:`Move` names the module whose import triggers it, the attribute it sets there and how
to build the new value.  ``install()`` registers one post-import hook per module, so
nothing is imported by installing; a module already imported is patched at once.  Every change
is recorded with what it replaced, and ``uninstall()`` puts the originals back in reverse order,
so ``vars()`` of every touched module and class is exactly as before.
"""

from __future__ import annotations

import _thread  # threading's own locks, without importing threading (some ms at every start)
import sys
from types import ModuleType

from tfcompat_gpu.dropin import (
    _keras1_layers,
    _keras2_models,
    _keras2_utils,
    _legacy_keras,
    _tf1_variables,
)
from tfcompat_gpu.dropin._keras1_layers import LAYERS, keras1_layer
from tfcompat_gpu.dropin._legacy_keras import KERAS1_ARGUMENTS, OPTIMIZERS
from tfcompat_gpu.dropin._moves import KERAS_BACKENDS, Move
from tfcompat_gpu.runtime.state import STATE

# ``tfcompat-gpu run`` installs at every start: no ``typing``/``dataclasses`` at import time.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from tfcompat_gpu.settings.config import GPUConfig

__all__ = ["KERAS_BACKENDS", "MOVES", "Move", "install", "is_installed", "uninstall"]

_MISSING: Any = object()


def _v1(name: str) -> Callable[[ModuleType, Any], Any]:
    def make(module: ModuleType, current: Any) -> Any:
        return getattr(module.compat.v1, name)

    make.__name__ = f"compat_v1_{name}"
    return make


def _wrap_session_init(module: ModuleType, current: Any) -> Any:
    import wrapt

    from tfcompat_gpu.dropin import _sessions

    return wrapt.FunctionWrapper(current, _sessions.base_session_init)


def _wrap_server_init(module: ModuleType, current: Any) -> Any:
    import wrapt

    from tfcompat_gpu.dropin import _server

    return wrapt.FunctionWrapper(current, _server.server_init)


def _keras_function(name: str) -> Callable[[ModuleType, Any], Any]:
    def make(module: ModuleType, current: Any) -> Any:
        from tfcompat_gpu.dropin import _keras

        return _keras.session_function(name, module)

    make.__name__ = f"keras_{name}"
    return make


def _tensorflow_backend(module: ModuleType, current: Any) -> Any:
    from tfcompat_gpu.dropin import _keras

    return _keras.tensorflow_backend_of(module)


def _keras_version(module: ModuleType, current: Any) -> Any:
    """The version of the Keras (tf_keras, or TensorFlow 2.15's Keras 2) whose API module
    ``tf.keras`` is: those modules lack ``__version__``."""
    return sys.modules[module.__name__.partition(".")[0]].__version__


def _engine_names(module: ModuleType, current: Any) -> Any:
    from tfcompat_gpu.dropin._keras2_paths import engine_getattr

    return engine_getattr(module.__name__.partition(".")[0])


def _dim_ordering(name: str) -> Callable[[ModuleType, Any], Any]:
    """Keras 2.0-2.2's legacy ``image_dim_ordering()`` / ``set_image_dim_ordering()`` (its
    keras/backend/common.py), on the backend's ``image_data_format`` functions."""

    def make(module: ModuleType, current: Any) -> Any:
        if name == "image_dim_ordering":

            def image_dim_ordering() -> str:
                return "th" if module.image_data_format() == "channels_first" else "tf"

            return image_dim_ordering

        def set_image_dim_ordering(dim_ordering: str) -> None:
            if dim_ordering not in ("tf", "th"):
                raise ValueError(f"Unknown dim_ordering: {dim_ordering!r}; expected 'tf' or 'th'")
            module.set_image_data_format(
                "channels_first" if dim_ordering == "th" else "channels_last"
            )

        return set_image_dim_ordering

    make.__name__ = f"keras2_{name}"
    return make


def _control_flow_ops(module: ModuleType, current: Any) -> Any:
    from tfcompat_gpu.dropin._keras2_paths import control_flow_ops

    return control_flow_ops(module, current)


def _numpy_getattr(module: ModuleType, current: Any) -> Any:
    from tfcompat_gpu.dropin import _numpy

    return _numpy.numpy_getattr(module, current)


def _numpy_reshape(module: ModuleType, current: Any) -> Any:
    from tfcompat_gpu.dropin import _numpy

    return _numpy.numpy_reshape(module, current)


def _numpy_array(module: ModuleType, current: Any) -> Any:
    from tfcompat_gpu.dropin import _numpy

    return _numpy.numpy_array(module, current)


def _keras2_optimizer(module: ModuleType, current: Any) -> Any:
    from tfcompat_gpu.dropin import _legacy_keras

    return _legacy_keras.keras2_optimizer_init(module, current)


def _legacy_keras_enabled() -> bool:
    return _legacy_keras._enabled


MOVES: tuple[Move, ...] = (
    Move(
        "tensorflow.python.client.session",
        "BaseSession.__init__",
        _wrap_session_init,
        only_if_missing=False,
        why="every v1 session (Session, InteractiveSession, MonitoredTrainingSession's, Keras') "
        "consumes its ConfigProto here: route it through the process config and the conflict check",
    ),
    Move(
        "tensorflow.python.training.server_lib",
        "Server.__init__",
        _wrap_server_init,
        only_if_missing=False,
        why="a TF1 cluster server creates the process's devices from its ConfigProto: route it "
        "through the process config like a first session",
    ),
    *(
        Move(
            "tensorflow",
            name,
            _v1(name),
            only_if_missing=True,
            why=f"tf.{name} was removed in TF2; legacy code gets tf.compat.v1.{name}",
        )
        for name in ("Session", "InteractiveSession", "ConfigProto", "GPUOptions")
    ),
    *(
        Move(
            backend,
            name,
            _keras_function(name),
            only_if_missing=True,
            why=f"{name} is gone from this Keras namespace; delegate to the real one, or emulate "
            "it under Keras 3",
        )
        for backend in KERAS_BACKENDS
        for name in ("set_session", "get_session")
    ),
    *(
        Move(
            backend,
            name,
            _dim_ordering(name),
            only_if_missing=True,
            why="Keras 2.0-2.2 scripts set the image layout the Keras 1 way "
            "(`K.set_image_dim_ordering('th')`); Keras 2.3+ has only image_data_format",
        )
        for backend in KERAS_BACKENDS
        for name in ("image_dim_ordering", "set_image_dim_ordering")
    ),
    *(
        Move(
            backend,
            "control_flow_ops",
            _control_flow_ops,
            only_if_missing=True,
            why="Keras 2.0-2.2 code loops with K.control_flow_ops.while_loop (its backend's "
            "import of TensorFlow's module, which no longer holds while_loop)",
        )
        for backend in KERAS_BACKENDS
    ),
    *(
        Move(
            backend,
            "tensorflow_backend",
            _tensorflow_backend,
            only_if_missing=True,
            why="Keras <= 2.3 code reaches backend.tensorflow_backend as an attribute too "
            "(`from keras import backend as K; K.tensorflow_backend...`)",
        )
        for backend in KERAS_BACKENDS
    ),
    # tf_keras, and Keras 2 itself where `keras` is Keras 2 (TensorFlow <= 2.15)
    *(
        Move(
            f"{root}.src.engine",
            "__getattr__",
            _engine_names,
            only_if_missing=True,
            why="Keras 2.0-2.2 scripts import Layer, InputSpec, Input, Model from keras.engine "
            "itself (its __init__ exported them); tf_keras's engine package exports nothing",
        )
        for root in ("tf_keras", "keras")
    ),
    *(
        Move(
            api,
            "__version__",
            _keras_version,
            only_if_missing=True,
            why="TF1 and Keras 2 scripts print or check tf.keras.__version__; the API modules "
            "tf.keras (and tf.compat.v1.keras) is with tf_keras, or with TensorFlow 2.15's "
            "Keras 2, lack it",
        )
        for api in (
            "tf_keras.api._v1.keras",
            "tf_keras.api._v2.keras",
            "keras.api._v1.keras",
            "keras.api._v2.keras",
        )
    ),
    *(
        Move(
            "tensorflow",
            f"python.{name}",
            _v1(name),
            only_if_missing=True,
            why=f"TF1 code imported {name} from its private home (`from tensorflow.python import "
            f"{name}`), which TF2 no longer fills",
        )
        for name in ("Session", "InteractiveSession")
    ),
    *(
        Move(
            namespace,
            f"{name}.__init__",
            _keras2_optimizer,
            only_if_missing=False,
            why="under legacy_keras, Keras 2's lr= and decay= mean what they meant (Keras "
            "2.11+ and tf_keras ignore lr= and reject decay=); a pass-through otherwise",
        )
        for namespace in ("tf_keras.optimizers", "keras.optimizers")
        for name in OPTIMIZERS
    ),
    *(
        Move(
            module,
            f"Model.{method}",
            _legacy_keras.keras1_arguments(method),
            only_if_missing=False,
            why="under legacy_keras, the Keras 1 argument names Keras 2 still translated "
            "(nb_epoch=, samples_per_epoch=, nb_worker=, ...) are translated again; a "
            "pass-through otherwise",
        )
        # tf_keras, and Keras 2 itself where `keras` is Keras 2 (TensorFlow <= 2.15)
        # the v1 API's models (training_v1.Model) have their own training methods
        for module in (
            "tf_keras.src.engine.training",
            "tf_keras.src.engine.training_v1",
            "keras.src.engine.training",
        )
        for method in KERAS1_ARGUMENTS
    ),
    *(
        Move(
            module,
            f"{name}.__init__",
            keras1_layer(name, _legacy_keras_enabled),
            only_if_missing=False,
            why="under legacy_keras, the Keras 1 layer arguments Keras 2.0-2.2 still translated "
            "(Dense(init=), Convolution2D(32, 3, 3, border_mode=), Dropout(p=), ...) are "
            "translated again; a pass-through otherwise",
        )
        for module in ("tf_keras.layers", "keras.layers")
        for name in LAYERS
    ),
    # tf_keras, and Keras 2 itself where `keras` is Keras 2 (TensorFlow <= 2.15)
    *(
        Move(
            f"{root}.src.engine.training",
            "Model.__new__",
            _keras2_models.model_new(_legacy_keras_enabled),
            only_if_missing=False,
            why="under legacy_keras, Model(input=, output=) (Keras 1 keywords Keras 2.0-2.2 "
            "translated) picks the functional model as Model(inputs=, outputs=) does",
        )
        for root in ("tf_keras", "keras")
    ),
    *(
        Move(
            f"{root}.src.engine.{module}",
            f"{name}.__init__",
            _keras2_models.model_init(_legacy_keras_enabled),
            only_if_missing=False,
            why="under legacy_keras, Model(input=, output=) is translated to inputs=/outputs= "
            "with Keras 2's warning; a pass-through otherwise",
        )
        for root in ("tf_keras", "keras")
        for module, name in (("training", "Model"), ("functional", "Functional"))
    ),
    *(
        Move(
            f"{root}.src.engine.sequential",
            f"Sequential.{name}",
            make,
            only_if_missing=True,
            why=f"Keras 2 scripts call Sequential.{name}(), removed in TensorFlow 2.6; it "
            "computes what Keras 2 did, with a warning",
        )
        for root in ("tf_keras", "keras")
        for name, make in (
            ("predict_classes", _keras2_models.predict_classes),
            ("predict_proba", _keras2_models.predict_proba),
        )
    ),
    *(
        Move(
            module,
            alias,
            _keras2_models.same_as(name),
            only_if_missing=True,
            why=f"Keras 2 scripts call keras.optimizers.{alias}(...), an alias of {name} that "
            "Keras 2.3+ and tf_keras dropped",
        )
        for module in ("tf_keras.optimizers", "keras.optimizers")
        for alias, name in _keras2_models.OPTIMIZER_ALIASES.items()
    ),
    *(
        Move(
            module,
            alias,
            _keras2_models.same_as(name),
            only_if_missing=True,
            why=f"Keras 2 scripts build {alias}, which TensorFlow 2 dropped: {name} uses cuDNN "
            "by itself on a GPU, with the same defaults, and runs on a CPU too",
        )
        for module in ("tf_keras.layers", "keras.layers", "tensorflow.keras.layers")
        for alias, name in _keras2_models.LAYER_ALIASES.items()
    ),
    *(
        Move(
            module,
            "get_file",
            _keras2_models.keras2_get_file,
            only_if_missing=False,
            why="Keras 2 scripts load a local copy with mnist.load_data(path='/data/mnist.npz') "
            "or get_file('folder/file'); Keras 3 refuses a folder in the name: it becomes "
            "cache_subdir, the same file",
        )
        for module in _keras2_models.KERAS3_GET_FILE_MODULES
    ),
    *(
        Move(
            module,
            name,
            _keras2_models.models_name(name),
            only_if_missing=True,
            why="Keras 2.0-2.3 scripts import Input from keras.models, and a star import of it "
            "gave K and np: its models.py imported them at module level",
        )
        # tf_keras' own, the one `keras.models` is under the v1 API, Keras 2 itself
        for module in ("tf_keras.models", "tf_keras.api._v1.keras.models", "keras.models")
        for name in _keras2_models.MODELS_NAMES
    ),
    Move(
        "numpy",
        "__getattr__",
        _numpy_getattr,
        only_if_missing=False,
        why="old scripts write dtype=np.float, np.int, np.NaN, np.float_: names NumPy 1.24 and "
        "2.0 removed (TensorFlow 2.21 needs NumPy >= 1.26); they get what they meant, with a "
        "warning",
    ),
    Move(
        "numpy",
        "reshape",
        _numpy_reshape,
        only_if_missing=False,
        why="old scripts write np.reshape(a, newshape=s), the keyword NumPy 2.4 removed; it is "
        "passed as shape (left as it is on a NumPy that still takes it)",
        only_where_needed=True,
    ),
    Move(
        "numpy",
        "array",
        _numpy_array,
        only_if_missing=False,
        why="old scripts build np.array(list(zip(x, y))) of rows of unequal lengths, an object "
        "array before NumPy 1.24 and a ValueError since; it is built with dtype=object again",
    ),
)


def _legacy_gpu_moves() -> tuple[Move, ...]:
    # multi_gpu_model, tf.contrib.distribute, GPU discovery, monitored sessions
    from tfcompat_gpu.dropin import _legacy_gpu

    return _legacy_gpu.MOVES


MOVES += _legacy_gpu_moves() + _keras2_utils.MOVES + _keras1_layers.MOVES + _tf1_variables.MOVES


class _Change:
    __slots__ = ("name", "new", "owner", "previous")

    def __init__(self, owner: Any, name: str, previous: Any, new: Any) -> None:
        self.owner = owner
        self.name = name
        self.previous = previous
        self.new = new


_lock = _thread.RLock()
_installed = False
_changes: dict[tuple[str, str], _Change] = {}
_hooked: set[str] = set()
_extras: list[tuple[Callable[[], None], Callable[[], None]]] = []
"""(install, uninstall) pairs of the parts that are not attributes (the module finder)."""


def is_installed() -> bool:
    """True between :func:`install` and :func:`uninstall`."""
    return _installed


def install(*, legacy_keras: bool | None = None) -> None:
    """Patch TensorFlow and Keras for legacy code; idempotent, thread-safe, imports neither.

    After it, ``tf.Session``/``tf.ConfigProto``/``tf.GPUOptions``/``tf.InteractiveSession``
    exist on TF2 (and ``Session``/``InteractiveSession`` in ``tensorflow.python``), every v1
    session goes through the process config and the conflict check, and Keras'
    ``set_session``/``get_session`` work under Keras 2, tf_keras and Keras 3 (including
    ``import keras.backend.tensorflow_backend`` and ``K.tensorflow_backend``).  The patches land
    when the modules are imported, or at once for those already imported.

    ``legacy_keras=True`` (default: the ``TFCOMPAT_GPU_LEGACY_KERAS`` variable) runs Keras 2
    code on a Keras 3 install: ``import keras`` becomes tf_keras (``TF_USE_LEGACY_KERAS=1``
    included) and Keras 2's optimizer arguments work.  It must come before TensorFlow or Keras is
    imported; a missing or mismatched tf_keras raises :class:`GPUConfigError` naming both
    versions and the install command.

    Example::

        import tfcompat_gpu
        tfcompat_gpu.install()
        import tensorflow as tf
        sess = tf.Session(config=tf.ConfigProto(gpu_options=tf.GPUOptions(allow_growth=True)))
    """
    global _installed
    from tfcompat_gpu.dropin import _legacy_keras

    if legacy_keras is None:
        legacy_keras = _legacy_keras.requested()
    with _lock:
        if legacy_keras:
            _legacy_keras.enable()  # checks first: nothing changes when it raises
        if _installed:
            return
        _installed = True
        STATE.session_hook = _create_session
        from tfcompat_gpu.dropin import _keras, _legacy_gpu, _scipy

        _extras[:] = [
            (_keras.install_finder, _keras.uninstall_finder),
            (_legacy_gpu.install_finder, _legacy_gpu.uninstall_finder),
            (_scipy.install, _scipy.uninstall),
        ]
        for start, _ in _extras:
            start()
        from tfcompat_gpu.utils import postimport as _postimport

        for name in dict.fromkeys(move.module for move in MOVES):
            if name in _hooked:
                if name in sys.modules:
                    _on_import(sys.modules[name])
                continue
            _hooked.add(name)
            # Called at once when the module is already imported.
            _postimport.register(_on_import, name)


def _create_session(request: GPUConfig | None, graph: Any, target: str) -> Any:
    # The session hook; _sessions (GPUConfig, the TensorFlow API) is imported on first use.
    from tfcompat_gpu.dropin import _sessions

    return _sessions.create_session(request, graph, target)


def uninstall() -> None:
    """Undo :func:`install`: every patched attribute gets its original back (idempotent).

    Names bound before ``install()`` (``from keras import backend as K``) see the originals
    again, since the module objects themselves were patched.  The post-import hooks stay
    registered (they cannot be removed) but do nothing until the next install.

    Example::

        tfcompat_gpu.uninstall()
        assert not hasattr(tf, "Session")  # on TF2
    """
    global _installed
    with _lock:
        if not _installed:
            return
        _installed = False
        STATE.session_hook = None
        for key in reversed(list(_changes)):
            _undo(_changes.pop(key))
        for _, stop in reversed(_extras):
            stop()
        _extras.clear()
        from tfcompat_gpu.dropin import _legacy_keras

        _legacy_keras.disable()


def _on_import(module: ModuleType) -> None:
    with _lock:
        if not _installed:
            return
        for move in MOVES:
            if move.module == module.__name__:
                _apply(module, move)


def _resolve(module: ModuleType, target: str) -> tuple[Any, str]:
    *path, name = target.split(".")
    owner: Any = module
    for part in path:
        child = getattr(owner, part, None)
        if child is None and isinstance(owner, ModuleType):  # a submodule TF hides (python)
            child = sys.modules.get(f"{owner.__name__}.{part}")
        if child is None:
            raise AttributeError(part)
        owner = child
    return owner, name


def _apply(module: ModuleType, move: Move) -> None:
    key = (move.module, move.target)
    if key in _changes:
        return
    try:
        owner, name = _resolve(module, move.target)
    except AttributeError:  # this TensorFlow/Keras lays things out differently: nothing to do
        return
    if move.only_if_missing and hasattr(owner, name):
        return
    previous = vars(owner).get(name, _MISSING)
    current = previous if previous is not _MISSING else getattr(owner, name, _MISSING)
    try:
        new = move.make(module, current)
    except AttributeError:  # what the move binds is not there (yet): leave the module alone
        return
    setattr(owner, name, new)
    _changes[key] = _Change(owner, name, previous, new)


def _undo(change: _Change) -> None:
    if vars(change.owner).get(change.name, _MISSING) is not change.new:
        return  # someone replaced it since; theirs stays
    if change.previous is _MISSING:
        delattr(change.owner, change.name)
    else:
        setattr(change.owner, change.name, change.previous)
