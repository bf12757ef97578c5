"""Which launcher variable wins, what a malformed side variable does, and ``auto`` between ranks.

The launchers are stood in for by the variables they set in each process: ``srun`` sets
``SLURM_LOCALID`` for the whole step, and a ``torchrun`` or ``mpirun`` it starts sets its own
per-process local rank beside the inherited one.
"""

from __future__ import annotations

import pytest
from nvmlfake import FakeNVML, recording
from test_local_rank import ALL_LAUNCHER_VARS

from tests._child import TESTS, run_py
from tfcompat_gpu import GPUConfigError, local_rank
from tfcompat_gpu.machine.inventory import inventory, pick
from tfcompat_gpu.machine.launchers import detect
from tfcompat_gpu.machine.resolve import _local_share


@pytest.fixture(autouse=True)
def _no_launcher(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ALL_LAUNCHER_VARS:
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize("rank", ["0", "1", "3"])
def test_torchrun_inside_srun_gives_each_process_its_own_local_rank(monkeypatch, rank):
    # srun starts one torchrun per node; the step's SLURM_LOCALID=0 reaches every worker.
    for key, value in {
        "SLURM_LOCALID": "0",
        "SLURM_PROCID": "0",
        "SLURM_STEP_NUM_TASKS": "1",
        "LOCAL_RANK": rank,
        "LOCAL_WORLD_SIZE": "4",
    }.items():
        monkeypatch.setenv(key, value)
    assert local_rank() == int(rank)
    info = detect()
    assert info is not None
    assert (info.variable, info.local_size) == ("LOCAL_RANK", 4)


def test_srun_alone_still_reads_slurm_localid(monkeypatch):
    monkeypatch.setenv("SLURM_LOCALID", "2")
    monkeypatch.setenv("SLURM_STEP_NUM_TASKS", "4")
    assert local_rank() == 2


@pytest.mark.parametrize(
    ("env", "ignored"),
    [
        ({"LOCAL_RANK": "0", "RANK": "master"}, "RANK='master'"),
        ({"LOCAL_RANK": "1", "WORLD_SIZE": "n/a", "RANK": "3"}, "WORLD_SIZE='n/a'"),
        ({"HOROVOD_LOCAL_RANK": "1", "HOROVOD_SIZE": "\uff14"}, "HOROVOD_SIZE="),
    ],
    ids=["rank-master", "world-size", "fullwidth-size"],
)
def test_a_malformed_rank_or_size_does_not_stop_the_local_rank(monkeypatch, env, ignored):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert local_rank() == int(next(iter(env.values())))
    info = detect()
    assert info is not None
    assert any(item.startswith(ignored) for item in info.ignored)
    assert "ignored, not a number" in str(info)


def test_the_local_rank_itself_must_still_be_a_number(monkeypatch):
    monkeypatch.setenv("LOCAL_RANK", "master")
    with pytest.raises(GPUConfigError, match="LOCAL_RANK='master'"):
        local_rank()


# -- auto:N shared by local ranks ----------------------------------------------------------------


def _v100(**env: str):
    return inventory({"CUDA_DEVICE_ORDER": "PCI_BUS_ID", **env}, nvml=FakeNVML(recording("v100x4")))


@pytest.mark.parametrize(
    ("rank", "size"),
    [("2", "2"), ("0", "0"), ("5", "4")],
    ids=["rank-equals-size", "size-zero", "rank-past-size"],
)
def test_contradicting_local_rank_and_local_world_size_are_named(monkeypatch, rank, size):
    monkeypatch.setenv("LOCAL_RANK", rank)
    monkeypatch.setenv("LOCAL_WORLD_SIZE", size)
    with pytest.raises(GPUConfigError) as caught:
        _local_share()
    message = str(caught.value)
    assert f"LOCAL_RANK={rank}" in message
    assert f"LOCAL_WORLD_SIZE={size}" in message
    assert "divide" not in message  # not a count problem


@pytest.mark.parametrize(("rank", "ranks"), [(2, 2), (0, 0), (-1, 2)])
def test_pick_says_the_rank_is_out_of_range_not_that_the_count_does_not_divide(rank, ranks):
    with pytest.raises(GPUConfigError, match="is not one of them"):
        pick(_v100(), 2, (rank, ranks))


def test_a_count_the_ranks_do_not_divide_is_still_said():
    with pytest.raises(GPUConfigError, match="divide"):
        pick(_v100(), 3, (0, 2))


def test_auto_gives_tensorflow_numbers_in_tensorflows_order():
    # CUDA_VISIBLE_DEVICES lists the GPUs backwards: the two picked GPUs (CUDA 1 and 2, the most
    # free memory) are TensorFlow's 2 and 1. The pick is a set of GPUs, not a reorder.
    selection = pick(_v100(CUDA_VISIBLE_DEVICES="3,2,1,0"), 2)
    assert [gpu.cuda_index for gpu in selection.picked] == [1, 2]
    assert selection.tf_ids == (1, 2)


@pytest.mark.tf
def test_auto_under_a_backwards_cuda_visible_devices_warns_of_no_reorder():
    # TensorFlow has listed its (simulated) GPUs, so auto:2 goes through set_visible_devices.
    out = run_py(
        """
        import warnings
        from simgpu import simulate_gpus
        simulate_gpus(4)
        import tfcompat_gpu
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            cfg = tfcompat_gpu.configure(visible_device_list="auto:2")
        emit([cfg.visible_device_list, [str(w.message) for w in caught]])
        """,
        env={
            "FAKE_NVML_RECORDING": "v100x4",
            "PYTHONPATH": str(TESTS / "fake_nvml"),
            "CUDA_DEVICE_ORDER": "PCI_BUS_ID",
            "CUDA_VISIBLE_DEVICES": "3,2,1,0",
        },
    )
    visible, messages = out
    assert visible == "1,2"
    assert not any("reorder" in m for m in messages), messages
