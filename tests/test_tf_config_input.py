"""TF_CONFIG as TensorFlow's ``TFConfigClusterResolver`` reads it, and beside a SLURM step.

A TF_CONFIG TensorFlow's resolver fails on ("[]", "null") is an error here too, never "no
cluster"; a bool is no task index; a TF_CONFIG whose task count differs from the SLURM step's
is said in the strategy's reasons.
"""

from __future__ import annotations

import json

import pytest

from tests._child import cli, run_py
from tfcompat_gpu import GPUConfigError
from tfcompat_gpu.machine.cluster import tf_config_cluster

_CLUSTER = {"worker": ["h1:2222", "h2:2222"]}


@pytest.mark.parametrize(
    "raw",
    ["[]", "null", '"worker"', "3", "[{}]", "true"],
    ids=["list", "null", "str", "int", "list-obj", "bool"],
)
def test_a_tf_config_that_is_not_an_object_is_an_error(raw):
    with pytest.raises(GPUConfigError, match="a JSON object") as caught:
        tf_config_cluster({"TF_CONFIG": raw})
    assert repr(raw) in str(caught.value)


@pytest.mark.parametrize(
    "task",
    [
        {"type": "worker", "index": True},
        {"type": "worker", "index": False},
        {"type": "worker", "index": 1.0},
        {"type": "worker", "index": "1"},
        ["worker", 1],
    ],
    ids=["true", "false", "float", "string", "list"],
)
def test_a_task_index_must_be_an_int(task):
    with pytest.raises(GPUConfigError, match="task must name a job of the cluster and an index"):
        tf_config_cluster({"TF_CONFIG": json.dumps({"cluster": _CLUSTER, "task": task})})


@pytest.mark.parametrize("raw", ["{}", '{"cluster": {}}', "  "], ids=["empty", "no-jobs", "blank"])
def test_an_object_without_a_cluster_is_local_training(raw):
    assert tf_config_cluster({"TF_CONFIG": raw}) is None


def test_a_valid_index_is_read():
    cluster = tf_config_cluster(
        {"TF_CONFIG": json.dumps({"cluster": _CLUSTER, "task": {"type": "worker", "index": 1}})}
    )
    assert cluster is not None
    assert (cluster.task, cluster.num_workers) == (("worker", 1), 2)


@pytest.mark.tf
def test_tf_config_beside_a_slurm_step_with_another_task_count_is_said():
    env = {
        "TF_CONFIG": json.dumps({"cluster": _CLUSTER, "task": {"type": "worker", "index": 0}}),
        "SLURM_PROCID": "0",
        "SLURM_LOCALID": "0",
        "SLURM_STEP_NUM_TASKS": "4",
        "SLURM_STEP_NODELIST": "gpu[01-02]",
        "SLURM_STEP_TASKS_PER_NODE": "2(x2)",
    }
    proc = cli("env", "--json", env=env, timeout=240)
    assert proc.returncode == 0, proc.stderr
    plan = json.loads(proc.stdout)["distribution"]
    assert plan["cluster_source"] == "TF_CONFIG"
    said = [r for r in plan["reasons"] if "this SLURM step has 4" in r]
    assert said
    assert "TF_CONFIG lists 2 task(s)" in said[0]


@pytest.mark.tf
def test_strategy_warns_when_tf_config_and_the_slurm_step_disagree():
    out = run_py(
        """
        import warnings
        import tfcompat_gpu
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            strategy = tfcompat_gpu.strategy()
        emit([type(strategy).__name__, [str(w.message) for w in caught]])
        """,
        env={
            "TF_CONFIG": json.dumps(
                {"cluster": {"worker": ["localhost:1"]}, "task": {"type": "worker", "index": 0}}
            ),
            "SLURM_PROCID": "0",
            "SLURM_LOCALID": "0",
            "SLURM_STEP_NUM_TASKS": "4",
        },
    )
    kind, messages = out
    assert kind != "MultiWorkerMirroredStrategy"
    assert any("TF_CONFIG lists 1 task(s) but this SLURM step has 4" in m for m in messages)
