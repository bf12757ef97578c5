"""``strategy()`` and ``explain()``: the tf.distribute strategy the configuration calls for.

Real TensorFlow strategies are built and inspected. GPUs are simulated physical GPUs (simgpu.py):
TensorFlow's own configuration path and strategy constructors run unchanged, nothing runs on a
GPU. Logical CPUs stand in for devices that really compute. Multi-worker plans read TF_CONFIG and
SLURM variables; real multi-worker runs are in test_multi_worker.py.
"""

from __future__ import annotations

import json

import pytest

from tests._child import cli, run_py

pytestmark = pytest.mark.tf

_NCCL = """
        from tensorflow.python.framework import kernels
        registered = kernels.get_registered_kernels_for_op("NcclAllReduce").kernel
        nccl = any(k.device_type == "GPU" for k in registered)
"""


def test_mirrored_over_exactly_the_configured_gpus():
    out = run_py(
        """
        from simgpu import simulate_gpus
        simulate_gpus(4)
        import tfcompat_gpu
        from tensorflow.python.eager import context
        tfcompat_gpu.configure(visible_device_list="1,3", allow_growth=True)
        plan = tfcompat_gpu.explain()
        started_before = context.context()._context_handle is not None
        s = tfcompat_gpu.strategy()
        """
        + _NCCL
        + """
        emit({
            "plan": plan.to_dict(),
            "started_before": started_before,
            "class": type(s).__name__,
            "devices": list(s.extended.worker_devices),
            "ops": type(s.extended._cross_device_ops).__name__,
            "same": tfcompat_gpu.strategy() is s,
            "nccl": nccl,
        })
        """
    )
    expected_ops = "NcclAllReduce" if out["nccl"] else "ReductionToOneDevice"
    assert out["started_before"] is False  # explain() starts nothing
    assert out["plan"]["kind"] == "MirroredStrategy"
    assert out["plan"]["devices"] == ["/gpu:0", "/gpu:1"]
    assert out["plan"]["cross_device_ops"] == expected_ops
    assert out["class"] == "MirroredStrategy"
    assert out["devices"] == [
        "/job:localhost/replica:0/task:0/device:GPU:0",
        "/job:localhost/replica:0/task:0/device:GPU:1",
    ]
    assert out["ops"] == expected_ops
    assert out["same"] is True


def test_virtual_gpus_fall_back_from_nccl():
    out = run_py(
        """
        from simgpu import simulate_gpus
        simulate_gpus(1)
        import tfcompat_gpu
        tfcompat_gpu.configure(memory_limit_mb=[1024, 1024])
        s = tfcompat_gpu.strategy()
        emit({
            "plan": tfcompat_gpu.explain().to_dict(),
            "devices": len(s.extended.worker_devices),
            "ops": type(s.extended._cross_device_ops).__name__,
        })
        """
    )
    assert out["plan"]["kind"] == "MirroredStrategy"
    assert out["plan"]["devices"] == ["/gpu:0", "/gpu:1"]
    assert out["devices"] == 2
    assert out["ops"] == "ReductionToOneDevice"
    assert any("virtual GPUs" in reason for reason in out["plan"]["reasons"])


@pytest.mark.parametrize(
    ("setup", "kind", "devices"),
    [
        ("simulate_gpus(1)", "default strategy", ["/gpu:0"]),
        (
            "simulate_gpus(3); tfcompat_gpu.configure(device_count={'GPU': 1})",
            "default strategy",
            ["/gpu:0"],
        ),
        ("tfcompat_gpu.configure(device_count={'CPU': 2})", "default strategy", ["/cpu:0"]),
        ("pass", "default strategy", ["/cpu:0"]),
        (
            "simulate_gpus(3); tfcompat_gpu.configure(device_count={'GPU': 2})",
            "MirroredStrategy",
            ["/gpu:0", "/gpu:1"],
        ),
    ],
    ids=["one-gpu", "device-count-gpu-1", "logical-cpus", "cpu-only", "device-count-gpu-2"],
)
def test_one_device_gets_the_default_strategy(setup, kind, devices):
    out = run_py(
        f"""
        from simgpu import simulate_gpus
        import tensorflow as tf
        import tfcompat_gpu
        {setup}
        s = tfcompat_gpu.strategy()
        emit({{"plan": tfcompat_gpu.explain().to_dict(),
              "default": s is tf.distribute.get_strategy(),
              "replicas": s.num_replicas_in_sync}})
        """
    )
    assert out["plan"]["kind"] == kind
    assert out["plan"]["devices"] == devices
    assert out["default"] is (kind == "default strategy")
    assert out["replicas"] == len(devices)


def test_explicit_logical_cpus_train_a_keras_model():
    out = run_py(
        """
        import numpy as np
        import tfcompat_gpu
        tfcompat_gpu.configure(device_count={"CPU": 2}, intra_op_parallelism_threads=1)
        s = tfcompat_gpu.strategy(devices=["/cpu:0", "/cpu:1"])
        import tensorflow as tf
        keras = tf.keras
        with s.scope():
            model = keras.Sequential([keras.Input(shape=(1,)),
                                      keras.layers.Dense(1, kernel_initializer="zeros")])
            model.compile(loss="mse", optimizer=keras.optimizers.SGD(learning_rate=0.1))
        x = np.linspace(-1, 1, 32, dtype=np.float32).reshape(-1, 1)
        model.fit(x, 3 * x + 1, batch_size=8, epochs=5, verbose=0)
        emit({
            "replicas": s.num_replicas_in_sync,
            "devices": list(s.extended.worker_devices),
            "ops": type(s.extended._cross_device_ops).__name__,
            "kernel": float(model.get_weights()[0][0][0]),
            "same": tfcompat_gpu.strategy(devices=["/cpu:0", "/cpu:1"]) is s,
        })
        """
    )
    assert out["replicas"] == 2
    assert [d.rsplit("/", 1)[1] for d in out["devices"]] == ["device:CPU:0", "device:CPU:1"]
    assert out["ops"] == "ReductionToOneDevice"
    assert 1.0 < out["kernel"] < 3.5  # it trained, from 0 towards 3
    assert out["same"] is True


def test_a_different_answer_after_start_is_too_late():
    out = run_py(
        """
        import tfcompat_gpu
        tfcompat_gpu.configure(device_count={"CPU": 2})
        s = tfcompat_gpu.strategy(devices=["/cpu:0", "/cpu:1"])
        import tensorflow as tf
        tf.constant(1.0) + 1  # the runtime runs
        errors = []
        for devices in (None, ["/cpu:0"]):
            try:
                tfcompat_gpu.strategy(devices=devices)
            except tfcompat_gpu.TooLateError as exc:
                errors.append(str(exc))
        emit({"errors": errors, "again": tfcompat_gpu.strategy(devices=["/cpu:0", "/cpu:1"]) is s,
              "explain": tfcompat_gpu.explain().error})
        """
    )
    assert len(out["errors"]) == 2
    first = out["errors"][0]
    assert "returned MirroredStrategy over /cpu:0, /cpu:1" in first
    assert "asks for default strategy over /cpu:0" in first
    assert "runtime has started since" in first
    assert out["again"] is True
    assert out["explain"].startswith("TooLateError: Too late for another strategy")


def test_explicit_devices_outside_the_configuration_are_rejected():
    out = run_py(
        """
        from simgpu import simulate_gpus
        simulate_gpus(4)
        import tfcompat_gpu
        tfcompat_gpu.configure(visible_device_list="0,1")
        errors = []
        for devices in (["/gpu:0", "/gpu:2"], ["/cpu:1"], "/gpu:0", ["/tpu:0"], ["/gpu:0", "/GPU:0"]):
            try:
                tfcompat_gpu.strategy(devices=devices)
            except tfcompat_gpu.GPUConfigError as exc:
                errors.append(str(exc))
        from tensorflow.python.eager import context
        emit({"errors": errors, "started": context.context()._context_handle is not None})
        """
    )
    gpu, cpu, text, tpu, twice = out["errors"]
    assert "'/gpu:2' is not a device of this process: it has 2 logical GPU(s)" in gpu
    assert "1 logical CPU(s)" in cpu
    assert "expected a non-empty list" in text
    assert "expected device names" in tpu
    assert "listed twice" in twice
    assert out["started"] is False  # nothing was built


def test_strategy_applies_the_environment_configuration_first():
    out = run_py(
        """
        import tfcompat_gpu
        s = tfcompat_gpu.strategy()
        import tensorflow as tf
        emit({"applied": tfcompat_gpu.current_config().to_dict(),
              "threads": tf.config.threading.get_intra_op_parallelism_threads()})
        """,
        env={"TFCOMPAT_GPU_INTRA_OP_THREADS": "1", "TFCOMPAT_GPU_SOFT_PLACEMENT": "1"},
    )
    assert out["applied"] == {"allow_soft_placement": True, "intra_op_parallelism_threads": 1}
    assert out["threads"] == 1


def test_multi_worker_after_the_runtime_started_is_too_late():
    out = run_py(
        """
        import tensorflow as tf
        import tfcompat_gpu
        tfcompat_gpu.configure(allow_soft_placement=True)
        tf.constant(1.0) + 1
        try:
            tfcompat_gpu.strategy()
        except tfcompat_gpu.TooLateError as exc:
            emit(str(exc))
        """,
        env={
            "TF_CONFIG": json.dumps(
                {
                    "cluster": {"worker": ["localhost:1", "localhost:2"]},
                    "task": {"type": "worker", "index": 0},
                }
            )
        },
    )
    assert out.startswith("Too late for MultiWorkerMirroredStrategy at <string>:")
    assert "collective ops must be configured before it starts" in out


# -- explain() / tfcompat-gpu env: launcher, cluster, the strategy and why ---------------------


def _env_json(extra: dict[str, str]) -> dict:
    proc = cli("env", "--json", env=extra, timeout=240)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["runtime_started"] is False
    return data["distribution"]


_TWO_WORKERS = {
    "TF_CONFIG": json.dumps(
        {
            "cluster": {"chief": ["host0:2222"], "worker": ["host1:2222", "host2:2222"]},
            "task": {"type": "worker", "index": 1},
        }
    )
}
_SLURM = {
    "SLURM_PROCID": "3",
    "SLURM_LOCALID": "1",
    "SLURM_STEP_NUM_TASKS": "4",
    "SLURM_STEP_NODELIST": "gpu[07-08]",
    "SLURM_STEP_TASKS_PER_NODE": "2(x2)",
    "TFCOMPAT_GPU_VISIBLE_DEVICES": "local_rank",
}


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (
            _TWO_WORKERS,
            {
                "kind": "MultiWorkerMirroredStrategy",
                "devices": ["/job:worker/task:1/device:CPU:0"],
                "communication": "RING",
                "cluster_source": "TF_CONFIG",
                "task": ["worker", 1],
                "num_workers": 3,
            },
        ),
        (
            _SLURM,
            {
                "kind": "MultiWorkerMirroredStrategy",
                "communication": "RING",
                "cluster_source": "SLURM",
                "cluster": {"worker": ["gpu07:8888", "gpu07:8889", "gpu08:8888", "gpu08:8889"]},
                "task": ["worker", 3],
                "num_workers": 4,
            },
        ),
        (
            {"HOROVOD_LOCAL_RANK": "0", "HOROVOD_RANK": "0", "HOROVOD_SIZE": "4"},
            {"kind": "default strategy", "cluster": {}, "num_workers": 1},
        ),
        (
            {"TF_CONFIG": '{"cluster": {"worker": ["h:1"]}, "task": {"type": "worker"}}'},
            {"kind": "default strategy", "cluster_source": "TF_CONFIG", "num_workers": 1},
        ),
        (
            {"TF_CONFIG": "{not json"},
            {"kind": "none", "error": None},
        ),
        (
            {
                "TF_CONFIG": json.dumps(
                    {
                        "cluster": {"ps": ["h:1"], "worker": ["h:2", "h:3"]},
                        "task": {"type": "worker", "index": 0},
                    }
                )
            },
            {"kind": "none"},
        ),
    ],
    ids=["tf-config", "slurm", "horovod", "one-worker", "bad-json", "ps-cluster"],
)
def test_env_reports_the_plan_without_starting_the_runtime(extra, expected):
    plan = _env_json(extra)
    for key, value in expected.items():
        if key == "error":
            continue
        assert plan[key] == value, (key, plan)
    if extra is _TWO_WORKERS:
        assert any("TF_CONFIG lists 3 workers" in r for r in plan["reasons"])
    if extra is _SLURM:
        assert plan["launcher"].startswith("srun (SLURM): local rank 1 (from SLURM_LOCALID) rank 3")
    if "HOROVOD_SIZE" in extra:
        assert any("horovodrun started 4 processes" in r for r in plan["reasons"])
    if extra.get("TF_CONFIG") == "{not json":
        assert plan["error"].startswith("TF_CONFIG: expected JSON")
    if "ps" in extra.get("TF_CONFIG", ""):
        assert "parameter-server cluster" in plan["error"]


def test_env_text_shows_the_strategy_and_why():
    proc = cli("env", env=_TWO_WORKERS, timeout=240)
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert "Runtime started: no" in text
    assert "Cluster:         TF_CONFIG, 3 workers, this task: worker 1" in text
    assert "Strategy:        MultiWorkerMirroredStrategy with RING collectives" in text
    assert "  because TF_CONFIG lists 3 workers (chief + worker tasks)" in text


def test_an_mpi_launcher_without_cluster_gets_a_local_strategy_and_one_warning():
    out = run_py(
        """
        import warnings
        import tfcompat_gpu
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            s = tfcompat_gpu.strategy()
            tfcompat_gpu.strategy()
        emit({"replicas": s.num_replicas_in_sync,
              "warnings": [str(w.message) for w in caught]})
        """,
        env={"OMPI_COMM_WORLD_LOCAL_RANK": "1", "OMPI_COMM_WORLD_SIZE": "4"},
    )
    assert out["replicas"] == 1
    assert len(out["warnings"]) == 1
    assert out["warnings"][0].startswith("mpirun (Open MPI) started 4 processes")
    assert "Horovod" in out["warnings"][0]
