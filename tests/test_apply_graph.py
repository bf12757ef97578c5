"""configure() and session() in v1 graph mode (eager disabled), observed in real TensorFlow."""

from __future__ import annotations

import pytest

from tests._child import run_py

pytestmark = pytest.mark.tf


def test_every_session_created_afterwards_runs_with_the_process_config():
    out = run_py(
        """
        from simgpu import simulate_gpus
        import tensorflow as tf
        tf.compat.v1.disable_eager_execution()
        simulate_gpus(2)
        import tfcompat_gpu
        eff = tfcompat_gpu.configure(
            allow_growth=True, per_process_gpu_memory_fraction=0.25, visible_device_list="1",
            allow_soft_placement=True, log_device_placement=True,
            intra_op_parallelism_threads=2, inter_op_parallelism_threads=3,
        )
        def fields(c):
            return {
                "growth": c.gpu_options.allow_growth,
                "fraction": round(c.gpu_options.per_process_gpu_memory_fraction, 4),
                "visible": c.gpu_options.visible_device_list,
                "soft": c.allow_soft_placement, "log": c.log_device_placement,
                "intra": c.intra_op_parallelism_threads, "inter": c.inter_op_parallelism_threads,
            }
        plain = tf.compat.v1.Session()                       # config=None, as legacy code does
        ours = tfcompat_gpu.session()
        emit({"mode": tfcompat_gpu.detect_mode().value, "plain": fields(plain._config),
              "ours": fields(ours._config), "effective": eff.to_dict()})
        """
    )
    expected = {
        "growth": True,
        "fraction": 0.25,
        "visible": "1",
        "soft": True,
        "log": True,
        "intra": 2,
        "inter": 3,
    }
    assert out["mode"] == "graph"
    assert out["plain"] == expected
    assert out["ours"] == expected


def test_memory_limits_reach_graph_mode_sessions():
    out = run_py(
        """
        from simgpu import simulate_gpus
        import tensorflow as tf
        tf.compat.v1.disable_eager_execution()
        simulate_gpus(2)
        import tfcompat_gpu
        tfcompat_gpu.configure(memory_limit_mb={0: [1024, 1024], 1: [512]})
        c = tf.compat.v1.Session()._config
        emit([list(v.memory_limit_mb) for v in c.gpu_options.experimental.virtual_devices])
        """
    )
    assert out == [[1024, 1024], [512]]


def test_session_merges_per_session_fields_and_device_count():
    out = run_py(
        """
        import tensorflow as tf
        tf.compat.v1.disable_eager_execution()
        import tfcompat_gpu
        tfcompat_gpu.configure(intra_op_parallelism_threads=1)
        request = tfcompat_gpu.GPUConfig(device_count={"CPU": 2}, log_device_placement=True)
        with tf.device("/CPU:1"):
            y = tf.constant(1.0) + 1.0
        with tfcompat_gpu.session(request) as sess:
            value = sess.run(y)
            devices = [d.name for d in sess.list_devices()]
            config = sess._config
        emit({"value": value.item(), "devices": devices, "log": config.log_device_placement,
              "intra": config.intra_op_parallelism_threads,
              "records": [(r.kind, r.config.to_dict()) for r in tfcompat_gpu.runtime.state.STATE.sessions]})
        """
    )
    assert out["value"] == 2.0
    assert any(name.endswith("/device:CPU:1") for name in out["devices"])
    assert out["log"] is True
    assert out["intra"] == 1
    assert out["records"] == [
        ["Session", {"log_device_placement": True, "device_count": {"CPU": 2}}]
    ]


def test_soft_placement_in_graph_mode_sessions():
    out = run_py(
        """
        import tensorflow as tf
        tf.compat.v1.disable_eager_execution()
        import tfcompat_gpu
        with tf.device("/GPU:0"):
            y = tf.constant(1.0) + 1.0
        # Graph mode's default is off: the plain session refuses the GPU op.
        try:
            tf.compat.v1.Session().run(y)
            default = "ran"
        except tf.errors.InvalidArgumentError as exc:
            default = str(exc)
        tfcompat_gpu.configure(allow_soft_placement=True)
        on = tf.compat.v1.Session().run(y).item()
        tfcompat_gpu.configure(allow_soft_placement=False)
        try:
            tfcompat_gpu.session().run(y)
            off = "ran"
        except tf.errors.InvalidArgumentError as exc:
            off = str(exc)
        emit({"default": default, "on": on, "off": off})
        """
    )
    assert "Cannot assign a device for operation" in out["default"]
    assert out["on"] == 2.0
    assert "Cannot assign a device for operation" in out["off"]


def test_device_count_via_configure_in_graph_mode():
    out = run_py(
        """
        import tensorflow as tf
        tf.compat.v1.disable_eager_execution()
        import tfcompat_gpu
        tfcompat_gpu.configure(device_count={"CPU": 2})
        with tf.device("/CPU:1"):
            y = tf.constant(3.0) * 2.0
        with tf.compat.v1.Session() as sess:
            emit({"value": sess.run(y).item(), "count": sess._config.device_count["CPU"]})
        """
    )
    assert out == {"value": 6.0, "count": 2}


def test_keras_session_inherits_the_process_config():
    out = run_py(
        """
        import tensorflow as tf
        tf.compat.v1.disable_eager_execution()
        import tfcompat_gpu
        flavour = tfcompat_gpu.environment().keras_flavour
        if flavour == "keras3":
            emit({"flavour": flavour})  # Keras 3 has no sessions
        else:
            tfcompat_gpu.configure(per_process_gpu_memory_fraction=0.5, inter_op_parallelism_threads=2)
            sess = tf.compat.v1.keras.backend.get_session()
            emit({"flavour": flavour,
                  "fraction": sess._config.gpu_options.per_process_gpu_memory_fraction,
                  "inter": sess._config.inter_op_parallelism_threads})
        """
    )
    if out["flavour"] == "keras3":
        pytest.skip("Keras 3 has no sessions (tf_keras or TF <= 2.15 has)")
    assert out == {"flavour": out["flavour"], "fraction": 0.5, "inter": 2}


def test_session_is_recorded_once_when_the_drop_in_is_installed():
    out = run_py(
        """
        import tfcompat_gpu
        tfcompat_gpu.install()
        import tensorflow as tf
        tf.compat.v1.disable_eager_execution()
        tfcompat_gpu.configure(inter_op_parallelism_threads=2)
        a = tfcompat_gpu.session()
        b = tfcompat_gpu.session(tfcompat_gpu.GPUConfig(log_device_placement=True))
        records = tfcompat_gpu.runtime.state.STATE.sessions
        emit({"count": len(records), "wheres": [r.where.rsplit(":", 1)[0] for r in records],
              "log": b._config.log_device_placement, "inter": b._config.inter_op_parallelism_threads})
        """
    )
    assert out == {"count": 2, "wheres": ["<string>", "<string>"], "log": True, "inter": 2}
