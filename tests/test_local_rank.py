"""Local-rank pinning: ``visible_device_list="local_rank"`` / ``"local_rank:K"`` and ``local_rank()``.

Launchers are stood in for by their environment variables (what horovodrun, mpirun, srun and
torchrun set in each process). GPU pinning is checked with simulated physical GPUs (simgpu.py):
TensorFlow's own ``tf.config`` setters and ``context().config`` run unchanged.
"""

from __future__ import annotations

import json
import textwrap

import pytest

from tests._child import TESTS, cli, run_py, start
from tfcompat_gpu import GPUConfig, GPUConfigError, local_rank
from tfcompat_gpu.machine.launchers import LAUNCHERS, LOCAL_RANK_VARS, detect

ALL_LAUNCHER_VARS = sorted(
    {
        name
        for launcher in LAUNCHERS
        for name in (launcher.local_rank, launcher.rank, launcher.size, launcher.local_size)
        if name
    }
    | {"SLURM_STEP_NUM_TASKS", "SLURM_PROCID"}
)


@pytest.fixture(autouse=True)
def _no_launcher(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ALL_LAUNCHER_VARS:
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize(
    ("env", "name", "rank", "size"),
    [
        ({"HOROVOD_LOCAL_RANK": "1", "HOROVOD_RANK": "5", "HOROVOD_SIZE": "8"}, "horovodrun", 1, 8),
        (
            {"OMPI_COMM_WORLD_LOCAL_RANK": "2", "OMPI_COMM_WORLD_SIZE": "4"},
            "mpirun (Open MPI)",
            2,
            4,
        ),
        ({"MV2_COMM_WORLD_LOCAL_RANK": "3"}, "mpirun (MVAPICH2)", 3, None),
        ({"MPI_LOCALRANKID": "1", "PMI_SIZE": "2"}, "mpirun (MPICH / Intel MPI)", 1, 2),
        ({"SLURM_LOCALID": "0", "SLURM_STEP_NUM_TASKS": "4"}, "srun (SLURM)", 0, 4),
        ({"LOCAL_RANK": "7", "WORLD_SIZE": "16"}, "LOCAL_RANK (torchrun style)", 7, 16),
    ],
    ids=["horovod", "openmpi", "mvapich2", "mpich", "slurm", "local_rank"],
)
def test_each_launcher_gives_its_local_rank(monkeypatch, env, name, rank, size):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert local_rank() == rank
    info = detect()
    assert info is not None
    assert (info.name, info.local_rank, info.size) == (name, rank, size)


def test_mpi_variables_win_over_the_slurm_allocation(monkeypatch):
    # mpirun inside an sbatch script: every rank inherits the batch step's SLURM_LOCALID=0.
    monkeypatch.setenv("SLURM_LOCALID", "0")
    monkeypatch.setenv("OMPI_COMM_WORLD_LOCAL_RANK", "3")
    assert local_rank() == 3


def test_no_launcher_names_every_variable():
    with pytest.raises(GPUConfigError) as caught:
        local_rank()
    for name in LOCAL_RANK_VARS:
        assert name in str(caught.value)
    with pytest.raises(GPUConfigError) as caught:
        GPUConfig(visible_device_list="local_rank")
    message = str(caught.value)
    assert message.startswith("visible_device_list='local_rank': ")
    assert all(name in message for name in LOCAL_RANK_VARS)


def test_a_malformed_launcher_variable_is_named(monkeypatch):
    monkeypatch.setenv("SLURM_LOCALID", "one")
    with pytest.raises(GPUConfigError, match=r"SLURM_LOCALID=.one."):
        local_rank()


@pytest.mark.parametrize(
    ("value", "rank", "expected"),
    [
        ("local_rank", "0", "0"),
        ("local_rank", "3", "3"),
        (" local_rank ", "1", "1"),
        ("local_rank:1", "2", "2"),
        ("local_rank:2", "0", "0,1"),
        ("local_rank:2", "1", "2,3"),
        ("local_rank:4", "1", "4,5,6,7"),
    ],
)
def test_local_rank_forms_resolve_to_consecutive_gpus(monkeypatch, value, rank, expected):
    monkeypatch.setenv("LOCAL_RANK", rank)
    assert GPUConfig(visible_device_list=value).visible_device_list == expected


@pytest.mark.parametrize("value", ["local_rank:0", "local_rank:", "local_rank:x", "local_rank:-1"])
def test_bad_per_process_counts_are_rejected(monkeypatch, value):
    monkeypatch.setenv("LOCAL_RANK", "0")
    with pytest.raises(GPUConfigError, match=r'"local_rank:K" with K >= 1'):
        GPUConfig(visible_device_list=value)


def test_every_config_source_accepts_local_rank(monkeypatch, tmp_path):
    monkeypatch.setenv("SLURM_LOCALID", "1")
    monkeypatch.setenv("TFCOMPAT_GPU_VISIBLE_DEVICES", "local_rank:2")
    assert GPUConfig.from_env().visible_device_list == "2,3"
    ini = tmp_path / "gpu.ini"
    ini.write_text("[gpu]\nallow_growth = true\nvisible_device_list = local_rank\n")
    assert GPUConfig.from_file(ini).visible_device_list == "1"
    toml = tmp_path / "pyproject.toml"
    toml.write_text('[tool.tfcompat-gpu]\nvisible_device_list = "local_rank:3"\n')
    assert GPUConfig.from_file(toml).visible_device_list == "3,4,5"


def test_env_without_launcher_names_the_variable_and_the_launchers(monkeypatch):
    monkeypatch.setenv("TFCOMPAT_GPU_VISIBLE_DEVICES", "local_rank")
    with pytest.raises(GPUConfigError) as caught:
        GPUConfig.from_env()
    assert "TFCOMPAT_GPU_VISIBLE_DEVICES" in str(caught.value) or "environment" in str(caught.value)
    assert "HOROVOD_LOCAL_RANK" in str(caught.value)


# -- in TensorFlow, with simulated GPUs ------------------------------------------------------


@pytest.mark.tf
def test_local_rank_pins_one_gpu_per_process_in_tensorflow():
    out = run_py(
        """
        from simgpu import simulate_gpus
        simulate_gpus(4)
        import tensorflow as tf
        import tfcompat_gpu
        from tensorflow.python.eager import context
        eff = tfcompat_gpu.configure(visible_device_list="local_rank", allow_growth=True)
        plan = tfcompat_gpu.explain()
        emit({
            "effective": eff.visible_device_list,
            "visible": [d.name for d in tf.config.get_visible_devices("GPU")],
            "proto": context.context().config.gpu_options.visible_device_list,
            "growth": [tf.config.experimental.get_memory_growth(g)
                       for g in tf.config.get_visible_devices("GPU")],
            "plan": plan.to_dict(),
            "rank": tfcompat_gpu.local_rank(),
        })
        """,
        env={"OMPI_COMM_WORLD_LOCAL_RANK": "2", "OMPI_COMM_WORLD_SIZE": "8"},
    )
    assert out["effective"] == "2"
    assert out["visible"] == ["/physical_device:GPU:2"]
    assert out["proto"] == "2"
    assert out["growth"] == [True]
    assert out["rank"] == 2
    assert out["plan"]["kind"] == "default strategy"
    assert out["plan"]["devices"] == ["/gpu:0"]
    assert out["plan"]["launcher"].startswith("mpirun (Open MPI): local rank 2")


@pytest.mark.tf
def test_local_rank_past_the_visible_gpus_names_count_and_cuda_visible_devices():
    out = run_py(
        """
        from simgpu import simulate_gpus
        simulate_gpus(2)
        import tfcompat_gpu
        from tensorflow.python.eager import context
        try:
            tfcompat_gpu.configure(visible_device_list="local_rank:2", allow_growth=True)
        except tfcompat_gpu.GPUConfigError as exc:
            emit({"error": str(exc), "applied": tfcompat_gpu.current_config().to_dict(),
                  "proto": context.context().config.gpu_options.allow_growth})
        """,
        env={"SLURM_LOCALID": "1", "CUDA_VISIBLE_DEVICES": "4,5"},
    )
    error = out["error"]
    assert "visible device count is 2" in error
    assert "CUDA_VISIBLE_DEVICES='4,5'" in error
    assert "local rank 1 (from SLURM_LOCALID" in error
    assert "needs at least 4 visible GPUs" in error
    assert out["applied"] == {}  # nothing half-applied
    assert out["proto"] is False


@pytest.mark.tf
def test_local_rank_without_gpu_is_recorded_and_warned_once():
    out = run_py(
        """
        import warnings
        import tfcompat_gpu
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            eff = tfcompat_gpu.configure(visible_device_list="local_rank")
            tfcompat_gpu.configure(visible_device_list="local_rank", allow_growth=True)
        from tensorflow.python.eager import context
        emit({
            "effective": eff.to_dict(),
            "warnings": [str(w.message) for w in caught],
            "proto": context.context().config.gpu_options.visible_device_list,
        })
        """,
        env={"LOCAL_RANK": "1"},
    )
    assert out["effective"] == {"visible_device_list": "1"}
    assert len(out["warnings"]) == 1
    assert "No GPU is visible" in out["warnings"][0]
    assert "visible_device_list" in out["warnings"][0]
    assert out["proto"] == "1"  # recorded in the config sessions get, as TF1 did


# -- the drop-in: flags and the TF1 Horovod pattern -------------------------------------------

_HOROVOD_TF1 = """
import os
import sys
sys.path.insert(0, os.environ["SIMGPU_DIR"])
from simgpu import simulate_gpus
simulate_gpus(2)
import json
import tensorflow as tf
tf.compat.v1.disable_eager_execution()

local_rank = int(os.environ["OMPI_COMM_WORLD_LOCAL_RANK"])  # hvd.local_rank()
config = tf.compat.v1.ConfigProto()
config.gpu_options.allow_growth = True
config.gpu_options.visible_device_list = str(local_rank)

step = tf.compat.v1.train.get_or_create_global_step()
train = tf.compat.v1.assign_add(step, 1)
{sessions}
print(json.dumps({
    "visible": [d.name for d in tf.config.get_visible_devices("GPU")],
    "growth": [tf.config.experimental.get_memory_growth(g)
               for g in tf.config.get_visible_devices("GPU")],
}))
"""


# the two orders Horovod's TF1 examples use: a session handed to Keras first, or the
# monitored session first (its Saver and hooks built before any plain session)
_SESSION_FIRST = """
sess = tf.compat.v1.Session(config=config)
tf.compat.v1.keras.backend.set_session(sess)
with tf.compat.v1.train.MonitoredTrainingSession(config=config) as mon_sess:
    mon_sess.run(train)
"""
_MONITORED_FIRST = """
with tf.compat.v1.train.MonitoredTrainingSession(config=config) as mon_sess:
    mon_sess.run(train)
sess = tf.compat.v1.Session(config=config)
tf.compat.v1.keras.backend.set_session(sess)
sess.run(step.initializer)
"""


@pytest.mark.tf
@pytest.mark.parametrize(
    "sessions", [_SESSION_FIRST, _MONITORED_FIRST], ids=["session-first", "monitored-first"]
)
def test_tf1_horovod_pattern_pins_one_gpu_per_process_under_run(tmp_path, sessions):
    script = tmp_path / "hvd_tf1.py"
    script.write_text(_HOROVOD_TF1.replace("{sessions}", sessions.strip("\n")))
    procs = []
    for rank in (0, 1):
        report = tmp_path / f"report{rank}.json"
        env = {
            "OMPI_COMM_WORLD_LOCAL_RANK": str(rank),
            "OMPI_COMM_WORLD_SIZE": "2",
            "SIMGPU_DIR": str(TESTS),
        }
        command = ["-m", "tfcompat_gpu", "run", "--report", str(report), str(script)]
        procs.append((rank, report, start(command, env=env, cwd=tmp_path)))
    for rank, report, proc in procs:
        out, err = proc.communicate(timeout=240)
        assert proc.returncode == 0, err[-3000:]
        result = json.loads(out.strip().splitlines()[-1])
        assert result == {"visible": [f"/physical_device:GPU:{rank}"], "growth": [True]}
        data = json.loads(report.read_text())
        assert data["config"] == {"allow_growth": True, "visible_device_list": str(rank)}
        assert [s["kind"] for s in data["sessions"]] == ["Session", "Session"]
        assert all(
            s["config"]["gpu_options.visible_device_list"] == str(rank) for s in data["sessions"]
        )
        assert "Conflicting" not in err, err


@pytest.mark.tf
def test_run_flag_and_variable_accept_local_rank(tmp_path):
    script = tmp_path / "show.py"
    script.write_text(
        textwrap.dedent(
            """
            import json
            import tensorflow as tf
            import tfcompat_gpu
            print(json.dumps(tfcompat_gpu.current_config().to_dict()))
            """
        )
    )
    results = []
    for flags, extra in (
        (["--visible-devices", "local_rank:2"], {"HOROVOD_LOCAL_RANK": "1"}),
        ([], {"TFCOMPAT_GPU_VISIBLE_DEVICES": "local_rank", "MPI_LOCALRANKID": "3"}),
        (["--visible-devices", "local_rank"], {}),
    ):
        proc = cli("run", *flags, str(script), env=extra, cwd=tmp_path, timeout=240)
        results.append(proc)
    ok1, ok2, missing = results
    assert ok1.returncode == 0, ok1.stderr
    assert json.loads(ok1.stdout.splitlines()[-1]) == {"visible_device_list": "2,3"}
    assert ok2.returncode == 0, ok2.stderr
    assert json.loads(ok2.stdout.splitlines()[-1]) == {"visible_device_list": "3"}
    assert missing.returncode == 2
    assert "HOROVOD_LOCAL_RANK" in missing.stderr
    assert "Traceback" not in missing.stderr
