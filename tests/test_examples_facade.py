"""The facade versions of the legacy examples run, and their settings are the effective ones."""

from __future__ import annotations

import ast

import pytest

from tests._child import ROOT, run

pytestmark = pytest.mark.tf

FACADE = ROOT / "legacy_examples" / "facade"

EXPECTED = {
    "virtual_gpus.py": {"memory_limit_mb": [2048, 2048], "allow_soft_placement": True},
    "session_from_ini.py": {
        "allow_growth": True,
        "per_process_gpu_memory_fraction": 0.3,
        "allow_soft_placement": True,
    },
    "device_placement.py": {"allow_growth": True, "log_device_placement": True},
    "keras_memory.py": {
        "per_process_gpu_memory_fraction": 0.3,
        "allow_soft_placement": True,
        "intra_op_parallelism_threads": 2,
        "inter_op_parallelism_threads": 2,
        "device_count": {"CPU": 2},
    },
    "two_models_two_gpus.py": {"allow_growth": True, "allow_soft_placement": True},
}


def test_every_facade_example_is_listed():
    assert sorted(p.name for p in FACADE.glob("*.py")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_facade_example_runs_with_its_settings(name):
    proc = run([str(FACADE / name)], timeout=300, cwd=FACADE)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = [line for line in proc.stdout.splitlines() if line.startswith("effective: ")]
    assert len(lines) == 1, proc.stdout
    assert ast.literal_eval(lines[0][len("effective: ") :]) == EXPECTED[name]
    if name == "session_from_ini.py":
        assert "session fraction: 0.3" in proc.stdout
    if name == "keras_memory.py":
        assert "logical CPUs: 2" in proc.stdout
    if name == "two_models_two_gpus.py":
        assert "placed: /device:GPU:0 /device:GPU:1" in proc.stdout
