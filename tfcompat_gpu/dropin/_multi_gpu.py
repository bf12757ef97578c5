"""Keras 2's ``multi_gpu_model`` and TF 1.11's ``compile(distribute=...)`` on TF2.

Both put a model built outside any strategy on several devices.  TF2 does that with
``tf.distribute.MirroredStrategy``, whose variables must be created inside ``strategy.scope()``.
So the model is cloned in the scope with the original's weights (the *replica*), and the
original (the *template*) stays the model the script saves: every training call on the replica
copies the weights back to the template when it returns and at the end of each epoch, and every
call copies the template's weights in first (a ``load_weights`` on the template counts).  Keras 2
users train the parallel model and save the template; without the copy back they would save
untrained weights.

Fewer GPUs than asked: one ``GPUConfigWarning`` saying what runs where, and the model runs on
the GPUs that exist; with none (or one), the template itself is returned.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Sequence
from typing import Any

from tfcompat_gpu.errors import GPUConfigError
from tfcompat_gpu.tfapi import _tf

__all__ = [
    "compile_with_distribute",
    "multi_gpu_model",
    "parallel_model",
    "replica_devices",
    "replicate",
]

_TRAINING = ("fit", "fit_generator", "train_on_batch")
_READING = (
    "evaluate",
    "evaluate_generator",
    "predict",
    "predict_generator",
    "test_on_batch",
    "predict_on_batch",
)


def _warn(key: str, message: str) -> None:
    from tfcompat_gpu.runtime.state import warn_once

    warn_once(key, message)


def _root(model: Any) -> str:
    """``"keras"`` or ``"tf_keras"``: the package whose classes built ``model``."""
    root = type(model).__module__.split(".")[0]
    return root if root in ("keras", "tf_keras") else "keras"


def _check_model(model: Any, where: str) -> None:
    if not (hasattr(model, "get_weights") and hasattr(model, "fit")):
        raise GPUConfigError(
            f"{where}: expected a Keras model. Received: {type(model).__name__} {model!r}."
        )
    if not getattr(model, "built", True):
        raise GPUConfigError(
            f"{where}: the model has no weights yet. Build it first (give its first layer an "
            "input_shape, or call model.build(input_shape)), as Keras 2 required."
        )


def _requested_ids(gpus: Any) -> list[int] | None:
    """``gpus`` as a list of GPU ids; None means "all GPUs"."""
    if gpus is None:
        return None
    ids: list[int] | None
    if isinstance(gpus, bool):
        ids = None
    elif isinstance(gpus, int):
        ids = list(range(gpus)) if gpus >= 2 else None
    elif isinstance(gpus, (list, tuple)) and all(
        isinstance(g, int) and not isinstance(g, bool) and g >= 0 for g in gpus
    ):
        ids = list(gpus) if len(gpus) >= 2 and len(set(gpus)) == len(gpus) else None
    else:
        ids = None
    if ids is None:
        raise GPUConfigError(
            "multi_gpu_model: expected gpus >= 2 or a list of at least two distinct GPU ids. "
            f"Received: gpus={gpus!r}. For one GPU, train the model itself; for all GPUs, "
            "leave gpus=None."
        )
    return ids


def replica_devices(gpus: Any) -> tuple[list[str], str | None]:
    """The GPUs ``multi_gpu_model(gpus=...)`` trains on here, and a warning when not all exist.

    An empty list means the template runs by itself (no GPU, or just GPU 0).
    """
    from tfcompat_gpu.dropin._discovery import logical_gpu_names

    present = len(logical_gpu_names())
    wanted = _requested_ids(gpus)
    if wanted is None:  # all GPUs, as Keras 2 did
        if present >= 2:
            return [f"/gpu:{i}" for i in range(present)], None
        wanted = []
    found = [i for i in wanted if i < present]
    devices = [f"/gpu:{i}" for i in found]
    if found == wanted and len(found) >= 2:
        return devices, None
    asked = "all GPUs" if not wanted else f"gpus={gpus!r}"
    have = f"{present} GPU(s) visible" if present else "no GPU visible"
    if len(devices) >= 2:
        runs = f"the model trains data-parallel on {', '.join(devices)} only"
    elif devices == ["/gpu:0"] or (not devices and present):
        devices, runs = [], "the template model itself runs, on /gpu:0"
    elif devices:
        runs = f"the model runs on {devices[0]} alone"
    else:
        runs = "the template model itself runs, on the CPU"
    return devices, f"multi_gpu_model({asked}): {have}; {runs}."


class _Replica:
    """A clone of ``template`` in ``strategy.scope()`` that keeps the template's weights current."""

    def __init__(self, template: Any, strategy: Any, parallel: Any) -> None:
        self.template = template
        self.strategy = strategy
        self.parallel = parallel
        self._lock = threading.RLock()

    def pull(self) -> None:
        """Template → replica (before each call: the script may have changed the template)."""
        with self._lock:
            self.parallel.set_weights(self.template.get_weights())

    def push(self) -> None:
        """Replica → template (after training: the template is what Keras 2 scripts save)."""
        with self._lock:
            self.template.set_weights(self.parallel.get_weights())

    def callback(self) -> Any:
        base = importlib.import_module(f"{_root(self.parallel)}.callbacks").Callback
        replica = self

        class _CopyToTemplate(base):  # type: ignore[misc, valid-type]
            """Keeps the template current at each epoch end, before the user's callbacks run."""

            def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
                replica.push()

        return _CopyToTemplate()

    def method(self, name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        training = name in _TRAINING

        def call(*args: Any, **kwargs: Any) -> Any:
            if name in ("fit", "fit_generator"):
                callbacks = list(kwargs.get("callbacks") or [])
                kwargs["callbacks"] = [self.callback(), *callbacks]
            self.pull()
            try:
                return original(*args, **kwargs)
            finally:
                if training:
                    self.push()

        call.__name__ = call.__qualname__ = name
        call.__doc__ = getattr(original, "__doc__", None)
        return call

    def route(self, model: Any, targets: Sequence[str] = _TRAINING + _READING) -> None:
        """Bind ``model``'s training/inference methods to the replica's, with the copies."""
        for name in targets:
            original = getattr(self.parallel, name, None)
            if original is not None:
                object.__setattr__(model, name, self.method(name, original))
        object.__setattr__(model, "_tfcompat_replica", self)


def _strategy(devices: list[str], cpu_merge: bool) -> Any:
    tf = _tf.tf()
    distribute = tf.compat.v1.distribute if _tf.graph_mode() else tf.distribute
    ops = tf.distribute.ReductionToOneDevice(reduce_to_device="/cpu:0") if cpu_merge else None
    return distribute.MirroredStrategy(devices=devices, cross_device_ops=ops)


def replicate(template: Any, strategy: Any) -> _Replica:
    """Clone ``template`` in ``strategy.scope()`` with its weights; GPUConfigError if impossible."""
    clone_model = importlib.import_module(f"{_root(template)}.models").clone_model
    try:
        with strategy.scope():
            parallel = clone_model(template)
            parallel.set_weights(template.get_weights())
    except (ValueError, TypeError, NotImplementedError) as error:
        raise GPUConfigError(
            f"Cannot replicate {type(template).__name__} {getattr(template, 'name', '')!r} over "
            f"{strategy.num_replicas_in_sync} devices: Keras could not clone it ({error}). Build "
            "the model inside the strategy's scope instead: `with strategy.scope(): model = ...; "
            "model.compile(...)` (tfcompat-gpu migrate rewrites it where it can)."
        ) from error
    return _Replica(template, strategy, parallel)


def multi_gpu_model(
    model: Any, gpus: Any = None, cpu_merge: bool = True, cpu_relocation: bool = False
) -> Any:
    """Keras 2's ``multi_gpu_model``: data-parallel over ``gpus`` with ``MirroredStrategy``.

    Returns a replica of ``model`` built in ``tf.distribute.MirroredStrategy(devices=...)``'s
    scope; compile and train it, and save ``model`` (the template), which receives the trained
    weights after each ``fit``/``fit_generator``/``train_on_batch`` and at each epoch end.
    ``cpu_merge=True`` reduces gradients on the CPU (``ReductionToOneDevice("/cpu:0")``), as
    Keras 2 merged outputs there; ``cpu_relocation`` is accepted and has no effect (mirrored
    variables live on every replica device).  With fewer GPUs than asked it warns once and
    uses those that exist; with none or one, it returns ``model`` itself.

    Example::

        from keras.utils import multi_gpu_model
        parallel = multi_gpu_model(model, gpus=2)
        parallel.compile(loss="categorical_crossentropy", optimizer="rmsprop")
        parallel.fit(x, y, epochs=20, batch_size=256)
        model.save("my_model.h5")       # the trained weights
    """
    _check_model(model, "multi_gpu_model")
    for name, value in (("cpu_merge", cpu_merge), ("cpu_relocation", cpu_relocation)):
        if not isinstance(value, bool):
            raise GPUConfigError(
                f"multi_gpu_model: expected {name} to be True or False. Received: {name}={value!r}."
            )
    devices, warning = replica_devices(gpus)
    if warning:
        _warn(f"multi_gpu_model-{warning}", warning)
    if not devices:
        return model
    return parallel_model(model, devices, cpu_merge)


def parallel_model(model: Any, devices: list[str], cpu_merge: bool = True) -> Any:
    """The replica of ``model`` on ``devices`` that :func:`multi_gpu_model` returns.

    Any devices will do (``["/cpu:0", "/cpu:1"]`` with two logical CPUs, say); its ``compile``
    runs in the strategy's scope, and its training calls keep ``model``'s weights current.
    """
    _check_model(model, "multi_gpu_model")
    replica = replicate(model, _strategy(devices, cpu_merge))
    parallel = replica.parallel
    original_compile = parallel.compile

    def compile(*args: Any, **kwargs: Any) -> Any:
        with replica.strategy.scope():
            return original_compile(*args, **kwargs)

    object.__setattr__(parallel, "compile", compile)
    replica.route(parallel)
    return parallel


# -- compile(distribute=...) ----------------------------------------------------------------


def _num_replicas(strategy: Any) -> int:
    count = getattr(strategy, "num_replicas_in_sync", None)
    if not isinstance(count, int):
        raise GPUConfigError(
            "compile(distribute=...): expected a tf.distribute strategy such as "
            f"tf.distribute.MirroredStrategy(). Received: distribute={strategy!r}."
        )
    return count


def _is_default_strategy(strategy: Any) -> bool:
    tf = _tf.tf()
    return bool(strategy is tf.distribute.get_strategy() and not tf.distribute.has_strategy())


def compile_with_distribute(wrapped: Any, instance: Any, args: Any, kwargs: Any) -> Any:
    """``Model.compile`` accepting TF 1.11-1.14's ``distribute=strategy``.

    One replica on the default device: the argument is dropped (the program is the same).
    Otherwise the model is replicated in the strategy's scope and its ``fit``/``evaluate``/
    ``predict``/``*_on_batch`` run there, its own weights kept current; a warning names the fix
    (``with strategy.scope():``).  A model Keras cannot clone raises :class:`GPUConfigError`.
    """
    from tfcompat_gpu.dropin._keras2_models import (
        keras2_metrics,
        keras2_optimizer,
        keras2_targets,
    )

    kwargs = keras2_metrics(kwargs)  # metrics=['accuracy'] where the script reads 'acc'
    args, kwargs = keras2_targets(args, kwargs)  # float labels for the script's own losses
    if "distribute" not in kwargs:
        # one optimizer, several models (not the replica below: its template never trains)
        args, kwargs = keras2_optimizer(instance, args, kwargs)
        _refuse_v1_optimizer(instance, args, kwargs)
        return wrapped(*args, **kwargs)
    kwargs = dict(kwargs)
    strategy = kwargs.pop("distribute")
    _refuse_v1_optimizer(instance, args, kwargs)
    if strategy is None:
        return wrapped(*args, **kwargs)
    count = _num_replicas(strategy)
    if _root(instance) == "keras" and _keras3() and _tf.graph_mode():
        raise GPUConfigError(
            "compile(distribute=...): Keras 3 models run eagerly or in tf.functions, never with "
            "v2 behaviour disabled (tfcompat-gpu run --tf1 or disable_eager_execution()). Run "
            "the script without --tf1, or with tf_keras (TF_USE_LEGACY_KERAS=1)."
        )
    tf = _tf.tf()
    one_default = count == 1 and isinstance(
        strategy, (tf.distribute.MirroredStrategy, tf.compat.v1.distribute.MirroredStrategy)
    )
    if count == 1 and (one_default or _is_default_strategy(strategy)):
        return wrapped(*args, **kwargs)
    _check_model(instance, "compile(distribute=...)")
    replica = replicate(instance, strategy)
    with strategy.scope():
        result = replica.parallel.compile(*args, **kwargs)
    wrapped(*args, **kwargs)  # the template keeps its loss/metrics for summary() and save()
    replica.route(instance)
    _warn(
        f"compile-distribute-{id(instance)}",
        f"compile(distribute=...) was removed in TensorFlow 1.14: model "
        f"{getattr(instance, 'name', '')!r} was built outside the strategy, so it is replicated "
        f"over {count} replica(s) by cloning it into the strategy's scope, and its weights are "
        "copied back after training. Fix: build and compile it inside `with strategy.scope():` "
        "(tfcompat-gpu migrate rewrites it).",
    )
    return result


_V1_TO_KERAS = {
    "GradientDescentOptimizer": "keras.optimizers.SGD(learning_rate=...)",
    "MomentumOptimizer": "keras.optimizers.SGD(learning_rate=..., momentum=...)",
    "AdamOptimizer": "keras.optimizers.Adam(learning_rate=...)",
    "RMSPropOptimizer": "keras.optimizers.RMSprop(learning_rate=...)",
    "AdagradOptimizer": "keras.optimizers.Adagrad(learning_rate=...)",
    "AdadeltaOptimizer": "keras.optimizers.Adadelta(learning_rate=...)",
    "FtrlOptimizer": "keras.optimizers.Ftrl(learning_rate=...)",
}


def _refuse_v1_optimizer(instance: Any, args: Any, kwargs: Any) -> None:
    """Keras 3 cannot train with a ``tf.compat.v1.train`` optimizer: say so and name the fix."""
    if _root(instance) != "keras" or not _keras3():
        return
    optimizer = kwargs.get("optimizer", args[0] if args else None)
    v1 = _tf.tf().compat.v1.train.Optimizer
    if not isinstance(optimizer, v1):
        return
    name = type(optimizer).__name__
    use = _V1_TO_KERAS.get(name, "the keras.optimizers class of the same algorithm")
    raise GPUConfigError(
        f"compile: Keras 3 does not accept TensorFlow 1 optimizers. Received: "
        f"optimizer=tf.compat.v1.train.{name}. Use {use} instead, or run the script with "
        "tf_keras (pip install tf_keras; TF_USE_LEGACY_KERAS=1), which still accepts it."
    )


def _keras3() -> bool:
    import sys

    keras = sys.modules.get("keras")
    version = str(getattr(keras, "__version__", "0"))
    return version.split(".")[0] == "3"
