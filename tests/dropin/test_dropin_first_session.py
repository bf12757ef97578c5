"""A session never conflicts with what its own request became when TF2 applied it.

TF2 cannot reorder GPUs (``tf.config.set_visible_devices`` keeps physical order), so a first
TF1 session asking ``visible_device_list="1,0"`` is applied as ``"0,1"`` with a warning. That
session, and later ones asking the same, must run as under plain TensorFlow; a later session
asking for something else still conflicts. Two simulated physical GPUs stand in for the machine
(TensorFlow's own ``tf.config`` code runs unchanged).
"""

from __future__ import annotations

import pytest

from tests._child import run_script

pytestmark = pytest.mark.tf

SCRIPT = """
    import warnings
    import tensorflow as tf
    from tests._child import emit
    from simgpu import simulate_gpus
    simulate_gpus(2)
    out = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        config = tf.ConfigProto(gpu_options=tf.GPUOptions(visible_device_list={first!r}))
        sess = tf.Session(config=config)
        out["first"] = int(sess.run(tf.constant(1) + 1))
        out["again"] = int(tf.Session(config=config).run(tf.constant(2) + 1))
    out["warnings"] = [str(w.message) for w in caught]
    try:
        tf.Session(config=tf.ConfigProto(gpu_options=tf.GPUOptions(visible_device_list="1")))
        out["other"] = "created"
    except Exception as exc:
        out["other"] = type(exc).__name__
    emit(out)
"""


@pytest.mark.parametrize("first", ["1,0", " 1 , 0 "], ids=["reorder", "reorder-spaced"])
def test_a_first_session_with_a_reorder_does_not_conflict_with_itself(tmp_path, first):
    run = run_script(tmp_path, SCRIPT.replace("{first!r}", repr(first)), "--tf1")
    assert run.rc == 0, run.err
    out = run.result
    assert (out["first"], out["again"]) == (2, 3)
    assert any("asks for a reorder" in w for w in out["warnings"])
    assert not any("Conflicting" in w for w in out["warnings"])
    assert out["other"] == "GPUConfigConflictError"  # another list is still a conflict
