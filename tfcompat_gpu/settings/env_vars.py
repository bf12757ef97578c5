"""The environment variables that matter to GPU setups: one list, read by the report and the lint.

Nothing here imports TensorFlow.

Example::

    >>> legacy_keras_requested({"TF_USE_LEGACY_KERAS": "1"})
    True
    >>> "CUDA_VISIBLE_DEVICES" in GPU_ENV_VARS
    True
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from tfcompat_gpu.settings.options import OPTIONS

__all__ = ["CONFLICT_POLICY_ENV", "GPU_ENV_VARS", "KNOWN_ENV_VARS", "legacy_keras_requested"]

CONFLICT_POLICY_ENV = "TFCOMPAT_GPU_CONFLICT_POLICY"

GPU_ENV_VARS: tuple[str, ...] = (
    "CUDA_VISIBLE_DEVICES",
    "CUDA_DEVICE_ORDER",
    "TF_FORCE_GPU_ALLOW_GROWTH",
    "TF_GPU_ALLOCATOR",
    "TF_GPU_THREAD_MODE",
    "TF_GPU_THREAD_COUNT",
    "TF_CPP_MIN_LOG_LEVEL",
    "TF_USE_LEGACY_KERAS",
    "TF_ENABLE_ONEDNN_OPTS",
    "KERAS_BACKEND",
    "HIP_VISIBLE_DEVICES",
    "ROCR_VISIBLE_DEVICES",
    CONFLICT_POLICY_ENV,
    "TF_CONFIG",
    *(option.env for option in OPTIONS if option.env),
)
"""What ``tfcompat_gpu.environment()`` reports: the variables that decide a GPU setup."""

KNOWN_ENV_VARS: frozenset[str] = frozenset(GPU_ENV_VARS) | {
    "CUDA_LAUNCH_BLOCKING",
    "CUDA_CACHE_PATH",
    "CUDA_CACHE_MAXSIZE",
    "CUDA_MODULE_LOADING",
    "NVIDIA_VISIBLE_DEVICES",
    "TF_GPU_HOST_MEM_LIMIT_IN_MB",
    "TF_CPP_MAX_VLOG_LEVEL",
    "TF_CPP_VMODULE",
    "TF_XLA_FLAGS",
    "XLA_FLAGS",
    "TF_DETERMINISTIC_OPS",
    "TF_CUDNN_DETERMINISTIC",
    "TF_CUDNN_USE_AUTOTUNE",
    "TF_NUM_INTEROP_THREADS",
    "TF_NUM_INTRAOP_THREADS",
    "TF_ENABLE_GPU_GARBAGE_COLLECTION",
    "OMP_NUM_THREADS",
}
"""Every variable CUDA, TensorFlow, Keras and this project read; a near miss of one is a typo."""


def legacy_keras_requested(environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``TF_USE_LEGACY_KERAS`` asks TensorFlow >= 2.16 for tf_keras as ``tf.keras``.

    TensorFlow reads it the same way in ``tensorflow/api_template.__init__.py``
    (``_tf_uses_legacy_keras``, before it sets up ``KerasLazyLoader`` from
    ``tensorflow/python/util/lazy_loader.py``): ``"1"``, ``"true"`` and ``"True"`` count.
    """
    env = os.environ if environ is None else environ
    return env.get("TF_USE_LEGACY_KERAS", "") in ("1", "true", "True")
