"""Under ``install()``, ``tfcompat_gpu.session(GPUConfig)`` reaches the drop-in's session hook
as the GPUConfig it is: prepared once, never turned into a ConfigProto and read back."""

from __future__ import annotations

import pytest

from tests._child import run_py

pytestmark = pytest.mark.tf


def test_session_hands_its_gpuconfig_to_the_hook_unconverted():
    out = run_py(
        """
        import tfcompat_gpu, tensorflow as tf
        from tfcompat_gpu import GPUConfig
        from tfcompat_gpu.runtime.state import STATE
        from tfcompat_gpu.dropin import _sessions
        tf.compat.v1.disable_eager_execution()
        tfcompat_gpu.install()
        reads = []
        original = GPUConfig.from_config_proto.__func__
        GPUConfig.from_config_proto = classmethod(lambda cls, p: reads.append(1) or original(cls, p))
        cfg = GPUConfig(log_device_placement=True, intra_op_parallelism_threads=2)
        sess = tfcompat_gpu.session(cfg)
        emit({"same": _sessions.request_of(sess) is cfg, "reads": len(reads),
              "recorded": len(STATE.sessions), "log": sess._config.log_device_placement,
              "threads": sess._config.intra_op_parallelism_threads})
        """
    )
    assert out == {"same": True, "reads": 0, "recorded": 1, "log": True, "threads": 2}
