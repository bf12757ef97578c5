"""NumPy names old scripts use and NumPy 1.24 / 2.0 removed, under ``run`` (:mod:`dropin._numpy`).

A conv_lstm-style script builds its arrays with ``dtype=np.float`` and reads ``np.NaN``; under
``tfcompat-gpu run`` it gets what the names meant, with one warning per name, and NumPy's own
error for the names with no replacement.  ``uninstall()`` gives NumPy its ``__getattr__`` back.
"""

from __future__ import annotations

from pathlib import Path

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
    })
    np.asscalar(movies[0, 0, 0, 0])
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
    }
    # no replacement: NumPy's own error, at the script's line
    assert run.rc == 1
    assert "has no attribute 'asscalar'" in run.err
    assert "np.asscalar(movies[0, 0, 0, 0])" in run.err
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
        import tfcompat_gpu
        tfcompat_gpu.install()
        patched = np.__getattr__ is not before
        value = np.float
        tfcompat_gpu.uninstall()
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
        })
        """
    )
    assert out == {
        "patched": True,
        "value": True,
        "restored": True,
        "after": "AttributeError",
        "vars": False,
    }
