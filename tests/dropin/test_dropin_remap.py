"""Several models on several GPUs in one process: the "remap" policy and on_gpu()."""

from __future__ import annotations

import re

import pytest

from tests._child import run_py

pytestmark = pytest.mark.tf

REMAP = """
    import tensorflow as tf
    import tfcompat_gpu
    from tests._child import emit
    tf.compat.v1.disable_eager_execution()
    tfcompat_gpu.install()
    tfcompat_gpu.set_conflict_policy("remap")
    def config(ids):
        return tf.ConfigProto(allow_soft_placement=True,
                              gpu_options=tf.GPUOptions(allow_growth=True, visible_device_list=ids))
    g1, g2, g3 = tf.Graph(), tf.Graph(), tf.Graph()
    with g1.as_default():
        a = tf.constant(1.0, name="a")                # built before its session
    s1 = tf.Session(graph=g1, config=config("1"))
    with g1.as_default():
        b = tf.add(a, 1.0, name="b")                  # built after
        with tf.device("/cpu:0"):
            c = tf.add(b, 1.0, name="c")              # carries its own device
    with g2.as_default():
        with tf.device("/device:GPU:0"):
            d = tf.constant(2.0, name="d")            # carries its own device
        e = tf.multiply(d, 3.0, name="e")
    s2 = tf.Session(graph=g2, config=config("2"))
    with g2.as_default():
        f = tf.add(e, 1.0, name="f")
    s3 = tf.Session(graph=g3, config=config("2,1"))   # both known: the list stays "1,2"
    try:
        tf.Session(graph=g1, config=config("2"))      # g1 is already on physical GPU 1
        shared = None
    except tfcompat_gpu.GPUConfigConflictError as exc:
        shared = str(exc)
    emit({
        "devices": {op.name: op.device for g in (g1, g2) for op in g.get_operations()
                    if "/" not in op.name},  # leave out the constants tf.add makes
        "lists": [s._config.gpu_options.visible_device_list for s in (s1, s2, s3)],
        "process": tfcompat_gpu.current_config().visible_device_list,
        "run": [float(s1.run(c)), float(s2.run(f))],
        "shared": shared,
    })
"""


def test_sessions_asking_for_their_own_gpu_are_remapped():
    out = run_py(REMAP)
    assert out["devices"] == {
        "a": "/device:GPU:0",
        "b": "/device:GPU:0",
        "c": "/device:CPU:0",
        "d": "/device:GPU:0",
        "e": "/device:GPU:1",
        "f": "/device:GPU:1",
    }
    assert out["lists"] == ["1", "1,2", "1,2"]
    assert out["process"] == "1,2"
    assert out["run"] == [3.0, 7.0]
    assert out["shared"].startswith(
        "Cannot place one graph on two GPUs: the graph used at <string>:"
    )
    assert "but it was placed on /device:GPU:0 at <string>:" in out["shared"]


ON_GPU = """
    import tensorflow as tf
    import tfcompat_gpu
    from tests._child import emit
    from simgpu import simulate_gpus
    tf.compat.v1.disable_eager_execution()
    simulate_gpus(4)
    tfcompat_gpu.configure(visible_device_list="1,3", memory_limit_mb={1: [512, 512], 3: [1024]})
    out = {}
    g = tf.Graph()
    with g.as_default():
        early = tf.constant(1.0, name="early")
    placement = tfcompat_gpu.on_gpu(3, graph=g)
    with g.as_default():
        late = tf.constant(2.0, name="late")
    with tfcompat_gpu.on_gpu(1, graph=tf.Graph()) as p1:
        inside = tf.constant(3.0, name="inside")
    with tfcompat_gpu.on_gpu(1):
        scoped = tf.constant(4.0, name="scoped")
    outside = tf.constant(5.0, name="outside")
    out["devices"] = [early.op.device, late.op.device, inside.op.device, scoped.op.device,
                      outside.op.device]
    out["names"] = [placement.device, p1.device, repr(placement)]
    for bad in (0, 7, "1", True):
        try:
            tfcompat_gpu.on_gpu(bad)
        except tfcompat_gpu.GPUConfigError as exc:
            out.setdefault("errors", []).append(str(exc))
    emit(out)
"""


def test_on_gpu_names_the_device_of_a_physical_gpu():
    out = run_py(ON_GPU)
    # GPU 1 is split into two logical devices (GPU:0, GPU:1), so physical GPU 3 is GPU:2.
    assert out["devices"] == [
        "/device:GPU:2",
        "/device:GPU:2",
        "/device:GPU:0",
        "/device:GPU:0",
        "",
    ]
    assert out["names"] == [
        "/device:GPU:2",
        "/device:GPU:0",
        "GPUPlacement(gpu_id=3, device='/device:GPU:2')",
    ]
    not_listed = (
        "gpu_id: physical GPU 0 is not in the process device list visible_device_list='1,3' "
        "(set at <string>:N). Expected one of [1, 3]. Fix: list it in "
        "tfcompat_gpu.configure(visible_device_list=...) before the first session, or use "
        'tfcompat_gpu.set_conflict_policy("remap") so that sessions asking for other GPUs '
        "extend the list."
    )
    # the line counts the lines run_py puts before the code
    assert re.sub(r"<string>:\d+", "<string>:N", out["errors"][0]) == not_listed
    assert out["errors"][1].startswith("gpu_id: physical GPU 7 is not in the process device list")
    assert out["errors"][2:] == [
        "gpu_id: expected a physical GPU number (int >= 0). Received: '1'.",
        "gpu_id: expected a physical GPU number (int >= 0). Received: True.",
    ]


EAGER_ON_GPU = """
    import tensorflow as tf
    import tfcompat_gpu
    from tests._child import emit
    x = None
    with tfcompat_gpu.on_gpu(0) as placement:
        x = tf.constant(1.0) * 2.0   # soft placement (eager default) runs it on the CPU here
    emit({"device": placement.device, "value": float(x.numpy())})
"""


def test_on_gpu_in_eager_mode_uses_a_device_scope():
    out = run_py(EAGER_ON_GPU)
    assert out == {"device": "/device:GPU:0", "value": 2.0}
