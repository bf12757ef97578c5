"""Notebooks for ``migrate``: the code cells migrated as one program, warnings per cell."""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._io import Skip
from tfcompat_gpu.codemod.api import MigrationResult
from tfcompat_gpu.utils.notebooks import Notebook, NotebookError, read_notebook

__all__ = ["cell_warnings", "read_cells", "write_cells"]

_LINE = re.compile(r"^(\d+):")
# "on line 12", "the configs on lines 12, 40": lines of the program, named in a message.
_LINE_REF = re.compile(r"\blines? (\d+(?:, \d+)*)\b")


def read_cells(text: str) -> Notebook:
    """The notebook in ``text``; :class:`Skip` (the file left alone) when it is not one."""
    try:
        return read_notebook(text)
    except NotebookError as error:
        raise Skip(f"cannot read the notebook ({error})") from None


def write_cells(notebook: Notebook, program: str) -> str:
    """The notebook's text with the cells of the migrated ``program``; :class:`Skip` when its
    new lines have no cell to go to (every place would be inside a cell magic)."""
    try:
        return notebook.with_program(program)
    except NotebookError as error:
        raise Skip(f"cannot write the notebook ({error})") from None


def cell_warnings(notebook: Notebook, result: MigrationResult) -> list[str]:
    """``"LINE: message"`` warnings of the program as ``"cell N:LINE: message"``."""
    out = []
    for warning in result.warnings:
        match = _LINE.match(warning)
        if match is None:
            out.append(warning)
            continue
        cell, line = notebook.where(int(match.group(1)))
        text = _LINE_REF.sub(lambda ref: _cell_lines(notebook, ref), warning[match.end() :])
        out.append(f"cell {cell}:{line}:{text}")
    return out


def _cell_lines(notebook: Notebook, ref: re.Match[str]) -> str:
    places = (notebook.where(int(number)) for number in ref.group(1).split(", "))
    return "; ".join(f"cell {cell}, line {line}" for cell, line in places)
