"""Too late (runtime started) and all-or-nothing behaviour of configure()."""

from __future__ import annotations

import pytest
from cases import BAD_COMBINATIONS, BAD_VALUES

from tests._child import run_py

pytestmark = pytest.mark.tf


def test_too_late_names_each_field_values_and_what_started_the_runtime():
    out = run_py(
        """
        from simgpu import simulate_gpus
        simulate_gpus(2)
        import tfcompat_gpu, tensorflow as tf
        tfcompat_gpu.configure(intra_op_parallelism_threads=2)
        start_line = __import__("inspect").currentframe().f_lineno + 1
        x = tf.constant(1.0) + 1.0   # starts the runtime
        try:
            tfcompat_gpu.configure(allow_growth=True, intra_op_parallelism_threads=4)
            late = None
        except tfcompat_gpu.TooLateError as exc:
            late = {"message": str(exc), "runtime": isinstance(exc, RuntimeError),
                    "config": isinstance(exc, tfcompat_gpu.GPUConfigError)}
        same = tfcompat_gpu.configure(intra_op_parallelism_threads=2).to_dict()
        soft = tfcompat_gpu.configure(allow_soft_placement=False, log_device_placement=True)
        import tensorflow as tf
        emit({"late": late, "same": same, "start_line": start_line, "soft": tf.config.get_soft_device_placement(),
              "log": tf.debugging.get_log_device_placement(),
              "growth": [tf.config.experimental.get_memory_growth(g) for g in tf.config.list_physical_devices("GPU")]})
        """
    )
    late = out["late"]
    assert late["runtime"]
    assert late["config"]
    lines = late["message"].splitlines()
    assert lines[0].startswith("Too late to change process-wide GPU settings at <string>:")
    assert lines[0].endswith(f"the TensorFlow runtime was started at <string>:{out['start_line']}.")
    assert lines[1] == "  allow_growth: active False, requested True"
    assert lines[2] == "  intra_op_parallelism_threads: active 2, requested 4"
    assert lines[3].startswith("Fix: call tfcompat_gpu.configure() before")
    assert "cannot be modified after being initialized" not in late["message"]
    assert out["same"] == {"intra_op_parallelism_threads": 2}
    assert out["soft"] is False
    assert out["log"] is True
    assert out["growth"] == [None, None]  # nothing of the refused call was applied


def test_too_late_without_configure_says_the_runtime_had_started():
    out = run_py(
        """
        import tfcompat_gpu, tensorflow as tf
        tf.config.list_logical_devices()
        try:
            tfcompat_gpu.configure(inter_op_parallelism_threads=3)
        except tfcompat_gpu.TooLateError as exc:
            emit(str(exc))
        """
    )
    assert "the TensorFlow runtime has already started" in out
    assert "  inter_op_parallelism_threads: active 0, requested 3" in out


def test_bad_values_in_a_live_process_change_nothing():
    cases = [c[0] for c in BAD_VALUES] + [c[0] for c in BAD_COMBINATIONS]
    out = run_py(
        """
        from cases import BAD_VALUES, BAD_COMBINATIONS
        from simgpu import simulate_gpus
        simulate_gpus(2)
        import tfcompat_gpu
        from tensorflow.python.eager import context
        tfcompat_gpu.configure(allow_growth=True, intra_op_parallelism_threads=2)
        before = context.context().config.SerializeToString(deterministic=True)
        current = tfcompat_gpu.current_config()
        results = {}
        cases = [(i, {f: v}) for i, f, v, _ in BAD_VALUES] + [(i, fields) for i, fields, _ in BAD_COMBINATIONS]
        for case_id, fields in cases:
            try:
                tfcompat_gpu.configure(**fields)
                results[case_id] = "applied"
            except tfcompat_gpu.GPUConfigError as exc:
                same = context.context().config.SerializeToString(deterministic=True) == before
                results[case_id] = "unchanged" if same and tfcompat_gpu.current_config() == current else "changed"
        emit(results)
        """
    )
    assert out == {case: "unchanged" for case in cases}


def test_machine_level_errors_and_tensorflow_rejections_roll_back():
    out = run_py(
        """
        from simgpu import simulate_gpus
        gpus = simulate_gpus(2)
        import tfcompat_gpu, tensorflow as tf
        from tensorflow.python.eager import context
        def snapshot():
            return context.context().config.SerializeToString(deterministic=True)
        results = {}
        before = snapshot()
        try:
            tfcompat_gpu.configure(visible_device_list="0,2")
        except tfcompat_gpu.GPUConfigError as exc:
            results["invalid-id"] = (str(exc), snapshot() == before)
        try:
            tfcompat_gpu.configure(memory_limit_mb={3: [1024]})
        except tfcompat_gpu.GPUConfigError as exc:
            results["limit-id"] = (str(exc), snapshot() == before)
        # A virtual device set behind our back makes TensorFlow refuse growth on GPU 0, after the
        # visible-device step already ran: everything must be rolled back.
        tf.config.set_logical_device_configuration(gpus[0], [tf.config.LogicalDeviceConfiguration(memory_limit=512)])
        before = snapshot()
        try:
            tfcompat_gpu.configure(visible_device_list="0", allow_growth=True)
        except tfcompat_gpu.GPUConfigError as exc:
            results["tf-rejects"] = (str(exc), snapshot() == before)
        results["visible"] = [d.name for d in tf.config.get_visible_devices("GPU")]
        emit(results)
        """
    )
    message, unchanged = out["invalid-id"]
    assert unchanged
    assert message == (
        "visible_device_list: 'visible_device_list' listed an invalid GPU id '2' but visible device "
        "count is 2. Received: visible_device_list='0,2'. Expected ids from 0 to 1: they count the "
        "GPUs left after CUDA_VISIBLE_DEVICES, not nvidia-smi's."
    )
    message, unchanged = out["limit-id"]
    assert unchanged
    assert message.startswith("memory_limit_mb: GPU id 3 is not a visible GPU")
    message, unchanged = out["tf-rejects"]
    assert unchanged
    assert message.startswith(
        "TensorFlow rejected the configuration at tf.config.experimental.set_memory_growth("
    )
    assert "Cannot set memory growth on device when virtual devices configured" in message
    assert message.endswith("Nothing was applied.")
    assert out["visible"] == ["/physical_device:GPU:0", "/physical_device:GPU:1"]


def test_unknown_keyword_suggests_the_field():
    out = run_py(
        """
        import tfcompat_gpu
        try:
            tfcompat_gpu.configure(allow_grwoth=True)
        except tfcompat_gpu.GPUConfigError as exc:
            import sys
            emit({"message": str(exc), "tf_imported": "tensorflow" in sys.modules})
        """
    )
    assert out["message"].startswith("Unknown GPU setting 'allow_grwoth'.")
    assert out["message"].endswith("Did you mean 'allow_growth'?")
    assert out["tf_imported"] is False
