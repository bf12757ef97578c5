"""The multi-GPU and monitored-session legacy examples run unmodified under ``tfcompat-gpu run``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests._child import ROOT, cli, run

pytestmark = pytest.mark.tf

EXAMPLES = ROOT / "legacy_examples"


def _run(
    tmp_path: Path, name: str, *flags: str, cwd: Path = EXAMPLES
) -> tuple[subprocess.CompletedProcess[str], dict | None]:
    report = tmp_path / "report.json"
    proc = cli("run", "--report", str(report), *flags, name, cwd=cwd, timeout=300)
    return proc, json.loads(report.read_text()) if report.exists() else None


def _flavour() -> str:

    out = run(["-c", "from tests._child import flavour; print(flavour())"], timeout=120)
    return out.stdout.strip().splitlines()[-1]


def test_tf1_monitored_training_session(tmp_path):
    proc, report = _run(tmp_path, "tf1_monitored_training_session.py", "--tf1")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "steps: 20 allow_growth: True fraction: 0.4"
    assert report is not None
    assert report["config"] == {"allow_growth": True, "per_process_gpu_memory_fraction": 0.4}
    assert report["where"] == "tf1_monitored_training_session.py:18"
    assert "Conflicting" not in proc.stderr


def test_keras_multi_gpu_model_saves_the_trained_template(tmp_path):
    proc, _ = _run(tmp_path, "keras_multi_gpu_model.py")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[0] == "GPUs: []"
    assert lines[-1] == "saved template holds the trained weights: True"
    assert (
        "GPUConfigWarning: multi_gpu_model(gpus=2): no GPU visible; the template model itself "
        "runs, on the CPU."
    ) in proc.stderr


def test_keras_distribute_compile_as_written(tmp_path):
    """Seed 003's multi-GPU example: tf_keras / Keras 2 run it with --tf1; on a Keras 3 install
    auto mode runs it on tf_keras (TF1 code using Keras); with --no-auto Keras 3 says why not."""
    if _flavour() == "keras3":
        proc, _ = _run(tmp_path, "keras_distribute_compile.py", "--tf1", "--no-auto")
        assert proc.returncode == 1
        assert (
            "GPUConfigError: compile: Keras 3 does not accept TensorFlow 1 optimizers. Received: "
            "optimizer=tf.compat.v1.train.GradientDescentOptimizer. Use "
            "keras.optimizers.SGD(learning_rate=...) instead"
        ) in proc.stderr
    proc, _ = _run(tmp_path, "keras_distribute_compile.py", "--tf1")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "replicas: 1 loss: 0.0000 prediction: 1.00"
    if _flavour() == "keras3":
        assert (
            "tfcompat-gpu run: Keras in a v1 graph (tf.keras.layers.Input, line 4; Keras 3 cannot "
            "run there): using tf_keras (--no-auto turns this off)"
        ) in proc.stderr


@pytest.mark.parametrize("replicas", [1, 2])
def test_keras_distribute_compile_with_a_keras_optimizer(tmp_path, replicas):
    """With its TF1 optimizer replaced, the example runs in TF2 mode on every flavour; with two
    logical CPUs as the devices, the model is replicated over both."""
    source = (EXAMPLES / "keras_distribute_compile.py").read_text()
    source = source.replace(
        "tf.train.GradientDescentOptimizer(learning_rate=0.2)",
        "tf.keras.optimizers.SGD(learning_rate=0.2)",
    )
    if replicas == 2:
        source = source.replace(
            "import tensorflow as tf\n",
            'import tensorflow as tf\nimport tfcompat_gpu\ntfcompat_gpu.configure(device_count={"CPU": 2})\n',
        ).replace("MirroredStrategy()", 'MirroredStrategy(["/cpu:0", "/cpu:1"])')
    (tmp_path / "example.py").write_text(source)
    proc, _ = _run(tmp_path, "example.py", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (
        proc.stdout.strip().splitlines()[-1]
        == f"replicas: {replicas} loss: 0.0000 prediction: 1.00"
    )
    assert ("replicated over 2 replica(s)" in proc.stderr) is (replicas == 2)
