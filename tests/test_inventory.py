"""The NVML inventory: CUDA order, CUDA_VISIBLE_DEVICES, ``auto`` selection, missing NVML.

NVML is replayed from recorded readings (``tests/nvmlfake.py``) where no GPU can be had; the
real ``pynvml`` binding is exercised too, where it is installed: on a machine without a driver
it must say so.
"""

from __future__ import annotations

import importlib.util
import json

import pytest
from nvmlfake import FakeNVML, recording

from tests._child import ROOT, cli, run_py
from tfcompat_gpu import GPUConfigError
from tfcompat_gpu.machine.inventory import fraction_in_mb, inventory, parse_auto, pick
from tfcompat_gpu.machine.nvml import NVMLUnavailable, Readings, read


def inv(name: str, **env: str):
    return inventory(env, nvml=FakeNVML(recording(name)))


def cuda_buses(result) -> list[str]:
    return [gpu.pci_bus_id[-7:] for gpu in result.gpus]


def test_read_replays_every_field_and_shuts_nvml_down():
    fake = FakeNVML(recording("mixed4"))
    readings = read(fake)
    assert fake.initialized == 0
    assert Readings.from_json(readings.to_json()) == readings
    busy = readings.gpus[1]
    assert busy.name == "NVIDIA GeForce GTX 1080 Ti"
    assert busy.compute_capability == (6, 1)
    assert busy.processes[0].pid == 4242
    assert busy.processes[0].name == "python"
    assert readings.gpus[3].utilization_gpu is None  # "Not Supported" is a missing reading
    assert readings.driver_version == "550.54.15"
    assert readings.cuda_driver_version == 12040


@pytest.mark.parametrize(
    ("order", "expected", "exact"),
    [
        pytest.param("PCI_BUS_ID", ["17:00.0", "18:00.0", "65:00.0", "B3:00.0"], True, id="pci"),
        # The fastest guess first (the two 3090s, compute capability 8.6), ties in PCI order.
        pytest.param(
            "FASTEST_FIRST", ["65:00.0", "B3:00.0", "18:00.0", "17:00.0"], False, id="fastest"
        ),
        pytest.param(
            "bogus", ["65:00.0", "B3:00.0", "18:00.0", "17:00.0"], False, id="unknown-value"
        ),
    ],
)
def test_cuda_order_of_a_mixed_machine(order, expected, exact):
    result = inv("mixed4", CUDA_DEVICE_ORDER=order)
    assert cuda_buses(result) == expected
    assert result.order_exact is exact
    assert [gpu.cuda_index for gpu in result.gpus] == [0, 1, 2, 3]
    if not exact:
        assert "CUDA_DEVICE_ORDER=PCI_BUS_ID" in result.order_note


def test_identical_gpus_are_in_pci_order_whatever_the_order_variable():
    default = inv("v100x4")
    assert default.order_exact
    assert default.order_note == ""
    assert cuda_buses(default) == cuda_buses(inv("v100x4", CUDA_DEVICE_ORDER="PCI_BUS_ID"))
    assert cuda_buses(default) == ["1A:00.0", "1B:00.0", "3D:00.0", "3E:00.0"]


@pytest.mark.parametrize(
    ("visible", "tf_index", "note"),
    [
        pytest.param("2,3", [None, None, 0, 1], "", id="two-last"),
        pytest.param("3,1", [None, 1, None, 0], "", id="reordered"),
        pytest.param(" 1 , 0 ", [1, 0, None, None], "", id="spaces"),
        pytest.param("", [None] * 4, "", id="empty-hides-all"),
        pytest.param("0,7,1", [0, None, None, None], "'7' matches no GPU", id="invalid-ends-list"),
        pytest.param("-1", [None] * 4, "'-1' matches no GPU", id="minus-one"),
        # Seen on a real GPU (driver 580): a repeated device makes CUDA show none at all.
        pytest.param("1,1", [None] * 4, "shows no GPU at all", id="repeat"),
        pytest.param("GPU-v1000003", [None, None, None, 0], "", id="uuid-prefix"),
        pytest.param("GPU-v100,0", [None] * 4, "matches no GPU", id="ambiguous-uuid"),
        pytest.param("MIG-abc", [None] * 4, "MIG instance", id="mig"),
    ],
)
def test_cuda_visible_devices_renumbers_for_tensorflow(visible, tf_index, note):
    result = inv("v100x4", CUDA_DEVICE_ORDER="PCI_BUS_ID", CUDA_VISIBLE_DEVICES=visible)
    assert [gpu.tf_index for gpu in result.gpus] == tf_index
    assert note in result.visible_note
    assert [gpu.tf_index for gpu in result.visible()] == list(
        range(sum(i is not None for i in tf_index))
    )


def test_inventory_text_shows_order_memory_utilisation_and_processes():
    text = str(inv("mixed4", CUDA_DEVICE_ORDER="PCI_BUS_ID", CUDA_VISIBLE_DEVICES="2"))
    assert "CUDA order PCI_BUS_ID" in text
    assert (
        "cuda 2 [TF GPU:0] 00000000:65:00.0 NVIDIA GeForce RTX 3090: 23552 of 24576 MB free" in text
    )
    assert "cuda 0 [hidden]" in text
    assert "processes 4242 python 8704 MB" in text


# -- auto selection -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("env", "count", "picked", "cvd"),
    [
        # 1B and 3D are idle with 15 GiB free; utilisation breaks the tie (0% beats 5%).
        pytest.param({}, 1, ["1B"], "1", id="one"),
        pytest.param({}, 2, ["1B", "3D"], "1,2", id="two-in-cuda-order"),
        pytest.param({}, 3, ["1B", "3D", "3E"], "1,2,3", id="three"),
        # Candidates are the GPUs CUDA_VISIBLE_DEVICES leaves; the value written names CUDA ids.
        pytest.param({"CUDA_VISIBLE_DEVICES": "0,3"}, 1, ["3E"], "3", id="within-visible"),
    ],
)
def test_auto_picks_most_free_then_least_busy(env, count, picked, cvd):
    selection = pick(inv("v100x4", **env), count)
    assert [gpu.pci_bus_id[-7:-5] for gpu in selection.picked] == picked
    assert selection.cuda_visible_devices == cvd
    assert f"auto:{count} picked CUDA GPU(s) {cvd}" in selection.reason()


def test_auto_names_uuids_when_the_cuda_order_is_an_estimate():
    selection = pick(inv("mixed4"), 2)
    assert [gpu.name for gpu in selection.picked] == ["NVIDIA GeForce RTX 3090"] * 2
    assert selection.cuda_visible_devices.split(",") == [gpu.uuid for gpu in selection.picked]
    exact = pick(inv("mixed4", CUDA_DEVICE_ORDER="PCI_BUS_ID"), 2)
    assert exact.cuda_visible_devices == "2,3"


def test_auto_with_fewer_gpus_than_asked_raises_with_the_inventory():
    with pytest.raises(GPUConfigError) as err:
        pick(inv("v100x4", CUDA_VISIBLE_DEVICES="1,2"), 3)
    text = str(err.value)
    assert "'auto:3' asks for 3 GPU(s) but only 2 can be had (CUDA_VISIBLE_DEVICES='1,2')" in text
    assert "Tesla V100-SXM2-16GB" in text
    assert "[hidden]" in text


def test_auto_without_an_inventory_says_why():
    missing = inventory({}, nvml=FakeNVML(fail="driver"))
    with pytest.raises(GPUConfigError, match=r"no NVIDIA driver.*tfcompat-gpu\[nvml\]"):
        pick(missing, 1)


@pytest.mark.parametrize(
    ("count", "rank", "cvd"), [(4, 0, "0,1"), (4, 1, "2,3"), (2, 0, "1"), (2, 1, "2")]
)
def test_auto_shares_the_picked_gpus_between_local_ranks(count, rank, cvd):
    # Two local ranks: the picked GPUs, in CUDA order, are cut into equal consecutive shares.
    selection = pick(inv("v100x4"), count, share=(rank, 2))
    assert selection.cuda_visible_devices == cvd
    assert len(selection.ranking) == 4


def test_auto_share_must_divide():
    with pytest.raises(GPUConfigError, match="cannot be shared by 3 local ranks"):
        pick(inv("v100x4"), 2, share=(0, 3))


@pytest.mark.parametrize(
    ("value", "count"),
    [("auto", 1), ("auto:2", 2), (" auto:12 ", 12), ("0,1", None), ([0], None), (None, None)],
)
def test_parse_auto(value, count):
    assert parse_auto(value) == count


@pytest.mark.parametrize("value", ["auto:0", "auto:", "auto:x", "automatic", "auto:2,3"])
def test_parse_auto_rejects_malformed_forms(value):
    with pytest.raises(GPUConfigError, match='expected "auto" or "auto:N"'):
        parse_auto(value)


def test_fraction_in_mb():
    assert fraction_in_mb(0.5, [16384]) == "0.5 (8192 MB of 16384 MB (16.0 GiB))"
    assert fraction_in_mb(0.25, [8192, 16384]) == "0.25 (2048 MB of 8192 MB, 4096 MB of 16384 MB)"


# -- missing NVML, driver or GPU ------------------------------------------------------------


@pytest.mark.parametrize(
    ("fake", "reason"),
    [
        pytest.param(FakeNVML(fail="library"), "no-driver", id="no-library"),
        pytest.param(FakeNVML(fail="driver"), "no-driver", id="driver-not-loaded"),
        pytest.param(FakeNVML('{"gpus": []}'), "no-gpu", id="no-gpu"),
    ],
)
def test_missing_driver_or_gpu_is_reported_not_raised(fake, reason):
    result = inventory({}, nvml=fake)
    assert not result.available
    assert result.reason == reason
    assert str(result).startswith("GPUs (NVML):     not read: ")


def test_real_binding_without_a_driver_says_so():
    pynvml = pytest.importorskip("pynvml")
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError:
        pass
    else:  # pragma: no cover - a machine with a driver
        pynvml.nvmlShutdown()
        pytest.skip("an NVIDIA driver is present: the recorded-readings tests cover the rest")
    result = inventory({})
    assert result.reason == "no-driver"
    assert "no NVIDIA driver" in result.message
    with pytest.raises(NVMLUnavailable):
        read()


def test_no_binding_is_reported_with_the_extra_to_install():
    out = run_py(
        """
        import sys
        sys.modules["pynvml"] = None  # as if nvidia-ml-py were not installed
        from tfcompat_gpu.machine.inventory import inventory
        result = inventory({})
        emit([result.reason, result.message])
        """
    )
    assert out[0] == "no-binding"
    assert "tfcompat-gpu[nvml]" in out[1]


def test_import_tfcompat_gpu_imports_neither_tensorflow_nor_nvml():
    out = run_py(
        """
        import sys
        import tfcompat_gpu
        tfcompat_gpu.inventory, tfcompat_gpu.Inventory  # resolving the names reads nothing
        emit(sorted(m for m in ("tensorflow", "pynvml") if m in sys.modules))
        """
    )
    assert out == []


def test_env_command_shows_the_inventory_and_goes_on_without_nvml():
    proc = cli("env", "--json", cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    # The TensorFlow-free legs run this too: there the report says TensorFlow is absent.
    has_tf = importlib.util.find_spec("tensorflow") is not None
    assert bool(data["tensorflow_version"]) is has_tf
    assert data["gpu_inventory"]["available"] is False
    assert data["gpu_inventory"]["reason"] in ("no-driver", "no-binding")
