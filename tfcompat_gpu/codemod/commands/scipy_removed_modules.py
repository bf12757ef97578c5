"""``from scipy.sparse.linalg.eigen.arpack import eigsh`` → ``from scipy.sparse.linalg import
eigsh``.

Graph convolutional networks of 2016-2019 (and their many copies) compute Chebyshev
polynomials of the graph Laplacian with ``eigsh`` imported from the ARPACK module's old path,
which SciPy no longer has (:data:`~tfcompat_gpu.tfapi.scipy_names.SCIPY_MOVED_MODULES`).  The
import is rewritten to the public module when every name it takes is one that module exports;
``import scipy.sparse.linalg.eigen.arpack as arpack`` becomes ``import scipy.sparse.linalg as
arpack``.  A star import, a name the public module lacks, or the path imported without
``as`` (read as ``scipy.sparse.linalg.eigen.arpack.eigsh`` further on) keep a warning.
"""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import dotted
from tfcompat_gpu.codemod._triage import text_search
from tfcompat_gpu.tfapi.scipy_names import SCIPY_MOVED_MODULES

__all__ = ["ScipyRemovedModulesCommand"]

_PATHS = re.compile(r"\bscipy\s*\.\s*sparse\s*\.\s*linalg\s*\.\s*(?:eigen|dsolve|isolve)\s*\.\s*\w")
_wanted = text_search(_PATHS, "scipy")


def _relevant(text: str) -> bool:
    return _PATHS.search(text) is not None


def _dotted_node(name: str) -> cst.Attribute | cst.Name:
    node = cst.parse_expression(name)
    assert isinstance(node, (cst.Attribute, cst.Name))
    return node


class ScipyRemovedModulesCommand(MigrationCommand):
    DESCRIPTION = (
        "SciPy module paths SciPy removed (scipy.sparse.linalg.eigen.arpack, ...) to the public "
        "module that exports the same functions (scipy.sparse.linalg)."
    )
    PRECHECK = Precheck(_wanted, _relevant)
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def _left(self, node: cst.CSTNode, module: str, why: str) -> None:
        public = SCIPY_MOVED_MODULES[module][0]
        self.warn_at(
            node,
            f"{module} left unchanged: SciPy removed the module ({why}); import its functions "
            f"from {public} [scipy module removed]",
        )

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.ImportFrom:
        if original_node.relative or original_node.module is None:
            return updated_node
        module = dotted(original_node.module)
        if module not in SCIPY_MOVED_MODULES:
            return updated_node
        public, names = SCIPY_MOVED_MODULES[module]
        if isinstance(original_node.names, cst.ImportStar):
            self._left(original_node, module, "a star import would take all of " + public)
            return updated_node
        missing = sorted({dotted(alias.name) or "" for alias in original_node.names} - names)
        if missing:
            self._left(original_node, module, f"{public} has no {', '.join(missing)}")
            return updated_node
        return updated_node.with_changes(module=_dotted_node(public))

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        aliases = list(updated_node.names)
        changed = False
        for index, alias in enumerate(original_node.names):
            module = dotted(alias.name)
            if module not in SCIPY_MOVED_MODULES:
                continue
            if alias.asname is None:
                self._left(original_node, module, "the import binds scipy, read further on")
                continue
            public = SCIPY_MOVED_MODULES[module][0]
            aliases[index] = aliases[index].with_changes(name=_dotted_node(public))
            changed = True
        return updated_node.with_changes(names=aliases) if changed else updated_node
