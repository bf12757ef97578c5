"""Values as users' programs hand them over: numpy numbers, misspelled names, corrupt bytes, the
environment.  numpy comes with TensorFlow; the GPUConfig tests never import TensorFlow."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests._child import run_py
from tfcompat_gpu import GPUConfig, GPUConfigError


@pytest.mark.parametrize(
    ("field", "value", "stored"),
    [
        ("intra_op_parallelism_threads", np.int64(2), 2),
        ("inter_op_parallelism_threads", np.int32(0), 0),
        ("per_process_gpu_memory_fraction", np.float32(0.5), 0.5),
        ("per_process_gpu_memory_fraction", np.float64(0.25), 0.25),
        ("allow_growth", np.bool_(True), True),
        ("allow_soft_placement", np.bool_(False), False),
        ("log_device_placement", np.True_, True),
        ("memory_limit_mb", np.int64(2048), 2048),
        ("memory_limit_mb", [np.int64(1024), np.int32(1024)], (1024, 1024)),
        ("memory_limit_mb", {np.int64(0): [np.int64(512)]}, {0: (512,)}),
        ("memory_limit_mb", np.array([1024, 2048]), (1024, 2048)),
        ("visible_device_list", [np.int64(1), np.int64(0)], "1,0"),
        ("visible_device_list", np.array([0, 1]), "0,1"),
        ("device_count", {"CPU": np.int64(2)}, {"CPU": 2}),
    ],
    ids=lambda v: type(v).__name__ if not isinstance(v, str) else v,
)
def test_numpy_scalars_are_accepted_and_stored_as_python_values(field, value, stored):
    cfg = GPUConfig(**{field: value})
    got = getattr(cfg, field)
    assert got == stored
    # Plain Python values: JSON, repr and hashing work as for ints and floats.
    json.dumps(cfg.to_dict())
    assert "np." not in repr(cfg)
    assert "numpy" not in repr(cfg)
    assert hash(cfg) == hash(GPUConfig(**{field: stored}))


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("intra_op_parallelism_threads", np.bool_(True)),
        ("intra_op_parallelism_threads", np.float64(2.0)),
        ("memory_limit_mb", np.bool_(True)),
        ("memory_limit_mb", [np.float32(1024.0)]),
        ("visible_device_list", [np.bool_(True)]),
        ("device_count", {"CPU": np.bool_(True)}),
        ("per_process_gpu_memory_fraction", np.bool_(True)),
        ("allow_growth", np.int64(1)),
        ("intra_op_parallelism_threads", np.int64(-1)),
    ],
    ids=lambda v: repr(v),
)
def test_numpy_values_of_the_wrong_kind_are_still_refused(field, value):
    with pytest.raises(GPUConfigError, match=f"^{field}: expected "):
        GPUConfig(**{field: value})


@pytest.mark.parametrize(
    ("kwargs", "suggestion"),
    [
        ({"allow_grwoth": True}, "allow_growth"),
        ({"memory_fraction": 0.5}, "per_process_gpu_memory_fraction"),
        ({"visible_devices": "0"}, "visible_device_list"),
        ({"intra_op_threads": 2}, "intra_op_parallelism_threads"),
    ],
)
def test_unknown_keyword_of_gpuconfig_says_did_you_mean(kwargs, suggestion):
    with pytest.raises(GPUConfigError) as info:
        GPUConfig(**kwargs)
    message = str(info.value)
    name = next(iter(kwargs))
    assert f"Unknown GPU setting {name!r}" in message
    assert f"Did you mean {suggestion!r}?" in message


def test_unknown_keyword_without_a_close_name_lists_the_fields():
    with pytest.raises(GPUConfigError, match="Expected one of: allow_growth, allow_soft_placement"):
        GPUConfig(banana=1)  # type: ignore[call-arg]


def test_from_env_combination_names_both_variables():
    env = {"TFCOMPAT_GPU_MEMORY_FRACTION": "0.5", "TFCOMPAT_GPU_MEMORY_LIMIT_MB": "1024"}
    with pytest.raises(GPUConfigError) as info:
        GPUConfig.from_env(env)
    assert "TFCOMPAT_GPU_MEMORY_FRACTION" in str(info.value)
    assert "TFCOMPAT_GPU_MEMORY_LIMIT_MB" in str(info.value)


@pytest.mark.tf
def test_numpy_values_configure_tensorflow_and_place_ops():
    out = run_py(
        """
        import numpy as np
        from simgpu import simulate_gpus
        simulate_gpus(3)
        import tfcompat_gpu, tensorflow as tf
        cfg = tfcompat_gpu.configure(
            visible_device_list=np.array([1, 2]),
            intra_op_parallelism_threads=np.int64(2),
            per_process_gpu_memory_fraction=np.float32(0.5),
            allow_soft_placement=np.bool_(True),
        )
        placement = tfcompat_gpu.on_gpu(np.int64(2))
        emit({"cfg": cfg.to_dict(), "device": placement.device, "gpu_id": repr(placement.gpu_id),
              "threads": tf.config.threading.get_intra_op_parallelism_threads()})
        """
    )
    assert out["cfg"] == {
        "per_process_gpu_memory_fraction": 0.5,
        "visible_device_list": "1,2",
        "allow_soft_placement": True,
        "intra_op_parallelism_threads": 2,
    }
    assert out["device"] == "/device:GPU:1"
    assert out["gpu_id"] == "2"
    assert out["threads"] == 2


@pytest.mark.tf
def test_corrupt_extra_proto_is_our_error_and_nothing_is_applied():
    out = run_py(
        """
        import tfcompat_gpu, tensorflow as tf
        results = {}
        for name, call in [
            ("construct", lambda: tfcompat_gpu.GPUConfig(extra_proto=b"\\xff\\xff\\xff")),
            ("from_bytes", lambda: tfcompat_gpu.GPUConfig.from_config_proto(b"\\x0a\\xff")),
        ]:
            try:
                call()
                results[name] = None
            except Exception as exc:
                results[name] = [type(exc).__name__, str(exc)]
        results["threads"] = tf.config.threading.get_intra_op_parallelism_threads()
        emit(results)
        """
    )
    for name in ("construct", "from_bytes"):
        kind, message = out[name]
        assert kind == "GPUConfigError", out[name]
        assert "serialized tf.compat.v1.ConfigProto" in message
        assert "DecodeError" not in kind
    assert out["threads"] == 0


@pytest.mark.tf
@pytest.mark.parametrize(
    ("route", "install"),
    [("tf.Session", True), ("tfcompat_gpu.session", True), ("tfcompat_gpu.session", False)],
)
def test_a_session_tensorflow_refuses_leaves_no_trace(route, install):
    out = run_py(
        f"""
        import tfcompat_gpu, tensorflow as tf
        if {install!r}:
            tfcompat_gpu.install()
        tf = tf.compat.v1
        tf.disable_eager_execution()
        refused = tf.ConfigProto(device_count={{"CPU": 0}}, intra_op_parallelism_threads=3,
                                 gpu_options=tf.GPUOptions(allow_growth=True))
        try:
            if {route!r} == "tf.Session":
                tf.Session(config=refused)
            else:
                tfcompat_gpu.session(refused)
            error = None
        except Exception as exc:
            error = type(exc).__name__
        from tfcompat_gpu.runtime.state import STATE
        after = {{"sessions": len(STATE.sessions), "applied": tfcompat_gpu.current_config().to_dict(),
                  "where": STATE.process_wide_where}}
        # The next configure() is not "too late": the refused session fixed nothing.
        cfg = tfcompat_gpu.configure(intra_op_parallelism_threads=2, allow_growth=False)
        with tf.Session() as sess:
            threads = sess._config.intra_op_parallelism_threads
        emit({{"error": error, "after": after, "cfg": cfg.to_dict(), "threads": threads}})
        """
    )
    assert out["error"] is not None
    assert out["after"] == {"sessions": 0, "applied": {}, "where": None}
    assert out["cfg"] == {"allow_growth": False, "intra_op_parallelism_threads": 2}
    assert out["threads"] == 2
