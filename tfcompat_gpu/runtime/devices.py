"""Physical GPU numbers and TensorFlow device names, and the ``"remap"`` device list.

TensorFlow numbers the GPUs of the process device list (``visible_device_list``) in list order,
and that list is fixed once per process.  :func:`gpu_device` translates a physical GPU number
into the TensorFlow device name; :func:`extend_device_list` is the ``"remap"`` conflict policy:
sessions (and :func:`tfcompat_gpu.on_gpu`) asking for other GPUs extend the list instead of
conflicting with it.
"""

from __future__ import annotations

from tfcompat_gpu.errors import GPUConfigError
from tfcompat_gpu.runtime.planning import choose_gpus
from tfcompat_gpu.runtime.state import STATE
from tfcompat_gpu.settings.config import GPUConfig
from tfcompat_gpu.settings.kinds import as_int
from tfcompat_gpu.tfapi import _tf

__all__ = ["extend_device_list", "gpu_device"]


def extend_device_list(ids: tuple[int, ...]) -> str | None:
    """Extend the process device list with ``ids`` (first-seen order); the list sessions get.

    Appending keeps every TensorFlow GPU id pointing at the physical GPU it pointed at before,
    which is what TensorFlow's per-process id map requires; None while every GPU is visible.
    The caller holds ``STATE.lock``.
    """
    active = STATE.applied or GPUConfig()
    current = active.visible_ids
    if current is None:
        return None
    union = current + tuple(i for i in dict.fromkeys(ids) if i not in current)
    if union != current:
        gpus = _tf.physical_gpus()
        text = ",".join(map(str, union))
        if gpus:
            choose_gpus(GPUConfig(visible_device_list=text), len(gpus))
        STATE.applied = active.replace(visible_device_list=text)
    return ",".join(map(str, union))


def gpu_device(physical_id: int) -> str:
    """The TensorFlow device name that physical GPU ``physical_id`` has in this process.

    TensorFlow numbers the GPUs of ``visible_device_list`` in list order, and a GPU split into
    virtual devices takes one number per logical device; with no list every GPU is visible in
    physical order.

    Example::

        tfcompat_gpu.configure(visible_device_list="1,2")
        assert gpu_device(2) == "/device:GPU:1"
    """
    number = as_int(physical_id)
    if number is None or number < 0:
        raise GPUConfigError(
            f"gpu_id: expected a physical GPU number (int >= 0). Received: {physical_id!r}."
        )
    physical_id = number
    with STATE.lock:
        cfg = STATE.applied or GPUConfig()
        where = STATE.process_wide_where or STATE.applied_where or "<unknown>"
    ids = cfg.visible_ids
    if ids is None:
        count = len(_tf.physical_gpus()) if _tf.is_imported() else 0
        ids = tuple(range(max(count, physical_id + 1)))
    if physical_id not in ids:
        raise GPUConfigError(
            f"gpu_id: physical GPU {physical_id} is not in the process device list "
            f"visible_device_list={cfg.visible_device_list!r} (set at {where}). Expected one of "
            f"{list(ids)}. Fix: list it in tfcompat_gpu.configure(visible_device_list=...) before "
            'the first session, or use tfcompat_gpu.set_conflict_policy("remap") so that sessions '
            "asking for other GPUs extend the list."
        )
    index = 0
    for gpu_id in ids:
        if gpu_id == physical_id:
            break
        index += max(len(cfg.memory_limits_for(gpu_id)), 1)
    return f"/device:GPU:{index}"
