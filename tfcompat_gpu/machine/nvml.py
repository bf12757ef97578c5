"""Readings from NVML (``nvidia-ml-py``): the one module that imports ``pynvml``.

It only reads: what each GPU is, its memory, utilisation and processes, in NVML's own device
order.  What the readings mean for CUDA and TensorFlow (CUDA order, ``CUDA_VISIBLE_DEVICES``)
is worked out in :mod:`tfcompat_gpu.machine.inventory`, from these plain values, so that it can be tested
with recorded readings (:meth:`Readings.from_json`) on machines without a GPU.
"""

from __future__ import annotations

import contextlib
import importlib
import json
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

__all__ = [
    "GPUReading",
    "NVMLUnavailable",
    "ProcessReading",
    "Readings",
    "Reason",
    "read",
]

Reason = Literal["no-binding", "no-driver", "no-gpu", "error"]


class NVMLUnavailable(Exception):
    """NVML could not be read; ``reason`` says why in one word, the message in a sentence."""

    def __init__(self, reason: Reason, message: str) -> None:
        super().__init__(message)
        self.reason: Reason = reason


@dataclass(frozen=True)
class ProcessReading:
    pid: int
    used_memory: int | None
    """Bytes; None where NVML cannot tell (containers, some drivers)."""
    name: str | None = None


@dataclass(frozen=True)
class GPUReading:
    index: int
    """NVML's index (not guaranteed to be PCI order, nor CUDA's order)."""
    name: str
    uuid: str
    pci_bus_id: str
    """As NVML writes it: ``00000000:3B:00.0``."""
    memory_total: int
    memory_free: int
    memory_used: int
    utilization_gpu: int | None
    """Percent of the last sample period a kernel ran; None where not supported."""
    utilization_memory: int | None
    compute_capability: tuple[int, int] | None
    sm_clock_max_mhz: int | None
    cores: int | None
    processes: tuple[ProcessReading, ...] = field(default_factory=tuple)
    memory_reserved: int | None = None
    """Bytes the driver keeps for itself (NVML's v2 memory info); CUDA's total excludes them."""


@dataclass(frozen=True)
class Readings:
    driver_version: str | None
    cuda_driver_version: int | None
    """``12040`` for CUDA 12.4, as NVML reports it."""
    gpus: tuple[GPUReading, ...]

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Readings:
        data = json.loads(text)
        gpus = []
        for raw in data["gpus"]:
            cc = raw.get("compute_capability")
            gpus.append(
                GPUReading(
                    **{
                        **raw,
                        "compute_capability": tuple(cc) if cc is not None else None,
                        "processes": tuple(ProcessReading(**p) for p in raw.get("processes", ())),
                    }
                )
            )
        return cls(data.get("driver_version"), data.get("cuda_driver_version"), tuple(gpus))


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _binding() -> Any:
    try:
        return importlib.import_module("pynvml")
    except ImportError:
        raise NVMLUnavailable(
            "no-binding",
            "NVML binding not installed: pip install 'tfcompat-gpu[nvml]' (nvidia-ml-py).",
        ) from None


def read(nvml: Any = None) -> Readings:
    """Read every GPU NVML sees; raises :class:`NVMLUnavailable` saying why it cannot.

    ``nvml`` is the ``pynvml`` module (imported here when None), or anything with its functions.
    """
    nvml = _binding() if nvml is None else nvml
    try:
        nvml.nvmlInit()
    except nvml.NVMLError as exc:
        missing = (
            getattr(nvml, "NVMLError_LibraryNotFound", ()),
            getattr(nvml, "NVMLError_DriverNotLoaded", ()),
            getattr(nvml, "NVMLError_NoPermission", ()),
        )
        if isinstance(exc, missing[:2]):
            raise NVMLUnavailable(
                "no-driver", f"no NVIDIA driver: NVML could not start ({_text(exc)})."
            ) from None
        raise NVMLUnavailable("error", f"NVML could not start: {_text(exc)}.") from None
    try:
        count = nvml.nvmlDeviceGetCount()
        if count == 0:
            raise NVMLUnavailable("no-gpu", "the NVIDIA driver is loaded but reports no GPU.")
        gpus = tuple(_read_gpu(nvml, i) for i in range(count))
        driver = _optional(nvml, lambda: _text(nvml.nvmlSystemGetDriverVersion()))
        cuda = _optional(nvml, lambda: int(nvml.nvmlSystemGetCudaDriverVersion()))
        return Readings(driver, cuda, gpus)
    except nvml.NVMLError as exc:
        raise NVMLUnavailable(
            "error", f"NVML failed while reading the GPUs: {_text(exc)}."
        ) from None
    finally:
        with contextlib.suppress(nvml.NVMLError):
            nvml.nvmlShutdown()


def _optional(nvml: Any, call: Any) -> Any:
    """A reading some GPUs or drivers do not support: None instead of an error."""
    try:
        return call()
    except (nvml.NVMLError, AttributeError):  # AttributeError: an older binding lacks the call
        return None


def _read_gpu(nvml: Any, index: int) -> GPUReading:
    handle = nvml.nvmlDeviceGetHandleByIndex(index)
    memory = nvml.nvmlDeviceGetMemoryInfo(handle)
    version2 = getattr(nvml, "nvmlMemory_v2", None)
    detailed = (
        _optional(nvml, lambda: nvml.nvmlDeviceGetMemoryInfo(handle, version=version2))
        if version2 is not None
        else None
    )
    reserved = getattr(detailed, "reserved", None)
    rates = _optional(nvml, lambda: nvml.nvmlDeviceGetUtilizationRates(handle))
    cc = _optional(nvml, lambda: nvml.nvmlDeviceGetCudaComputeCapability(handle))
    clock_sm = getattr(nvml, "NVML_CLOCK_SM", 1)
    processes = []
    for proc in _optional(nvml, lambda: nvml.nvmlDeviceGetComputeRunningProcesses(handle)) or ():
        used = getattr(proc, "usedGpuMemory", None)
        name = _optional(nvml, lambda p=proc: _text(nvml.nvmlSystemGetProcessName(p.pid)))
        processes.append(
            ProcessReading(int(proc.pid), int(used) if used is not None else None, name)
        )
    return GPUReading(
        index=index,
        name=_text(nvml.nvmlDeviceGetName(handle)),
        uuid=_text(nvml.nvmlDeviceGetUUID(handle)),
        pci_bus_id=_text(nvml.nvmlDeviceGetPciInfo(handle).busId),
        memory_total=int(memory.total),
        memory_free=int(memory.free),
        memory_used=int(memory.used),
        utilization_gpu=int(rates.gpu) if rates is not None else None,
        utilization_memory=int(rates.memory) if rates is not None else None,
        compute_capability=(int(cc[0]), int(cc[1])) if cc is not None else None,
        sm_clock_max_mhz=_optional(
            nvml, lambda: int(nvml.nvmlDeviceGetMaxClockInfo(handle, clock_sm))
        ),
        cores=_optional(nvml, lambda: int(nvml.nvmlDeviceGetNumGpuCores(handle))),
        processes=tuple(processes),
        memory_reserved=int(reserved) if reserved is not None else None,
    )


if __name__ == "__main__":  # python -m tfcompat_gpu.machine.nvml: record this machine's readings
    print(read().to_json())
