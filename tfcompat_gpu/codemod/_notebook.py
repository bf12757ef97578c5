"""Notebooks for ``migrate``: the code cells migrated as one program, warnings per cell."""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._io import Skip
from tfcompat_gpu.codemod.api import MigrationResult
from tfcompat_gpu.utils.notebooks import Notebook, NotebookError, read_notebook

__all__ = ["cell_warnings", "read_cells"]

_LINE = re.compile(r"^(\d+):")


def read_cells(text: str) -> Notebook:
    """The notebook in ``text``; :class:`Skip` (the file left alone) when it is not one."""
    try:
        return read_notebook(text)
    except NotebookError as error:
        raise Skip(f"cannot read the notebook ({error})") from None


def cell_warnings(notebook: Notebook, result: MigrationResult) -> list[str]:
    """``"LINE: message"`` warnings of the program as ``"cell N:LINE: message"``."""
    out = []
    for warning in result.warnings:
        match = _LINE.match(warning)
        if match is None:
            out.append(warning)
            continue
        cell, line = notebook.where(int(match.group(1)))
        out.append(f"cell {cell}:{line}:{warning[match.end() :]}")
    return out
