"""install()/uninstall(): nothing imported, patches land on import, originals come back exactly."""

from __future__ import annotations

import pytest

from tests._child import run_py
from tfcompat_gpu.dropin._install import MOVES

pytestmark = pytest.mark.tf


def test_install_imports_neither_tensorflow_nor_keras():
    out = run_py(
        """
        import sys
        import tfcompat_gpu
        tfcompat_gpu.install()
        tfcompat_gpu.install()
        emit({"loaded": sorted(m for m in sys.modules
                               if m.split(".")[0] in ("tensorflow", "keras", "tf_keras")),
              "installed": tfcompat_gpu.is_installed()})
        """
    )
    assert out == {"loaded": [], "installed": True}


# Each child walks the whole table (before and after install) so that one process per case
# covers every row; the rows are checked one by one below.
_TABLE = """
    import sys
    import tfcompat_gpu
    from tfcompat_gpu.dropin._install import MOVES, _MISSING, _resolve
    from tests._child import flavour
    {before}
    import tensorflow as tf
    flavour_name = flavour()
    tf.keras.backend  # imports the Keras of this flavour
    tf.compat.v1.keras.backend
    import keras.backend
    def state():
        out = {{}}
        for m in MOVES:
            module = sys.modules.get(m.module)
            if module is None:
                out[m.module + ":" + m.target] = "not imported"
                continue
            try:
                owner, name = _resolve(module, m.target)
            except AttributeError:
                out[m.module + ":" + m.target] = "not here"  # e.g. no such optimizer
                continue
            value = vars(owner).get(name, _MISSING)
            out[m.module + ":" + m.target] = "missing" if value is _MISSING else id(value)
        return out
    plain = state() if not tfcompat_gpu.is_installed() else None
    tfcompat_gpu.install()
    emit({{"flavour": flavour_name, "plain": plain, "patched": state(),
          "session_is_v1": getattr(tf, "Session", None) is tf.compat.v1.Session}})
"""


def _check_table(plain: dict, patched: dict) -> list[str]:
    wrong = []
    for move in MOVES:
        key = f"{move.module}:{move.target}"
        before, after = plain[key], patched[key]
        if before in ("not imported", "not here"):
            ok = after == before  # this flavour has no such module or class
        elif move.only_if_missing and before != "missing":
            ok = after == before  # the real one wins
        elif move.only_where_needed:
            ok = after != "missing"  # changed, or kept where this version needs no change
        else:
            ok = after not in ("missing", before)
        if not ok:
            wrong.append(f"{key}: {before!r} -> {after!r}")
    return wrong


def test_every_move_lands_when_installed_after_import():
    out = run_py(_TABLE.format(before=""))
    assert _check_table(out["plain"], out["patched"]) == []
    assert out["session_is_v1"] is True
    # the table covers this flavour: session init, the 4 TF names, Keras' namespaces
    landed = [k for k, v in out["patched"].items() if v != out["plain"][k]]
    assert "tensorflow.python.client.session:BaseSession.__init__" in landed
    assert {"tensorflow:Session", "tensorflow:ConfigProto"} <= set(landed)
    assert "keras.backend:set_session" in landed


def test_every_move_lands_through_the_import_hooks_when_installed_first():
    after = run_py(_TABLE.format(before=""))
    first = run_py(_TABLE.format(before="tfcompat_gpu.install()"))
    assert first["plain"] is None
    assert first["session_is_v1"] is True
    # same rows changed, whichever came first (ids differ between processes)
    changed = {k for k, v in after["patched"].items() if v != after["plain"][k]}
    for key in changed:
        assert first["patched"][key] not in ("missing", "not imported"), key
    for key in changed:
        assert first["patched"][key] != "not here", key
    unchanged_missing = {k for k, v in after["patched"].items() if v == "missing"}
    assert {k for k, v in first["patched"].items() if v == "missing"} == unchanged_missing


def test_uninstall_restores_every_touched_namespace_exactly():
    out = run_py(
        """
        import sys
        import tensorflow as tf
        from keras import backend as K            # bound before install: a cached reference
        import keras
        from tensorflow.python.client import session as session_module
        from tests._child import flavour
        import tfcompat_gpu
        from tfcompat_gpu.dropin._install import MOVES
        flavour_name = flavour()
        tf.keras.backend, tf.compat.v1.keras.backend
        def owners():
            seen = {"tf": tf, "K": K, "keras": keras, "tf.compat.v1": tf.compat.v1,
                    "BaseSession": session_module.BaseSession,
                    "Session": session_module.Session,
                    "tensorflow.python": sys.modules["tensorflow.python"],
                    "Adam": keras.optimizers.Adam, "SGD": keras.optimizers.SGD}
            for m in MOVES:
                if m.module in sys.modules:
                    # the object whose attribute the move sets (a module, or a class in it:
                    # the module's other globals are TensorFlow's own state)
                    owner, path = sys.modules[m.module], m.target.split(".")[:-1]
                    for part in path:
                        owner = getattr(owner, part, None)
                    if owner is not None:
                        seen[":".join([m.module, *path])] = owner
            return seen
        def snapshot():
            return {name: {k: id(v) for k, v in vars(obj).items()}
                    for name, obj in owners().items()}
        before = snapshot()
        meta_path = list(sys.meta_path)
        tfcompat_gpu.install()
        during = {
            "K.set_session": hasattr(K, "set_session"),
            "tf.Session": hasattr(tf, "Session"),
        }
        import keras.backend.tensorflow_backend as KTF
        from keras.backend.tensorflow_backend import set_session
        during["KTF"] = KTF.set_session is K.set_session is set_session
        sess = tf.Session()
        K.set_session(sess)
        tfcompat_gpu.uninstall()
        tfcompat_gpu.uninstall()
        after = snapshot()
        diff = {name: sorted(set(before[name]) ^ set(after[name]) |
                             {k for k in before[name] if before[name][k] != after[name].get(k)})
                for name in before}
        emit({"flavour": flavour_name, "during": during,
              "diff": {k: v for k, v in diff.items() if v},
              "shim_gone": "keras.backend.tensorflow_backend" not in sys.modules,
              "meta_path_same": [id(f) for f in sys.meta_path] == [id(f) for f in meta_path],
              "reinstall": (tfcompat_gpu.install(), hasattr(tf, "Session"),
                            tfcompat_gpu.uninstall(), hasattr(tf, "Session"))[1::2]})
        """
    )
    assert out["during"] == {"K.set_session": True, "tf.Session": True, "KTF": True}
    assert out["diff"] == {}
    assert out["shim_gone"] is True
    # wrapt's own finder stays (hooks cannot be unregistered) but ours is gone.
    assert out["reinstall"] == [True, False]
