"""This machine's GPUs as CUDA and TensorFlow will number them, and ``auto`` GPU selection.

NVML (read through :mod:`tfcompat_gpu.machine.nvml`) lists the GPUs in its own order.  CUDA numbers
them by ``CUDA_DEVICE_ORDER``: ``PCI_BUS_ID`` sorts by PCI bus id (``nvidia-smi``'s order);
``FASTEST_FIRST``, the default, puts the device CUDA guesses is fastest first and leaves the rest
unspecified.  On a machine whose GPUs are all the same model the guess changes nothing and
the order is PCI order; on a mixed machine this module estimates it (compute capability, then
cores x clock, then PCI order) and says that it is an estimate: set ``CUDA_DEVICE_ORDER=PCI_BUS_ID``
to make it certain.  ``CUDA_VISIBLE_DEVICES`` then keeps the listed devices, in list order;
TensorFlow's physical GPU ``i`` is the ``i``-th device left.

Nothing here imports TensorFlow; NVML is imported only when :func:`inventory` reads it.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from tfcompat_gpu.errors import GPUConfigError
from tfcompat_gpu.machine.nvml import GPUReading, NVMLUnavailable, Readings, read
from tfcompat_gpu.utils.numbers import INT_TEXT, parse_int, share_mb

__all__ = [
    "GPUInfo",
    "Inventory",
    "Selection",
    "cuda_order",
    "fraction_in_mb",
    "inventory",
    "parse_auto",
    "pick",
    "tf_totals_mb",
    "with_visible",
]

MB = 1 << 20
_AUTO = re.compile(rf"auto(?::\s*({INT_TEXT}))?\Z")  # ASCII digits, as every other number


@dataclass(frozen=True)
class GPUInfo:
    """One GPU: where CUDA and TensorFlow put it, and how busy it is."""

    cuda_index: int
    """Its CUDA device number under ``CUDA_DEVICE_ORDER`` (before ``CUDA_VISIBLE_DEVICES``)."""
    tf_index: int | None
    """TensorFlow's physical GPU number (``/physical_device:GPU:N``) after
    ``CUDA_VISIBLE_DEVICES``; None when that variable hides it."""
    nvml_index: int
    pci_bus_id: str
    name: str
    uuid: str
    total_mb: int
    """NVML's total, as ``nvidia-smi`` shows it."""
    free_mb: int
    used_mb: int
    utilization: int | None
    """GPU utilisation in percent; None where NVML cannot tell."""
    processes: tuple[dict[str, Any], ...] = field(default_factory=tuple)
    """``{"pid", "used_mb", "name"}`` for each compute process."""
    cuda_total_mb: int | None = None
    """The total CUDA (and TensorFlow's allocator) reports: NVML's total less the memory the
    driver reserves, where NVML says how much that is; else NVML's total."""


@dataclass(frozen=True)
class Inventory:
    """The GPUs of this machine, or why they could not be read (``available`` False)."""

    available: bool
    reason: str | None
    """``no-binding`` / ``no-driver`` / ``no-gpu`` / ``error`` when not available."""
    message: str
    gpus: tuple[GPUInfo, ...] = ()
    """In CUDA order."""
    device_order: str = "FASTEST_FIRST"
    order_exact: bool = True
    order_note: str = ""
    cuda_visible_devices: str | None = None
    visible_note: str = ""
    driver_version: str | None = None
    cuda_driver_version: int | None = None
    source: str = "NVML"
    """Where the GPUs were read: ``"NVML"``, or ``"described"`` for a machine given by hand."""

    def visible(self) -> list[GPUInfo]:
        """The GPUs TensorFlow will list, in its order (physical GPU 0 first)."""
        shown = [gpu for gpu in self.gpus if gpu.tf_index is not None]
        return sorted(shown, key=lambda gpu: gpu.tf_index or 0)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def __str__(self) -> str:
        label = f"GPUs ({self.source}):".ljust(16)
        if not self.available:
            return f"{label} not read: {self.message}"
        driver = f"driver {self.driver_version}" if self.driver_version else "driver ?"
        if self.source != "NVML" and not self.driver_version:
            driver = "no driver read"
        lines = [
            f"{label} {len(self.gpus)} ({driver}; CUDA order {self.device_order}"
            + ("" if self.order_exact else ", estimated")
            + ")"
        ]
        for gpu in self.gpus:
            tf_name = f"TF GPU:{gpu.tf_index}" if gpu.tf_index is not None else "hidden"
            util = f"{gpu.utilization}%" if gpu.utilization is not None else "?"
            procs = ", ".join(
                f"{p['pid']}"
                + (f" {p['name']}" if p.get("name") else "")
                + (f" {p['used_mb']} MB" if p.get("used_mb") is not None else "")
                for p in gpu.processes
            )
            lines.append(
                f"  cuda {gpu.cuda_index} [{tf_name}] {gpu.pci_bus_id} {gpu.name}: "
                f"{gpu.free_mb} of {gpu.total_mb} MB free, util {util}"
                + (f"; processes {procs}" if procs else "")
            )
        for note in (self.order_note, self.visible_note):
            if note:
                lines.append(f"  note: {note}")
        return "\n".join(lines)


def _bus_key(bus_id: str) -> tuple[int, ...]:
    """``0000:3B:00.0`` or ``00000000:3b:00.0`` -> (domain, bus, device, function)."""
    match = re.fullmatch(
        r"(?:([0-9a-fA-F]+):)?([0-9a-fA-F]+):([0-9a-fA-F]+)\.([0-9a-fA-F]+)", bus_id
    )
    if not match:
        return (1 << 32,)  # unparsable ids last, then by NVML order (stable sort)
    return tuple(int(part or "0", 16) for part in match.groups())


def cuda_order(readings: Readings, order: str) -> tuple[list[GPUReading], bool, str]:
    """The GPUs in CUDA's order for ``order``; whether that order is certain; a note if not."""
    by_pci = sorted(readings.gpus, key=lambda gpu: _bus_key(gpu.pci_bus_id))
    if order == "PCI_BUS_ID":
        return by_pci, True, ""
    note = ""
    if order != "FASTEST_FIRST":
        note = f"CUDA_DEVICE_ORDER={order!r} is not a value CUDA knows; it uses FASTEST_FIRST. "
    models = {(gpu.name, gpu.compute_capability, gpu.cores) for gpu in by_pci}
    if len(models) <= 1:
        return by_pci, True, note.strip()

    def speed(gpu: GPUReading) -> tuple[tuple[int, int], int]:
        return gpu.compute_capability or (0, 0), (gpu.cores or 0) * (gpu.sm_clock_max_mhz or 0)

    fastest = sorted(by_pci, key=speed, reverse=True)
    note += (
        "the GPUs differ and CUDA_DEVICE_ORDER is not PCI_BUS_ID: CUDA puts the GPU it guesses "
        "is fastest first and does not document the rest, so these CUDA numbers are an estimate "
        "(and differ from nvidia-smi's). Set CUDA_DEVICE_ORDER=PCI_BUS_ID to make them certain."
    )
    return fastest, False, note


def _apply_visible(ordered: Sequence[Any], value: str | None) -> tuple[dict[str, int], str]:
    """uuid -> TensorFlow physical index under ``CUDA_VISIBLE_DEVICES=value``; and a note."""
    if value is None:
        return {gpu.uuid: i for i, gpu in enumerate(ordered)}, ""
    kept: dict[str, int] = {}
    for raw in value.split(","):
        entry = raw.strip()
        match: Any = None
        # The driver reads indices byte-wise as ASCII digits: "²" or a fullwidth one (U+FF11) is an
        # invalid entry there (str.isdigit() accepts both), which ends the list.
        number = parse_int(entry)
        if number is not None and number < len(ordered):
            match = ordered[number]
        elif entry.startswith("GPU-") and len(entry) > 4:
            found = [gpu for gpu in ordered if gpu.uuid.startswith(entry)]
            match = found[0] if len(found) == 1 else None
        if match is not None and match.uuid in kept:
            # Seen with driver 580: a repeated device makes CUDA show no GPU at all.
            note = (
                f"CUDA_VISIBLE_DEVICES={value!r}: entry {entry!r} repeats a device; CUDA then "
                "shows no GPU at all."
            )
            return {}, note
        if match is None:
            why = "matches no GPU"
            if entry.startswith("MIG-"):
                why = "names a MIG instance, which this inventory does not list"
            note = (
                f"CUDA_VISIBLE_DEVICES={value!r}: entry {entry!r} {why}; CUDA ignores it and "
                "every entry after it."
            )
            return kept, note if value.strip() else ""
        kept[match.uuid] = len(kept)
    return kept, ""


def inventory(
    environ: Mapping[str, str] | None = None,
    *,
    readings: Readings | None = None,
    nvml: Any = None,
    source: str = "NVML",
) -> Inventory:
    """Read this machine's GPUs through NVML; never raises for a missing binding, driver or GPU.

    ``environ`` (default ``os.environ``) supplies ``CUDA_DEVICE_ORDER`` and
    ``CUDA_VISIBLE_DEVICES``; ``readings`` replaces NVML (recorded readings, a described machine,
    whose ``source`` then says so in the text).

    Example::

        inv = tfcompat_gpu.inventory()
        print(inv)                       # one line per GPU, or why NVML could not be read
        free = [gpu.free_mb for gpu in inv.visible()]
    """
    env = os.environ if environ is None else environ
    order = env.get("CUDA_DEVICE_ORDER", "FASTEST_FIRST")
    visible_value = env.get("CUDA_VISIBLE_DEVICES")
    if readings is None:
        try:
            readings = read(nvml)
        except NVMLUnavailable as exc:
            return Inventory(
                False,
                exc.reason,
                str(exc),
                device_order=order,
                cuda_visible_devices=visible_value,
            )
    ordered, exact, order_note = cuda_order(readings, order)
    tf_index, visible_note = _apply_visible(ordered, visible_value)
    gpus = tuple(
        GPUInfo(
            cuda_index=i,
            tf_index=tf_index.get(gpu.uuid),
            nvml_index=gpu.index,
            pci_bus_id=gpu.pci_bus_id,
            name=gpu.name,
            uuid=gpu.uuid,
            total_mb=gpu.memory_total // MB,
            cuda_total_mb=(gpu.memory_total - (gpu.memory_reserved or 0)) // MB,
            free_mb=gpu.memory_free // MB,
            used_mb=gpu.memory_used // MB,
            utilization=gpu.utilization_gpu,
            processes=tuple(
                {
                    "pid": p.pid,
                    "used_mb": p.used_memory // MB if p.used_memory is not None else None,
                    "name": p.name,
                }
                for p in gpu.processes
            ),
        )
        for i, gpu in enumerate(ordered)
    )
    return Inventory(
        True,
        None,
        f"{len(gpus)} GPU(s) read through NVML",
        gpus,
        order,
        exact,
        order_note,
        visible_value,
        visible_note,
        readings.driver_version,
        readings.cuda_driver_version,
        source,
    )


def with_visible(inv: Inventory, value: str | None) -> Inventory:
    """The same GPUs under another ``CUDA_VISIBLE_DEVICES`` (the CUDA order is kept)."""
    ordered = sorted(inv.gpus, key=lambda gpu: gpu.cuda_index)
    tf_index, note = _apply_visible(ordered, value)
    gpus = tuple(dataclasses.replace(gpu, tf_index=tf_index.get(gpu.uuid)) for gpu in ordered)
    return dataclasses.replace(inv, gpus=gpus, cuda_visible_devices=value, visible_note=note)


# -- auto selection -------------------------------------------------------------------------


def parse_auto(value: object) -> int | None:
    """``"auto"`` -> 1, ``"auto:N"`` -> N; None for anything that is not an ``auto`` form.

    Raises :class:`GPUConfigError` for ``auto:`` forms that are malformed (``auto:0``, ``auto:x``).
    """
    if not isinstance(value, str) or not value.strip().startswith("auto"):
        return None
    text = value.strip()
    match = _AUTO.match(text)
    if not match or (match.group(1) is not None and int(match.group(1)) < 1):
        raise GPUConfigError(
            'visible_device_list: expected "auto" or "auto:N" with N >= 1 (the N GPUs with the '
            f"most free memory). Received: visible_device_list={value!r}."
        )
    return int(match.group(1)) if match.group(1) is not None else 1


@dataclass(frozen=True)
class Selection:
    """The GPUs ``auto`` picked, and how to make only them visible."""

    count: int
    picked: tuple[GPUInfo, ...]
    """In CUDA order: the order TensorFlow numbers them in."""
    ranking: tuple[GPUInfo, ...]
    """Every candidate, best first."""
    cuda_visible_devices: str
    """The ``CUDA_VISIBLE_DEVICES`` value that shows only the picked GPUs."""

    @property
    def tf_ids(self) -> tuple[int, ...]:
        """The picked GPUs' TensorFlow physical numbers under the current variables, ascending.

        A set of GPUs, not an order: where ``CUDA_VISIBLE_DEVICES`` lists GPUs out of CUDA order
        ("3,2,1,0"), the picked GPUs' TensorFlow numbers are still given in TensorFlow's own
        order, so that ``auto`` never reads as a reorder the user did not ask for.
        """
        return tuple(sorted(gpu.tf_index for gpu in self.picked if gpu.tf_index is not None))

    def reason(self) -> str:
        ranked = "; ".join(
            f"cuda {gpu.cuda_index} ({gpu.pci_bus_id}): {gpu.free_mb} MB free, util "
            + (f"{gpu.utilization}%" if gpu.utilization is not None else "?")
            for gpu in self.ranking
        )
        picked = ",".join(str(gpu.cuda_index) for gpu in self.picked)
        return (
            f"auto:{self.count} picked CUDA GPU(s) {picked} (most free memory in whole GiB, then "
            f"lowest utilisation, then lowest CUDA number); candidates best first: {ranked}"
        )


def _rank_key(gpu: GPUInfo) -> tuple[int, int, int]:
    # Whole GiB: a few MB of noise between idle cards must not outweigh utilisation.
    util = gpu.utilization if gpu.utilization is not None else 101
    return (-(gpu.free_mb // 1024), util, gpu.cuda_index)


def pick(inv: Inventory, count: int, share: tuple[int, int] | None = None) -> Selection:
    """Pick the ``count`` GPUs with the most free memory, then the lowest utilisation.

    Candidates are the GPUs ``CUDA_VISIBLE_DEVICES`` leaves visible.  ``share`` = (rank, ranks)
    gives local rank ``rank`` of ``ranks`` its slice of the picked GPUs (``count`` must divide).
    Raises :class:`GPUConfigError` with the inventory when fewer GPUs can be had.

    Example::

        sel = pick(inventory(), 2)
        os.environ["CUDA_VISIBLE_DEVICES"] = sel.cuda_visible_devices
    """
    if not inv.available:
        raise GPUConfigError(
            f"visible_device_list: 'auto:{count}' needs the GPU inventory, which could not be "
            f"read: {inv.message} Expected a machine whose NVIDIA driver NVML can reach. Fix: "
            "install the extra (pip install 'tfcompat-gpu[nvml]') or list GPU ids explicitly."
        )
    candidates = [gpu for gpu in inv.gpus if gpu.tf_index is not None]
    ranking = sorted(candidates, key=_rank_key)
    if len(ranking) < count:
        raise GPUConfigError(
            f"visible_device_list: 'auto:{count}' asks for {count} GPU(s) but only "
            f"{len(ranking)} can be had"
            + (
                f" (CUDA_VISIBLE_DEVICES={inv.cuda_visible_devices!r})"
                if inv.cuda_visible_devices is not None
                else ""
            )
            + f". Expected auto:N with N <= {len(ranking)}. Inventory:\n{inv}"
        )
    picked = sorted(ranking[:count], key=lambda gpu: gpu.cuda_index)
    if share is not None:
        rank, ranks = share
        if ranks < 1 or not 0 <= rank < ranks:
            raise GPUConfigError(
                f"visible_device_list: 'auto:{count}' is shared by the local ranks of this node, "
                f"and local rank {rank} of {ranks} is not one of them. Expected a local rank from "
                f"0 to (local ranks - 1) and at least one local rank: check the launcher's "
                "variables."
            )
        if count % ranks:
            raise GPUConfigError(
                f"visible_device_list: 'auto:{count}' cannot be shared by {ranks} local ranks "
                f"(local rank {rank}). Expected a GPU count that the local ranks divide."
            )
        size = count // ranks
        picked = picked[rank * size : (rank + 1) * size]
    # Indices name a device only through the CUDA order; where that is an estimate, use UUIDs.
    names = [str(gpu.cuda_index) if inv.order_exact else gpu.uuid for gpu in picked]
    return Selection(count, tuple(picked), tuple(ranking), ",".join(names))


TOTALS_OVERRIDE: dict[int, int] | None = None
"""Card sizes of a described machine (``tfcompat-gpu plan --gpu-memory``), used instead of NVML."""


def tf_totals_mb(environ: Mapping[str, str] | None = None) -> dict[int, int] | None:
    """Total memory in MB per TensorFlow physical GPU number, or None without an inventory."""
    if TOTALS_OVERRIDE is not None:
        return dict(TOTALS_OVERRIDE)
    inv = inventory(environ)
    if not inv.available:
        return None
    return {
        gpu.tf_index: gpu.cuda_total_mb or gpu.total_mb
        for gpu in inv.visible()
        if gpu.tf_index is not None
    }


def _format_mb(mb: int) -> str:
    return f"{mb} MB" if mb < 10240 else f"{mb} MB ({mb / 1024:.1f} GiB)"


def fraction_in_mb(fraction: float, totals: Sequence[int]) -> str:
    """``0.5 (8192 MB of 16384 MB)`` for messages; one entry per distinct card size."""
    sizes = sorted(set(totals))

    def share(size: int) -> str:
        mb = share_mb(fraction, size)
        return "more than any card has" if mb is None else _format_mb(mb)

    if len(sizes) == 1:
        return f"{fraction} ({share(sizes[0])} of {_format_mb(sizes[0])})"
    return f"{fraction} (" + ", ".join(f"{share(size)} of {size} MB" for size in sizes) + ")"
