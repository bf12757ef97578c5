"""What the NVML inventory lets ``configure()`` do: ``auto`` GPU selection, fractions in MB.

``configure()`` calls :func:`resolve_auto` before TensorFlow lists its GPUs (or finds that it
already did), and :func:`fraction_as_limits` where TensorFlow's internals for the memory
fraction cannot be used.  Nothing here imports TensorFlow itself; callers pass what they know.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tfcompat_gpu._errors import GPUConfigError
from tfcompat_gpu._inventory import (
    Inventory,
    Selection,
    fraction_in_mb,
    inventory,
    parse_auto,
    pick,
)

__all__ = ["AutoChoice", "fraction_as_limits", "last_choice", "resolve_auto"]

logger = logging.getLogger("tfcompat_gpu")


@dataclass(frozen=True)
class AutoChoice:
    """What ``visible_device_list="auto:N"`` picked, and how it was made visible."""

    request: str
    selection: Selection
    via: str
    """``"CUDA_VISIBLE_DEVICES"`` or ``"tf.config.set_visible_devices"``."""
    visible_device_list: str | None
    """What the request became: None (the variable shows only the picked GPUs) or TF ids."""

    def __str__(self) -> str:
        picked = self.selection.cuda_visible_devices
        if self.via == "CUDA_VISIBLE_DEVICES":
            how = f"CUDA_VISIBLE_DEVICES={picked!r} (TensorFlow had not listed its GPUs yet)"
        else:
            how = (
                f"tf.config.set_visible_devices on TensorFlow GPUs {self.visible_device_list} "
                "(TensorFlow had already listed its GPUs, so CUDA_VISIBLE_DEVICES could no "
                "longer change anything)"
            )
        return f"{self.request}: made visible through {how}. {self.selection.reason()}"


_LAST: list[AutoChoice] = []


def last_choice() -> AutoChoice | None:
    """The latest ``auto`` selection of this process, for ``environment()``."""
    return _LAST[-1] if _LAST else None


def resolve_auto(
    value: object,
    gpus_listed: bool,
    share: tuple[int, int] | None = None,
    environ: Mapping[str, str] | None = None,
    inv: Inventory | None = None,
) -> AutoChoice | None:
    """Pick the GPUs for an ``"auto"``/``"auto:N"`` device list; None for any other value.

    ``gpus_listed``: TensorFlow already enumerated the GPUs, so ``CUDA_VISIBLE_DEVICES`` is
    read and only ``tf.config.set_visible_devices`` can still narrow them.  Otherwise the
    variable is set in ``os.environ`` (CUDA then numbers only the picked GPUs) and the device
    list becomes None.  ``share`` = (local rank, local ranks) takes this rank's share.
    ``environ`` (read only) and ``inv`` replace ``os.environ`` and NVML.
    """
    count = parse_auto(value)
    if count is None:
        return None
    env = os.environ if environ is None else environ
    selection = pick(inv if inv is not None else inventory(env), count, share)
    if gpus_listed:
        ids = ",".join(str(i) for i in selection.tf_ids)
        choice = AutoChoice(str(value), selection, "tf.config.set_visible_devices", ids)
    else:
        if environ is None:
            os.environ["CUDA_VISIBLE_DEVICES"] = selection.cuda_visible_devices
        choice = AutoChoice(str(value), selection, "CUDA_VISIBLE_DEVICES", None)
    _LAST.append(choice)
    logger.info("tfcompat_gpu: %s", choice)
    return choice


def fraction_as_limits(
    fraction: float,
    visible: Sequence[int],
    totals: Mapping[int, int] | None,
    allow_growth: bool | None,
    why: str,
) -> dict[int, int]:
    """``per_process_gpu_memory_fraction`` as a ``memory_limit`` in MB per visible GPU.

    TensorFlow's allocator caps a GPU at ``total memory x fraction``; a logical device with that
    ``memory_limit`` is the same cap through the public API.  ``totals`` are the cards' sizes in
    MB by TensorFlow physical GPU number (NVML); ``why`` says why the internal path is not used.
    """
    if totals is None or any(gpu not in totals for gpu in visible):
        raise GPUConfigError(
            f"per_process_gpu_memory_fraction={fraction!r} cannot be applied: {why}, and the "
            "cards' total memory, needed to turn the fraction into MB, could not be read "
            "through NVML. Expected an NVIDIA driver and pip install 'tfcompat-gpu[nvml]'; or "
            "use memory_limit_mb for an absolute cap."
        )
    sizes = [totals[gpu] for gpu in visible]
    if fraction > 1:
        raise GPUConfigError(
            f"per_process_gpu_memory_fraction={fraction_in_mb(fraction, sizes)} is above 1 "
            f"(CUDA unified memory), which a memory_limit cannot express; {why}. Expected a "
            "fraction in (0, 1]."
        )
    if allow_growth:
        raise GPUConfigError(
            f"per_process_gpu_memory_fraction={fraction_in_mb(fraction, sizes)} with "
            f"allow_growth=True cannot be applied: {why}, so the fraction becomes a "
            "memory_limit, and TensorFlow cannot grow memory on a GPU with a memory limit. "
            "Expected one of the two; keep the fraction or the growth."
        )
    limits = {gpu: max(1, int(fraction * totals[gpu])) for gpu in visible}
    logger.info(
        "tfcompat_gpu: per_process_gpu_memory_fraction=%s applied as memory_limit on GPUs %s",
        fraction_in_mb(fraction, sizes),
        ", ".join(f"{gpu}: {mb} MB" for gpu, mb in limits.items()),
    )
    return limits
