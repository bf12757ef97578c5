"""configure() in TF2 eager mode, observed in real TensorFlow (CPU build).

GPU fields are exercised with simulated physical GPUs (see simgpu.py): TensorFlow's own
tf.config setters and ``context().config`` run unchanged, only the device list is simulated.
"""

from __future__ import annotations

import pytest

from tests._child import run_py

pytestmark = pytest.mark.tf


def test_every_field_reaches_the_context_config_with_simulated_gpus():
    out = run_py(
        """
        import warnings
        from simgpu import simulate_gpus
        simulate_gpus(3)
        import tfcompat_gpu
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            eff = tfcompat_gpu.configure(
                allow_growth=True,
                per_process_gpu_memory_fraction=0.4,
                visible_device_list="0,2",
                allow_soft_placement=False,
                log_device_placement=True,
                intra_op_parallelism_threads=2,
                inter_op_parallelism_threads=3,
            )
        from tensorflow.python.eager import context
        c = context.context().config
        emit({
            "growth": c.gpu_options.allow_growth,
            "fraction": c.gpu_options.per_process_gpu_memory_fraction,
            "visible": c.gpu_options.visible_device_list,
            "soft": c.allow_soft_placement,
            "log": c.log_device_placement,
            "intra": c.intra_op_parallelism_threads,
            "inter": c.inter_op_parallelism_threads,
            "gpu_count": c.device_count["GPU"],
            "effective": eff.to_dict(),
            "current": tfcompat_gpu.current_config() == eff,
            "warnings": [str(w.message) for w in caught],
            "started": context.context()._context_handle is not None,
        })
        """
    )
    assert out["growth"] is True
    assert out["fraction"] == pytest.approx(0.4)
    assert out["visible"] == "0,2"
    assert out["soft"] is False
    assert out["log"] is True
    assert (out["intra"], out["inter"]) == (2, 3)
    assert out["gpu_count"] == 2
    assert out["current"] is True
    assert out["warnings"] == []
    assert out["started"] is False  # configure() never starts the runtime
    assert out["effective"]["visible_device_list"] == "0,2"


@pytest.mark.parametrize(
    ("limit", "expected"),
    [
        ("2048", {"0": [2048], "1": [2048]}),
        ("[1024, 1024]", {"0": [1024, 1024], "1": [1024, 1024]}),
        ("{0: [512], 1: [256, 256]}", {"0": [512], "1": [256, 256]}),
    ],
    ids=["int-per-gpu", "list-virtual-gpus", "dict-per-gpu"],
)
def test_memory_limits_become_logical_devices(limit, expected):
    out = run_py(
        f"""
        from simgpu import simulate_gpus
        gpus = simulate_gpus(2)
        import tfcompat_gpu, tensorflow as tf
        tfcompat_gpu.configure(memory_limit_mb={limit})
        from tensorflow.python.eager import context
        c = context.context().config
        emit({{
            "proto": {{str(i): list(v.memory_limit_mb) for i, v in enumerate(c.gpu_options.experimental.virtual_devices)}},
            "logical": {{str(i): [d.memory_limit for d in (tf.config.get_logical_device_configuration(g) or [])] for i, g in enumerate(gpus)}},
            "gpu_count": c.device_count["GPU"],
        }})
        """
    )
    assert out["proto"] == expected
    assert out["logical"] == expected
    assert out["gpu_count"] == sum(len(v) for v in expected.values())


def test_fraction_reaches_the_allocator_config_without_gpu_and_warns_once():
    out = run_py(
        """
        import warnings
        import tfcompat_gpu
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            tfcompat_gpu.configure(per_process_gpu_memory_fraction=0.3, allow_growth=True)
            tfcompat_gpu.configure(intra_op_parallelism_threads=2)
            tfcompat_gpu.configure(visible_device_list="0")
        import tensorflow as tf
        from tensorflow.python.eager import context
        c = context.context().config
        sess_config = tf.compat.v1.Session()._config
        emit({
            "fraction": c.gpu_options.per_process_gpu_memory_fraction,
            "growth": c.gpu_options.allow_growth,
            "visible": c.gpu_options.visible_device_list,
            "intra": c.intra_op_parallelism_threads,
            "session_fraction": sess_config.gpu_options.per_process_gpu_memory_fraction,
            "warnings": [(w.category.__name__, str(w.message)) for w in caught],
        })
        """
    )
    assert out["fraction"] == pytest.approx(0.3)
    assert out["session_fraction"] == pytest.approx(0.3)
    assert out["growth"] is True
    assert out["visible"] == "0"
    assert out["intra"] == 2
    assert len(out["warnings"]) == 1
    category, message = out["warnings"][0]
    assert category == "GPUConfigWarning"
    assert message.startswith(
        "No GPU is visible to TensorFlow: allow_growth, per_process_gpu_memory_fraction recorded "
        "but without effect on this machine"
    )


def test_soft_placement_off_fails_a_gpu_op_and_on_runs_it_on_cpu():
    out = run_py(
        """
        import tfcompat_gpu, tensorflow as tf
        tfcompat_gpu.configure(allow_soft_placement=False)
        try:
            with tf.device("/GPU:0"):
                tf.constant(1.0) + 1.0
            off = "ran"
        except tf.errors.InvalidArgumentError as exc:
            off = type(exc).__name__ + ": " + str(exc)
        tfcompat_gpu.configure(allow_soft_placement=True)  # accepted after start
        with tf.device("/GPU:0"):
            y = tf.constant(1.0) + 1.0
        emit({"off": off, "on_device": y.device})
        """
    )
    assert out["off"].startswith("InvalidArgumentError")
    assert "Could not satisfy device specification" in out["off"]
    assert out["on_device"].endswith("/device:CPU:0")


def test_device_count_cpu_gives_a_usable_second_cpu():
    out = run_py(
        """
        import tfcompat_gpu, tensorflow as tf
        tfcompat_gpu.configure(device_count={"CPU": 2})
        with tf.device("/CPU:1"):
            y = tf.constant(1.0) + 1.0
        emit({"device": y.device, "logical": [d.name for d in tf.config.list_logical_devices("CPU")]})
        """
    )
    assert out["device"].endswith("/device:CPU:1")
    assert out["logical"] == ["/device:CPU:0", "/device:CPU:1"]


_THREADS = """
    import os, collections, tfcompat_gpu, tensorflow as tf
    tfcompat_gpu.configure(intra_op_parallelism_threads={intra}, inter_op_parallelism_threads={inter})
    (tf.constant([[1.0]]) @ tf.constant([[2.0]])).numpy()
    def comm(task):
        try:
            with open(f"/proc/self/task/{{task}}/comm") as f:
                return f.read().strip()
        except FileNotFoundError:  # a short-lived thread ended while we listed
            return None
    names = collections.Counter(
        n for n in map(comm, os.listdir("/proc/self/task")) if n is not None
    )
    emit({{"names": dict(names), "intra": tf.config.threading.get_intra_op_parallelism_threads(),
           "inter": tf.config.threading.get_inter_op_parallelism_threads()}})
"""


@pytest.mark.skipif(not __import__("os").path.isdir("/proc/self/task"), reason="needs Linux /proc")
def test_thread_counts_reach_tensorflow_pools():
    small = run_py(_THREADS.format(intra=2, inter=3))
    large = run_py(_THREADS.format(intra=5, inter=4))
    assert (small["intra"], small["inter"]) == (2, 3)
    assert (large["intra"], large["inter"]) == (5, 4)
    if "tf_Compute" not in small["names"]:
        # TF <= 2.15 leaves pool threads unnamed and starts some of them lazily: the OS thread
        # count is no reliable witness there; the runtime's own getters above are.
        return
    assert (small["names"]["tf_Compute"], large["names"]["tf_Compute"]) == (3, 4)
    # Intra-op (Eigen) threads are unnamed: at least one more per extra configured thread
    # (at least, since a short-lived helper thread may be caught in one listing).
    assert large["names"]["python"] - small["names"]["python"] >= 5 - 2


def test_growth_with_logical_cpus_is_not_dropped():
    # Control: with plain tf.config calls TensorFlow silently drops growth when logical CPUs
    # exist (they share the map that holds virtual GPUs).
    control = run_py(
        """
        from simgpu import simulate_gpus
        gpus = simulate_gpus(2)
        import tensorflow as tf
        for gpu in gpus:
            tf.config.experimental.set_memory_growth(gpu, True)
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        from tensorflow.python.eager import context
        emit(context.context().config.gpu_options.allow_growth)
        """
    )
    assert control is False
    fixed = run_py(
        """
        from simgpu import simulate_gpus
        simulate_gpus(2)
        import tfcompat_gpu
        tfcompat_gpu.configure(allow_growth=True, device_count={"CPU": 2})
        from tensorflow.python.eager import context
        emit(context.context().config.gpu_options.allow_growth)
        """
    )
    assert fixed is True


def test_reorder_is_reported_and_applied_in_physical_order():
    out = run_py(
        """
        import warnings
        from simgpu import simulate_gpus
        simulate_gpus(2)
        import tfcompat_gpu
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            eff = tfcompat_gpu.configure(visible_device_list="1,0", allow_growth=True)
        from tensorflow.python.eager import context
        emit({"effective": eff.visible_device_list,
              "visible": context.context().config.gpu_options.visible_device_list,
              "warnings": [str(w.message) for w in caught]})
        """
    )
    assert out["effective"] == "0,1"
    assert out["visible"] == "0,1"
    assert len(out["warnings"]) == 1
    assert "asks for a reorder, which TF2 cannot express" in out["warnings"][0]


def test_configure_calls_accumulate():
    out = run_py(
        """
        from simgpu import simulate_gpus
        simulate_gpus(1)
        import tfcompat_gpu
        tfcompat_gpu.configure(allow_growth=True)
        tfcompat_gpu.configure(intra_op_parallelism_threads=1)
        eff = tfcompat_gpu.configure(tfcompat_gpu.GPUConfig(log_device_placement=True), inter_op_parallelism_threads=1)
        emit(eff.to_dict())
        """
    )
    assert out == {
        "allow_growth": True,
        "log_device_placement": True,
        "intra_op_parallelism_threads": 1,
        "inter_op_parallelism_threads": 1,
    }
