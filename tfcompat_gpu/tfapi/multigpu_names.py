"""Legacy multi-GPU names and their TF2 successors: one table for the lint and the codemod.

Neither imports TensorFlow; the drop-in (:mod:`tfcompat_gpu.dropin._contrib`) provides the same
names at run time.
"""

from __future__ import annotations

__all__ = [
    "CONTRIB_DISTRIBUTE",
    "DISCOVERY_CALLS",
    "HOROVOD_GLOBAL",
    "MULTI_GPU_MODEL",
    "MULTI_GPU_MODULES",
    "contrib_successor",
]

# tf.contrib.distribute.X -> the dotted TF2 name (after ``tf.``) that replaced it.
CONTRIB_DISTRIBUTE: dict[str, str] = {
    "MirroredStrategy": "distribute.MirroredStrategy",
    "OneDeviceStrategy": "distribute.OneDeviceStrategy",
    "CollectiveAllReduceStrategy": "distribute.MultiWorkerMirroredStrategy",
    "ParameterServerStrategy": "compat.v1.distribute.experimental.ParameterServerStrategy",
    "AllReduceCrossDeviceOps": "distribute.NcclAllReduce",
    "CrossDeviceOps": "distribute.CrossDeviceOps",
    "ReductionToOneDevice": "distribute.ReductionToOneDevice",
    "NcclAllReduce": "distribute.NcclAllReduce",
    "HierarchicalCopyAllReduce": "distribute.HierarchicalCopyAllReduce",
    "DistributionStrategy": "distribute.Strategy",
    "ReplicaContext": "distribute.ReplicaContext",
    "InputContext": "distribute.InputContext",
    "ReduceOp": "distribute.ReduceOp",
    "get_replica_context": "distribute.get_replica_context",
    "get_distribution_strategy": "distribute.get_strategy",
    "has_distribution_strategy": "distribute.has_strategy",
    "in_cross_replica_context": "distribute.in_cross_replica_context",
    "get_loss_reduction": "compat.v1.distribute.get_loss_reduction",
}


def contrib_successor(name: str) -> str | None:
    """``tf.``-relative TF2 name for ``tf.contrib.distribute.<name>``, or None when there is none."""
    return CONTRIB_DISTRIBUTE.get(name)


# Where Keras 2 kept multi_gpu_model (all removed in Keras 2.4 / TF 2.4).
MULTI_GPU_MODEL = frozenset(
    {
        "keras.utils.multi_gpu_model",
        "keras.utils.training_utils.multi_gpu_model",
        "keras.utils.multi_gpu_utils.multi_gpu_model",
        "tensorflow.keras.utils.multi_gpu_model",
        "tensorflow.python.keras.utils.multi_gpu_utils.multi_gpu_model",
        "tf_keras.utils.multi_gpu_model",
    }
)

# Keras 2 modules that held only multi_gpu_model.
MULTI_GPU_MODULES = frozenset({"keras.utils.training_utils", "keras.utils.multi_gpu_utils"})

# GPU discovery calls that start the runtime (or create the GPU allocators) on TF2.
DISCOVERY_CALLS = frozenset(
    {
        "keras.backend.tensorflow_backend._get_available_gpus",
        "keras.backend._get_available_gpus",
        "tensorflow.keras.backend._get_available_gpus",
        "tensorflow.python.keras.backend._get_available_gpus",
        "tf_keras.backend._get_available_gpus",
        "tensorflow.test.is_gpu_available",
        "tensorflow.test.gpu_device_name",
        "tensorflow.python.client.device_lib.list_local_devices",
        "tensorflow.config.list_logical_devices",
        "tensorflow.config.experimental.list_logical_devices",
    }
)

# Horovod's global rank and world size -> the per-node call meant for GPU ids.
HOROVOD_GLOBAL: dict[str, str] = {"rank": "local_rank", "size": "local_size"}
