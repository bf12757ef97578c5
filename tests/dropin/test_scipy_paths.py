"""SciPy's removed module paths under ``run``.

A graph convolutional network's ``utils.py`` takes ``eigsh`` from
``scipy.sparse.linalg.eigen.arpack`` to scale the Laplacian for its Chebyshev polynomials; on
current SciPy that path is gone, and ``scipy.sparse.linalg`` exports the same function.
"""

from __future__ import annotations

import pytest

from tests._child import run_script

pytest.importorskip("scipy")

SCRIPT = """
    import numpy as np
    import scipy.sparse as sp
    from scipy.sparse.linalg.eigen.arpack import eigsh
    import scipy.sparse.linalg.eigen.arpack as arpack
    from scipy.sparse.linalg.eigen.lobpcg import lobpcg
    import scipy.sparse.linalg
    from tests._child import emit

    laplacian = sp.diags([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    largest = eigsh(laplacian, 1, which='LM', return_eigenvectors=False)[0]
    emit({"largest": round(float(largest), 6), "same": eigsh is scipy.sparse.linalg.eigsh,
          "module": arpack.eigs is scipy.sparse.linalg.eigs,
          "lobpcg": lobpcg is scipy.sparse.linalg.lobpcg})
"""


def test_the_old_arpack_path_gives_scipys_eigsh(tmp_path):
    run = run_script(tmp_path, SCRIPT)
    assert run.rc == 0, run.err
    assert run.result == {"largest": 6.0, "same": True, "module": True, "lobpcg": True}


def test_plain_python_fails_on_the_old_path(tmp_path):
    # what the drop-in answers: SciPy itself no longer has the path
    run = run_script(tmp_path, SCRIPT, runner=False)
    assert run.rc != 0
    assert "scipy.sparse.linalg.eigen" in run.err
