"""Keras 2 scripts on a Keras 3 install: ``import keras`` is tf_keras (``--legacy-keras``).

TensorFlow's own switch, ``TF_USE_LEGACY_KERAS=1``, makes ``tf.keras`` tf_keras but leaves
``import keras`` on Keras 3.  Here a finder first on ``sys.meta_path`` hands every ``keras`` and
``keras.*`` import the tf_keras module of the same name: the very module object, never a copy,
so ``keras.layers.Dense is tf_keras.layers.Dense``.  Keras 2 module paths that tf_keras keeps
only under ``tf_keras.src`` (``keras.utils.np_utils``, ``keras.engine.training``) resolve there,
and those it keeps under other names (``keras.layers.merge``, ``keras.engine.topology``) as
:mod:`_keras2_paths` says.
Keras 2 optimizer arguments that tf_keras drops (``lr=``, which it ignores with a log line, and
``decay=``, which it rejects) mean what they meant in Keras 2.
"""

from __future__ import annotations

import _thread  # threading's own locks, without importing threading (some ms at every start)
import importlib
import importlib.machinery
import os
import sys
from types import ModuleType

from tfcompat_gpu.dropin._keras2_paths import MOVED, RENAMED, build
from tfcompat_gpu.dropin._keras2_steps import whole_steps
from tfcompat_gpu.errors import GPUConfigError

# Every ``tfcompat-gpu run`` imports this module (install() and the runner): no ``typing`` and
# no settings tables at import time.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.abc import Loader as _LoaderBase
    from typing import Any
else:
    # Not importlib.abc at run time: it imports importlib.resources, some ms at every start.
    _LoaderBase = object

__all__ = [
    "LEGACY_KERAS_ENV",
    "OPTIMIZERS",
    "check_available",
    "disable",
    "enable",
    "is_enabled",
    "keras2_optimizer_init",
    "requested",
]

LEGACY_KERAS_ENV = "TFCOMPAT_GPU_LEGACY_KERAS"
_TF_ENV = "TF_USE_LEGACY_KERAS"
_INSTALL = 'pip install "tfcompat-gpu[legacy-keras]"'
_TF_DISTRIBUTIONS = (
    "tensorflow",
    "tensorflow-cpu",
    "tensorflow-gpu",
    "tensorflow-intel",
    "tensorflow-macos",
    "tensorflow-aarch64",
    "tensorflow-rocm",
    "tf-nightly",
    "tf-nightly-cpu",
)
OPTIMIZERS = (
    "Adadelta",
    "Adafactor",
    "Adagrad",
    "Adam",
    "Adamax",
    "AdamW",
    "Ftrl",
    "Lion",
    "Nadam",
    "RMSprop",
    "SGD",
)
"""tf_keras optimizers that take ``lr=`` / ``decay=`` again under ``--legacy-keras``."""


def requested(environ: Any = None) -> bool:
    """``TFCOMPAT_GPU_LEGACY_KERAS`` is set to a true value."""
    env = os.environ if environ is None else environ
    value = str(env.get(LEGACY_KERAS_ENV, "")).strip().lower()
    if value in ("", "0", "false", "no", "off"):
        return False
    if value in ("1", "true", "yes", "on"):
        return True
    raise GPUConfigError(
        f"environment variable {LEGACY_KERAS_ENV}: expected a boolean (1/0, true/false, "
        f"yes/no, on/off). Received: {env.get(LEGACY_KERAS_ENV)!r}."
    )


def _version(*names: str) -> str | None:
    import importlib.metadata

    for name in names:
        try:
            return importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return None


def _minor(version: str) -> tuple[int, ...]:
    parts: list[int] = []
    for part in version.split(".")[:2]:
        digits = "".join(c for c in part if c.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


def keras_is_3() -> bool:
    """The installed ``keras`` distribution is Keras 3 (or later)."""
    version = _version("keras")
    return version is not None and _minor(version)[0] >= 3


def check_available() -> str:
    """Raise :class:`GPUConfigError` unless a tf_keras matching TensorFlow is installed.

    Returns the package that holds Keras 2: ``"tf_keras"``, or ``"keras"`` where ``keras`` is
    Keras 2 already (TensorFlow <= 2.15).  Reads package metadata; imports neither.
    """
    import importlib.util  # (here: importlib.util costs some ms at every start of `run`)

    tf_version = _version(*_TF_DISTRIBUTIONS)
    if tf_version is None and importlib.util.find_spec("tensorflow") is None:
        raise GPUConfigError(
            "--legacy-keras runs Keras 2 code on tf_keras, which needs TensorFlow: it is not "
            f"installed. Install TensorFlow, then tf_keras of the same version: {_INSTALL}."
        )
    if not keras_is_3() and (tf_version is None or _minor(tf_version) < (2, 16)):
        return "keras"  # Keras 2 is `keras` here: nothing to alias
    tf_keras_version = _version("tf-keras", "tf_keras")
    if tf_keras_version is None or importlib.util.find_spec("tf_keras") is None:
        wanted = f"tf_keras {'.'.join(map(str, _minor(tf_version)))}.x " if tf_version else ""
        raise GPUConfigError(
            f"--legacy-keras needs tf_keras, which is not installed (TensorFlow {tf_version}). "
            f"Install {wanted}with: {_INSTALL} (tf_keras must have TensorFlow's version)."
        )
    if tf_version is not None and _minor(tf_keras_version) != _minor(tf_version):
        want = ".".join(map(str, _minor(tf_version)))
        raise GPUConfigError(
            f"--legacy-keras: tf_keras {tf_keras_version} does not match TensorFlow {tf_version} "
            f"(tf_keras works only with the TensorFlow of its own version). Install the matching "
            f'one: {_INSTALL} "tf-keras=={want}.*".'
        )
    return "tf_keras"


# -- the aliasing finder ------------------------------------------------------------------------

COMPANIONS = {"keras_applications": "applications", "keras_preprocessing": "preprocessing"}
"""Keras 2.2-2.3's companion packages (installed with ``keras``, which re-exported them as
``keras.applications`` / ``keras.preprocessing``; model files import them directly, as
``from keras_applications.imagenet_utils import _obtain_input_shape``) -> the Keras package
that holds their modules now."""


class _KerasIsTfKeras(_LoaderBase):
    """``keras[.X]`` -> the module ``tf_keras[.X]``; ``tf_keras.X`` missing -> ``tf_keras.src.X``;
    a missing :data:`COMPANIONS` package -> its ``tf_keras.src`` modules.

    Where ``keras`` is Keras 2 itself (``package="keras"``, ``root=None``) only the second part
    applies: ``keras.X`` missing -> ``keras.src.X``.
    """

    def __init__(self) -> None:
        self._found: dict[str, ModuleType] = {}
        self._built: dict[str, ModuleType] = {}
        """Keras 2 modules made from several tf_keras ones (:data:`MOVED`), one per path."""
        self._importing = _thread._local()  # threading.local is this class
        self._lock = _thread.allocate_lock()
        self.package = "tf_keras"
        self.root: str | None = "tf_keras"
        self._companions: dict[str, bool] = {}
        """Companion package -> whether it is missing (then served from the package's src)."""

    def _canonical(self, fullname: str, path: Sequence[str] | None) -> str | None:
        if fullname == "keras":
            return self.root
        top = fullname.partition(".")[0]
        if top in COMPANIONS:
            return self._companion(fullname, top)
        if not fullname.startswith(("keras.", "tf_keras.")):
            return None
        parent, _, child = fullname.rpartition(".")
        owner = sys.modules.get(parent)
        real_parent = getattr(owner, "__name__", parent)
        if owner is not None and real_parent != parent:
            return f"{real_parent}.{child}"  # a child of an aliased package: the real child
        package = self.package
        if fullname.startswith(package + ".") and not fullname.startswith(package + ".src."):
            if importlib.machinery.PathFinder.find_spec(fullname, path) is not None:
                return None  # a real module: imported as usual
            rest = fullname[len(package) + 1 :]
            for api in ("api._v1.keras.", "api._v2.keras."):
                rest = rest[len(api) :] if rest.startswith(api) else rest
            for old, new in RENAMED.items():
                if rest == old or rest.startswith(old + "."):
                    rest = new + rest[len(old) :]  # a Keras 2 package under its new name
            return f"{package}.src.{rest}"  # a Keras 2 path kept only in the sources
        return None

    def _companion(self, fullname: str, top: str) -> str | None:
        """``keras_applications[.X]`` / ``keras_preprocessing[.X]`` -> the package's ``src``
        module that holds it now, unless the companion package itself is installed."""
        if top not in self._companions:
            self._companions[top] = importlib.machinery.PathFinder.find_spec(top) is None
        if not self._companions[top]:
            return None
        rest = COMPANIONS[top] + fullname[len(top) :]
        for old, new in RENAMED.items():
            if rest == old or rest.startswith(old + "."):
                rest = new + rest[len(old) :]
        return f"{self.package}.src.{rest}"

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        real = self._canonical(fullname, path)
        if real is None:
            return None
        if fullname == "keras" and getattr(self._importing, "root", False):
            # TensorFlow's __init__ asks find_spec("keras") for a folder while tf_keras, being
            # imported as `keras`, imports it (tensorflow/__init__.py, "Lazy-load Keras v2/3";
            # module_util.get_parent_dir_for_name).  Importing the v1 API root then would run
            # inside tf_keras' own half-done import (circular); the plain answer is enough.
            return None
        moved = self._moved(real)
        try:
            if moved is not None:
                module = self._build(moved, real)
            elif fullname == "keras":
                self._importing.root = True
                try:
                    module = importlib.import_module(real)
                finally:
                    self._importing.root = False
            else:
                module = importlib.import_module(real)
                if fullname.partition(".")[0] in COMPANIONS:
                    module = _with_public_names(module, self.package, fullname)
        except ModuleNotFoundError as exc:
            if exc.name is not None and (real == exc.name or real.startswith(exc.name + ".")):
                return None  # no such module: the next finder says so
            raise
        with self._lock:
            self._found[fullname] = module
        return importlib.machinery.ModuleSpec(fullname, self)

    def _moved(self, real: str) -> str | None:
        prefix = f"{self.package}.src."
        rest = real[len(prefix) :] if real.startswith(prefix) else None
        return rest if rest in MOVED else None

    def _build(self, old: str, real: str) -> ModuleType:
        with self._lock:
            module = self._built.get(real)
        if module is None:
            module = build(self.package, old, real)
            with self._lock:
                module = self._built.setdefault(real, module)
        return module

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        # The import system returns what sys.modules holds after exec_module: the real module.
        with self._lock:
            sys.modules[module.__name__] = self._found.pop(module.__name__)


def _with_public_names(module: ModuleType, package: str, name: str) -> ModuleType:
    """A companion's ``src`` module with the public names its API module adds: Keras 2.9+ moved
    ``pad_sequences`` and ``load_img`` / ``img_to_array`` out of ``preprocessing.sequence`` /
    ``preprocessing.image`` (to ``utils``) and exports them from the API modules only, while
    ``keras_preprocessing.image`` had them itself.  The private names (``_obtain_input_shape``)
    stay the ``src`` module's.  tf_keras' own modules are left as they are: a new module is made,
    named ``name`` (the companion's), so that its submodules are imported as the companion's too.
    """
    prefix = f"{package}.src."
    if not module.__name__.startswith(prefix):
        return module
    try:
        public = importlib.import_module(f"{package}.{module.__name__[len(prefix):]}")
    except ImportError:
        return module
    added = {
        name: getattr(public, name)
        for name in dir(public)
        if not name.startswith("_") and not hasattr(module, name)
    }
    # A package's submodules are left out, so ``from keras_preprocessing import sequence``
    # imports the companion's own (completed) module, not tf_keras' src one.
    inner = module.__name__ + "."
    children = {
        k for k, v in vars(module).items() if getattr(v, "__name__", "").startswith(inner)
    }
    if not added and not children:
        return module
    merged = ModuleType(name, module.__doc__)
    merged.__dict__.update(
        (k, v)
        for k, v in vars(module).items()
        if k not in ("__name__", "__spec__", "__loader__") and k not in children
    )
    merged.__dict__.update(added)
    return merged


_finder = _KerasIsTfKeras()
_lock = _thread.RLock()
_enabled = False
_previous_env: str | None = None
_aliases: set[str] = set()


def is_enabled() -> bool:
    return _enabled


def enable(*, v1: bool = False) -> None:
    """Make ``keras`` tf_keras for this process; TensorFlow and Keras must not be imported yet.

    ``v1=True`` (``run --tf1``): ``keras`` is tf_keras's v1 API, the ``tf.compat.v1.keras`` that
    graph-mode code gets (its optimizers are the ones that work in a v1 graph).
    """
    global _enabled, _previous_env
    with _lock:
        if _enabled:
            return
        package = check_available()
        _finder.package = package
        _finder.root = (
            None if package == "keras" else "tf_keras.api._v1.keras" if v1 else "tf_keras"
        )
        if package == "keras":  # Keras 2 already: its old module paths only
            if _finder not in sys.meta_path:
                sys.meta_path.insert(0, _finder)
            _enabled = True
            return
        keras = sys.modules.get("keras")
        if keras is not None and getattr(keras, "__name__", "") != "tf_keras":
            raise GPUConfigError(
                "legacy_keras: Keras 3 was imported before; `import keras` can no longer become "
                "tf_keras. Call tfcompat_gpu.install(legacy_keras=True) before anything imports "
                "keras or TensorFlow (or use tfcompat-gpu run --legacy-keras)."
            )
        from tfcompat_gpu.settings.env_vars import legacy_keras_requested

        if "tensorflow" in sys.modules and not legacy_keras_requested():
            raise GPUConfigError(
                "legacy_keras: TensorFlow was imported before, so tf.keras is Keras 3 for this "
                "process. Call tfcompat_gpu.install(legacy_keras=True) before importing "
                f"TensorFlow, or set {_TF_ENV}=1 (or use tfcompat-gpu run --legacy-keras)."
            )
        _previous_env = os.environ.get(_TF_ENV)
        os.environ[_TF_ENV] = "1"
        if _finder not in sys.meta_path:
            sys.meta_path.insert(0, _finder)
        _enabled = True


def disable() -> None:
    """Undo :func:`enable`: ``import keras`` finds Keras 3 again (modules bound stay bound)."""
    global _enabled
    with _lock:
        if not _enabled:
            return
        _enabled = False
        if _finder in sys.meta_path:
            sys.meta_path.remove(_finder)
        for name, module in list(sys.modules.items()):
            if name.startswith(("keras", "tf_keras")) and getattr(module, "__name__", name) != name:
                del sys.modules[name]
        if _previous_env is None:
            os.environ.pop(_TF_ENV, None)
        else:
            os.environ[_TF_ENV] = _previous_env


# -- Keras 2 optimizer arguments ----------------------------------------------------------------


def keras2_optimizer_init(module: ModuleType, current: Any) -> Any:
    """Wrap a tf_keras optimizer's ``__init__``: ``lr=`` and ``decay=`` as in Keras 2.

    Keras 2 (up to 2.10) took ``lr`` for ``learning_rate`` and ``decay`` for the time-based
    decay ``lr / (1 + decay * iterations)``; tf_keras ignores the first and rejects the second.
    A pass-through unless legacy Keras is on (Keras 3's own optimizers are never reached then:
    ``keras`` is tf_keras).
    """
    import wrapt

    def init(wrapped: Any, instance: Any, args: Any, kwargs: Any) -> Any:
        if not _enabled or ("lr" not in kwargs and "decay" not in kwargs):
            return wrapped(*args, **kwargs)
        kwargs = dict(kwargs)
        if "lr" in kwargs:
            lr = kwargs.pop("lr")
            if "learning_rate" not in kwargs and not args:
                kwargs["learning_rate"] = lr
        decay = kwargs.pop("decay", 0.0)
        if decay:
            # The schedules of the Keras that owns the optimizer: tf_keras, or Keras 2 itself
            # where `keras` is Keras 2 (TensorFlow <= 2.15).
            root = module.__name__.partition(".")[0]
            schedules = importlib.import_module(f"{root}.optimizers.schedules")
            InverseTimeDecay = schedules.InverseTimeDecay

            rate = kwargs.get("learning_rate", args[0] if args else 0.001)
            kwargs["learning_rate"] = InverseTimeDecay(rate, decay_steps=1, decay_rate=decay)
            args = args[1:]
        return wrapped(*args, **kwargs)

    return wrapt.FunctionWrapper(current, init)


# -- Keras 1 arguments of the training methods ---------------------------------------------------

# What Keras 2 itself still translated for Keras 1 code (``keras/legacy/interfaces.py``,
# ``legacy_generator_methods_support``, and ``Model.fit``'s own ``nb_epoch`` handling), so a
# script that ran on Keras 2 runs on tf_keras: old name -> new name, per method.
KERAS1_ARGUMENTS: dict[str, tuple[tuple[str, str], ...]] = {
    "fit": (("nb_epoch", "epochs"),),
    "fit_generator": (
        ("nb_epoch", "epochs"),
        ("samples_per_epoch", "steps_per_epoch"),
        ("nb_val_samples", "validation_steps"),
        ("nb_worker", "workers"),
        ("pickle_safe", "use_multiprocessing"),
        ("max_q_size", "max_queue_size"),
    ),
    "evaluate_generator": (
        ("val_samples", "steps"),
        ("nb_worker", "workers"),
        ("pickle_safe", "use_multiprocessing"),
        ("max_q_size", "max_queue_size"),
    ),
    "predict_generator": (
        ("val_samples", "steps"),
        ("nb_worker", "workers"),
        ("pickle_safe", "use_multiprocessing"),
        ("max_q_size", "max_queue_size"),
    ),
}


def keras1_arguments(method: str) -> Any:
    """A move's ``make`` that wraps ``Model.<method>`` to take its Keras 1 argument names.

    As Keras 2 did: each old name becomes the new one (both given is a ``TypeError``), with a
    warning naming the call to update; ``samples_per_epoch`` becomes a number of batches where
    the generator says its ``batch_size``.  A pass-through unless legacy Keras is on.
    """

    def make(module: ModuleType, current: Any) -> Any:
        import wrapt

        renames = KERAS1_ARGUMENTS[method]

        def call(wrapped: Any, instance: Any, args: Any, kwargs: Any) -> Any:
            if not _enabled:
                return wrapped(*args, **kwargs)
            args, kwargs = whole_steps(method, args, kwargs)  # Keras 2's float steps
            if not any(old in kwargs for old, _ in renames):
                return wrapped(*args, **kwargs)
            import warnings

            kwargs = dict(kwargs)
            changed = []
            for old, new in renames:
                if old not in kwargs:
                    continue
                if new in kwargs:
                    raise TypeError(
                        f"{method}() got both {old}= (Keras 1) and {new}= (Keras 2); keep {new}="
                    )
                value = kwargs.pop(old)
                if old in _SAMPLES:
                    args, value = _counted_in_samples(old, args, kwargs, value)
                    if value is None:
                        changed.append(f"{old}= counted in samples")
                        continue
                kwargs[new] = value
                changed.append(f"{old}= -> {new}=")
            warnings.warn(
                f"Update your `{method}` call to the Keras 2 API: {', '.join(changed)} "
                "(tfcompat-gpu migrate rewrites it)",
                stacklevel=2,
            )
            return wrapped(*args, **kwargs)

        return wrapt.FunctionWrapper(current, call)

    make.__name__ = f"keras1_{method}"
    return make


# The Keras 1 arguments counted in samples, and where the data they count is.
_SAMPLES = {
    "samples_per_epoch": "generator",
    "nb_val_samples": "validation_data",
    "val_samples": "generator",
}


def _counted_in_samples(
    old: str, args: Any, kwargs: dict[str, Any], samples: Any
) -> tuple[Any, Any]:
    """``(args, steps)`` for a Keras 1 count of samples; ``steps`` None: ``args`` / ``kwargs``
    hold a dataset that draws them.

    Keras 2 divided ``samples_per_epoch`` by the ``batch_size`` of an iterator that has one and
    took every other count as batches: the count stays so where the data has ``batch_size``.  A
    plain Python generator has none, and there Keras 2's reading ran an epoch ``batch size``
    times longer than Keras 1's, so the data becomes :func:`keras1_samples`' dataset.
    """
    where = _SAMPLES[old]
    data = args[0] if where == "generator" and args else kwargs.get(where)
    batch_size = getattr(data, "batch_size", None)
    if isinstance(batch_size, int) and batch_size > 0:
        return args, samples // batch_size if old == "samples_per_epoch" else samples
    if not hasattr(data, "__next__"):
        # validation arrays: Keras 1 ignored nb_val_samples
        return args, None
    from tfcompat_gpu.tfapi._tf import tf

    steps = None
    if tf().executing_eagerly():
        data = keras1_samples(data, samples)
    else:
        # the v1 API's training loops (training_v1.Model) take no dataset without its steps:
        # the batches of the first one's length, as Keras 1 counted them while they stay so
        data, steps = _keras1_steps(data, samples)
    if where == "generator" and args:
        args = (data, *args[1:])
    else:
        kwargs[where] = data
    return args, steps


def _keras1_steps(data: Any, samples: int) -> tuple[Any, int]:
    """``data`` with its first batch put back, and the batches of that batch's length that
    reach ``samples`` samples."""
    import itertools
    import math

    from tfcompat_gpu.tfapi._tf import tf

    try:
        first = next(data)
    except StopIteration:
        raise ValueError(f"the generator given for {samples} samples yielded no batch") from None
    size = len(tf().nest.flatten(first)[0])
    return itertools.chain([first], data), max(1, math.ceil(samples / size))


def keras1_samples(data: Any, samples: int) -> Any:
    """Keras 1's ``samples_per_epoch=`` / ``nb_val_samples=`` / ``val_samples=``: a dataset
    that draws batches from the generator ``data`` until ``samples`` samples are seen, each pass.

    Keras 1.2's ``fit_generator`` counted the samples of each batch (the first array's length)
    and ended the epoch once the count reached ``samples_per_epoch``; ``evaluate_generator``
    and ``predict_generator`` did the same with ``val_samples``.  The first batch gives the
    dataset's signature (any batch length, the other dimensions as drawn) and is the first one
    served.
    """
    import numpy as np

    from tfcompat_gpu.tfapi._tf import tf

    tensorflow = tf()
    try:
        pending = [next(data)]
    except StopIteration:
        raise ValueError(f"the generator given for {samples} samples yielded no batch") from None

    def spec(value: Any) -> Any:
        array = np.asarray(value)
        return tensorflow.TensorSpec((None, *array.shape[1:]), array.dtype)

    def tuples(batch: Any) -> Any:  # (x, y) as a list too, as Keras 1 took it
        return tuple(map(tuples, batch)) if isinstance(batch, (list, tuple)) else batch

    def epoch() -> Any:
        seen = 0
        while seen < samples:
            try:
                batch = tuples(pending.pop() if pending else next(data))
            except StopIteration:
                return
            seen += len(tensorflow.nest.flatten(batch)[0])
            yield batch

    signature = tensorflow.nest.map_structure(spec, tuples(pending[0]))
    return tensorflow.data.Dataset.from_generator(epoch, output_signature=signature)
