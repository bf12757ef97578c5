"""Keras 1 layer arguments under ``run --legacy-keras``, read as Keras 2.0-2.2 read them.

Keras 2 translated them with a warning (the ``legacy_*_support`` decorators of
keras/legacy/interfaces.py, Keras 2.2.4): ``Dense(output_dim=, init=)``,
``Convolution2D(32, 3, 3, border_mode='same', dim_ordering='th')``, ``Dropout(p=)``, ...
tf_keras rejects them (``Keyword argument not understood: 'init'``).  Each layer's ``__init__``
is wrapped to translate them again, from the table the codemod uses
(:mod:`tfcompat_gpu.tfapi.keras1_names`), with Keras 2's warning; a call without a Keras 1
keyword passes through untouched, so ``Conv2D(64, 3, 2)`` keeps meaning strides=2, as in every
Keras since 2.3 (the kernel sizes given one at a time are joined only beside a Keras 1 keyword,
or where the call spells the layer by its Keras 1 name: ``Convolution2D(64, 3, 3)`` is a 3x3
kernel, as Keras 1 and Keras 2.0-2.2 read it, where tf_keras' ``Convolution2D`` alias of
``Conv2D`` reads strides=3).
"""

from __future__ import annotations

from tfcompat_gpu.dropin._moves import Move
from tfcompat_gpu.tfapi.keras1_names import KERAS1_REGULARIZERS

TYPE_CHECKING = False  # (typing stays unloaded: every ``run`` imports the drop-in)
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

__all__ = ["KERAS1_ALIASES", "LAYERS", "MOVES", "keras1_alias", "keras1_layer"]

LAYERS = (
    "Dense",
    "Dropout",
    "SpatialDropout1D",
    "SpatialDropout2D",
    "SpatialDropout3D",
    "GaussianDropout",
    "GaussianNoise",
    "Embedding",
    "PReLU",
    "BatchNormalization",
    "MaxPooling1D",
    "AveragePooling1D",
    "MaxPooling2D",
    "AveragePooling2D",
    "MaxPooling3D",
    "AveragePooling3D",
    "GlobalMaxPooling2D",
    "GlobalAveragePooling2D",
    "GlobalMaxPooling3D",
    "GlobalAveragePooling3D",
    "UpSampling1D",
    "UpSampling2D",
    "UpSampling3D",
    "ZeroPadding2D",
    "ZeroPadding3D",
    "Cropping2D",
    "Cropping3D",
    "Conv1D",
    "Conv2D",
    "Conv3D",
    "Conv2DTranspose",
    "SeparableConv2D",
    "ConvLSTM2D",
    "LSTM",
    "GRU",
    "SimpleRNN",
)
"""The classes of ``keras.layers`` whose ``__init__`` is wrapped (each once: ``Convolution2D``
is ``Conv2D`` in tf_keras)."""


def _translated(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """``args`` with Keras 1's kernel sizes joined; ``kwargs`` renamed in place."""
    from tfcompat_gpu.tfapi.keras1_names import (
        CHANNELS,
        CONSUME_LESS,
        DROPPED,
        KERAS1_KEYWORDS,
        KERNEL_DIMS,
    )

    for old, new in KERAS1_KEYWORDS[name].items():
        if old not in kwargs:
            continue
        if new in kwargs:
            raise TypeError(f"{name}() got both {old}= (Keras 1) and {new}= (Keras 2); keep {new}=")
        value = kwargs.pop(old)
        if old == "dim_ordering":
            if value not in CHANNELS:
                raise ValueError(
                    f"{name}(dim_ordering={value!r}): expected 'tf', 'th' or 'default'"
                )
            value = CHANNELS[value]
        elif old == "consume_less":
            if value not in CONSUME_LESS:
                raise ValueError(f"{name}(consume_less={value!r}): expected 'cpu', 'mem' or 'gpu'")
            value = CONSUME_LESS[value]
        elif old == "border_mode" and value == "full":
            raise ValueError(
                f"{name}(border_mode='full'): Keras 2 has no such padding; use 'same' or 'valid'"
            )
        kwargs[new] = value
    if name == "SeparableConv2D" and "init" in kwargs:
        value = kwargs.pop("init")
        kwargs.setdefault("depthwise_initializer", value)
        kwargs.setdefault("pointwise_initializer", value)
    if name == "BatchNormalization" and kwargs.pop("mode", 0) != 0:
        raise ValueError("BatchNormalization(mode=1 or 2) has no Keras 2 equivalent")
    for dropped in DROPPED.get(name, ()):
        kwargs.pop(dropped, None)
    dims = KERNEL_DIMS.get(name, ())
    if dims:
        given = [kwargs.pop(dim) for dim in dims if dim in kwargs]
        if given and "kernel_size" not in kwargs:
            if len(given) != len(dims):
                raise TypeError(f"{name}() needs all of {', '.join(dims)} or none")
            kwargs["kernel_size"] = tuple(given)
        # Convolution2D(32, 3, 3): filters, then one size per dimension
        rest = args[1:]
        if len(rest) == len(dims) and all(type(size) is int for size in rest):
            args = (args[0], tuple(rest))
    return args


def _uses_keras1(name: str, kwargs: dict[str, Any]) -> bool:
    from tfcompat_gpu.tfapi.keras1_names import DROPPED, KERAS1_KEYWORDS, KERNEL_DIMS

    if any(key in kwargs for key in KERAS1_KEYWORDS[name]):
        return True
    if any(dim in kwargs for dim in KERNEL_DIMS.get(name, ())):
        return True
    if any(dropped in kwargs for dropped in DROPPED.get(name, ())):
        return True
    return (name == "SeparableConv2D" and "init" in kwargs) or (
        name == "BatchNormalization" and "mode" in kwargs
    )


def keras1_layer(name: str, enabled: Any) -> Any:
    """A move's ``make`` that wraps ``<name>.__init__`` to take Keras 1 arguments.

    ``enabled()`` says whether legacy Keras is on; off, the wrapper passes every call through.
    """

    def make(module: ModuleType, current: Any) -> Any:
        import wrapt

        def init(wrapped: Any, instance: Any, args: Any, kwargs: Any) -> Any:
            if not kwargs or not enabled() or not _uses_keras1(name, kwargs):
                return wrapped(*args, **kwargs)
            import warnings

            kwargs = dict(kwargs)
            before = sorted(kwargs)
            args = _translated(name, tuple(args), kwargs)
            changed = ", ".join(f"{key}=" for key in before if key not in kwargs)
            warnings.warn(
                f"Update your `{name}` call to the Keras 2 API (Keras 1 arguments: {changed}); "
                "tfcompat-gpu migrate rewrites it",
                stacklevel=2,
            )
            return wrapped(*args, **kwargs)

        return wrapt.FunctionWrapper(current, init)

    make.__name__ = f"keras1_{name}"
    return make


KERAS1_ALIASES = {
    "Convolution2D": "Conv2D",
    "Convolution3D": "Conv3D",
    "SeparableConvolution2D": "SeparableConv2D",
}
"""The Keras 1 names tf_keras keeps as aliases of the Keras 2 classes, which Keras 1 called with
one kernel size per dimension after the filters."""


def keras1_alias(name: str, enabled: Any) -> Any:
    """A move's ``make`` that puts a subclass behind the Keras 1 alias ``name``.

    ``Convolution2D(64, 3, 3)`` then builds ``Conv2D(64, (3, 3))``, with Keras 2's warning; the
    subclass keeps its class's name and module, so saved models name ``Conv2D`` as before and
    load without it.  Off (``enabled()`` false), the calls pass through.
    """

    def make(module: ModuleType, current: Any) -> Any:
        from tfcompat_gpu.tfapi.keras1_names import KERNEL_DIMS

        if getattr(current, "_keras1_alias", False) or not isinstance(current, type):
            return current
        base = KERAS1_ALIASES[name]
        dims = len(KERNEL_DIMS[base])
        base_init = getattr(current, "__init__")  # noqa: B009  (the wrapped one)

        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            sizes = args[1:]
            joined = len(sizes) == dims and all(type(size) is int for size in sizes)
            if enabled() and (joined or (kwargs and _uses_keras1(base, kwargs))):
                import warnings

                kwargs = dict(kwargs)
                before = sorted(kwargs)
                args = _translated(base, tuple(args), kwargs)
                changed = [f"{key}=" for key in before if key not in kwargs]
                if joined:
                    changed.insert(0, f"{name}({args[0]!r}, {', '.join(map(str, sizes))})")
                warnings.warn(
                    f"Update your `{base}` call to the Keras 2 API (Keras 1 arguments: "
                    f"{', '.join(changed)}); tfcompat-gpu migrate rewrites it",
                    stacklevel=2,
                )
            base_init(self, *args, **kwargs)

        alias = type(
            current.__name__,
            (current,),
            {
                "__init__": __init__,
                "__module__": current.__module__,
                "__qualname__": current.__qualname__,
                "__doc__": current.__doc__,
                "_keras1_alias": True,
            },
        )
        return alias

    make.__name__ = f"keras1_alias_{name}"
    return make


def _legacy_keras_enabled() -> bool:
    from tfcompat_gpu.dropin import _legacy_keras

    return _legacy_keras._enabled


def _regularizer(name: str) -> Any:
    def make(module: ModuleType, current: Any) -> Any:
        return getattr(module, name)

    make.__name__ = f"keras1_{name}"
    return make


def _tensorflow_python(module: ModuleType, current: Any) -> Any:
    # TensorFlow's implementation package, which TF 2 no longer shows as ``tf.python``
    import sys

    return sys.modules.get("tensorflow.python", current)


MOVES: tuple[Move, ...] = (
    Move(
        "tensorflow",
        "python",
        _tensorflow_python,
        only_if_missing=True,
        why="scripts of the Keras 1 days set `tf.python.control_flow_ops = tf` for Keras 1.1's "
        "backend (a line the self-driving-car courses handed out); TF 2 hides tf.python",
    ),
    *(
        Move(
            module,
            name,
            keras1_alias(name, _legacy_keras_enabled),
            only_if_missing=False,
            why="under legacy_keras, a layer called by its Keras 1 name takes Keras 1's kernel "
            "sizes one per dimension (Convolution2D(64, 3, 3) is a 3x3 kernel, not strides=3); "
            "a pass-through otherwise",
        )
        for module in ("tf_keras.layers", "tf_keras.src.layers.convolutional")
        for name in KERAS1_ALIASES
    ),
    *(
        Move(
            module,
            name,
            _regularizer(new),
            only_if_missing=True,
            why="Keras 1 scripts import its regularizer functions (`from keras.regularizers "
            "import l2, activity_l2`), which Keras 2 renamed or dropped",
        )
        for module in ("tf_keras.regularizers", "keras.regularizers")
        for name, new in KERAS1_REGULARIZERS.items()
    ),
)
