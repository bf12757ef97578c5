"""A stand-in for the ``pynvml`` module that replays recorded NVML readings.

Only NVML is faked here (never TensorFlow): :func:`tfcompat_gpu.machine.nvml.read` calls it exactly as
it calls ``pynvml``, so the reading code runs for real on machines without a GPU.  Recordings are
the JSON that ``python -m tfcompat_gpu.machine.nvml`` prints on a real machine.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

DATA = Path(__file__).resolve().parent / "data" / "nvml"

NVML_CLOCK_SM = 1
nvmlMemory_v2 = 0x02000028


class NVMLError(Exception):
    def __init__(self, value: int, text: str) -> None:
        super().__init__(text)
        self.value = value


class NVMLError_LibraryNotFound(NVMLError):
    pass


class NVMLError_DriverNotLoaded(NVMLError):
    pass


class NVMLError_NotSupported(NVMLError):
    pass


def recording(name: str) -> str:
    return (DATA / f"{name}.json").read_text()


class FakeNVML:
    """``FakeNVML(recording("mixed4"))``, or ``FakeNVML(fail="library"|"driver")``."""

    NVMLError = NVMLError
    NVMLError_LibraryNotFound = NVMLError_LibraryNotFound
    NVMLError_DriverNotLoaded = NVMLError_DriverNotLoaded
    NVML_CLOCK_SM = NVML_CLOCK_SM
    nvmlMemory_v2 = nvmlMemory_v2

    def __init__(self, text: str | None = None, fail: str | None = None) -> None:
        self.data: dict[str, Any] = json.loads(text) if text else {"gpus": []}
        self.fail = fail
        self.initialized = 0

    def nvmlInit(self) -> None:
        if self.fail == "library":
            raise NVMLError_LibraryNotFound(12, "NVML Shared Library Not Found")
        if self.fail == "driver":
            raise NVMLError_DriverNotLoaded(9, "Driver Not Loaded")
        self.initialized += 1

    def nvmlShutdown(self) -> None:
        self.initialized -= 1

    def _gpu(self, handle: int) -> dict[str, Any]:
        assert self.initialized > 0, "NVML call before nvmlInit"
        return dict(self.data["gpus"][handle])

    def _maybe(self, gpu: dict[str, Any], key: str) -> Any:
        if gpu.get(key) is None:
            raise NVMLError_NotSupported(3, "Not Supported")
        return gpu[key]

    def nvmlDeviceGetCount(self) -> int:
        assert self.initialized > 0
        return len(self.data["gpus"])

    def nvmlSystemGetDriverVersion(self) -> str:
        return str(self.data.get("driver_version"))

    def nvmlSystemGetCudaDriverVersion(self) -> int:
        return int(self.data.get("cuda_driver_version") or 0)

    def nvmlDeviceGetHandleByIndex(self, index: int) -> int:
        self._gpu(index)
        return index

    def nvmlDeviceGetName(self, handle: int) -> str:
        return str(self._gpu(handle)["name"])

    def nvmlDeviceGetUUID(self, handle: int) -> str:
        return str(self._gpu(handle)["uuid"])

    def nvmlDeviceGetPciInfo(self, handle: int) -> Any:
        return SimpleNamespace(busId=self._gpu(handle)["pci_bus_id"])

    def nvmlDeviceGetMemoryInfo(self, handle: int, version: int | None = None) -> Any:
        gpu = self._gpu(handle)
        memory = SimpleNamespace(
            total=gpu["memory_total"], free=gpu["memory_free"], used=gpu["memory_used"]
        )
        if version is None:
            return memory
        assert version == nvmlMemory_v2
        reserved = self._maybe(gpu, "memory_reserved")
        # v2 counts the driver's reserve apart: "used" excludes it, as nvidia-smi shows.
        return SimpleNamespace(**vars(memory), reserved=reserved, used_v2=memory.used - reserved)

    def nvmlDeviceGetUtilizationRates(self, handle: int) -> Any:
        gpu = self._gpu(handle)
        return SimpleNamespace(
            gpu=self._maybe(gpu, "utilization_gpu"), memory=gpu.get("utilization_memory") or 0
        )

    def nvmlDeviceGetCudaComputeCapability(self, handle: int) -> tuple[int, int]:
        major, minor = self._maybe(self._gpu(handle), "compute_capability")
        return major, minor

    def nvmlDeviceGetMaxClockInfo(self, handle: int, clock: int) -> int:
        assert clock == NVML_CLOCK_SM
        return int(self._maybe(self._gpu(handle), "sm_clock_max_mhz"))

    def nvmlDeviceGetNumGpuCores(self, handle: int) -> int:
        return int(self._maybe(self._gpu(handle), "cores"))

    def nvmlDeviceGetComputeRunningProcesses(self, handle: int) -> list[Any]:
        return [
            SimpleNamespace(pid=p["pid"], usedGpuMemory=p.get("used_memory"))
            for p in self._gpu(handle).get("processes", [])
        ]

    def nvmlSystemGetProcessName(self, pid: int) -> str:
        for gpu in self.data["gpus"]:
            for proc in gpu.get("processes", []):
                if proc["pid"] == pid and proc.get("name"):
                    return str(proc["name"])
        raise NVMLError_NotSupported(3, "Not Supported")
