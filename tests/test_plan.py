"""``tfcompat-gpu plan``: device maps answered by TensorFlow's configuration code in a child.

The machines are described (``--gpus``) or replayed from recorded NVML readings; the child
simulates their GPUs as TensorFlow physical devices (``tfcompat_gpu.machine.simgpu``).
"""

from __future__ import annotations

import json

import pytest
from nvmlfake import FakeNVML, recording

from tests._child import ROOT, cli, run_py
from tfcompat_gpu.commands.plan import make_plan, render
from tfcompat_gpu.machine.inventory import inventory

pytestmark = pytest.mark.tf


def plan(*args: str, env: dict[str, str] | None = None) -> tuple[int, dict, str]:
    # without the test process's CUDA variables: the machines here are described
    proc = cli("plan", "--format", "json", *args, env=env, drop=("CUDA_",), cwd=ROOT)
    data = json.loads(proc.stdout) if proc.stdout.strip().startswith("{") else {}
    return proc.returncode, data, proc.stderr


def logical(data: dict) -> list[tuple[str, int, int | None]]:
    return [(d["name"], d["cuda_index"], d["memory_limit_mb"]) for d in data["logical"]]


def test_seed000_virtual_gpus_renumber_every_device_after_them():
    # Seed 000: GPU 0 split into three virtual GPUs makes physical GPU 1 "/device:GPU:3".
    rc, data, _ = plan(
        "--gpus",
        "2",
        "--gpu-memory",
        "16GiB",
        "--memory-limit-mb",
        "0:2048,2048,2048;1:4096",
        "--device",
        "/device:GPU:3",
        "--device",
        "/gpu:1",
    )
    assert rc == 0
    assert logical(data) == [
        ("/device:GPU:0", 0, 2048),
        ("/device:GPU:1", 0, 2048),
        ("/device:GPU:2", 0, 2048),
        ("/device:GPU:3", 1, 4096),
    ]
    assert data["tf_config"]["virtual_devices"] == [[2048.0, 2048.0, 2048.0], [4096.0]]
    lands = [item["lands"] for item in data["landing"]]
    assert lands[0].startswith("/device:GPU:3 = /physical_device:GPU:1 (CUDA 1")
    assert lands[1].startswith("/device:GPU:1 = /physical_device:GPU:0 (CUDA 0")


def test_cuda_visible_devices_then_visible_device_list():
    rc, data, _ = plan(
        "--gpus",
        "4",
        "--cuda-visible-devices",
        "2,3",
        "--visible-devices",
        "1",
        "--cuda-device-order",
        "PCI_BUS_ID",
    )
    assert rc == 0
    removed = [(g["cuda_index"], g["tf_physical"], g["removed_by"]) for g in data["physical"]]
    assert removed == [
        (0, None, "CUDA_VISIBLE_DEVICES"),
        (1, None, "CUDA_VISIBLE_DEVICES"),
        (2, "/physical_device:GPU:0", "visible_device_list"),
        (3, "/physical_device:GPU:1", None),
    ]
    assert logical(data) == [("/device:GPU:0", 3, None)]
    assert data["tf_config"]["visible_device_list"] == "1"  # what TensorFlow itself wrote
    assert data["landing"][1]["lands"].startswith("/device:CPU:0")  # soft placement (eager)
    assert data["errors"] == []


def test_an_id_beyond_cuda_visible_devices_is_rejected_with_the_count():
    rc, data, _ = plan("--gpus", "4", "--cuda-visible-devices", "2,3", "--visible-devices", "2")
    assert rc == 1
    (error,) = data["errors"]
    assert "listed an invalid GPU id '2' but visible device count is 2" in error["message"]
    assert "CUDA_VISIBLE_DEVICES='2,3'" in error["message"]


def test_growth_with_virtual_devices_shows_tensorflows_own_error_and_the_silent_drop():
    rc, data, _ = plan("--gpus", "2", "--allow-growth", "--memory-limit-mb", "1024")
    assert rc == 1
    sources = {e["source"]: e["message"] for e in data["errors"]}
    assert "cannot be combined" in sources["tfcompat_gpu"]
    assert (
        sources["tensorflow"]
        == "Cannot set memory growth on device when virtual devices configured"
    )
    dropped = [r for r in data["replay"] if r["error"] is None]
    assert dropped[0]["order"] == ["visible", "growth", "limits"]
    assert dropped[0]["growth_kept"] is False


def test_memory_fraction_is_shown_in_mb_of_each_card_and_soft_placement_off_fails():
    rc, data, _ = plan(
        "--gpus",
        "2",
        "--gpu-memory",
        "16GiB,8GiB",
        "--memory-fraction",
        "0.5",
        "--no-soft-placement",
        "--device",
        "/gpu:5",
    )
    assert rc == 0
    assert [d["memory"] for d in data["logical"]] == [
        "0.5 of the card (8192 MB of 16384 MB)",
        "0.5 of the card (4096 MB of 8192 MB)",
    ]
    assert data["tf_config"]["per_process_gpu_memory_fraction"] == 0.5
    assert "soft placement off" in data["landing"][0]["error"]


def test_settings_come_from_variables_and_files_as_for_run(tmp_path):
    ini = tmp_path / "gpu.ini"
    ini.write_text("[gpu]\nallow_growth = true\n")
    rc, data, _ = plan(
        "--gpus", "2", "--config", str(ini), env={"TFCOMPAT_GPU_VISIBLE_DEVICES": "1"}
    )
    assert rc == 0
    assert data["settings"] == {"visible_device_list": "1", "allow_growth": True}
    assert [(d["name"], d["tf_physical_index"], d["growth"]) for d in data["logical"]] == [
        ("/device:GPU:0", 1, True)
    ]


def test_text_output_names_the_map_and_what_answered():
    proc = cli("plan", "--gpus", "2", "--cuda-visible-devices", "1", drop=("CUDA_",), cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "cuda 0 00000000:01:00.0" in proc.stdout
    assert "removed by CUDA_VISIBLE_DEVICES" in proc.stdout
    assert "Renumbered by CUDA_VISIBLE_DEVICES: CUDA 1 -> /physical_device:GPU:0" in proc.stdout
    assert "tfcompat_gpu.strategy()" in proc.stdout
    assert "configuration code with simulated physical GPUs" in proc.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(["--gpus", "2", "--gpu-memory", "16XB"], "expected a size", id="bad-size"),
        pytest.param(["--gpus", "2", "--gpu-memory", "1G,2G,3G"], "one size or 2", id="sizes"),
        pytest.param(["--gpu-memory", "16G"], "give --gpus N", id="memory-alone"),
        pytest.param(
            ["--gpus", "2", "--visible-devices", "0,,1"], "Could not parse", id="bad-list"
        ),
        pytest.param([], "Describe one instead", id="no-nvml-here"),
    ],
)
def test_bad_input_is_a_message_not_a_traceback(args, message):
    rc, _, err = plan(*args)
    if rc == 1:  # the list is parsed where TensorFlow's answer is built
        pytest.fail(err)
    assert rc == 2
    assert message in err
    assert "Traceback" not in err


def test_auto_on_a_recorded_machine_rewrites_cuda_visible_devices():
    machine = inventory({"CUDA_DEVICE_ORDER": "PCI_BUS_ID"}, nvml=FakeNVML(recording("v100x4")))
    data = make_plan({"visible_device_list": "auto:2", "allow_growth": True}, machine)
    assert data["auto"]["cuda_visible_devices"] == "1,2"
    assert [(g["cuda_index"], g["tf_physical"]) for g in data["physical"]] == [
        (0, None),
        (1, "/physical_device:GPU:0"),
        (2, "/physical_device:GPU:1"),
        (3, None),
    ]
    assert logical(data) == [("/device:GPU:0", 1, None), ("/device:GPU:1", 2, None)]
    assert "auto: auto:2 -> CUDA_VISIBLE_DEVICES='1,2'" in render(data)


def test_plan_never_imports_tensorflow_in_the_calling_process():
    out = run_py(
        """
        import sys, io, contextlib
        from tfcompat_gpu.commands.plan import main
        with contextlib.redirect_stdout(io.StringIO()):
            rc = main(["plan", "--gpus", "1"])
        emit([rc, "tensorflow" in sys.modules])
        """
    )
    assert out == [0, False]


def test_the_lean_configuration_api_is_tensorflows_own():
    out = run_py(
        """
        import sys, types
        from tfcompat_gpu.tfapi._tf import lean_tensorflow
        lean = lean_tensorflow()
        del sys.modules["tensorflow"]
        import tensorflow as tf
        same, differ = 0, []
        def walk(ns, real, path):
            global same
            for name, value in vars(ns).items():
                if isinstance(value, types.SimpleNamespace):
                    walk(value, getattr(real, name), path + name + ".")
                elif getattr(real, name) is value:
                    same += 1
                else:
                    differ.append(path + name)
        walk(lean.config, tf.config, "tf.config.")
        walk(lean.debugging, tf.debugging, "tf.debugging.")
        emit([same, differ, lean.DeviceSpec is tf.DeviceSpec, lean.__version__ == tf.__version__])
        """
    )
    assert out[1] == []
    assert out[0] == 15  # every function and class of the namespace
    assert out[2:] == [True, True]
