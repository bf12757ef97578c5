"""Conflict detection through real sessions created by legacy code under the drop-in."""

from __future__ import annotations

import pytest

from tests._child import run_script

pytestmark = pytest.mark.tf

FIX_DEVICES = (
    "Fix: give every session the same GPU options (or config=None, which inherits the process "
    "config), or set them once with tfcompat_gpu.configure() at start; to run models on "
    'different GPUs, use tfcompat_gpu.set_conflict_policy("remap") (each session\'s graph then '
    "runs on the GPU it asked for) or tfcompat_gpu.on_gpu(gpu_id, graph)."
)
FIX_MEMORY = (
    "Fix: give every session the same GPU options (or config=None, which inherits the process "
    "config), or set them once with tfcompat_gpu.configure() at start."
)

TWO_DEVICE_LISTS = """
    import tensorflow as tf
    from tests._child import emit
    def gpu(ids): return tf.ConfigProto(gpu_options=tf.GPUOptions(visible_device_list=ids))
    s1 = tf.Session(config=gpu("1"))
    try:
        s2 = tf.Session(config=gpu("2"))
    except Exception as exc:
        emit({"type": type(exc).__name__, "bases": [c.__name__ for c in type(exc).__mro__],
              "message": str(exc)})
    else:
        emit({"type": None})
"""


def test_device_list_conflict_raises_with_the_exact_message(tmp_path):
    run = run_script(tmp_path, TWO_DEVICE_LISTS)
    assert run.rc == 0, run.err
    assert run.result["type"] == "GPUConfigConflictError"
    assert "GPUConfigError" in run.result["bases"]
    assert run.result["message"] == "\n".join(
        [
            "Conflicting process-wide GPU options (visible_device_list): the Session created at "
            "script.py:6 asks for values other than the ones in force, and TensorFlow applies "
            "them once per process.",
            "  visible_device_list: '2' requested at script.py:6, but '1' is in force since "
            "script.py:4; on a GPU, TensorFlow fails with 'TensorFlow device (GPU:0) is being "
            "mapped to multiple devices'.",
            FIX_DEVICES,
        ]
    )
    # Only the first session was recorded as created: the refused one never reached TensorFlow.
    assert [s["where"] for s in run.report["sessions"]] == ["script.py:4"]


MEMORY = """
    import warnings
    import tensorflow as tf
    from tests._child import emit
    warnings.simplefilter("always")
    first = tf.GPUOptions(per_process_gpu_memory_fraction=0.3)
    s1 = tf.Session(config=tf.ConfigProto(gpu_options=first))
    with warnings.catch_warnings(record=True) as caught:
        s2 = tf.Session(config=tf.ConfigProto(
            gpu_options=tf.GPUOptions(per_process_gpu_memory_fraction=0.5)))
        s3 = tf.Session(config=tf.ConfigProto(gpu_options=tf.GPUOptions(allow_growth=True)))
        s4 = tf.Session(config=tf.ConfigProto(allow_soft_placement=True, log_device_placement=True,
                                              device_count={"CPU": 2}, operation_timeout_in_ms=5))
    emit([{"category": w.category.__name__, "file": w.filename, "line": w.lineno,
           "message": str(w.message)} for w in caught
          if w.category.__name__ == "GPUConfigWarning" and "Conflicting" in str(w.message)])
"""


def test_memory_fraction_and_growth_conflicts_warn_by_default(tmp_path):
    run = run_script(tmp_path, MEMORY)
    assert run.rc == 0, run.err
    fraction, growth = run.result  # s4 asks only for per-session fields: no conflict
    assert (fraction["file"], fraction["line"]) == ("script.py", 8)
    assert fraction["message"] == "\n".join(
        [
            "Conflicting process-wide GPU options (per_process_gpu_memory_fraction): the Session "
            "created at script.py:8 asks for values other than the ones in force, and TensorFlow "
            "applies them once per process.",
            "  per_process_gpu_memory_fraction: 0.5 requested at script.py:8, but 0.3 is in "
            "force since script.py:6; TensorFlow keeps 0.3 and ignores the request without a "
            "word.",
            FIX_MEMORY,
        ]
    )
    assert (growth["file"], growth["line"]) == ("script.py", 10)
    assert growth["message"] == "\n".join(
        [
            "Conflicting process-wide GPU options (allow_growth): the Session created at "
            "script.py:10 asks for values other than the ones in force, and TensorFlow applies "
            "them once per process.",
            "  allow_growth: True requested at script.py:10, but False (TensorFlow's default) is "
            "in force since script.py:6; TensorFlow keeps False (TensorFlow's default) and "
            "ignores the request without a word.",
            FIX_MEMORY,
        ]
    )
    sessions = run.report["sessions"]
    assert len(sessions) == 4
    # Every session runs with the process-wide values that won, plus its own per-session ones.
    assert {
        round(s["config"]["gpu_options.per_process_gpu_memory_fraction"], 3) for s in sessions
    } == {0.3}
    assert not any(s["config"].get("gpu_options.allow_growth") for s in sessions)
    assert sessions[3]["config"]["device_count"]["CPU"] == 2
    assert sessions[3]["config"]["operation_timeout_in_ms"] == 5


POLICIES = """
    import os, tensorflow as tf, tfcompat_gpu
    from tests._child import emit
    out = {}
    s1 = tf.Session(config=tf.ConfigProto(gpu_options=tf.GPUOptions(allow_growth=True)))
    for policy in ("error", "ignore", "warn"):
        tfcompat_gpu.set_conflict_policy(policy)
        import warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=3))
                out[policy] = [w.category.__name__ for w in caught]
            except Exception as exc:
                out[policy] = type(exc).__name__
    tfcompat_gpu.set_conflict_policy(None)
    out["env"] = os.environ.get("TFCOMPAT_GPU_CONFLICT_POLICY")
    try:
        tf.Session(config=tf.ConfigProto(inter_op_parallelism_threads=2))
        out["default_with_env"] = "created"
    except Exception as exc:
        out["default_with_env"] = type(exc).__name__
    emit(out)
"""


def test_policies_from_api_and_environment(tmp_path):
    run = run_script(tmp_path, POLICIES, env={"TFCOMPAT_GPU_CONFLICT_POLICY": "error"})
    assert run.rc == 0, run.err
    assert run.result == {
        "error": "GPUConfigConflictError",
        "ignore": [],
        "warn": ["GPUConfigWarning"],
        "env": "error",
        "default_with_env": "GPUConfigConflictError",
    }


EVERY_KIND = """
    import warnings
    import tensorflow as tf
    from tests._child import emit, flavour
    warnings.simplefilter("always")
    tf.compat.v1.disable_eager_execution()
    s1 = tf.Session(config=tf.ConfigProto(gpu_options=tf.GPUOptions(allow_growth=True)))
    caught = []
    def check(make):
        with warnings.catch_warnings(record=True) as found:
            warnings.simplefilter("always")
            sess = make()
        caught.append(sum("Conflicting" in str(w.message) for w in found))
        return sess
    fraction = tf.ConfigProto(gpu_options=tf.GPUOptions(per_process_gpu_memory_fraction=0.2))
    check(lambda: tf.compat.v1.Session(config=fraction))
    check(lambda: tf.compat.v1.InteractiveSession(config=fraction)).close()
    check(lambda: tf.compat.v1.InteractiveSession()).close()  # its own default: not a request
    step = tf.compat.v1.train.get_or_create_global_step()
    with check(lambda: tf.compat.v1.train.MonitoredTrainingSession(config=fraction)) as mon:
        mon.run(step)
    if flavour() != "keras3":
        from tensorflow.compat.v1.keras import backend as K
        K.clear_session()
        check(lambda: K.get_session())  # Keras makes its own session with the process config
    emit({"caught": caught, "kinds": [s["kind"] for s in __import__(
        "tfcompat_gpu.dropin._sessions", fromlist=["x"]).seen_sessions()]})
"""


def test_every_session_kind_is_checked(tmp_path):
    run = run_script(tmp_path, EVERY_KIND)
    assert run.rc == 0, run.err
    kinds = run.result["kinds"]
    assert kinds[:4] == ["Session", "Session", "InteractiveSession", "InteractiveSession"]
    assert "MonitoredTrainingSession" not in kinds  # it builds plain Sessions, which are checked
    assert kinds.count("Session") >= 3
    assert run.result["caught"][:4] == [1, 1, 0, 1]
    if len(run.result["caught"]) == 5:
        assert run.result["caught"][4] == 0


EAGER_FIRST = """
    import warnings
    import tensorflow as tf
    from tests._child import emit
    warnings.simplefilter("always")
    x = tf.constant(1.0) + 1.0  # starts the eager runtime with TensorFlow's defaults
    with warnings.catch_warnings(record=True) as caught:
        tf.Session(config=tf.ConfigProto(gpu_options=tf.GPUOptions(allow_growth=True)))
    try:
        tf.Session(config=tf.ConfigProto(gpu_options=tf.GPUOptions(visible_device_list="1")))
        error = None
    except Exception as exc:
        error = str(exc).splitlines()[1]
    emit({"warning": str(caught[0].message).splitlines()[1], "error": error})
"""


def test_eager_runtime_start_fixes_the_process_config(tmp_path):
    run = run_script(tmp_path, EAGER_FIRST)
    assert run.rc == 0, run.err
    assert run.result["warning"] == (
        "  allow_growth: True requested at script.py:7, but False (TensorFlow's default) is in "
        "force since the start of the eager runtime; TensorFlow keeps False (TensorFlow's "
        "default) and ignores the request without a word."
    )
    assert run.result["error"] == (
        "  visible_device_list: '1' requested at script.py:9, but every GPU (TensorFlow's "
        "default) is in force since the start of the eager runtime; on a GPU, TensorFlow "
        "fails with 'TensorFlow device (GPU:0) is being mapped to multiple devices'."
    )


THREADS = """
    import threading
    import tensorflow as tf
    import tfcompat_gpu
    from tfcompat_gpu.runtime.state import STATE
    from tests._child import emit
    tf.compat.v1.disable_eager_execution()
    start = threading.Barrier(16)
    results = [None] * 16
    def work(i):
        ids = "0" if i % 2 else "1"
        config = tf.ConfigProto(gpu_options=tf.GPUOptions(
            visible_device_list=ids, per_process_gpu_memory_fraction=0.4))
        start.wait()
        try:
            tf.Session(config=config).close()
            results[i] = ("ok", ids)
        except tfcompat_gpu.GPUConfigConflictError:
            results[i] = ("conflict", ids)
    threads = [threading.Thread(target=work, args=(i,)) for i in range(16)]
    for t in threads: t.start()
    for t in threads: t.join()
    emit({"results": results, "process": tfcompat_gpu.current_config().to_dict(),
          "recorded": len(STATE.sessions)})
"""


def test_sixteen_threads_yield_one_process_config(tmp_path):
    run = run_script(tmp_path, THREADS)
    assert run.rc == 0, run.err
    process = run.result["process"]
    assert process["per_process_gpu_memory_fraction"] == 0.4
    winner = process["visible_device_list"]
    results = run.result["results"]
    loser = "0" if winner == "1" else "1"
    assert sorted(map(tuple, results)) == sorted([("ok", winner)] * 8 + [("conflict", loser)] * 8)
    assert run.result["recorded"] == 8
