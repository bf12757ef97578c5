"""What the NVML inventory lets ``configure()`` do: ``auto`` GPU selection, fractions in MB.

``configure()`` calls :func:`resolve_auto` before TensorFlow lists its GPUs (or finds that it
already did), and :func:`fraction_as_limits` where TensorFlow's internals for the memory
fraction cannot be used.  Nothing here imports TensorFlow itself; callers pass what they know.
"""

from __future__ import annotations

import dataclasses
import importlib
import logging
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tfcompat_gpu.errors import GPUConfigError
from tfcompat_gpu.machine.inventory import (
    Inventory,
    Selection,
    fraction_in_mb,
    inventory,
    parse_auto,
    pick,
    tf_totals_mb,
)

__all__ = [
    "AutoChoice",
    "before_listing",
    "fraction_as_limits",
    "fraction_as_limits_from_nvml",
    "gpus_listed",
    "last_choice",
    "resolve_auto",
    "resolve_form",
]

logger = logging.getLogger("tfcompat_gpu")


@dataclass(frozen=True)
class AutoChoice:
    """What ``visible_device_list="auto:N"`` picked, and how it was made visible."""

    request: str
    selection: Selection
    via: str
    """``"CUDA_VISIBLE_DEVICES"`` or ``"tf.config.set_visible_devices"``."""
    visible_device_list: str | None
    """What the request became: TensorFlow's GPU ids for the picked GPUs."""
    share: tuple[int, int] | None = None
    cuda_visible_devices_before: str | None = None
    """``CUDA_VISIBLE_DEVICES`` when the choice was made."""

    def __str__(self) -> str:
        picked = self.selection.cuda_visible_devices
        if self.via == "pending":
            return (
                f"{self.request}: picked, not made visible yet (configure() has not run and "
                f"TensorFlow has not listed its GPUs). {self.selection.reason()}"
            )
        if self.via == "CUDA_VISIBLE_DEVICES":
            how = f"CUDA_VISIBLE_DEVICES={picked!r} (TensorFlow had not listed its GPUs yet)"
        else:
            how = (
                f"tf.config.set_visible_devices on TensorFlow GPUs {self.visible_device_list} "
                "(TensorFlow had already listed its GPUs, so CUDA_VISIBLE_DEVICES could no "
                "longer change anything)"
            )
        share = ""
        if self.share is not None:
            share = f" (local rank {self.share[0]} of {self.share[1]} takes its share)"
        return f"{self.request}{share}: made visible through {how}. {self.selection.reason()}"


_LAST: list[AutoChoice] = []


def last_choice() -> AutoChoice | None:
    """The latest ``auto`` selection of this process, for ``environment()``."""
    return _LAST[-1] if _LAST else None


def gpus_listed() -> bool:
    """Whether TensorFlow has enumerated its GPUs (CUDA has then read CUDA_VISIBLE_DEVICES)."""
    module = sys.modules.get("tensorflow.python.eager.context")
    ctx = module.context_safe() if module is not None else None
    return ctx is not None and getattr(ctx, "_physical_devices", None) is not None


def resolve_auto(
    value: object,
    gpus_listed: bool,
    share: tuple[int, int] | None = None,
    environ: Mapping[str, str] | None = None,
    inv: Inventory | None = None,
    pending: bool = False,
) -> AutoChoice | None:
    """Pick the GPUs for an ``"auto"``/``"auto:N"`` device list; None for any other value.

    ``gpus_listed``: TensorFlow already enumerated the GPUs, so ``CUDA_VISIBLE_DEVICES`` is
    read and only ``tf.config.set_visible_devices`` can still narrow them.  Otherwise the
    variable is set in ``os.environ`` (CUDA then numbers only the picked GPUs, 0 to N-1).
    ``share`` = (local rank, local ranks) takes this rank's share.  ``environ`` (read only)
    and ``inv`` replace ``os.environ`` and NVML.  ``pending``: pick only, make nothing visible
    yet (the TensorFlow ids under the current variables are returned).
    """
    count = parse_auto(value)
    if count is None:
        return None
    env = os.environ if environ is None else environ
    before = env.get("CUDA_VISIBLE_DEVICES")
    selection = pick(inv if inv is not None else inventory(env), count, share)
    if gpus_listed or pending:
        ids = ",".join(str(i) for i in selection.tf_ids)
        via = "pending" if pending and not gpus_listed else "tf.config.set_visible_devices"
        choice = AutoChoice(str(value), selection, via, ids, share, before)
    else:
        if environ is None:
            os.environ["CUDA_VISIBLE_DEVICES"] = selection.cuda_visible_devices
        ids = ",".join(str(i) for i in range(len(selection.picked)))
        choice = AutoChoice(str(value), selection, "CUDA_VISIBLE_DEVICES", ids, share, before)
    _LAST.append(choice)
    if choice.via != "pending":
        logger.info("tfcompat_gpu: %s", choice)
    return choice


def _local_share() -> tuple[int, int] | None:
    """(local rank, local ranks) when a launcher started this process and says both."""
    try:
        launchers = importlib.import_module("tfcompat_gpu.machine.launchers")
    except ImportError:  # no launcher support in this build
        return None
    info = launchers.detect()
    if info is None:
        return None
    if info.local_size is None:
        raise GPUConfigError(
            f'visible_device_list="auto:N" under {info.name}: the local ranks share the picked '
            "GPUs, but the launcher does not say how many ranks run on this node. Expected "
            "a launcher that does (horovodrun, mpirun, torchrun); or give each rank its GPUs "
            'with visible_device_list="local_rank" or "local_rank:K".'
        )
    launcher = next(item for item in launchers.LAUNCHERS if item.name == info.name)
    if info.local_size < 1 or info.local_rank >= info.local_size:
        # Each is a launcher's own variable: name both, with their values.
        raise GPUConfigError(
            f'visible_device_list="auto:N" under {info.name}: {info.variable}={info.local_rank} '
            f"and {launcher.local_size}={info.local_size} contradict each other: a node runs "
            f"{launcher.local_size} >= 1 local ranks, numbered 0 to {launcher.local_size} - 1. "
            "Expected the values the launcher set; unset the one set by hand."
        )
    return info.local_rank, info.local_size


def resolve_form(argument: str | None) -> tuple[int, ...]:
    """The ``visible_device_list`` form ``"auto[:N]"``: TensorFlow GPU ids under the current
    ``CUDA_VISIBLE_DEVICES``.  Reads NVML and picks, and changes nothing: ``configure()``
    narrows ``CUDA_VISIBLE_DEVICES`` later (:func:`before_listing`) if TensorFlow has not
    listed its GPUs by then.
    """
    value = "auto" if argument is None else f"auto:{argument}"
    choice = resolve_auto(value, gpus_listed(), _local_share(), os.environ, pending=True)
    assert choice is not None
    return choice.selection.tf_ids


def before_listing(visible_device_list: object) -> str | None:
    """Called by ``configure()`` before TensorFlow lists its GPUs; the device list to apply.

    If ``visible_device_list`` came from ``"auto"`` and TensorFlow has not listed its GPUs yet,
    the picked GPUs go to ``CUDA_VISIBLE_DEVICES`` (picked again if that variable changed since,
    as a script's own ``os.environ[...]`` lines do under ``tfcompat-gpu run``), and the list
    becomes ``"0,...,N-1"``.  Otherwise it is returned unchanged.
    """
    choice = last_choice()
    if (
        choice is None
        or choice.via != "pending"
        or visible_device_list != ",".join(map(str, choice.selection.tf_ids))
    ):
        return visible_device_list if isinstance(visible_device_list, str) else None
    if gpus_listed():
        _LAST[-1] = dataclasses.replace(choice, via="tf.config.set_visible_devices")
        logger.info("tfcompat_gpu: %s", _LAST[-1])
        return visible_device_list
    if os.environ.get("CUDA_VISIBLE_DEVICES") != choice.cuda_visible_devices_before:
        _LAST.pop()
        resolved = resolve_auto(choice.request, gpus_listed=False, share=choice.share)
    else:
        _LAST.pop()
        os.environ["CUDA_VISIBLE_DEVICES"] = choice.selection.cuda_visible_devices
        resolved = dataclasses.replace(
            choice,
            via="CUDA_VISIBLE_DEVICES",
            visible_device_list=",".join(map(str, range(len(choice.selection.picked)))),
        )
        _LAST.append(resolved)
        logger.info("tfcompat_gpu: %s", resolved)
    assert resolved is not None
    return resolved.visible_device_list


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


def fraction_as_limits_from_nvml(
    fraction: float, visible: Sequence[int], allow_growth: bool | None, tf_version: str
) -> dict[int, int]:
    """:func:`fraction_as_limits` with the cards' sizes from NVML, for ``configure()``."""
    why = (
        f"TF2 has no public call for it and TensorFlow {tf_version}'s internals are not the "
        "ones tfcompat_gpu writes it into"
    )
    return fraction_as_limits(fraction, visible, tf_totals_mb(), allow_growth, why)
