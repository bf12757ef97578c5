"""The ``tf.contrib`` modules ``run`` makes: ``tf.contrib.distribute`` mapped to ``tf.distribute``.

``tf.contrib`` was removed in TF 2.0.  Each ``tf.contrib.distribute`` name builds the TF2 class
that replaced it, with the TF1 arguments translated (``num_gpus`` becomes a device list,
``AllReduceCrossDeviceOps("nccl")`` becomes ``NcclAllReduce``).  In graph mode (``tfcompat-gpu
run --tf1``) the strategies are the ``tf.compat.v1.distribute`` ones, which v1 graphs and
Keras' v1 training loops need.  Of ``tf.contrib.layers``, the initializers, regularizers,
``fully_connected``, ``flatten``, ``batch_norm`` and ``dropout`` are served, with
``tf.contrib.framework.arg_scope`` (:mod:`tfcompat_gpu.dropin._contrib_layers`), and
``conv2d``, ``conv2d_transpose``, ``max_pool2d``, ``avg_pool2d``, with ``tf.contrib.slim``
(:mod:`tfcompat_gpu.dropin._contrib_conv`); of ``tf.contrib.rnn``, the core cells, static and
stacked bidirectional RNNs, of ``tf.contrib.seq2seq``, ``sequence_loss`` and the basic decoder,
of ``tf.contrib.legacy_seq2seq``, ``rnn_decoder``, ``sequence_loss_by_example`` and
``sequence_loss`` (:mod:`tfcompat_gpu.dropin._contrib_rnn`); of
``tf.contrib.learn``, ``preprocessing.VocabularyProcessor`` (:mod:`tfcompat_gpu.dropin._contrib_learn`); of
``tf.contrib.factorization``, the graph ``KMeans`` and its constants, which TensorFlow 2 still
ships as ``tensorflow.python.ops.clustering_ops`` (TF 1.15's contrib module re-exported that
class); ``tf.contrib.crf`` (:mod:`tfcompat_gpu.dropin._contrib_crf`); ``tf.contrib.eager``
(:mod:`tfcompat_gpu.dropin._contrib_eager`); ``tf.contrib.summary``
(:mod:`tfcompat_gpu.dropin._contrib_summary`).  Any other
``tf.contrib`` name raises an ``AttributeError`` that says so and names the module's successor
(:data:`~tfcompat_gpu.tfapi.contrib_names.CONTRIB_SUCCESSORS`), which ``run``'s hint also names
when the script imports one.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from tfcompat_gpu.errors import GPUConfigError
from tfcompat_gpu.tfapi import _tf

__all__ = [
    "NAMES",
    "contrib_module",
    "crf_module",
    "distribute_module",
    "factorization_module",
    "framework_module",
    "layers_module",
    "learn_module",
    "learn_preprocessing_module",
    "legacy_seq2seq_module",
    "removed_message",
    "rnn_module",
    "seq2seq_module",
    "slim_module",
]

CONTRIB = "tensorflow.contrib"
DISTRIBUTE = "tensorflow.contrib.distribute"
FRAMEWORK_MODULE = "tensorflow.contrib.framework"
LAYERS_MODULE = "tensorflow.contrib.layers"
RNN_MODULE = "tensorflow.contrib.rnn"
SEQ2SEQ_MODULE = "tensorflow.contrib.seq2seq"
SLIM_MODULE = "tensorflow.contrib.slim"
LEGACY_SEQ2SEQ_MODULE = "tensorflow.contrib.legacy_seq2seq"
LEARN_MODULE = "tensorflow.contrib.learn"
PREPROCESSING_MODULE = "tensorflow.contrib.learn.preprocessing"
FACTORIZATION_MODULE = "tensorflow.contrib.factorization"
CRF_MODULE = "tensorflow.contrib.crf"
# tf.contrib.factorization's names that were tensorflow/python/ops/clustering_ops.py's own
FACTORIZATION = (
    "KMeans",
    "RANDOM_INIT",
    "KMEANS_PLUS_PLUS_INIT",
    "KMC2_INIT",
    "SQUARED_EUCLIDEAN_DISTANCE",
    "COSINE_DISTANCE",
)


def _distribute(v1: bool = False) -> Any:
    tf = _tf.tf()
    return tf.compat.v1.distribute if v1 else tf.distribute


def _graph() -> bool:
    return _tf.graph_mode()


def _gpu_devices(num_gpus: int, field: str) -> list[str]:
    """``/gpu:0`` … for ``num_gpus``, or the devices that exist (a warning says which)."""
    if isinstance(num_gpus, bool) or not isinstance(num_gpus, int) or num_gpus < 0:
        raise GPUConfigError(
            f"{field}: expected a non-negative int. Received: {field}={num_gpus!r}. "
            "Pass the number of GPUs to mirror over, e.g. MirroredStrategy(num_gpus=2)."
        )
    from tfcompat_gpu.dropin._discovery import logical_gpu_names

    present = len(logical_gpu_names())
    if num_gpus == 0:
        return ["/cpu:0"]
    if present >= num_gpus:
        return [f"/gpu:{i}" for i in range(num_gpus)]
    from tfcompat_gpu.runtime.state import warn_once

    devices = [f"/gpu:{i}" for i in range(present)] or ["/cpu:0"]
    warn_once(
        f"contrib-{field}-{num_gpus}-{present}",
        f"tf.contrib.distribute.MirroredStrategy({field}={num_gpus}): this process has "
        f"{present} GPU(s); the strategy mirrors over {', '.join(devices)} instead.",
    )
    return devices


def MirroredStrategy(
    devices: Any = None,
    num_gpus: int | None = None,
    num_gpus_per_worker: int | None = None,
    cross_device_ops: Any = None,
    auto_shard_dataset: bool = False,
    cross_tower_ops: Any = None,
) -> Any:
    """``tf.contrib.distribute.MirroredStrategy`` → ``tf.distribute.MirroredStrategy``.

    ``num_gpus``/``num_gpus_per_worker`` become a device list of GPUs that exist;
    ``cross_tower_ops`` (TF 1.11) is ``cross_device_ops``; ``auto_shard_dataset`` has no TF2
    equivalent (TF2 shards datasets itself) and is ignored.

    Example::

        distribution = tf.contrib.distribute.MirroredStrategy(num_gpus=2)
    """
    del auto_shard_dataset
    ops = cross_device_ops if cross_device_ops is not None else cross_tower_ops
    count = num_gpus if num_gpus is not None else num_gpus_per_worker
    if devices is None and count is not None:
        devices = _gpu_devices(count, "num_gpus" if num_gpus is not None else "num_gpus_per_worker")
    return _distribute(_graph()).MirroredStrategy(devices=devices, cross_device_ops=ops)


def OneDeviceStrategy(device: str) -> Any:
    """``tf.contrib.distribute.OneDeviceStrategy`` → ``tf.distribute.OneDeviceStrategy``."""
    return _distribute(_graph()).OneDeviceStrategy(device)


def CollectiveAllReduceStrategy(num_gpus_per_worker: int = 0, communication: Any = None) -> Any:
    """``tf.contrib.distribute.CollectiveAllReduceStrategy`` → ``MultiWorkerMirroredStrategy``.

    The cluster comes from ``TF_CONFIG`` as before.  TF2 uses every GPU the worker sees:
    ``num_gpus_per_worker`` is checked against that count (a warning when they differ; restrict
    the GPUs with ``visible_device_list`` / ``CUDA_VISIBLE_DEVICES``).
    """
    tf = _tf.tf()
    from tfcompat_gpu.dropin._discovery import logical_gpu_names

    present = len(logical_gpu_names())
    if num_gpus_per_worker and num_gpus_per_worker != present:
        from tfcompat_gpu.runtime.state import warn_once

        warn_once(
            f"contrib-collective-{num_gpus_per_worker}-{present}",
            f"tf.contrib.distribute.CollectiveAllReduceStrategy(num_gpus_per_worker="
            f"{num_gpus_per_worker}): TF2's MultiWorkerMirroredStrategy uses every GPU the worker "
            f"sees ({present} here); restrict them with visible_device_list or "
            "CUDA_VISIBLE_DEVICES.",
        )
    options = None
    if communication is not None:
        options = tf.distribute.experimental.CommunicationOptions(implementation=communication)
    if _graph():
        return tf.compat.v1.distribute.experimental.MultiWorkerMirroredStrategy(
            communication=communication or tf.distribute.experimental.CollectiveCommunication.AUTO
        )
    return tf.distribute.MultiWorkerMirroredStrategy(communication_options=options)


def ParameterServerStrategy(num_gpus_per_worker: int = 0) -> Any:
    """``tf.contrib.distribute.ParameterServerStrategy`` → the ``tf.compat.v1`` one (``TF_CONFIG``).

    TF2's own ``ParameterServerStrategy`` needs a ``ClusterCoordinator`` and another training
    loop; the v1 strategy keeps the TF1 programming model (Estimator, v1 graphs).
    """
    del num_gpus_per_worker  # the v1 strategy uses the worker's GPUs
    return _tf.tf().compat.v1.distribute.experimental.ParameterServerStrategy()


def AllReduceCrossDeviceOps(
    all_reduce_alg: str = "nccl", num_packs: int = 1, *args: Any, **kwargs: Any
) -> Any:
    """``AllReduceCrossDeviceOps("nccl"|"hierarchical_copy")`` → ``NcclAllReduce`` / ``HierarchicalCopyAllReduce``."""
    distribute = _distribute()
    if all_reduce_alg == "nccl":
        return distribute.NcclAllReduce(num_packs=num_packs)
    if all_reduce_alg == "hierarchical_copy":
        return distribute.HierarchicalCopyAllReduce(num_packs=num_packs)
    raise GPUConfigError(
        "AllReduceCrossDeviceOps: expected all_reduce_alg='nccl' or 'hierarchical_copy'. "
        f"Received: all_reduce_alg={all_reduce_alg!r}. Use tf.distribute.NcclAllReduce() or "
        "tf.distribute.HierarchicalCopyAllReduce()."
    )


def get_cross_replica_context() -> Any:
    """The strategy in a cross-replica context, else None (TF 1.12's contract)."""
    distribute = _distribute()
    return distribute.get_strategy() if distribute.in_cross_replica_context() else None


def _alias(name: str, *, v1: bool = False) -> Any:
    return getattr(_distribute(v1 or _graph()), name)


# TF1 name -> how to get the TF2 object, resolved when first read.
NAMES: dict[str, Any] = {
    "MirroredStrategy": lambda: MirroredStrategy,
    "OneDeviceStrategy": lambda: OneDeviceStrategy,
    "CollectiveAllReduceStrategy": lambda: CollectiveAllReduceStrategy,
    "ParameterServerStrategy": lambda: ParameterServerStrategy,
    "AllReduceCrossDeviceOps": lambda: AllReduceCrossDeviceOps,
    "CrossDeviceOps": lambda: _distribute().CrossDeviceOps,
    "ReductionToOneDevice": lambda: _distribute().ReductionToOneDevice,
    "NcclAllReduce": lambda: _distribute().NcclAllReduce,
    "HierarchicalCopyAllReduce": lambda: _distribute().HierarchicalCopyAllReduce,
    "DistributionStrategy": lambda: _alias("Strategy"),
    "ReplicaContext": lambda: _alias("ReplicaContext"),
    "InputContext": lambda: _distribute().InputContext,
    "ReduceOp": lambda: _distribute().ReduceOp,
    "get_replica_context": lambda: _distribute().get_replica_context,
    "get_cross_replica_context": lambda: get_cross_replica_context,
    "get_distribution_strategy": lambda: _distribute().get_strategy,
    "has_distribution_strategy": lambda: _distribute().has_strategy,
    "in_cross_replica_context": lambda: _distribute().in_cross_replica_context,
    "get_loss_reduction": lambda: _distribute(v1=True).get_loss_reduction,
}


def _layers_getattr(name: str) -> Any:
    from tfcompat_gpu.dropin._contrib_conv import CONV_FUNCTIONS
    from tfcompat_gpu.dropin._contrib_layers import FUNCTIONS
    from tfcompat_gpu.dropin._contrib_summaries import SUMMARIES

    if name in FUNCTIONS:
        return FUNCTIONS[name]
    if name in CONV_FUNCTIONS:
        return CONV_FUNCTIONS[name]
    if name in SUMMARIES:
        return SUMMARIES[name]
    raise _missing("layers", name, _layers_all())


def _slim_getattr(name: str) -> Any:
    from tfcompat_gpu.dropin._contrib_conv import SLIM

    if name in SLIM:
        return SLIM[name]
    raise _missing("slim", name, sorted(SLIM))


def _framework_getattr(name: str) -> Any:
    from tfcompat_gpu.dropin._contrib_layers import FRAMEWORK
    from tfcompat_gpu.dropin._contrib_summaries import FRAMEWORK_V1, framework_function

    if name in FRAMEWORK:
        return FRAMEWORK[name]
    if name in FRAMEWORK_V1:
        return framework_function(name)
    raise _missing("framework", name, sorted({*FRAMEWORK, *FRAMEWORK_V1}))


def _rnn_getattr(name: str) -> Any:
    from tfcompat_gpu.dropin import _contrib_rnn
    from tfcompat_gpu.tfapi.contrib_names import CONTRIB_RNN

    if name in CONTRIB_RNN or name in _contrib_rnn.RNN_FUNCTIONS:
        return _contrib_rnn.rnn_name(name)
    raise _missing("rnn", name, _rnn_all())


def _seq2seq_getattr(name: str) -> Any:
    from tfcompat_gpu.dropin._contrib_rnn import SEQ2SEQ

    if name in SEQ2SEQ:
        return SEQ2SEQ[name]
    raise _missing("seq2seq", name, sorted(SEQ2SEQ))


def _legacy_seq2seq_getattr(name: str) -> Any:
    from tfcompat_gpu.dropin._contrib_rnn import LEGACY_SEQ2SEQ

    if name in LEGACY_SEQ2SEQ:
        return LEGACY_SEQ2SEQ[name]
    raise _missing("legacy_seq2seq", name, sorted(LEGACY_SEQ2SEQ))


def _learn_getattr(name: str) -> Any:
    if name == "preprocessing":
        return learn_preprocessing_module()
    raise _missing("learn", name, ["preprocessing"])


def _preprocessing_getattr(name: str) -> Any:
    from tfcompat_gpu.dropin._contrib_learn import PREPROCESSING

    if name in PREPROCESSING:
        return PREPROCESSING[name]
    raise _missing("learn.preprocessing", name, sorted(PREPROCESSING))


def _factorization_getattr(name: str) -> Any:
    if name in FACTORIZATION:
        return getattr(_tf.clustering_ops(), name)
    raise _missing("factorization", name, sorted(FACTORIZATION))


def _crf_getattr(name: str) -> Any:
    from tfcompat_gpu.dropin._contrib_crf import CRF

    if name in CRF:
        return CRF[name]
    raise _missing("crf", name, sorted(CRF))


def _missing(module: str, name: str, served: list[str]) -> AttributeError:
    """The error for ``tf.contrib.<module>.<name>``, a name the drop-in does not serve."""
    if name.startswith("__"):
        return AttributeError(name)
    return AttributeError(
        removed_message(f"{module}.{name}")
        + f" (Of tf.contrib.{module} the drop-in provides {', '.join(served)}.)"
    )


def _distribute_getattr(name: str) -> Any:
    if name in NAMES:
        return NAMES[name]()
    if name.startswith("__"):
        raise AttributeError(name)
    raise AttributeError(
        f"tf.contrib.distribute.{name} has no TF2 successor in the drop-in (tf.contrib was "
        f"removed in TensorFlow 2.0). It provides: {', '.join(sorted(NAMES))}; see tf.distribute "
        "for the rest."
    )


def _contrib_getattr(name: str) -> Any:
    if name == "distribute":
        return distribute_module()
    if name == "framework":
        return framework_module()
    if name == "layers":
        return layers_module()
    if name == "slim":
        return slim_module()
    if name == "rnn":
        return rnn_module()
    if name == "seq2seq":
        return seq2seq_module()
    if name == "legacy_seq2seq":
        return legacy_seq2seq_module()
    if name == "learn":
        return learn_module()
    if name == "factorization":
        return factorization_module()
    if name == "crf":
        return crf_module()
    if name == "eager":
        from tfcompat_gpu.dropin._contrib_eager import eager_module

        return eager_module()
    if name == "summary":
        from tfcompat_gpu.dropin._contrib_summary import summary_module

        return summary_module()
    if name.startswith("__"):
        raise AttributeError(name)
    raise AttributeError(removed_message(name))


def removed_message(name: str) -> str:
    """What to say about ``tf.contrib.<name>``, a module the drop-in does not provide."""
    from tfcompat_gpu.tfapi.contrib_names import CONTRIB_SUCCESSORS  # only on this error path

    home = CONTRIB_SUCCESSORS.get(name.partition(".")[0])
    use = f"Use {home} instead." if home else "Use the TF2 module that replaced it."
    return (
        f"tf.contrib.{name}: tf.contrib was removed in TensorFlow 2.0, and the drop-in provides "
        "only tf.contrib.distribute, tf.contrib.layers' initializers, regularizers, "
        "fully_connected, flatten, batch_norm, dropout, conv2d, pooling (with "
        "tf.contrib.slim's) and summaries, tf.contrib.slim's prefetch_queue and model_analyzer, "
        "tf.contrib.framework's arg_scope and global-step functions, "
        "tf.contrib.rnn's core cells and stacked bidirectional RNNs, tf.contrib.seq2seq's "
        "sequence_loss, BasicDecoder, its helpers and dynamic_decode, "
        "tf.contrib.legacy_seq2seq's rnn_decoder, sequence_loss_by_example and sequence_loss, "
        "tf.contrib.learn.preprocessing.VocabularyProcessor, tf.contrib.factorization.KMeans, "
        "tf.contrib.crf, tf.contrib.eager and tf.contrib.summary. "
        f"{use}"
    )


def _module(name: str, doc: str, getattr_: Any, all_: Any = None) -> ModuleType:
    module = sys.modules.get(name)
    if module is None:
        module = ModuleType(name, doc)
        module.__getattr__ = getattr_  # type: ignore[method-assign]
        module.__tfcompat_gpu__ = True  # type: ignore[attr-defined]
        module.__all__ = _ALL[name] if all_ is None else all_()  # type: ignore[attr-defined]
        if name in (CONTRIB, LEARN_MODULE):
            module.__path__ = []  # a package, so ``import tensorflow.contrib.distribute`` works
        sys.modules.setdefault(name, module)
    return sys.modules[name]


_ALL = {
    DISTRIBUTE: sorted(NAMES),
    CONTRIB: [
        "crf",
        "distribute",
        "eager",
        "factorization",
        "framework",
        "layers",
        "learn",
        "legacy_seq2seq",
        "rnn",
        "seq2seq",
        "slim",
        "summary",
    ],
    LEARN_MODULE: ["preprocessing"],
    FRAMEWORK_MODULE: ["add_arg_scope", "arg_scope", "assert_global_step", "create_global_step",
                       "get_global_step", "get_model_variables", "get_or_create_global_step"],
    FACTORIZATION_MODULE: sorted(FACTORIZATION),
}


def _layers_all() -> list[str]:
    from tfcompat_gpu.dropin._contrib_conv import CONV_FUNCTIONS
    from tfcompat_gpu.dropin._contrib_layers import FUNCTIONS
    from tfcompat_gpu.dropin._contrib_summaries import SUMMARIES

    return sorted({*FUNCTIONS, *CONV_FUNCTIONS, *SUMMARIES})


def _slim_all() -> list[str]:
    from tfcompat_gpu.dropin._contrib_conv import SLIM

    return sorted(SLIM)


def _rnn_all() -> list[str]:
    from tfcompat_gpu.dropin._contrib_rnn import RNN_FUNCTIONS
    from tfcompat_gpu.tfapi.contrib_names import CONTRIB_RNN

    return sorted({*CONTRIB_RNN, *RNN_FUNCTIONS})


def _seq2seq_all() -> list[str]:
    from tfcompat_gpu.dropin._contrib_rnn import SEQ2SEQ

    return sorted(SEQ2SEQ)


def rnn_module() -> ModuleType:
    """The ``tensorflow.contrib.rnn`` module object: the core cells and static RNN functions."""
    return _module(
        RNN_MODULE,
        "tf.contrib.rnn of TF 1.x: its core cells and static RNNs (tf.compat.v1.nn), by "
        "tfcompat_gpu.",
        _rnn_getattr,
        _rnn_all,
    )


def seq2seq_module() -> ModuleType:
    """The ``tensorflow.contrib.seq2seq`` module object: ``sequence_loss``, the basic decoder."""
    return _module(
        SEQ2SEQ_MODULE,
        "tf.contrib.seq2seq of TF 1.x: sequence_loss and the basic decoder, by tfcompat_gpu.",
        _seq2seq_getattr,
        _seq2seq_all,
    )


def _legacy_seq2seq_all() -> list[str]:
    from tfcompat_gpu.dropin._contrib_rnn import LEGACY_SEQ2SEQ

    return sorted(LEGACY_SEQ2SEQ)


def legacy_seq2seq_module() -> ModuleType:
    """The ``tensorflow.contrib.legacy_seq2seq`` module object: ``rnn_decoder`` and the losses."""
    return _module(
        LEGACY_SEQ2SEQ_MODULE,
        "tf.contrib.legacy_seq2seq of TF 1.x: rnn_decoder, sequence_loss_by_example and "
        "sequence_loss, by tfcompat_gpu.",
        _legacy_seq2seq_getattr,
        _legacy_seq2seq_all,
    )


def learn_module() -> ModuleType:
    """The ``tensorflow.contrib.learn`` module object: ``preprocessing``."""
    return _module(
        LEARN_MODULE,
        "tf.contrib.learn of TF 1.x: preprocessing (VocabularyProcessor), by tfcompat_gpu.",
        _learn_getattr,
    )


def _preprocessing_all() -> list[str]:
    from tfcompat_gpu.dropin._contrib_learn import PREPROCESSING

    return sorted(PREPROCESSING)


def learn_preprocessing_module() -> ModuleType:
    """The ``tensorflow.contrib.learn.preprocessing`` module object: ``VocabularyProcessor``."""
    return _module(
        PREPROCESSING_MODULE,
        "tf.contrib.learn.preprocessing of TF 1.x: VocabularyProcessor, CategoricalVocabulary "
        "and tokenizer, by tfcompat_gpu.",
        _preprocessing_getattr,
        _preprocessing_all,
    )


def factorization_module() -> ModuleType:
    """The ``tensorflow.contrib.factorization`` module object: the graph ``KMeans``."""
    return _module(
        FACTORIZATION_MODULE,
        "tf.contrib.factorization of TF 1.x: KMeans and its initialization and distance "
        "constants (TensorFlow's clustering_ops), by tfcompat_gpu.",
        _factorization_getattr,
    )


def _crf_all() -> list[str]:
    from tfcompat_gpu.dropin._contrib_crf import CRF

    return sorted(CRF)


def crf_module() -> ModuleType:
    """The ``tensorflow.contrib.crf`` module object: the linear-chain CRF of
    :mod:`tfcompat_gpu.dropin._contrib_crf`."""
    return _module(
        CRF_MODULE,
        "tf.contrib.crf of TF 1.x: crf_log_likelihood, viterbi_decode, crf_decode and the "
        "score functions, by tfcompat_gpu.",
        _crf_getattr,
        _crf_all,
    )


def framework_module() -> ModuleType:
    """The ``tensorflow.contrib.framework`` module object: ``arg_scope``, ``add_arg_scope``."""
    return _module(
        FRAMEWORK_MODULE,
        "tf.contrib.framework of TF 1.x: arg_scope and add_arg_scope, by tfcompat_gpu.",
        _framework_getattr,
    )


def layers_module() -> ModuleType:
    """The ``tensorflow.contrib.layers`` module object: its initializers and regularizers,
    ``fully_connected``, ``flatten``, ``batch_norm`` and ``dropout``."""
    return _module(
        LAYERS_MODULE,
        "tf.contrib.layers of TF 1.x: its initializers, regularizers, fully_connected, "
        "flatten, batch_norm and dropout, by tfcompat_gpu.",
        _layers_getattr,
        _layers_all,
    )


def slim_module() -> ModuleType:
    """The ``tensorflow.contrib.slim`` module object: the layers, ``arg_scope`` and variable
    helpers of :mod:`tfcompat_gpu.dropin._contrib_conv`."""
    return _module(
        SLIM_MODULE,
        "tf.contrib.slim of TF 1.x: its layers (conv2d, max_pool2d, fully_connected, ...), "
        "arg_scope and variable helpers, by tfcompat_gpu.",
        _slim_getattr,
        _slim_all,
    )


def distribute_module() -> ModuleType:
    """The ``tensorflow.contrib.distribute`` module object (made once)."""
    return _module(
        DISTRIBUTE,
        "tf.contrib.distribute of TF 1.x, mapped to tf.distribute by tfcompat_gpu.",
        _distribute_getattr,
    )


def contrib_module() -> ModuleType:
    """The ``tensorflow.contrib`` module object: ``distribute`` and part of ``framework``,
    ``layers``, ``rnn``, ``seq2seq``, ``legacy_seq2seq`` and ``learn``."""
    return _module(
        CONTRIB,
        "tf.contrib of TF 1.x: tf.contrib.distribute and parts of framework, layers, rnn, "
        "seq2seq, legacy_seq2seq and learn, by tfcompat_gpu.",
        _contrib_getattr,
    )
