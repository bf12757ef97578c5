"""GPU discovery calls answer as in Keras 2 / TF1 without starting the runtime.

The GPUs are simulated physical devices (TensorFlow's own Python device configuration); what
shows that the runtime is left alone is that a ``configure()`` made afterwards still applies.
"""

from __future__ import annotations

import pytest

from tests._child import run_py, run_script

pytestmark = pytest.mark.tf

DISCOVERY = """
    import warnings
    import tfcompat_gpu
    tfcompat_gpu.install()
    import tensorflow as tf
    from keras import backend as K
    from tests._child import emit
    from simgpu import simulate_gpus
    from tfcompat_gpu.tfapi import _tf
    gpus = simulate_gpus({count})
    {setup}
    import keras.backend.tensorflow_backend as KTF
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = {{
            "K": K.tensorflow_backend._get_available_gpus(),
            "KTF": KTF._get_available_gpus(),
            "is_gpu_available": tf.test.is_gpu_available(),
            "cuda_only": tf.test.is_gpu_available(cuda_only=True),
            "v1": tf.compat.v1.test.is_gpu_available(),
            "gpu_device_name": tf.test.gpu_device_name(),
        }}
    out["started"] = _tf.runtime_started()
    # a configuration made after the questions still takes effect
    tfcompat_gpu.configure(allow_growth=True)
    out["growth"] = [tf.config.experimental.get_memory_growth(g)
                     for g in tf.config.get_visible_devices("GPU")]
    emit(out)
"""


@pytest.mark.parametrize(
    ("count", "setup", "names"),
    [
        (2, "", ["/device:GPU:0", "/device:GPU:1"]),
        (0, "", []),
        (3, 'tfcompat_gpu.configure(visible_device_list="2")', ["/device:GPU:0"]),
    ],
    ids=["two-gpus", "no-gpu", "visible-list"],
)
def test_discovery_answers_without_starting_the_runtime(count, setup, names):
    out = run_py(DISCOVERY.format(count=count, setup=setup))
    assert out["K"] == names
    assert out["KTF"] == names
    assert out["is_gpu_available"] is bool(names)
    assert out["cuda_only"] is bool(names)
    assert out["v1"] is bool(names)
    assert out["gpu_device_name"] == (names[0] if names else "")
    assert out["started"] is False
    assert out["growth"] == [True] * len(names)


def test_graph_mode_names_and_set_session_after_discovery(tmp_path):
    run = run_script(
        tmp_path,
        """
        import tensorflow as tf
        from keras import backend as K
        from tests._child import emit
        from simgpu import simulate_gpus
        from tfcompat_gpu.tfapi import _tf
        simulate_gpus(2)
        names = K.tensorflow_backend._get_available_gpus()
        started = _tf.runtime_started()
        tf.config.set_logical_device_configuration(
            tf.config.list_physical_devices("GPU")[1],
            [tf.config.LogicalDeviceConfiguration(256), tf.config.LogicalDeviceConfiguration(256)])
        emit({"names": names, "started": started,
              "after_split": K.tensorflow_backend._get_available_gpus(),
              "device_name": tf.test.gpu_device_name()})
        """,
        "--tf1",
    )
    assert run.rc == 0, run.err
    prefix = "/job:localhost/replica:0/task:0/device:GPU:"
    assert run.result == {
        "names": [prefix + "0", prefix + "1"],
        "started": False,
        "after_split": [prefix + "0", prefix + "1", prefix + "2"],
        "device_name": "/device:GPU:0",
    }


def test_list_local_devices_gets_the_process_config(tmp_path):
    code = """
        import tfcompat_gpu
        tfcompat_gpu.configure(device_count={"CPU": 2})
        from tensorflow.python.client import device_lib
        from tests._child import emit
        emit(sorted(d.name for d in device_lib.list_local_devices() if d.device_type == "CPU"))
    """
    under = run_script(tmp_path, code)
    assert under.rc == 0, under.err
    assert under.result == ["/device:CPU:0", "/device:CPU:1"]
    plain = run_script(tmp_path, code, runner=False)
    assert plain.rc == 0, plain.err
    assert plain.result == ["/device:CPU:0"]  # TensorFlow's default without the drop-in
