"""What ``run``'s auto mode reads in one call or name of a script: Keras 2 or TF 1.x only.

Keywords only Keras 2 takes (Keras 1 layer arguments, Keras 2 callback arguments), Keras 2
names no later Keras has, and TF 1.x keywords TF 2 removed (``tfapi.tf1_names.TF1_KEYWORDS``,
which ``migrate``'s ``tf1_keyword_arguments`` renames).  Plain :mod:`ast`; nothing is imported.
"""

from __future__ import annotations

import ast

from tfcompat_gpu.dropin._keras2_models import LAYER_ALIASES, OPTIMIZER_ALIASES
from tfcompat_gpu.tfapi.keras_names import (
    KERAS2_CALLBACK_KEYWORDS,
    KERAS3_IMAGE,
    KERAS3_SEQUENCE,
    TF_KERAS_PREPROCESSING,
)
from tfcompat_gpu.tfapi.tf1_names import TF1_KEYWORDS

__all__ = ["dropped_name", "keras2_keyword", "tf1_keyword"]


def keras2_keyword(name: str, node: ast.Call) -> str | None:
    """A keyword only Keras 2 takes, if any: a Keras 1 layer argument Keras 2.0-2.2 still read
    (``Dense(init=...)``), one Keras 3 layers reject and tf_keras takes (``batch_size=``,
    ``batch_input_shape=``, ``weights=`` but on ``Embedding`` / ``Bidirectional``), or a Keras 2
    callback keyword (``TensorBoard(write_grads=...)``, ``ModelCheckpoint(period=...)``)."""
    from tfcompat_gpu.tfapi.keras1_names import KERAS1_KEYWORDS, KERNEL_DIMS, LAYER_CLASSES

    short = name.rpartition(".")[2]
    found = LAYER_CLASSES.get(short)
    old: set[str | None] = set()
    if found is not None and (".layers" in name or short in ("Model", "Input")):
        old = {*KERAS1_KEYWORDS[found[0]], *KERNEL_DIMS.get(found[0], ())}
    if ".layers." in name:
        old |= {"batch_size", "batch_input_shape"}
        old |= {"weights"} if short not in ("Embedding", "Bidirectional") else set()
    if ".callbacks." in name:
        old |= KERAS2_CALLBACK_KEYWORDS.get(short, frozenset())
    keyword = next((k.arg for k in node.keywords if k.arg in old), None)
    return None if keyword is None else f"{short}({keyword}=...)"


def dropped_name(name: str) -> bool:
    """``keras.layers.CuDNNLSTM``, ``keras.optimizers.rmsprop``: Keras 2 names no later Keras
    has, which ``run`` binds again on tf_keras (``_keras2_models``); and the Keras 2
    preprocessing names Keras 3's ``keras.preprocessing`` dropped (``ImageDataGenerator``),
    which tf_keras keeps."""
    module, _, last = name.rpartition(".")
    if module in TF_KERAS_PREPROCESSING:  # keras.preprocessing.image.ImageDataGenerator
        return last in TF_KERAS_PREPROCESSING[module] - KERAS3_IMAGE - KERAS3_SEQUENCE
    if module.endswith(".optimizers"):
        return last in OPTIMIZER_ALIASES
    return module.endswith(".layers") and last in LAYER_ALIASES


def tf1_keyword(name: str, node: ast.Call) -> str | None:
    """``tf.nn.softmax(dim=...)`` for ``tf.nn.softmax(x, dim=1)``: a TensorFlow function called
    with a keyword TF 1.x took and TF 2 removed (``tf.compat.v1`` still takes it)."""
    if not name.startswith("tensorflow."):
        return None
    rest = name[len("tensorflow.") :]
    if rest.startswith("compat.v1."):
        return None  # asked for the v1 API itself
    old = TF1_KEYWORDS.get(rest)
    keyword = None if old is None else next((k.arg for k in node.keywords if k.arg in old), None)
    return None if keyword is None else f"tf.{rest}({keyword}=...)"
