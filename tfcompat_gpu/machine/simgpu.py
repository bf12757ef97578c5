"""Simulated physical GPUs for TensorFlow's own Python configuration code.

TensorFlow's ``tf.config`` setters and the ConfigProto they produce (``context().config``) are
plain Python over the eager context's list of physical devices, so adding ``PhysicalDevice``
entries for GPUs there runs the real validation and translation code (``set_visible_devices``,
``set_memory_growth``, ``set_logical_device_configuration``, "Memory growth cannot differ between
GPU devices", ...) on a machine without a GPU.  What it cannot show is the CUDA allocator itself.
``tfcompat-gpu plan`` answers from it, in a child process; the tests use it too.  Call before
anything configures or starts TensorFlow, in a fresh process.
"""

from __future__ import annotations

from typing import Any

__all__ = ["simulate_gpus"]


def simulate_gpus(count: int) -> list[Any]:
    """Append ``count`` GPUs to the eager context's physical devices; return them."""
    from tfcompat_gpu.tfapi import _tf

    physical_device = _tf.tf().config.PhysicalDevice
    ctx = _tf.context()
    if ctx._context_handle is not None:
        raise RuntimeError("simulate_gpus() must run before the TensorFlow runtime starts")
    ctx._initialize_physical_devices()
    gpus = [
        physical_device(name=f"/physical_device:GPU:{i}", device_type="GPU") for i in range(count)
    ]
    ctx._physical_devices = list(ctx._physical_devices) + gpus
    ctx._physical_device_to_index = {p: i for i, p in enumerate(ctx._physical_devices)}
    ctx._visible_device_list = list(ctx._visible_device_list) + gpus
    for gpu in gpus:
        ctx._memory_growth_map[gpu] = None
    return gpus
