"""GPU discovery that leaves the TensorFlow runtime alone, and the runtime start hidden in ``Saver``.

Legacy scripts ask "is there a GPU?" before they configure one: Keras 2's
``K.tensorflow_backend._get_available_gpus()``, ``tf.test.is_gpu_available()``,
``tf.test.gpu_device_name()``.  On TF2 these list *logical* devices or call
``device_lib.list_local_devices()``, which starts the runtime or creates every GPU's allocator with
TensorFlow's defaults, so the ``set_session``/``configure()`` that follows is ignored.  The
versions here answer from the physical device list and the visible/virtual-device settings
TensorFlow keeps in Python, which start nothing; once the runtime is up they read it directly.

``Context.is_custom_device`` is the root of the early start in monitored sessions: building a
``tf.train.Saver`` (``Scaffold.finalize()`` in every ``MonitoredSession``, ``Supervisor``, a plain
``tf.train.Saver()`` before the first session) asks whether the save device is a custom device,
and that question initializes the eager context.  No custom device can exist before then
(registering one initializes the context first), so the answer is ``False`` without starting it.
"""

from __future__ import annotations

from typing import Any

from tfcompat_gpu.tfapi import _tf

__all__ = [
    "get_available_gpus",
    "gpu_device_name",
    "is_custom_device",
    "is_gpu_available",
    "list_local_devices",
    "logical_gpu_names",
]

_GRAPH_PREFIX = "/job:localhost/replica:0/task:0"


def logical_gpu_names() -> list[str]:
    """``/device:GPU:i`` for every GPU the runtime will have, without starting it.

    Before the start, that is one device per visible physical GPU, or one per virtual device
    configured on it; afterwards, TensorFlow's own logical device list.
    """
    tf = _tf.tf()
    if _tf.runtime_started():
        return [str(d.name) for d in tf.config.list_logical_devices("GPU")]
    count = 0
    for gpu in tf.config.get_visible_devices("GPU"):
        virtual = tf.config.get_logical_device_configuration(gpu)
        count += len(virtual) if virtual else 1
    return [f"/device:GPU:{i}" for i in range(count)]


def get_available_gpus() -> list[str]:
    """Keras 2's ``K.tensorflow_backend._get_available_gpus()``, without starting the runtime.

    Eager: ``['/device:GPU:0', ...]`` (what tf_keras returns); graph mode: the full names a TF1
    session listed (``/job:localhost/replica:0/task:0/device:GPU:0``).

    Example::

        from keras import backend as K
        if K.tensorflow_backend._get_available_gpus():
            K.set_session(tf.Session(config=config))   # still takes effect
    """
    names = logical_gpu_names()
    if _tf.graph_mode():
        return [_GRAPH_PREFIX + name for name in names]
    return names


def _compute_capability(gpu: Any) -> tuple[int, int]:
    tf = _tf.tf()
    try:
        details = tf.config.experimental.get_device_details(gpu)
    except Exception:  # a device TensorFlow cannot describe counts as "unknown", as TF does
        return (0, 0)
    capability = details.get("compute_capability")
    return (int(capability[0]), int(capability[1])) if capability else (0, 0)


def is_gpu_available(
    cuda_only: bool = False, min_cuda_compute_capability: tuple[int, int] | None = None
) -> bool:
    """``tf.test.is_gpu_available()``: True when a visible GPU (of that compute capability) exists.

    Reads the physical devices and their details; ``device_lib.list_local_devices()``, which
    TensorFlow's version calls, would create every GPU's allocator with the default options.

    Example::

        if tf.test.is_gpu_available(min_cuda_compute_capability=(7, 0)):
            ...
    """
    del cuda_only  # TensorFlow ignores it too: ROCm GPUs are GPUs
    tf = _tf.tf()
    for gpu in tf.config.get_visible_devices("GPU"):
        if not min_cuda_compute_capability:
            return True
        if _compute_capability(gpu) >= tuple(min_cuda_compute_capability):
            return True
    return False


def gpu_device_name() -> str:
    """``tf.test.gpu_device_name()``: ``'/device:GPU:0'``, or ``''`` without a GPU.

    Example::

        if tf.test.gpu_device_name():
            print("Default GPU Device:", tf.test.gpu_device_name())
    """
    names = logical_gpu_names()
    return names[0] if names else ""


def list_local_devices(wrapped: Any, instance: Any, args: Any, kwargs: Any) -> Any:
    """``device_lib.list_local_devices(session_config=None)`` with the process config as default.

    TensorFlow creates the devices it lists, GPU allocators included; without a config they get
    TensorFlow's defaults (all memory of every GPU).  Under the drop-in they get the config the
    process runs with, so they agree with the sessions and the eager runtime.
    """
    if args or kwargs.get("session_config") is not None:
        return wrapped(*args, **kwargs)
    return wrapped(session_config=_tf.effective_proto())


def is_custom_device(wrapped: Any, instance: Any, args: Any, kwargs: Any) -> Any:
    """``Context.is_custom_device``: False before the runtime starts, instead of starting it."""
    if instance is _tf.context_if_created() and not _tf.runtime_started():
        return False
    return wrapped(*args, **kwargs)
