"""Real multi-worker runs on localhost: worker processes talking gRPC, on CPUs.

The two examples in legacy_examples/distributed/ run as a user would run them on a cluster, one
process per task, with free localhost ports: the Keras one with TF_CONFIG and
``tfcompat_gpu.strategy()`` (MultiWorkerMirroredStrategy, RING collectives between CPU workers),
the TF1 one unmodified under ``tfcompat-gpu run --tf1`` (one parameter server, two workers).
"""

from __future__ import annotations

import json
import socket
import subprocess
from pathlib import Path

import pytest

from tests._child import ROOT, start

pytestmark = pytest.mark.tf

EXAMPLES = ROOT / "legacy_examples" / "distributed"


def _free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    try:
        for sock in sockets:
            sock.bind(("localhost", 0))
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


def _keras_env() -> dict[str, str]:
    """Keras 3's Model.fit does not run under MultiWorkerMirroredStrategy: use tf_keras there."""
    from importlib.metadata import PackageNotFoundError, version

    for dist in ("tensorflow-cpu", "tensorflow"):
        try:
            major, minor = (int(p) for p in version(dist).split(".")[:2])
        except PackageNotFoundError:
            continue
        return {"TF_USE_LEGACY_KERAS": "1"} if (major, minor) >= (2, 16) else {}
    pytest.skip("TensorFlow is not installed")


def _finish(procs: list[subprocess.Popen[str]], timeout: float) -> list[tuple[str, str]]:
    results = []
    try:
        for proc in procs:
            out, err = proc.communicate(timeout=timeout)
            assert proc.returncode == 0, err[-4000:]
            results.append((out, err))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return results


def test_two_keras_workers_with_tf_config_end_with_the_same_weights():
    cluster = {"worker": [f"localhost:{port}" for port in _free_ports(2)]}
    procs = []
    for index in range(2):
        tf_config = {"cluster": cluster, "task": {"type": "worker", "index": index}}
        env = {"TF_CONFIG": json.dumps(tf_config), **_keras_env()}
        procs.append(start([str(EXAMPLES / "tf2_multi_worker_keras.py")], env=env, cwd=EXAMPLES))
    results = [json.loads(out.strip().splitlines()[-1]) for out, _ in _finish(procs, 240)]
    first, second = results
    for result in results:
        assert result["strategy"] == "CollectiveAllReduceStrategy"  # MultiWorkerMirroredStrategy
        assert result["replicas"] == 2
        assert result["applied"] == {"allow_growth": True, "intra_op_parallelism_threads": 1}
        assert result["tf_intra_op_threads"] == 1
    assert first["kernel"] == second["kernel"]
    assert first["bias"] == second["bias"]
    assert 1.5 < first["kernel"][0][0] < 3.5  # trained from 0 towards y = 3x + 1


def test_tf1_parameter_server_script_runs_unmodified_under_run_tf1(tmp_path: Path):
    ps_port, w0_port, w1_port = _free_ports(3)
    hosts = [
        f"--ps_hosts=localhost:{ps_port}",
        f"--worker_hosts=localhost:{w0_port},localhost:{w1_port}",
    ]
    script = str(EXAMPLES / "tf1_parameter_server.py")

    def task(job: str, index: int) -> subprocess.Popen[str]:
        report = tmp_path / f"{job}{index}.json"
        command = ["-m", "tfcompat_gpu", "run", "--tf1", "--report", str(report)]
        return start(
            [*command, script, *hosts, f"--job_name={job}", f"--task_index={index}"], cwd=tmp_path
        )

    ps = task("ps", 0)
    try:
        chief = task("worker", 0)
        # The other worker waits for the chief's initialization; starting it once the chief's
        # session exists keeps it from sleeping through TF1's 30 s recovery wait.
        assert chief.stdout is not None
        ready = chief.stdout.readline()
        assert ready.strip() == "worker 0: session ready", (
            chief.stderr.read() if chief.stderr else ""
        )
        other = task("worker", 1)
        (out0, err0), (out1, err1) = _finish([chief, other], 240)
    finally:
        ps.kill()
        ps.wait()
    results = [json.loads(out.strip().splitlines()[-1]) for out in (out0, out1)]
    assert max(r["global_step"] for r in results) == 60  # 30 steps each, on shared variables
    for index, result in enumerate(results):
        assert result["task"] == index
        assert result["variables_on"] == ["/job:ps/task:0"]
        assert result["last_loss"] < result["first_loss"]
        report = json.loads((tmp_path / f"worker{index}.json").read_text())
        assert report["config"] == {"allow_growth": True}
        assert report["where"].endswith("tf1_parameter_server.py:29")  # the Server's line
        assert report["tensorflow"]["mode"] == "graph"
        session = report["sessions"][-1]["config"]
        assert session["gpu_options.allow_growth"] is True
        assert session["allow_soft_placement"] is True
        assert session["device_filters"] == ["/job:ps", f"/job:worker/task:{index}"]
    for err in (err0, err1):
        assert "Conflicting" not in err, err
        assert "TooLateError" not in err, err
        # Only the no-GPU notice: each setting was recorded, none was fought over.
        notices = [line for line in err.splitlines() if "GPUConfigWarning" in line]
        assert len(notices) == 1, err
        assert "No GPU is visible" in notices[0], err
