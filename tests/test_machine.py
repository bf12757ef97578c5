"""``auto`` resolution and the memory fraction in MB, on recorded NVML readings."""

from __future__ import annotations

import logging
import os

import pytest
from nvmlfake import FakeNVML, recording

from tfcompat_gpu import GPUConfigError
from tfcompat_gpu.machine.inventory import inventory
from tfcompat_gpu.machine.resolve import fraction_as_limits, last_choice, resolve_auto


def machine(name: str = "v100x4", **env: str):
    return inventory(env, nvml=FakeNVML(recording(name)))


def test_before_tensorflow_lists_gpus_auto_sets_cuda_visible_devices(monkeypatch, caplog):
    # setenv first, so that the value resolve_auto() writes is undone after the test too.
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES")
    caplog.set_level(logging.INFO, logger="tfcompat_gpu")
    choice = resolve_auto("auto:2", gpus_listed=False, inv=machine())
    assert choice is not None
    assert os.environ["CUDA_VISIBLE_DEVICES"] == "1,2"
    assert choice.via == "CUDA_VISIBLE_DEVICES"
    assert choice.visible_device_list == "0,1"  # CUDA now numbers the two picked GPUs 0 and 1
    assert last_choice() is choice
    (record,) = [r for r in caplog.records if "auto:2" in r.getMessage()]
    assert (
        "CUDA_VISIBLE_DEVICES='1,2' (TensorFlow had not listed its GPUs yet)" in record.getMessage()
    )
    assert "cuda 1 (00000000:1B:00.0): 15984 MB free, util 0%" in record.getMessage()


def test_after_tensorflow_listed_gpus_auto_narrows_with_tf_ids(monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "3,2,1")
    inv = machine(CUDA_VISIBLE_DEVICES="3,2,1")
    choice = resolve_auto("auto:2", gpus_listed=True, inv=inv)
    assert choice is not None
    assert choice.via == "tf.config.set_visible_devices"
    # CUDA 1 and 2 are TensorFlow's GPUs 2 and 1 under CUDA_VISIBLE_DEVICES=3,2,1: the picked
    # set, in TensorFlow's order (not "2,1", which would read as a reorder nobody asked for).
    assert choice.visible_device_list == "1,2"
    assert os.environ["CUDA_VISIBLE_DEVICES"] == "3,2,1"  # too late to change: left alone


def test_pending_picks_without_changing_anything(monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0,1,2")
    choice = resolve_auto(
        "auto",
        False,
        environ={"CUDA_VISIBLE_DEVICES": "0,1,2"},
        inv=machine(CUDA_VISIBLE_DEVICES="0,1,2"),
        pending=True,
    )
    assert choice is not None
    assert choice.via == "pending"
    assert choice.visible_device_list == "1"
    assert str(choice).startswith("auto: picked, not made visible yet")
    assert os.environ["CUDA_VISIBLE_DEVICES"] == "0,1,2"


def test_other_values_are_not_auto():
    assert resolve_auto("0,1", gpus_listed=False, inv=machine()) is None
    assert resolve_auto(None, gpus_listed=False, inv=machine()) is None


def test_auto_with_too_few_gpus_changes_nothing(monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0")
    with pytest.raises(GPUConfigError, match="asks for 2 GPU"):
        resolve_auto("auto:2", gpus_listed=False, inv=machine(CUDA_VISIBLE_DEVICES="0"))
    assert os.environ["CUDA_VISIBLE_DEVICES"] == "0"


def test_fraction_becomes_a_memory_limit_of_total_times_fraction(caplog):
    caplog.set_level(logging.INFO, logger="tfcompat_gpu")
    limits = fraction_as_limits(0.25, [0, 1], {0: 16160, 1: 8192}, None, "why")
    assert limits == {0: 4040, 1: 2048}
    assert (
        "0.25 (2048 MB of 8192 MB, 4040 MB of 16160 MB) applied as memory_limit on GPUs 0: 4040 MB, 1: 2048 MB"
        in caplog.text
    )


@pytest.mark.parametrize(
    ("fraction", "totals", "growth", "message"),
    [
        pytest.param(
            0.5, None, None, "total memory, needed to turn the fraction into MB", id="no-nvml"
        ),
        pytest.param(0.5, {1: 100}, None, "could not be read", id="gpu-missing"),
        pytest.param(
            1.5,
            {0: 16384},
            None,
            "1.5 (24576 MB (24.0 GiB) of 16384 MB (16.0 GiB)) is above 1",
            id="above-one",
        ),
        pytest.param(
            0.5,
            {0: 16384},
            True,
            "0.5 (8192 MB of 16384 MB (16.0 GiB)) with allow_growth",
            id="growth",
        ),
    ],
)
def test_fraction_that_cannot_become_a_limit_says_why_in_mb(fraction, totals, growth, message):
    with pytest.raises(GPUConfigError) as err:
        fraction_as_limits(fraction, [0], totals, growth, "TensorFlow 9.0 is outside 2.12-2.21")
    assert message in str(err.value)
    assert "TensorFlow 9.0 is outside 2.12-2.21" in str(err.value)


def test_recorded_h100_totals_follow_cuda_not_nvidia_smi():
    # Recorded on a real H100: NVML's total is 81559 MB (nvidia-smi's), the driver reserves
    # 480 MB, and the CUDA driver itself reported 81079 MB (cuDeviceTotalMem), as computed here.
    inv = machine("h100_recorded")
    (gpu,) = inv.gpus
    assert gpu.pci_bus_id == "00000000:00:06.0"
    assert gpu.total_mb == 81559
    assert gpu.cuda_total_mb == 81079
    assert gpu.tf_index == 0
