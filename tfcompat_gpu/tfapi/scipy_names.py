"""SciPy module paths that SciPy removed, whose names SciPy's public module still exports.

SciPy 1.8 made ``scipy.sparse.linalg``'s submodules private (``eigen.arpack`` became
``_eigen.arpack``) and kept the old paths as deprecated shims, which later releases dropped for
subpackages: ``from scipy.sparse.linalg.eigen.arpack import eigsh`` (the Chebyshev polynomials
of graph convolutional networks, spectral clustering) is a ``ModuleNotFoundError`` ("is not a
package") on the SciPy that TensorFlow 2.21 installs.  The same functions are
``scipy.sparse.linalg``'s own (its ``__all__``).  Read by ``migrate``'s
``scipy_removed_modules`` and by ``run``'s ``dropin/_scipy.py``.
"""

from __future__ import annotations

__all__ = ["SCIPY_MOVED_MODULES"]

_LINALG = "scipy.sparse.linalg"
_ARPACK = frozenset({"eigsh", "eigs", "svds", "ArpackNoConvergence", "ArpackError"})
_LOBPCG = frozenset({"lobpcg"})
_DSOLVE = frozenset({"spsolve", "splu", "spilu", "factorized", "use_solver", "spsolve_triangular"})
_ISOLVE = frozenset({"cg", "cgs", "bicg", "bicgstab", "gmres", "qmr"})

SCIPY_MOVED_MODULES: dict[str, tuple[str, frozenset[str]]] = {
    "scipy.sparse.linalg.eigen.arpack": (_LINALG, _ARPACK),
    "scipy.sparse.linalg.eigen.arpack.arpack": (_LINALG, _ARPACK),
    "scipy.sparse.linalg.eigen.lobpcg": (_LINALG, _LOBPCG),
    "scipy.sparse.linalg.eigen.lobpcg.lobpcg": (_LINALG, _LOBPCG),
    "scipy.sparse.linalg.dsolve.linsolve": (_LINALG, _DSOLVE),
    "scipy.sparse.linalg.isolve.iterative": (_LINALG, _ISOLVE),
}
"""Removed module path -> (the public module, the names of the old module it exports)."""
