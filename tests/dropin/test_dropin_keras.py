"""Keras set_session/get_session under every flavour (Keras 3, tf_keras, Keras 2 of TF 2.15)."""

from __future__ import annotations

import pytest

from tests._child import run_py

pytestmark = pytest.mark.tf

PATHS = """
    import tensorflow as tf
    from keras import backend as K              # bound before install(): a cached reference
    import tfcompat_gpu
    from tests._child import emit, flavour
    tfcompat_gpu.install()
    import keras.backend.tensorflow_backend as KTF
    from keras.backend.tensorflow_backend import set_session as ktf_set_session
    from keras.backend import get_session as k_get_session
    import keras
    setters = {
        "keras.backend": keras.backend.set_session,
        "K": K.set_session,
        "tensorflow_backend": KTF.set_session,
        "from tensorflow_backend": ktf_set_session,
        "tf.keras.backend": tf.keras.backend.set_session,
        "tf.compat.v1.keras.backend": tf.compat.v1.keras.backend.set_session,
    }
    getters = {
        "keras.backend": keras.backend.get_session, "K": K.get_session,
        "from keras.backend": k_get_session,
        "tensorflow_backend": KTF.get_session,
        "tf.keras.backend": tf.keras.backend.get_session,
        "tf.compat.v1.keras.backend": tf.compat.v1.keras.backend.get_session,
    }
    out = {"flavour": flavour(), "same": {}}
    for name, set_session in setters.items():
        sess = tf.Session(config=tf.ConfigProto(allow_soft_placement=True))
        set_session(sess)
        # the namespaces of one Keras share one session; Keras 3 and tf_keras/Keras 2 differ
        out["same"][name] = sorted(g for g, get in getters.items() if get() is sess)
    emit(out)
"""


def test_every_set_session_path_works_and_get_session_returns_the_session():
    out = run_py(PATHS)
    same = out["same"]
    everything = sorted(
        [
            "K",
            "from keras.backend",
            "keras.backend",
            "tensorflow_backend",
            "tf.compat.v1.keras.backend",
            "tf.keras.backend",
        ]
    )
    # Keras 3 emulation, tf_keras and Keras 2 delegation each keep one session for all paths.
    assert out["flavour"] in ("keras3", "tf_keras", "keras2")
    assert same == {name: everything for name in same}
    assert len(same) == 6


KERAS3_APPLY = """
    import tensorflow as tf
    import tfcompat_gpu
    from tests._child import emit, flavour
    tfcompat_gpu.install()
    from keras import backend as K
    before = tf.config.get_soft_device_placement()
    tf.config.set_soft_device_placement(False)
    config = tf.ConfigProto(allow_soft_placement=True, device_count={"CPU": 3},
                            intra_op_parallelism_threads=2,
                            gpu_options=tf.GPUOptions(per_process_gpu_memory_fraction=0.4))
    sess = tf.Session(config=config)
    K.set_session(sess)
    out = {"flavour": flavour(), "soft": tf.config.get_soft_device_placement(),
           "cpus": len(tf.config.list_logical_devices("CPU")),
           "intra": tf.config.threading.get_intra_op_parallelism_threads(),
           "process": tfcompat_gpu.current_config().to_dict()}
    try:
        K.set_session("not a session")
    except tfcompat_gpu.GPUConfigError as exc:
        out["error"] = str(exc)
    emit(out)
"""


def test_keras3_set_session_applies_the_session_config_to_the_process():
    out = run_py(KERAS3_APPLY)
    if out["flavour"] != "keras3":
        pytest.skip("the real set_session of this flavour keeps the session for Keras")
    assert out["soft"] is True
    assert out["cpus"] == 3
    assert out["intra"] == 2
    assert out["process"]["per_process_gpu_memory_fraction"] == 0.4
    assert out["error"] == (
        "set_session: expected a tf.compat.v1.Session. Received: str 'not a session'. "
        "Create one with tf.compat.v1.Session(config=...)."
    )


GET_DEFAULT = """
    import tensorflow as tf
    import tfcompat_gpu
    from tests._child import emit, flavour
    tf.compat.v1.disable_eager_execution()
    tfcompat_gpu.install()
    tfcompat_gpu.configure(allow_growth=True, inter_op_parallelism_threads=3)
    import keras.backend.tensorflow_backend as KTF
    sess = KTF.get_session()
    emit({"flavour": flavour(), "growth": sess._config.gpu_options.allow_growth,
          "inter": sess._config.inter_op_parallelism_threads,
          "again": KTF.get_session() is sess})
"""


def test_get_session_without_set_session_has_the_process_config():
    out = run_py(GET_DEFAULT)
    assert out["growth"] is True
    assert out["inter"] == 3
    assert out["again"] is True
