"""The legacy examples run unmodified under ``tfcompat-gpu run`` and their settings reach TensorFlow."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._child import ROOT, cli

pytestmark = pytest.mark.tf

EXAMPLES = ROOT / "legacy_examples"


def _run(tmp_path: Path, name: str, *flags: str) -> tuple[str, dict]:
    report = tmp_path / "report.json"
    proc = cli("run", "--report", str(report), *flags, name, cwd=EXAMPLES, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip().splitlines()[-1], json.loads(report.read_text())


def _sessions(report: dict) -> list[dict]:
    return [s["config"] for s in report["sessions"]]


def test_keras_session_memory_fraction(tmp_path):
    line, report = _run(tmp_path, "keras_session_memory_fraction.py")
    assert line == "per_process_gpu_memory_fraction: 0.3"
    assert report["config"] == {"per_process_gpu_memory_fraction": 0.3}
    assert report["where"] == "keras_session_memory_fraction.py:12"


def test_keras_session_allow_growth(tmp_path):
    line, report = _run(tmp_path, "keras_session_allow_growth.py")
    assert line == "allow_growth: True"
    assert report["config"] == {"allow_growth": True}
    assert _sessions(report)[0]["gpu_options.allow_growth"] is True


def test_keras_session_cpu_threads(tmp_path):
    line, report = _run(tmp_path, "keras_session_cpu_threads.py")
    assert line == "threads intra/inter: 4 4 CPUs: 4 soft placement: True"
    assert report["config"]["intra_op_parallelism_threads"] == 4
    assert report["config"]["inter_op_parallelism_threads"] == 4
    tf_config = report["tensorflow"]["config"]
    assert tf_config["intra_op_parallelism_threads"] == 4
    assert tf_config["inter_op_parallelism_threads"] == 4


def test_tf1_session_from_ini(tmp_path):
    line, report = _run(tmp_path, "tf1_session_from_ini.py", "--tf1")
    assert line == "result: [3.0, 3.0] allow_growth: True rate: 0.5 soft placement: True"
    assert report["config"] == {"allow_growth": True, "per_process_gpu_memory_fraction": 0.5}
    assert report["tensorflow"]["mode"] == "graph"


def test_tf1_two_sessions_two_gpus_remapped(tmp_path):
    line, report = _run(
        tmp_path, "tf1_two_sessions_two_gpus.py", "--tf1", "--conflict-policy", "remap"
    )
    assert line == "model 1: 16.0 on /device:GPU:0 | model 2: 24.0 on /device:GPU:1"
    assert [s["device"] for s in report["sessions"]] == ["/device:GPU:0", "/device:GPU:1"]
    assert [c["gpu_options.visible_device_list"] for c in _sessions(report)] == ["1", "1,2"]
    assert report["config"]["visible_device_list"] == "1,2"


def test_tf1_two_sessions_two_gpus_without_remap_fails_with_the_conflict(tmp_path):
    proc = cli("run", "--tf1", "tf1_two_sessions_two_gpus.py", cwd=EXAMPLES, timeout=300)
    assert proc.returncode == 1
    assert (
        "tfcompat_gpu.errors.GPUConfigConflictError: Conflicting process-wide GPU options "
        "(visible_device_list): the Session created at tf1_two_sessions_two_gpus.py:17"
    ) in proc.stderr


def test_tf2_virtual_gpus_with_flags(tmp_path):
    line, report = _run(tmp_path, "tf2_virtual_gpus.py", "--memory-limit-mb", "2048")
    assert line == "physical GPUs: 0 logical GPUs: 0 x on device:CPU:0"
    assert report["config"] == {"memory_limit_mb": 2048}
    assert report["tensorflow"]["runtime_started"] is True


def test_tf2_device_placement_with_the_ini_file_and_a_flag_over_it(tmp_path):
    line, report = _run(
        tmp_path,
        "tf2_device_placement.py",
        "--config",
        "gpu_settings.ini",
        "--no-soft-placement",
    )
    assert line == "soft placement: False matmul on device:CPU:0"
    assert report["config"] == {
        "allow_growth": True,
        "per_process_gpu_memory_fraction": 0.5,
        "allow_soft_placement": False,  # the flag wins over the file's true
    }
    assert report["where"] == "tfcompat-gpu run options"
    assert report["tensorflow"]["config"].get("allow_soft_placement", False) is False


def test_tf2_mirrored_strategy(tmp_path):
    line, report = _run(
        tmp_path, "tf2_mirrored_strategy.py", "--allow-growth", "--intra-op-threads", "2"
    )
    assert line == "replicas: 1 soft placement: True memory growth: []"
    assert report["config"] == {"allow_growth": True, "intra_op_parallelism_threads": 2}
    assert report["tensorflow"]["config"]["intra_op_parallelism_threads"] == 2
