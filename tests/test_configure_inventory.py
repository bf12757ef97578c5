"""``visible_device_list="auto:N"`` through configure() and ``tfcompat-gpu run``.

The machine is a recorded one (NVML replayed by ``tests/fake_nvml``); TensorFlow is real. Before
TensorFlow lists its GPUs the choice goes to ``CUDA_VISIBLE_DEVICES``; after, TensorFlow's own
``set_visible_devices`` runs on simulated GPUs.
"""

from __future__ import annotations

import textwrap

import pytest

from tests._child import TESTS, cli, run_py

pytestmark = pytest.mark.tf

FAKE = {
    "FAKE_NVML_RECORDING": "v100x4",
    "PYTHONPATH": str(TESTS / "fake_nvml"),
}


def test_before_gpus_are_listed_auto_goes_to_cuda_visible_devices():
    out = run_py(
        """
        import logging, os, sys, warnings
        logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="LOG %(message)s")
        warnings.simplefilter("ignore")
        import tfcompat_gpu
        cfg = tfcompat_gpu.configure(visible_device_list="auto:2")
        env = tfcompat_gpu.environment()
        emit([os.environ.get("CUDA_VISIBLE_DEVICES"), cfg.visible_device_list,
              tfcompat_gpu.current_config().visible_device_list, str(env)])
        """,
        env={**FAKE, "CUDA_DEVICE_ORDER": "PCI_BUS_ID"},
    )
    cvd, effective, current, text = out
    assert cvd == "1,2"
    assert effective == current == "0,1"  # what TensorFlow numbers the two picked GPUs
    assert "auto:2: made visible through CUDA_VISIBLE_DEVICES='1,2'" in text
    assert "cuda 1 [TF GPU:0]" in text


def test_after_gpus_are_listed_auto_uses_set_visible_devices():
    out = run_py(
        """
        import os, warnings
        warnings.simplefilter("ignore")
        from simgpu import simulate_gpus
        simulate_gpus(4)  # TensorFlow has listed its (simulated) GPUs
        import tfcompat_gpu, tensorflow as tf
        cfg = tfcompat_gpu.configure(visible_device_list="auto:2", allow_growth=True)
        emit([os.environ.get("CUDA_VISIBLE_DEVICES"), cfg.visible_device_list,
              [d.name for d in tf.config.get_visible_devices("GPU")],
              str(tfcompat_gpu.environment())])
        """,
        env={**FAKE, "CUDA_DEVICE_ORDER": "PCI_BUS_ID"},
    )
    cvd, effective, visible, text = out
    assert cvd is None
    assert effective == "1,2"
    assert visible == ["/physical_device:GPU:1", "/physical_device:GPU:2"]
    assert "tf.config.set_visible_devices on TensorFlow GPUs 1,2" in text


def test_too_few_gpus_raise_with_the_inventory_and_apply_nothing():
    out = run_py(
        """
        import os
        import tfcompat_gpu
        try:
            tfcompat_gpu.configure(visible_device_list="auto:3", allow_growth=True)
        except tfcompat_gpu.GPUConfigError as exc:
            emit([str(exc), os.environ.get("CUDA_VISIBLE_DEVICES"),
                  tfcompat_gpu.current_config().to_dict()])
        """,
        env={**FAKE, "CUDA_VISIBLE_DEVICES": "0,3"},
    )
    message, cvd, current = out
    assert "'auto:3' asks for 3 GPU(s) but only 2 can be had" in message
    assert "Tesla V100-SXM2-16GB" in message
    assert cvd == "0,3"
    assert current == {}


@pytest.mark.parametrize(
    ("script_cvd", "flag", "expected"),
    [
        pytest.param(None, "auto:2", "1,2", id="two-freest"),
        # The script narrows CUDA_VISIBLE_DEVICES itself before importing TensorFlow: auto picks
        # among those (GPU 3 has 8 GiB free, GPU 0 only 1 GiB).
        pytest.param("0,3", "auto", "3", id="within-the-script's-own-list"),
    ],
)
def test_run_resolves_auto_when_the_script_imports_tensorflow(tmp_path, script_cvd, flag, expected):
    script = tmp_path / "train.py"
    lines = ["import os"]
    if script_cvd is not None:
        lines.append(f"os.environ['CUDA_VISIBLE_DEVICES'] = {script_cvd!r}")
    lines += ["import tensorflow as tf", "print('CVD=' + os.environ['CUDA_VISIBLE_DEVICES'])"]
    script.write_text("\n".join(lines) + "\n")
    proc = cli(
        "run",
        "--visible-devices",
        flag,
        str(script),
        env={**FAKE, "CUDA_DEVICE_ORDER": "PCI_BUS_ID"},
        cwd=tmp_path,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert f"CVD={expected}" in proc.stdout


# -- the memory fraction in MB, on a TensorFlow outside the guarded internal range ----------

OUTSIDE = """
from packaging.version import Version
from tfcompat_gpu.tfapi import _tf
_tf._TESTED = (Version("0.1"), Version("0.2"))  # as on a TensorFlow whose internals are unknown
"""


def test_fraction_becomes_a_memory_limit_of_each_cards_total():
    out = run_py(
        OUTSIDE
        + textwrap.dedent(
            """
        import warnings
        warnings.simplefilter("ignore")
        from simgpu import simulate_gpus
        gpus = simulate_gpus(2)
        import tfcompat_gpu, tensorflow as tf
        cfg = tfcompat_gpu.configure(per_process_gpu_memory_fraction=0.5)
        emit([[[d.memory_limit for d in tf.config.get_logical_device_configuration(g)]
               for g in gpus],
              cfg.per_process_gpu_memory_fraction,
              tf.config.experimental.get_memory_growth(gpus[0])])
        """
        ),
        # CUDA numbers in PCI order: TensorFlow's GPUs are the TITAN V (12 GiB) and a 3090 (24).
        env={
            **FAKE,
            "FAKE_NVML_RECORDING": "mixed4",
            "CUDA_DEVICE_ORDER": "PCI_BUS_ID",
            "CUDA_VISIBLE_DEVICES": "1,3",
        },
    )
    assert out == [[[6144], [12288]], 0.5, None]  # no growth asked, none set


@pytest.mark.parametrize(
    ("fields", "env", "message"),
    [
        pytest.param(
            "per_process_gpu_memory_fraction=0.5, allow_growth=True",
            FAKE,
            "per_process_gpu_memory_fraction=0.5 (8192 MB of 16384 MB (16.0 GiB)) with "
            "allow_growth=True cannot be applied",
            id="with-growth",
        ),
        pytest.param(
            "per_process_gpu_memory_fraction=0.5",
            {},
            "the cards' total memory, needed to turn the fraction into MB, could not be read",
            id="no-nvml",
        ),
    ],
)
def test_fraction_that_cannot_become_a_limit_is_refused_with_its_mb(fields, env, message):
    out = run_py(
        OUTSIDE
        + textwrap.dedent(
            f"""
        from simgpu import simulate_gpus
        simulate_gpus(1)
        import tfcompat_gpu
        try:
            tfcompat_gpu.configure({fields})
        except tfcompat_gpu.GPUConfigError as exc:
            emit([str(exc), tfcompat_gpu.current_config().to_dict()])
        """
        ),
        env=env,
    )
    assert message in out[0]
    assert "TF2 has no public call for it and TensorFlow 2." in out[0]
    assert out[1] == {}


@pytest.mark.parametrize(("rank", "expected"), [("0", "1"), ("1", "2")])
def test_local_ranks_share_the_gpus_auto_picked(rank, expected):
    pytest.importorskip(
        "tfcompat_gpu.machine.launchers", reason="launcher support not in this build"
    )
    out = run_py(
        """
        import os, warnings
        warnings.simplefilter("ignore")
        import tfcompat_gpu
        tfcompat_gpu.configure(visible_device_list="auto:2")
        emit([os.environ.get("CUDA_VISIBLE_DEVICES"), str(tfcompat_gpu.environment())])
        """,
        env={
            **FAKE,
            "CUDA_DEVICE_ORDER": "PCI_BUS_ID",
            "LOCAL_RANK": rank,
            "LOCAL_WORLD_SIZE": "2",
        },
    )
    # auto:2 picks CUDA 1 and 2 for the node; local rank 0 takes the first, rank 1 the second.
    assert out[0] == expected
    assert f"(local rank {rank} of 2 takes its share)" in out[1]
