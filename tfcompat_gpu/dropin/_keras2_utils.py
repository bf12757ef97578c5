"""Keras 2 helpers that model-zoo code imports and tf_keras no longer has, answered as Keras 2 did.

The ImageNet model files of Keras 2's era (fchollet/deep-learning-models' ``resnet50.py``,
``vgg16.py``, and the DenseNet / SE-Net / style-transfer repositories written after them)
import three helpers of the Keras they were written for:

* ``keras.applications.imagenet_utils._obtain_input_shape``: Keras 2.0's took the flag as
  ``include_top`` (fifth argument), Keras 2.1-2.2's as ``require_flatten`` with ``weights=``;
  tf_keras keeps the later one as ``tf_keras.src.applications.imagenet_utils
  .obtain_input_shape``.  Both keywords are taken: ``include_top=`` with Keras 2.0's checks
  (with a top, the default shape and three channels, which the later one checks for ImageNet
  weights), a fifth argument given by position as the later ``require_flatten``.
* ``keras.utils.conv_utils.convert_kernel`` and ``keras.utils.layer_utils
  .convert_all_kernels_in_model``: kernels flipped between Theano's convolution and
  TensorFlow's (every spatial axis reversed, the channel axes kept), which these files call
  when the weights and the backend disagree.  tf_keras dropped both.

Keras 2's ``keras/layers/__init__.py`` imported its submodules, so that model files reach a
layer through its module as an attribute (``keras.layers.normalization.BatchNormalization``,
without importing ``keras.layers.normalization``); tf_keras' ``layers`` API modules get a module
``__getattr__`` that serves those submodules as the legacy-Keras finder builds them.

Custom layers written for Keras 2.0 call ``self.add_weight(shape, initializer, name=...)``:
Keras 2.1 put ``name`` first, as tf_keras has it, so a first argument that is not a string is
read in Keras 2.0's order.  Their ``build`` often ends with ``self.trainable_weights =
[self.W]`` (the attention layers of DeepMoji and of the hierarchical attention networks, whose
``self.W`` is an ``add_weight`` or a ``K.variable``): Keras 2's ``Layer`` had a setter for
``trainable_weights`` and ``non_trainable_weights`` that replaced the layer's own list
(keras/engine/base_layer.py of 2.2), which tf_keras' read-only properties refuse ("Can't set
the attribute").  The setters are given back, with Keras 2's meaning.

And one behaviour of Keras 2's ``K.function`` in a v1 graph: an output that is also an input
(``get_activations``' ``[layer.output for layer in model.layers]``, whose first layer is the
``InputLayer``, whose output is the fed placeholder).  Keras 2 ran ``session.run`` with a
``feed_dict``, which returns a fed tensor's value; tf_keras' ``GraphExecutionFunction`` makes a
callable, which TensorFlow refuses ("input_1:0 is both fed and fetched").  Such an output is
fetched through ``tf.identity``, the same value.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from tfcompat_gpu.dropin._keras2_models import keras2_class_weight
from tfcompat_gpu.dropin._moves import KERAS_BACKENDS, Move

TYPE_CHECKING = False  # (typing stays unloaded: every ``run`` imports the drop-in)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = [
    "CONV_CLASSES",
    "MOVES",
    "add_weight",
    "convert_all_kernels",
    "convert_kernel",
    "graph_function_init",
    "obtain_input_shape",
    "weights_setter",
]

CONV_CLASSES = frozenset({"Conv1D", "Conv2D", "Conv3D", "Conv2DTranspose"})
"""The layers whose kernels Keras 2's ``convert_all_kernels_in_model`` flipped."""


def obtain_input_shape(module: ModuleType, current: Any) -> Any:
    def _obtain_input_shape(
        input_shape: Any,
        default_size: int,
        min_size: int,
        data_format: str,
        require_flatten: bool | None = None,
        weights: str | None = None,
        include_top: bool | None = None,
    ) -> Any:
        from tf_keras.src.applications import imagenet_utils

        if require_flatten is None and include_top is not None:
            # Keras 2.0's checks were those of 2.1+ with ImageNet weights: a top asks for the
            # default shape, and three channels
            require_flatten, weights = include_top, weights or "imagenet"
        return imagenet_utils.obtain_input_shape(
            input_shape,
            default_size,
            min_size,
            data_format,
            require_flatten=bool(require_flatten),
            weights=weights,
        )

    return _obtain_input_shape


def _flipped(kernel: Any) -> Any:
    import numpy as np

    array = np.asarray(kernel)
    if array.ndim not in (3, 4, 5):
        raise ValueError(
            f"convert_kernel expects a 1D, 2D or 3D convolution kernel (3 to 5 dimensions). "
            f"Received: kernel.shape={array.shape}"
        )
    spatial = array.ndim - 2  # (spatial..., input channels, output channels)
    return np.copy(array[(slice(None, None, -1),) * spatial])


def convert_kernel(module: ModuleType, current: Any) -> Any:
    def convert_kernel(kernel: Any) -> Any:
        """A convolution kernel with its spatial axes reversed (Theano <-> TensorFlow)."""
        return _flipped(kernel)

    return convert_kernel


def convert_all_kernels(module: ModuleType, current: Any) -> Any:
    def convert_all_kernels_in_model(model: Any) -> None:
        """Every Conv1D/2D/3D and Conv2DTranspose kernel of ``model`` flipped in place."""
        from tf_keras.src import backend  # its get/set work in eager and in v1 graph mode

        kernels = [layer.kernel for layer in model.layers if type(layer).__name__ in CONV_CLASSES]
        backend.batch_set_value([(k, _flipped(backend.get_value(k))) for k in kernels])

    return convert_all_kernels_in_model


def graph_function_init(module: ModuleType, current: Any) -> Any:
    """``GraphExecutionFunction.__init__`` (tf_keras' ``K.function`` in a v1 graph) with the
    outputs that are inputs fetched through ``tf.identity``."""
    tf = module.tf  # the TensorFlow tf_keras' backend imported

    def __init__(self: Any, inputs: Any, outputs: Any, *args: Any, **kwargs: Any) -> None:
        fed = {id(x) for x in tf.nest.flatten(inputs)}

        def fetched(output: Any) -> Any:
            if id(output) not in fed or not hasattr(output, "graph"):
                return output
            with output.graph.as_default():
                return tf.identity(output)

        current(self, inputs, tf.nest.map_structure(fetched, outputs), *args, **kwargs)

    return __init__


_KERAS20_ADD_WEIGHT = ("shape", "initializer", "name", "trainable", "regularizer", "constraint")
"""``Layer.add_weight``'s positional parameters in Keras 2.0 (keras/engine/topology.py); 2.1 put
``name`` first, as tf_keras has it."""


def add_weight(module: ModuleType, current: Any) -> Any:
    """``Layer.add_weight`` that also takes Keras 2.0's order, ``add_weight(shape, initializer,
    name=...)``: a first argument that is not a name (a shape) is read that way."""
    import functools

    @functools.wraps(current)
    def add_weight(self: Any, *args: Any, **kwargs: Any) -> Any:
        if (
            args
            and args[0] is not None
            and not isinstance(args[0], str)
            and len(args) <= len(_KERAS20_ADD_WEIGHT)
            and not any(key in kwargs for key in _KERAS20_ADD_WEIGHT[: len(args)])
        ):
            kwargs.update(zip(_KERAS20_ADD_WEIGHT, args))
            args = ()
        return current(self, *args, **kwargs)

    return add_weight


def weights_setter(attribute: str, other: str) -> Callable[[ModuleType, Any], Any]:
    """``Layer.trainable_weights`` (``non_trainable_weights``) with Keras 2's setter, which
    made the list the layer's own (``self._trainable_weights = weights``); reading is as
    tf_keras reads it.  A variable listed leaves the ``other`` list, where tf_keras' tracking of
    attributes put it (``self.scale = K.variable(...)`` counts as trainable there)."""

    def make(module: ModuleType, current: Any) -> Any:
        def setter(self: Any, weights: Any) -> None:
            weights = list(weights)
            kept = [w for w in getattr(self, other, ()) if all(w is not v for v in weights)]
            # past tf_keras' tracking of attributes, which would list each variable again
            object.__setattr__(self, attribute, weights)
            object.__setattr__(self, other, kept)

        return property(current.fget, setter, current.fdel, current.__doc__)

    return make


def _layer_modules(module: ModuleType, current: Any) -> Any:
    from tfcompat_gpu.dropin._keras2_paths import layers_getattr

    return layers_getattr(module)


def backend_tf(module: ModuleType, current: Any) -> Any:
    """Keras 2.0-2.2's ``K.tf``: the TensorFlow 1 module its backend imported (``from
    keras.backend import tf as ktf; ktf.image.resize_images(...)`` in a ``Lambda``), which
    TensorFlow 2 serves as ``tf.compat.v1``."""
    from tfcompat_gpu.tfapi import _tf

    return _tf.tf().compat.v1


def relu6(module: ModuleType, current: Any) -> Any:
    """Keras 2.0-2.1's ``keras.applications.mobilenet.relu6`` (``K.relu(x, max_value=6)``),
    the custom object a saved MobileNet is loaded with: the activation of the Keras in use."""
    root = module.__name__.partition(".")[0]
    found = getattr(importlib.import_module(f"{root}.activations"), "relu6", None)
    if found is not None:
        return found
    backend = importlib.import_module(f"{root}.backend")

    def relu6(x: Any) -> Any:
        return backend.relu(x, max_value=6.0)

    return relu6


def depthwise_conv2d(module: ModuleType, current: Any) -> Any:
    """Keras 2.0-2.1's ``keras.applications.mobilenet.DepthwiseConv2D``, a layer 2.2 moved to
    ``keras.layers``."""
    root = module.__name__.partition(".")[0]
    return importlib.import_module(f"{root}.layers").DepthwiseConv2D


_MOBILENET = (
    "MobileNet files of Keras 2.0-2.1 are loaded with custom objects imported from "
    "keras.applications.mobilenet (relu6, DepthwiseConv2D), which later Keras dropped there"
)
_MODEL_FILES = (
    "Keras 2 ImageNet model files (deep-learning-models' resnet50.py, vgg16.py and their "
    "copies) import these helpers, which tf_keras renamed or dropped"
)
MOVES: tuple[Move, ...] = (
    *(
        Move(
            backend,
            "tf",
            backend_tf,
            True,
            "Keras 2.0-2.2 code reaches TensorFlow through the backend (`from keras.backend "
            "import tf as ktf`), which tf_keras and Keras 3 no longer hold",
        )
        for backend in KERAS_BACKENDS
    ),
    *(
        Move(module, "_obtain_input_shape", obtain_input_shape, True, _MODEL_FILES)
        for module in (
            "tf_keras.applications.imagenet_utils",
            "tf_keras.src.applications.imagenet_utils",
        )
    ),
    *(
        Move(module, name, make, True, _MOBILENET)
        for module in (
            "keras.applications.mobilenet",
            "tf_keras.applications.mobilenet",
            "tf_keras.src.applications.mobilenet",
        )
        for name, make in (("relu6", relu6), ("DepthwiseConv2D", depthwise_conv2d))
    ),
    Move("tf_keras.src.utils.conv_utils", "convert_kernel", convert_kernel, True, _MODEL_FILES),
    Move(
        "tf_keras.src.utils.layer_utils",
        "convert_all_kernels_in_model",
        convert_all_kernels,
        True,
        _MODEL_FILES,
    ),
    *(
        Move(
            layers,
            "__getattr__",
            _layer_modules,
            True,
            "Keras 2 code reaches layers through their module as attributes "
            "(keras.layers.normalization.BatchNormalization), which keras/layers/__init__.py "
            "imported; tf_keras' API modules hold no such attributes",
        )
        for layers in (
            "tf_keras.layers",
            "tf_keras.api._v1.keras.layers",
            "tf_keras.api._v2.keras.layers",
        )
    ),
    *(
        Move(
            module,
            "Layer.add_weight",
            add_weight,
            False,
            "custom layers written for Keras 2.0 call self.add_weight(shape, initializer, "
            "name=...), which tf_keras reads as add_weight(name, shape) ('got multiple values "
            "for argument name')",
        )
        for module in ("tf_keras.src.engine.base_layer", "tf_keras.src.engine.base_layer_v1")
    ),
    *(
        Move(
            "tf_keras.src.engine.base_layer",
            f"Layer.{name}",
            weights_setter(f"_{name}", f"_{other}"),
            False,
            f"custom layers written for Keras 2 end build() with self.{name} = [self.W], "
            "which Keras 2's setter took and tf_keras' read-only property refuses",
        )
        for name, other in (
            ("trainable_weights", "non_trainable_weights"),
            ("non_trainable_weights", "trainable_weights"),
        )
    ),
    Move(
        "tf_keras.src.backend",
        "GraphExecutionFunction.__init__",
        graph_function_init,
        False,
        "Keras 2's K.function fetched an output that is also an input (an InputLayer's output, "
        "in get_activations); tf_keras' callable refuses it ('both fed and fetched')",
    ),
    *(
        Move(
            module,
            f"{owner}.{method}",
            keras2_class_weight,
            False,
            "Keras 2 scripts give a model with several outputs one class_weight per output "
            "(class_weight=[cw1, cw2], the AC-GAN's), which tf_keras and Keras 3 refuse",
        )
        for module, owner in (
            ("tf_keras.src.engine.training", "Model"),
            ("tf_keras.src.engine.training_v1", "Model"),
            ("keras.src.backend.tensorflow.trainer", "TensorFlowTrainer"),
        )
        for method in ("fit", "train_on_batch")
    ),
)
