"""``tfcompat-gpu plan``'s output says what is true: strategy, warnings, GPU ids, machines.

The cases marked ``tf`` ask TensorFlow's configuration code in the plan's child; the others fail
or finish before it is needed.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess

import pytest

from tests._child import ROOT, cli
from tfcompat_gpu.commands.plan import _described


def plan(*args: str) -> subprocess.CompletedProcess[str]:
    return cli("plan", *args, drop=("CUDA_",), cwd=ROOT)


@pytest.mark.tf
def test_json_says_no_strategy_when_the_settings_fail():
    proc = plan(
        "--gpus", "2", "--memory-fraction", "0.5", "--memory-limit-mb", "0:1024;1:2048",
        "--format", "json",
    )  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    data = json.loads(proc.stdout)
    assert data["errors"]
    assert data["strategy"]["available"] is False
    assert "not planned" in data["strategy"]["text"]
    assert data["settings"]["memory_limit_mb"] == {"0": [1024], "1": [2048]}  # JSON's keys


@pytest.mark.tf
def test_a_value_warning_is_a_note_of_the_plan_not_a_python_warning_line():
    proc = plan("--gpus", "2", "--memory-fraction", "1.5", "--memory-limit-mb", "0:1024;1:2048")
    assert "GPUConfigWarning" not in proc.stderr
    assert "GPUConfig(**" not in proc.stderr
    assert "note: per_process_gpu_memory_fraction=1.5 is above 1" in proc.stdout
    # GPU ids are ints in the text, as the user wrote them
    assert "memory_limit_mb={0: [1024], 1: [2048]}" in proc.stdout


@pytest.mark.parametrize("count", [1, 255, 256, 300, 1000])
def test_described_gpus_have_possible_and_distinct_pci_bus_ids(count):
    readings = _described(argparse.Namespace(gpus=count, gpu_memory="16GiB"))
    ids = [gpu.pci_bus_id for gpu in readings.gpus]
    assert len(set(ids)) == count
    for bus_id in ids:
        match = re.fullmatch(r"([0-9A-F]{8}):([0-9A-F]{2}):([0-9A-F]{2})\.([0-7])", bus_id)
        assert match, bus_id
        assert int(match[2], 16) <= 0xFF
        assert int(match[3], 16) <= 0x1F  # a PCI device number has 5 bits


@pytest.mark.parametrize("size", ["0", "0MB", "0.4", "-1G"])
def test_a_card_without_memory_is_refused(size):
    proc = plan("--gpus", "2", "--gpu-memory", size)
    assert proc.returncode == 2
    assert "--gpu-memory" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_described_machine_is_not_labelled_nvml():
    proc = plan("--gpus", "1", "--gpu-memory", "16GiB", "--visible-devices", "auto:2")
    assert proc.returncode == 2
    assert "GPUs (described): 1" in proc.stderr
    assert "NVML" not in proc.stderr
