"""Keras ``set_session`` / ``get_session`` for every flavour, and ``keras.backend.tensorflow_backend``.

- Keras 2 of TF <= 2.15 and tf_keras keep the real functions in their v1 API; the other
  namespaces (``keras.backend``, ``tf.keras.backend``) get thin functions that delegate to them.
- Keras 3 has no sessions.  ``set_session(sess)`` applies what the session asked for to the
  process through :func:`tfcompat_gpu.configure` (its process-wide options already took effect
  when the session was created); ``get_session()`` returns that session, or one created with
  the process config.  Keras 3 models never run in it.
"""

from __future__ import annotations

import _thread  # threading's own locks, without importing threading (some ms at every start)
import importlib
import importlib.machinery
import sys
from types import ModuleType

from tfcompat_gpu.errors import GPUConfigError
from tfcompat_gpu.tfapi.tf1_names import TUTORIAL_MODULES

# ``install()`` (every ``tfcompat-gpu run``) imports this module for its finder: GPUConfig, the
# TensorFlow API and ``typing`` are imported where they are used.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from importlib.abc import Loader as _LoaderBase
    from typing import Any
else:
    # Not importlib.abc at run time: it imports importlib.resources, some ms at every start.
    _LoaderBase = object

__all__ = [
    "flavour",
    "install_finder",
    "session_function",
    "tensorflow_backend_of",
    "uninstall_finder",
]

SHIM = "keras.backend.tensorflow_backend"
WRAPPERS = {
    f"{root}.wrappers{tail}": not tail
    for root in ("keras", "tf_keras", "tensorflow.keras", "tensorflow.python.keras")
    for tail in ("", ".scikit_learn")
}
"""Keras 2's ``wrappers.scikit_learn`` (:mod:`._keras2_sklearn`) and its package, where the Keras
in use has none -> whether the name is the package."""
TUTORIALS = TUTORIAL_MODULES
"""TensorFlow 1's MNIST tutorial loader (:mod:`.mnist_input_data`) and its packages."""


def flavour(module_name: str) -> str:
    """``"tf_keras"``, ``"keras2"`` or ``"keras3"``: who owns sessions for this namespace."""
    if module_name.startswith("tf_keras"):
        return "tf_keras"
    keras = sys.modules.get("keras")
    if str(getattr(keras, "__name__", "")).startswith("tf_keras"):
        return "tf_keras"  # `run --legacy-keras`: `keras` is tf_keras (its v1 API with --tf1)
    version = str(getattr(keras, "__version__", "3"))
    if int(version.split(".")[0]) < 3:
        return "keras2"
    import importlib.util  # (here: importlib.util costs some ms at every start of `run`)

    from tfcompat_gpu.settings.env_vars import legacy_keras_requested

    if legacy_keras_requested() and importlib.util.find_spec("tf_keras") is not None:
        # Legacy scripts' ``import keras`` means Keras 2: hand sessions to tf_keras, whose
        # models (tf.keras under TF_USE_LEGACY_KERAS) are the ones that use them.
        return "tf_keras"
    return "keras3"


def _real_backend(kind: str) -> ModuleType:
    name = "tf_keras.src.backend" if kind == "tf_keras" else "keras.src.backend"
    return importlib.import_module(name)


def session_function(name: str, module: ModuleType) -> Callable[..., Any]:
    """The ``set_session`` or ``get_session`` to put on ``module``."""
    kind = flavour(module.__name__)
    if kind == "keras3":
        return set_session if name == "set_session" else get_session
    real = getattr(_real_backend(kind), name)

    def delegate(*args: Any, **kwargs: Any) -> Any:
        return real(*args, **kwargs)

    delegate.__name__ = delegate.__qualname__ = name
    delegate.__doc__ = (
        f"{real.__module__}.{name}, reachable again from {module.__name__} (tfcompat_gpu)."
    )
    delegate.__wrapped__ = real  # type: ignore[attr-defined]
    return delegate


# -- Keras 3 --------------------------------------------------------------------------------

_lock = _thread.allocate_lock()
_session: Any = None


def set_session(session: Any) -> None:
    """Keras 3 has no session: apply what ``session`` asked for to the process instead.

    Its process-wide options (memory, growth, device list, thread pools) took effect, or were
    checked for conflicts, when the session was created; here its per-session options
    (soft/log placement, ``jit``, ``auto_mixed_precision``, ``device_count``) are applied to
    the process with :func:`tfcompat_gpu.configure`.  :func:`get_session` returns it afterwards.

    Example::

        from keras import backend as K
        K.set_session(tf.Session(config=tf.ConfigProto(allow_soft_placement=True)))
    """
    global _session
    from tfcompat_gpu.settings.config import GPUConfig
    from tfcompat_gpu.tfapi import _tf

    base = _tf.session_module().BaseSession
    if not isinstance(session, base):
        raise GPUConfigError(
            "set_session: expected a tf.compat.v1.Session. Received: "
            f"{type(session).__name__} {session!r}. Create one with tf.compat.v1.Session(config=...)."
        )
    from tfcompat_gpu.dropin._sessions import request_of
    from tfcompat_gpu.runtime.configuring import configure

    request = request_of(session)
    if request is None:
        # Created before install(): nothing of it reached the process yet.
        cfg = GPUConfig.from_config_proto(session._config).replace(extra_proto=b"")
    else:
        from tfcompat_gpu.settings.options import OPTIONS

        cfg = GPUConfig(**{o.name: getattr(request, o.name) for o in OPTIONS if not o.process_wide})
    if cfg.to_dict():
        configure(cfg)
    with _lock:
        _session = session


def get_session(op_input_list: Sequence[Any] = ()) -> Any:
    """The session given to :func:`set_session`, else one with the process config (Keras 3).

    Keras 3 models never run in it: use it for ``sess.run`` on your own v1 graph, or to read
    the configuration (``get_session()._config``).

    Example::

        sess = K.get_session()
        print(sess._config.gpu_options.allow_growth)
    """
    global _session
    from tfcompat_gpu.tfapi import _tf

    with _lock:
        if _session is None:
            _session = _tf.tf().compat.v1.Session()
        return _session


# -- keras.backend.tensorflow_backend ---------------------------------------------------------


class _ShimFinder(_LoaderBase):
    """Makes ``keras.backend.tensorflow_backend`` (Keras <= 2.3), Keras 2's
    ``wrappers.scikit_learn`` (:data:`WRAPPERS`) and TensorFlow 1's MNIST tutorial loader
    (:data:`TUTORIALS`) importable again.

    It sits last on ``sys.meta_path``, so a real module of that name always wins.
    """

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname in WRAPPERS:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=WRAPPERS[fullname])
        if fullname in TUTORIALS:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=TUTORIALS[fullname])
        if fullname != SHIM:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        if module.__name__ in WRAPPERS:
            if not WRAPPERS[module.__name__]:
                from tfcompat_gpu.dropin import _keras2_sklearn

                _keras2_sklearn.fill(module)
            return
        if module.__name__ in TUTORIALS:
            if not TUTORIALS[module.__name__]:
                from tfcompat_gpu.dropin import mnist_input_data

                for name in mnist_input_data.__all__:
                    setattr(module, name, getattr(mnist_input_data, name))
            return
        backend = importlib.import_module("keras.backend")
        existing = vars(backend).get("tensorflow_backend")
        if isinstance(existing, ModuleType):
            # Already reached as K.tensorflow_backend: the import returns that same module.
            sys.modules[module.__name__] = existing
            return
        _delegate_to(module, backend)


def _delegate_to(module: ModuleType, backend: ModuleType) -> None:
    module.__doc__ = (
        "keras.backend.tensorflow_backend of Keras <= 2.3, restored by tfcompat_gpu: "
        f"every name comes from {backend.__name__} (set_session/get_session included)."
    )

    def __getattr__(name: str) -> Any:
        return getattr(backend, name)

    module.__getattr__ = __getattr__  # type: ignore[method-assign]


def tensorflow_backend_of(backend: ModuleType) -> ModuleType:
    """The ``tensorflow_backend`` attribute of a Keras ``backend`` namespace (Keras <= 2.3).

    On ``keras.backend`` it is the module ``import keras.backend.tensorflow_backend`` gives.
    """
    if sys.modules.get("keras.backend") is backend and _finder in sys.meta_path:
        shim = sys.modules.get(SHIM)
        if shim is None:
            shim = importlib.import_module(SHIM)
        return shim
    module = ModuleType(f"{backend.__name__}.tensorflow_backend")
    _delegate_to(module, backend)
    return module


_finder = _ShimFinder()


def install_finder() -> None:
    if _finder not in sys.meta_path:
        sys.meta_path.append(_finder)


def uninstall_finder() -> None:
    if _finder in sys.meta_path:
        sys.meta_path.remove(_finder)
    for name in (*WRAPPERS, *TUTORIALS):
        served = sys.modules.get(name)
        if served is not None and getattr(served.__spec__, "loader", None) is _finder:
            del sys.modules[name]
    shim = sys.modules.get(SHIM)
    if shim is not None and shim.__spec__ is not None and shim.__spec__.loader is _finder:
        del sys.modules[SHIM]
        parent = sys.modules.get("keras.backend")
        if parent is not None and vars(parent).get("tensorflow_backend") is shim:
            delattr(parent, "tensorflow_backend")
