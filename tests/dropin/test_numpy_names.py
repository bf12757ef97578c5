"""NumPy names old scripts use and NumPy 1.24 / 2.0 removed, under ``run`` (:mod:`dropin._numpy`).

A conv_lstm-style script builds its arrays with ``dtype=np.float`` and reads ``np.NaN``; under
``tfcompat-gpu run`` it gets what the names meant, with one warning per name, and NumPy's own
error for the names with no replacement; removed functions with a short exact definition
(``np.asscalar``, ``np.in1d``, ``np.sctypes``, ...) and ``np.reshape(a, newshape=s)`` are served.  ``uninstall()`` gives NumPy its ``__getattr__`` back.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests._child import run_py, run_script

SCRIPT = """
    import numpy as np
    from tests._child import emit

    movies = np.zeros((2, 3, 4, 4, 1), dtype=np.float)
    labels = np.arange(4).astype(np.int)
    low = np.NINF
    emit({
        "dtype": str(movies.dtype),
        "labels": str(labels.dtype),
        "nan": str(np.NaN),
        "low": low,
        "float_": np.float_ is np.float64,
        "product": int(np.product([2, 3])),
        "obj": np.object is object,
        "again": np.float is float,
        # removed functions with a short exact definition, as a GAN or kNN script calls them
        "asscalar": np.asscalar(np.array([[2.5]])),
        "asfarray": str(np.asfarray(labels).dtype),
        "asfarray32": str(np.asfarray(movies.astype(np.float32), dtype=np.float32).dtype),
        "in1d": np.in1d(np.array([[1, 5], [2, 7]]), [1, 2]).tolist(),
        "trapz": float(np.trapz([1.0, 2.0, 3.0])),
        "msort": np.msort(np.array([[3, 1], [1, 2]])).tolist(),
        "reshape": list(np.reshape(np.arange(8), newshape=(4, 2, 1)).shape),
        # an augmentation library's import (imgaug 0.4: set(np.sctypes["float"]))
        "sctypes": [t.__name__ for t in np.sctypes["float"][:3]] + [len(np.sctypes["uint"])],
    })
    np.find_common_type([np.float32], [])
"""


def test_removed_numpy_names_mean_what_they_meant_under_run(tmp_path: Path) -> None:
    run = run_script(tmp_path, SCRIPT)
    assert run.result == {
        "dtype": "float64",
        "labels": "int64",
        "nan": "nan",
        "low": float("-inf"),
        "float_": True,
        "product": 6,
        "obj": True,
        "again": True,
        "asscalar": 2.5,
        "asfarray": "float64",
        "asfarray32": "float32",
        "in1d": [True, False, True, False],
        "trapz": 4.0,
        "msort": [[1, 1], [3, 2]],
        "reshape": [4, 2, 1],
        "sctypes": ["float16", "float32", "float64", 4],
    }
    # no replacement: NumPy's own error, at the script's line
    assert run.rc == 1
    assert "np.find_common_type` was removed in the NumPy 2.0 release" in run.err
    assert "np.find_common_type([np.float32], [])" in run.err
    assert "np.asscalar was removed from NumPy; write a.item()" in run.err
    # the keyword is answered (with its warning) only where NumPy no longer takes it
    lacks_newshape = np.lib.NumpyVersion(np.__version__) >= "2.4.0"
    assert run.err.count("NumPy 2.4 removed the keyword newshape") == int(lacks_newshape)
    # one warning per name, at the line that reads it, naming what to write
    assert run.err.count("np.float was removed from NumPy; it is float") == 1
    assert "script.py:4: UserWarning: np.float was removed" in run.err
    assert "np.NaN was removed from NumPy; it is np.nan" in run.err
    assert "np.NINF was removed from NumPy; it is -np.inf" in run.err


def test_without_run_numpy_is_left_as_it_is_and_uninstall_restores_it() -> None:
    out = run_py(
        """
        import numpy as np
        before = np.__getattr__
        reshape = np.reshape
        import tfcompat_gpu
        tfcompat_gpu.install()
        patched = np.__getattr__ is not before
        value = np.float
        shape = np.reshape(np.arange(6), newshape=(2, 3)).shape
        tfcompat_gpu.uninstall()
        try:
            np.reshape(np.arange(6), newshape=(2, 3))
            old = "taken"
        except TypeError:
            old = "TypeError"
        try:
            np.float
            after = "bound"
        except AttributeError:
            after = "AttributeError"
        emit({
            "patched": patched,
            "value": value is float,
            "restored": np.__getattr__ is before,
            "after": after,
            "vars": "float" in vars(np),
            "shape": list(shape),
            "reshape": np.reshape is reshape,
            "newshape": old,
        })
        """
    )
    assert out == {
        "patched": True,
        "value": True,
        "restored": True,
        "after": "AttributeError",
        "vars": False,
        "shape": [2, 3],
        "reshape": True,
        # NumPy 2.4 dropped the keyword; an older NumPy keeps its own reshape, which takes it
        "newshape": "TypeError" if np.lib.NumpyVersion(np.__version__) >= "2.4.0" else "taken",
    }


RAGGED = """
    import pickle

    import numpy as np
    from tests._child import emit

    # a text classifier's batch iterator: word-id rows beside one-hot labels, zipped
    x = np.zeros((6, 12), dtype=np.int64)
    y = np.eye(2)[[0, 1, 0, 1, 1, 0]]
    data = np.array(list(zip(x, y)))
    pairs = np.array([[1, 2, 3], [4, 5]])
    try:
        np.array([[1, 2, 3], [4, 5]], dtype=float)
        typed = "built"
    except ValueError:
        typed = "ValueError"
    emit({
        "shape": list(data.shape),
        "dtype": str(data.dtype),
        "row": data[3][1].tolist(),
        "pairs": [list(p) for p in pairs],
        "typed": typed,
        "pickled": pickle.loads(pickle.dumps(np.array)) is np.array,
    })
"""


def test_ragged_rows_are_an_object_array_under_run(tmp_path: Path) -> None:
    run = run_script(tmp_path, RAGGED)
    assert run.rc == 0, run.err
    assert run.result == {
        "shape": [6, 2],
        "dtype": "object",
        "row": [0.0, 1.0],
        "pairs": [[1, 2, 3], [4, 5]],
        # a dtype asked for is NumPy's to refuse
        "typed": "ValueError",
        "pickled": True,
    }
    assert run.err.count("np.array() of sequences of unequal lengths") == 1
