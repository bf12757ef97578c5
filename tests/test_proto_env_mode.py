"""ConfigProto round trips, environment(), detect_mode() and import cost, in real TensorFlow."""

from __future__ import annotations

import pytest

from tests._child import cli, run_py

pytestmark = pytest.mark.tf


def test_config_proto_round_trips_every_field_and_keeps_the_rest():
    out = run_py(
        """
        import tensorflow as tf
        from tfcompat_gpu import GPUConfig, GPUConfigError
        from tfcompat_gpu.settings.options import OPTIONS
        samples = {
            "allow_growth": True,
            "per_process_gpu_memory_fraction": 0.5,
            "memory_limit_mb": [1024, 2048],
            "visible_device_list": "1,0",
            "allow_soft_placement": True,
            "log_device_placement": True,
            "intra_op_parallelism_threads": 3,
            "inter_op_parallelism_threads": 5,
            "device_count": {"CPU": 2, "GPU": 1},
            "jit": True,
            "auto_mixed_precision": False,
        }
        results = {}
        for option in OPTIONS:
            cfg = GPUConfig(**{option.name: samples[option.name]})
            back = GPUConfig.from_config_proto(cfg.to_config_proto())
            results[option.name] = back == cfg
        everything = GPUConfig(**{k: v for k, v in samples.items() if k not in ("per_process_gpu_memory_fraction", "allow_growth")})
        results["all-at-once"] = GPUConfig.from_config_proto(everything.to_config_proto()) == everything
        per_gpu = GPUConfig(visible_device_list="2,0", memory_limit_mb={0: [512, 512], 2: [1024]})
        proto = per_gpu.to_config_proto()
        results["per-gpu"] = GPUConfig.from_config_proto(proto) == per_gpu
        results["per-gpu-proto"] = [list(v.memory_limit_mb) for v in proto.gpu_options.experimental.virtual_devices]

        # A TF1 proto with fields the facade does not model: proto -> GPUConfig -> proto is exact.
        legacy = tf.compat.v1.ConfigProto(
            allow_soft_placement=True,
            operation_timeout_in_ms=1500,
            gpu_options=tf.compat.v1.GPUOptions(
                allow_growth=True, allocator_type="BFC", visible_device_list="1",
                experimental=tf.compat.v1.GPUOptions.Experimental(use_unified_memory=True),
            ),
            graph_options=tf.compat.v1.GraphOptions(
                build_cost_model=2,
                optimizer_options=tf.compat.v1.OptimizerOptions(global_jit_level=2),  # ON_2
            ),
        )
        cfg = GPUConfig.from_config_proto(legacy)
        again = cfg.to_config_proto()
        results["exact-bytes"] = again.SerializeToString(deterministic=True) == legacy.SerializeToString(deterministic=True)
        results["unmodeled"] = cfg.unmodeled_fields()
        results["from-bytes"] = GPUConfig.from_config_proto(legacy.SerializeToString()) == cfg
        results["on-2-jit"] = cfg.jit
        # XLA ON_1 and mixed precision OFF are modelled: read as True / False, written back.
        graph = tf.compat.v1.ConfigProto()
        graph.graph_options.optimizer_options.global_jit_level = tf.compat.v1.OptimizerOptions.ON_1
        graph.graph_options.rewrite_options.auto_mixed_precision = 2  # RewriterConfig.OFF
        cfg = GPUConfig.from_config_proto(graph)
        results["graph-fields"] = [cfg.jit, cfg.auto_mixed_precision, cfg.extra_proto.hex()]
        results["graph-bytes"] = cfg.to_config_proto().SerializeToString(deterministic=True) == graph.SerializeToString(deterministic=True)
        off = GPUConfig(jit=False).to_config_proto().graph_options.optimizer_options
        results["jit-off"] = tf.compat.v1.OptimizerOptions.GlobalJitLevel.Name(off.global_jit_level)
        try:
            GPUConfig.from_config_proto({"allow_growth": True})
        except GPUConfigError as exc:
            results["bad-type"] = str(exc)
        emit(results)
        """
    )
    for name in (
        "allow_growth",
        "per_process_gpu_memory_fraction",
        "memory_limit_mb",
        "visible_device_list",
        "allow_soft_placement",
        "log_device_placement",
        "intra_op_parallelism_threads",
        "inter_op_parallelism_threads",
        "device_count",
        "jit",
        "auto_mixed_precision",
        "all-at-once",
        "per-gpu",
        "exact-bytes",
        "from-bytes",
    ):
        assert out[name] is True, name
    assert out["per-gpu-proto"] == [[1024], [512, 512]]
    assert out["unmodeled"] == {
        "operation_timeout_in_ms": 1500,
        "gpu_options.allocator_type": "BFC",
        "gpu_options.experimental.use_unified_memory": True,
        "graph_options.build_cost_model": 2,
        # ON_2 is no jit value (TF2's set_jit only sets ON_1): kept as it is, not modelled
        "graph_options.optimizer_options.global_jit_level": 2,
    }
    assert out["on-2-jit"] is None
    assert out["graph-fields"] == [True, False, ""]
    assert out["graph-bytes"] is True
    assert out["jit-off"] == "OFF"
    assert out["bad-type"].startswith("from_config_proto: expected a tf.compat.v1.ConfigProto")


def test_kept_fields_reach_sessions_through_configure():
    out = run_py(
        """
        import tensorflow as tf
        tf.compat.v1.disable_eager_execution()
        import tfcompat_gpu
        legacy = tf.compat.v1.ConfigProto(
            operation_timeout_in_ms=1500,
            gpu_options=tf.compat.v1.GPUOptions(allocator_type="BFC", allow_growth=True),
        )
        tfcompat_gpu.configure(tfcompat_gpu.GPUConfig.from_config_proto(legacy))
        c = tf.compat.v1.Session()._config
        emit({"timeout": c.operation_timeout_in_ms, "allocator": c.gpu_options.allocator_type,
              "growth": c.gpu_options.allow_growth})
        """
    )
    assert out == {"timeout": 1500, "allocator": "BFC", "growth": True}


def test_environment_reports_without_starting_the_runtime():
    out = run_py(
        """
        import os
        os.environ["CUDA_VISIBLE_DEVICES"] = "1"
        os.environ["TF_FORCE_GPU_ALLOW_GROWTH"] = "true"
        import tfcompat_gpu, sys
        bare = tfcompat_gpu.environment(import_tensorflow=False)
        env = tfcompat_gpu.environment()
        import tensorflow as tf
        from tensorflow.python.eager import context
        started_after_report = context.context()._context_handle is not None
        tf.constant(1) + 1
        emit({"bare": [bare.tensorflow_version, bare.runtime_started],
              "version": env.tensorflow_version, "tf": tf.__version__,
              "flavour": env.keras_flavour, "mode": env.mode.value,
              "gpus": list(env.physical_gpus), "env": dict(env.gpu_env),
              "started": [env.runtime_started, started_after_report,
                          tfcompat_gpu.environment().runtime_started],
              "text": str(env)})
        """
    )
    assert out["bare"] == [None, False]
    assert out["version"] == out["tf"].split("+")[0]
    major_minor = tuple(int(p) for p in out["tf"].split(".")[:2])
    import os

    if major_minor <= (2, 15):
        assert out["flavour"] == "keras2"
    elif os.environ.get("TF_USE_LEGACY_KERAS") == "1":
        assert out["flavour"] == "tf_keras"
    else:
        assert out["flavour"] == "keras3"
    assert out["mode"] == "eager"
    assert out["gpus"] == []
    from tfcompat_gpu.settings.env_vars import GPU_ENV_VARS

    assert out["env"]["CUDA_VISIBLE_DEVICES"] == "1"
    assert out["env"]["TF_FORCE_GPU_ALLOW_GROWTH"] == "true"
    # Only GPU-related variables are reported (the harness and CI legs set a few more).
    assert set(out["env"]) <= set(GPU_ENV_VARS)
    assert "PATH" not in out["env"]
    assert out["started"] == [False, False, True]
    assert "Runtime started: no" in out["text"]


def test_keras_flavour_follows_tf_use_legacy_keras():
    out = run_py(
        """
        import tfcompat_gpu, tensorflow as tf
        emit([tf.__version__, tfcompat_gpu.environment().keras_flavour])
        """,
        env={"TF_USE_LEGACY_KERAS": "1"},
    )
    version, flavour = out
    expected = "keras2" if tuple(int(p) for p in version.split(".")[:2]) <= (2, 15) else "tf_keras"
    assert flavour == expected


@pytest.mark.parametrize(
    ("setup", "expected"),
    [
        ("", "eager"),
        ("tf.compat.v1.disable_eager_execution()", "graph"),
        ("tf.compat.v1.disable_v2_behavior()", "graph"),
        ("tf.compat.v1.disable_eager_execution(); tf.compat.v1.enable_eager_execution()", "eager"),
    ],
    ids=["default", "disable_eager_execution", "disable_v2_behavior", "re-enabled"],
)
def test_detect_mode(setup, expected):
    out = run_py(
        f"""
        import tensorflow as tf
        {setup}
        import tfcompat_gpu
        emit(tfcompat_gpu.detect_mode().value)
        """
    )
    assert out == expected


def test_import_does_not_import_tensorflow_in_a_fresh_process():
    out = run_py(
        """
        import sys
        import tfcompat_gpu
        cfg = tfcompat_gpu.GPUConfig(allow_growth=True)
        emit({"tf": "tensorflow" in sys.modules, "keras": "keras" in sys.modules,
              "public": sorted(n for n in tfcompat_gpu.__all__ if not hasattr(tfcompat_gpu, n))})
        """
    )
    assert out == {"tf": False, "keras": False, "public": []}


def test_only_one_module_imports_tensorflow():
    import ast
    from pathlib import Path

    package = Path(__file__).resolve().parent.parent / "tfcompat_gpu"
    importers = set()
    for path in package.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module":
                names = [
                    a.value
                    for a in node.args
                    if isinstance(a, ast.Constant) and isinstance(a.value, str)
                ]
            if any(n == "tensorflow" or n.startswith("tensorflow.") for n in names):
                importers.add(path.relative_to(package).as_posix())
    assert importers == {"tfapi/_tf.py"}


def test_env_command_reports_json():
    import json

    proc = cli("env", "--json", env={"CUDA_VISIBLE_DEVICES": "0"}, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = json.loads(proc.stdout)
    assert data["gpu_env"]["CUDA_VISIBLE_DEVICES"] == "0"
    assert data["runtime_started"] is False
    assert data["mode"] == "eager"
