"""``tfcompat-gpu run notebook.ipynb``: a notebook's code cells run as Jupyter's "Run All" runs
them, top to bottom in one namespace, each compiled on its own.

The cells are read by :mod:`tfcompat_gpu.utils.notebooks`, the reader ``check`` and ``migrate``
use: IPython syntax (``%matplotlib inline``, ``!nvidia-smi``, ``%%bash`` cells, ``x = !ls``) is
not Python, and outside IPython there is nothing to run it, so those lines are left out (each
becomes a ``pass``) and one note names them; a ``%%time`` cell's body runs.  Each cell is
compiled under the name ``NOTEBOOK:cell N`` (N counts every cell, as ``check``'s findings do)
with the cell's own line numbers, and its text, as the notebook has it, is put in
:mod:`linecache`, so a traceback shows the cell and the line.  What IPython gives a notebook
(``display``, ``get_ipython()``, the ``IPython.display`` module) is in
:mod:`tfcompat_gpu.commands._run_ipython`.
"""

from __future__ import annotations

import linecache

from tfcompat_gpu.utils.notebooks import NotebookError, read_notebook

__all__ = ["NotebookScript", "cell_name", "read_script"]

_SHOWN = 3  # skipped lines the note quotes before "and N more"


def cell_name(path: str, cell: int) -> str:
    """The file name cell ``cell`` of the notebook at ``path`` is compiled under."""
    return f"{path}:cell {cell}"


class NotebookScript:
    """The code of a notebook, ready to run cell by cell."""

    __slots__ = ("cells", "line_map", "program", "shown", "skipped")

    def __init__(
        self,
        program: bytes,
        cells: list[tuple[str, str]],
        shown: dict[str, list[str]],
        skipped: list[tuple[int, int, str]],
        line_map: list[tuple[int, int]],
    ) -> None:
        self.program = program
        """The cells joined, IPython lines masked: what auto mode reads."""
        self.cells = cells
        """(file name, Python text) of each code cell with code, in order."""
        self.shown = shown
        """File name -> the cell's lines as the notebook has them (for tracebacks)."""
        self.skipped = skipped
        """(cell, line, text) of each IPython line left out."""
        self.line_map = line_map
        """(cell, line in the cell) of each line of ``program``."""

    def where(self, line: int) -> str:
        """A line of ``program`` as the notebook numbers it: ``cell 3 line 2``."""
        if 0 < line <= len(self.line_map):
            cell, at = self.line_map[line - 1]
            return f"cell {cell} line {at}"
        return f"line {line}"

    def note(self, shown_path: str) -> str | None:
        """One line naming the IPython lines that will not run; None when there are none."""
        if not self.skipped:
            return None
        quoted = [f"cell {cell} line {line}: {text}" for cell, line, text in self.skipped[:_SHOWN]]
        more = len(self.skipped) - _SHOWN
        if more > 0:
            quoted.append(f"and {more} more")
        return (
            f"{shown_path}: {len(self.skipped)} IPython line(s) (magics, shell escapes) are not "
            f"Python and are not run: {'; '.join(quoted)}. Run them in a shell first if the "
            "notebook needs what they do"
        )

    def remember_lines(self) -> None:
        """Put each cell's text in :mod:`linecache`, where tracebacks look for it (an entry
        without a modification time is never dropped by ``linecache.checkcache``)."""
        for name, lines in self.shown.items():
            linecache.cache[name] = (sum(map(len, lines)), None, lines, name)


def read_script(path: str, raw: bytes) -> NotebookScript:
    """The notebook at ``path`` (its bytes ``raw``) as cells to run.

    Raises :class:`ValueError` with a message saying what is wrong with the file.
    """
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start}), which the notebook "
            "format requires"
        ) from None
    try:
        notebook = read_notebook(text)
    except NotebookError as exc:
        raise ValueError(f"{path} is not a notebook that can be run: {exc}") from None
    line_map: list[tuple[int, int]] = []
    code: dict[int, list[str]] = {}
    shown: dict[int, list[str]] = {}
    skipped: list[tuple[int, int, str]] = []
    for number, line in enumerate(notebook.program.splitlines(keepends=True), start=1):
        cell, at = notebook.where(number)
        line_map.append((cell, at))
        own = notebook.unmask(line)
        if own is not line and own.strip():
            skipped.append((cell, at, own.strip()))
        code.setdefault(cell, []).append(line)
        shown.setdefault(cell, []).append(own)
    cells = [(cell_name(path, cell), "".join(lines)) for cell, lines in code.items()]
    return NotebookScript(
        notebook.program.encode("utf-8"),
        [(name, text) for name, text in cells if text.strip()],
        {cell_name(path, cell): lines for cell, lines in shown.items()},
        skipped,
        line_map,
    )
