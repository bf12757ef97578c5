"""Jupyter notebooks (``.ipynb``) as one Python program, for ``check`` and ``migrate``.

The code cells, in order, are joined into one program: a notebook runs them top to bottom in
one namespace, so a ``ConfigProto`` made in cell 2 and a session in cell 5 are one story.
IPython syntax is not Python: line magics (``%matplotlib inline``), cell magics (``%%bash``),
shell escapes (``!nvidia-smi``, ``files = !ls``) and help (``tf.config?``) are masked, each line
replaced by a ``pass`` carrying a numbered comment, so that line numbers stay those of the cell
and the masked text is put back unchanged when a rewritten program is split into cells again.
A cell whose first line is indented loses that indent on every line, as IPython runs it. The
body of ``%%time``, ``%%timeit``, ``%%capture`` and ``%%prun`` is Python and stays in the
program; other cell magics are masked whole. nbformat 3 files (cells in worksheets, code in
``input``) are read and written in their own format.

The format is read and written with the ``json`` module, not ``nbformat``: only the text
of code cells is ever read or changed, and writing through ``json`` with the layout the file
already has (indentation, key order, ``ensure_ascii``, final newline) leaves every other byte
as it was, where ``nbformat.write`` would re-sort keys and may upgrade or validate the file.
It also keeps the runtime dependencies to what they are.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from tfcompat_gpu.utils.cell_lines import spread

__all__ = ["NOTEBOOK_SUFFIX", "Notebook", "NotebookError", "is_notebook", "read_notebook"]

NOTEBOOK_SUFFIX = ".ipynb"


class NotebookError(ValueError):
    """The file is not a notebook this module can read (the message says what is wrong)."""


def is_notebook(path: str) -> bool:
    return path.lower().endswith(NOTEBOOK_SUFFIX)


# IPython's own input transformers decide what is not Python (IPython/core/inputtransformer2.py:
# EscapedCommand for ``!``/``%``/``?`` line starts, SystemAssign and MagicAssign for
# ``x = !cmd`` / ``x = %magic``, HelpEnd for a trailing ``?``, cell_magic for ``%%``).
_ESCAPED = re.compile(r"^([ \t]*)[%!?]")
_ASSIGNED = re.compile(r"^([ \t]*)[\w.]+(?:[ \t]*,[ \t]*[\w.]+)*[ \t]*=[ \t]*[%!]")
_HELP_END = re.compile(r"^([ \t]*)[\w.*]+\?\??[ \t]*$")
_INDENT = re.compile(r"[ \t]+")
# Cell magics whose body IPython runs as Python, in the notebook's namespace, after the same
# input transformations as a cell's (IPython/core/magics/execution.py: time, timeit, prun,
# capture).
_PYTHON_BODY = re.compile(r"^%%(?:time|timeit|capture|prun)(?=[ \t\r\n]|$)")
# IPython's line magics and shell aliases, which automagic runs without their ``%`` in a
# one-line cell (``matplotlib inline``, ``pip install keras``, ``cd data``): IPython applies its
# dynamic transformations (prefilter: automagic, aliases) only to a cell of one line
# (InteractiveShell.transform_cell), so in a longer cell such a line is a syntax error.
_MAGICS = frozenset(
    [
        "aimport",
        "alias",
        "alias_magic",
        "autoawait",
        "autocall",
        "autoreload",
        "automagic",
        "autosave",
        "bookmark",
        "cat",
        "cd",
        "clear",
        "colors",
        "conda",
        "config",
        "connect_info",
        "cp",
        "debug",
        "dhist",
        "dirs",
        "doctest_mode",
        "ed",
        "edit",
        "env",
        "gui",
        "hist",
        "history",
        "killbgscripts",
        "ldir",
        "less",
        "lf",
        "lk",
        "ll",
        "load",
        "load_ext",
        "loadpy",
        "logoff",
        "logon",
        "logstart",
        "logstate",
        "logstop",
        "ls",
        "lsmagic",
        "lx",
        "macro",
        "magic",
        "man",
        "matplotlib",
        "mkdir",
        "more",
        "mv",
        "notebook",
        "page",
        "pastebin",
        "pdb",
        "pdef",
        "pdoc",
        "pfile",
        "pinfo",
        "pinfo2",
        "pip",
        "popd",
        "pprint",
        "precision",
        "prun",
        "psearch",
        "psource",
        "pushd",
        "pwd",
        "pycat",
        "pylab",
        "qtconsole",
        "quickref",
        "recall",
        "rehashx",
        "reload_ext",
        "rep",
        "rerun",
        "reset",
        "reset_selective",
        "rm",
        "rmdir",
        "run",
        "save",
        "sc",
        "set_env",
        "store",
        "sx",
        "system",
        "tb",
        "tensorflow_version",
        "time",
        "timeit",
        "unalias",
        "unload_ext",
        "who",
        "who_ls",
        "whos",
        "xdel",
        "xmode",
    ]
)
_MAGIC_WORD = re.compile(r"[ \t]*([A-Za-z_]\w*)[ \t]+\S")
_MASK = "pass  # tfcompat-gpu: IPython line {}"
_MASKED = re.compile(r"^[ \t]*pass  # tfcompat-gpu: IPython line (\d+)$")


def _split(text: str) -> list[str]:
    # At "\n" only: str.splitlines also splits at form feeds and U+2028, which Python's
    # tokenizer reads inside a line, and the line numbers would drift.
    lines = text.split("\n")
    out = [line + "\n" for line in lines[:-1]]
    if lines[-1]:
        out.append(lines[-1])
    return out


def _lines(source: object) -> list[str]:
    if isinstance(source, str):
        return _split(source)
    if isinstance(source, list) and all(isinstance(part, str) for part in source):
        return _split("".join(source))
    raise NotebookError(f"a code cell's source is {type(source).__name__}, expected text")


@dataclass
class _Layout:
    indent: int | None
    ensure_ascii: bool
    final_newline: bool


def _layout(text: str) -> _Layout:
    match = re.search(r"^\{\s*\n( +)\"", text)
    indent = len(match.group(1)) if match else None
    # nbformat writes ensure_ascii=False; older tools escape everything that is not ASCII.
    ensure_ascii = text.isascii() and "\\u" in text
    return _Layout(indent, ensure_ascii, text.endswith("\n"))


@dataclass
class Notebook:
    """A parsed notebook and the program its code cells make."""

    data: dict[str, Any]
    code_cells: list[int]
    """Index in ``cells`` of each code cell, in order."""
    program: str
    """The code cells joined, IPython syntax masked; line ``n`` is ``line_map[n - 1]``."""
    line_map: list[tuple[int, int]]
    """(cell number counted from 1 among all cells, line in that cell) of each program line."""
    masked: list[str]
    """The original text of each masked line (its number is in the mask's comment)."""
    layout: _Layout
    originals: list[str] = field(default_factory=list)
    """The cell's own text of each program line (before masking and dedenting)."""
    indents: dict[int, str] = field(default_factory=dict)
    """Cell number -> the indent IPython strips from that cell's lines (its first line's)."""
    dedented: dict[int, int] = field(default_factory=dict)
    """Program line -> how many columns of indent were stripped from it."""
    seals: list[int] = field(default_factory=list)
    """Where no line may be put, next to each program line (_NOT_BEFORE, _NOT_AFTER)."""
    cells: list[Any] = field(default_factory=list)
    """The cells, numbered from 1 in ``where`` (nbformat 3: every worksheet's, in order)."""
    source_key: str = "source"
    """Where a code cell keeps its text ("input" in nbformat 3)."""

    def shift(self, line: int) -> int:
        """Columns to add to a column of program line ``line`` to count in the cell."""
        return self.dedented.get(line, 0)

    def where(self, line: int) -> tuple[int, int]:
        """(cell number, line in the cell) of a program line; the last cell past the end."""
        if not self.line_map:
            return 1, line
        if 0 < line <= len(self.line_map):
            return self.line_map[line - 1]
        cell, last = self.line_map[-1]
        return cell, last + line - len(self.line_map)

    def _cells_of(self, new_program: str) -> dict[int, list[str]]:
        """Split a rewritten program into cells: unchanged lines stay in their cell, new lines
        join the cell of the line before them (the first code cell at the top); where that
        would put them into a cell magic's body or before its ``%%`` line, they go before the
        next line where Python may stand.  :class:`NotebookError` if there is none."""
        old = _split(self.program)
        new = _split(new_program)
        owner = [cell for cell, _ in self.line_map]
        seals = self.seals or [0] * len(old)
        cells: dict[int, list[str]] = {index + 1: [] for index in self.code_cells}
        matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
        originals = self.originals
        waiting: dict[int, list[str]] = {}  # old line -> new lines to put before it

        def put(cell: int, lines: list[str]) -> list[str]:
            indent = self.indents.get(cell, "")
            return [indent + line if indent and line.strip() else line for line in lines]

        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                for k in range(j2 - j1):
                    cells[owner[i1 + k]].extend(waiting.pop(i1 + k, []))
                    # the cell's own text: masked lines and a stripped indent come back
                    cells[owner[i1 + k]].append(originals[i1 + k] if originals else new[j1 + k])
            elif j2 > j1:
                # A replacement stays in the cells it replaces; an insertion joins the line above.
                if tag == "replace":
                    for cell, line in zip(
                        spread(old[i1:i2], owner[i1:i2], new[j1:j2]), new[j1:j2]
                    ):
                        cells[cell].extend(put(cell, [line]))
                    continue
                if i1 and not seals[i1 - 1] & _NOT_AFTER:
                    cell = owner[i1 - 1]
                    cells[cell].extend(put(cell, new[j1:j2]))
                    continue
                at = i1
                while at < len(old) and seals[at] & _NOT_BEFORE:
                    at += 1
                if at == len(old):
                    raise NotebookError("no cell outside a cell magic can take the new lines")
                waiting.setdefault(at, []).extend(put(owner[at], new[j1:j2]))
        return cells

    def unmask(self, line: str) -> str:
        """The notebook's own text of a masked program line; ``line`` itself otherwise."""
        match = _MASKED.match(line.rstrip("\r\n"))
        if match is None:
            return line
        return self.masked[int(match.group(1))]

    def with_program(self, new_program: str) -> str:
        """The notebook's JSON text with the code cells of ``new_program`` (outputs, metadata,
        ids and layout kept)."""
        cells = self.cells or self.data["cells"]
        key = self.source_key
        for number, lines in self._cells_of(new_program).items():
            cell = cells[number - 1]
            text = "".join(self.unmask(line) for line in lines)
            original = cell.get(key, "")
            joined = original if isinstance(original, str) else "".join(original)
            if text.endswith("\n") and not joined.endswith("\n"):
                text = text[:-1]
            if text == joined:
                continue
            cell[key] = text if isinstance(original, str) else _split(text)
        return self.dumps()

    def dumps(self) -> str:
        layout = self.layout
        text = json.dumps(
            self.data,
            indent=layout.indent,
            ensure_ascii=layout.ensure_ascii,
            separators=(",", ": ") if layout.indent is not None else (", ", ": "),
        )
        return text + "\n" if layout.final_newline else text


def _mask_line(line: str, masked: list[str], indent: str = "") -> str:
    masked.append(line if line.endswith("\n") else line + "\n")
    return indent + _MASK.format(len(masked) - 1) + "\n"


_NOT_BEFORE = 1  # a line may not be put before this one (it would push a ``%%`` down)
_NOT_AFTER = 2  # nor after it (it would land in a cell magic's body, or before its ``%%``)


@dataclass
class _Cell:
    lines: list[str]
    """The program lines of the cell."""
    widths: list[int]
    """Columns of indent stripped from each line."""
    indent: str
    """The indent a line put into the cell takes."""
    seals: list[int]
    """_NOT_BEFORE / _NOT_AFTER bits of each line."""


def _cell_program(own: list[str], masked: list[str]) -> _Cell:
    """One cell's program lines as IPython reads them.

    As IPython's ``transform_cell``: leading blank lines are skipped, the first line's indent
    is stripped from every line, and a cell magic (``%%`` on the first line left) takes the
    whole cell, masked, unless its body is run as Python in the notebook's namespace
    (``%%time``, ``%%timeit``, ``%%capture``, ``%%prun``): then only the magic's line is
    masked and the body is read the same way, as IPython reads it.
    """
    lines = list(own)
    cell = _Cell([], [0] * len(lines), "", [])
    start = 0
    while True:
        indent = _leading_indent(lines[start:])
        if indent:
            cell.indent += indent
            for n in range(start, len(lines)):
                if lines[n].startswith(indent):
                    lines[n] = lines[n][len(indent) :]
                    cell.widths[n] += len(indent)
        first = next((n for n in range(start, len(lines)) if lines[n].strip()), len(lines))
        if first == len(lines) or not lines[first].startswith("%%"):
            if _automagic(lines[first:]):
                lines[first] = _mask_line(lines[first], masked)
            body = _mask_cell(lines[start:], masked)
            cell.lines.extend(body)
            cell.seals.extend([0] * len(body))
            return cell
        # Nothing may come before a cell magic, not even after the blank lines above it.
        blank = [line if line.endswith("\n") else line + "\n" for line in lines[start:first]]
        cell.lines.extend(blank)
        cell.seals.extend([_NOT_BEFORE | _NOT_AFTER] * len(blank))
        if _PYTHON_BODY.match(lines[first]) is None:
            cell.lines.extend(_mask_line(line, masked) for line in lines[first:])
            cell.seals.extend([_NOT_BEFORE | _NOT_AFTER] * (len(lines) - first))
            return cell
        cell.lines.append(_mask_line(lines[first], masked))
        cell.seals.append(_NOT_BEFORE)
        start = first + 1


def _automagic(lines: list[str]) -> bool:
    """Whether ``lines``, a cell from its first non-blank line on, is one line that IPython
    runs as a magic without its ``%`` (``matplotlib inline``): the cell is that one line, it
    starts with a magic's name and an argument, and it is not Python."""
    match = _MAGIC_WORD.match(lines[0]) if lines else None
    if match is None or len("".join(lines).splitlines()) != 1:
        return False
    if match.group(1) not in _MAGICS:
        return False
    try:
        compile(lines[0].strip(), "<cell>", "exec")
    except SyntaxError:
        return True
    return False  # `time = 5`, `load(path)`: Python, which IPython leaves alone


def _mask_cell(lines: list[str], masked: list[str]) -> list[str]:
    out = []
    continued: str | None = None  # the indent of a masked line ending in a backslash
    inside: _Open | None = None  # Python left open: a bracket, a string, a backslash
    for line in lines:
        body = line.rstrip("\r\n")
        match = (
            None
            if continued is not None or inside is not None
            else (_ESCAPED.match(body) or _ASSIGNED.match(body) or _HELP_END.match(body))
        )
        if match is not None or continued is not None:
            # IPython reads a line magic or shell escape ending in "\" on to the next line
            # (``!cmd \`` / ``  --flag``): the lines it continues onto are masked with it.
            indent = continued if continued is not None else "" if match is None else match.group(1)
            continued = indent if body.endswith("\\") else None
            out.append(_mask_line(line, masked, indent))
        else:  # kept as it is (a CRLF cell stays CRLF), ended like every line of the program
            out.append(line if line.endswith("\n") else line + "\n")
            # A line inside brackets or a string is no statement start, so no magic:
            # `print("%d" \n    % n)` keeps its `% n`.
            inside = _open_after(body, inside)
    return out


class _Open:
    """What a Python line left open: bracket depth, a string's quote, a backslash."""

    __slots__ = ("depth", "quote")

    def __init__(self, depth: int, quote: str) -> None:
        self.depth = depth
        self.quote = quote


def _open_after(body: str, state: _Open | None) -> _Open | None:
    """What is still open after ``body`` (None: the next line starts a statement)."""
    depth, quote = (state.depth, state.quote) if state is not None else (0, "")
    if not quote and depth == 0 and not any(c in body for c in "([{'\"\\"):
        return None  # most lines: nothing to scan
    i, n = 0, len(body)
    while i < n:
        char = body[i]
        if quote:
            if char == "\\":
                i += 2
                continue
            if body.startswith(quote, i):
                i += len(quote)
                quote = ""
                continue
        elif char == "#":
            break
        elif char in "'\"":
            quote = body[i : i + 3] if body.startswith(char * 3, i) else char
            i += len(quote)
            continue
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(depth - 1, 0)
        i += 1
    if len(quote) == 1:  # a one-line string cannot go on (unless the line ends in "\")
        quote = quote if body.endswith("\\") else ""
    if quote or depth or (body.endswith("\\") and not body.lstrip().startswith("#")):
        return _Open(depth, quote)
    return None


def read_notebook(text: str) -> Notebook:
    """Parse a notebook's JSON text; :class:`NotebookError` when it is not one.

    >>> cell = {"cell_type": "code", "source": ["%matplotlib inline\\n", "x = 1"]}
    >>> nb = read_notebook(json.dumps({"cells": [{"cell_type": "markdown"}, cell]}))
    >>> nb.program.splitlines()[1], nb.where(2)
    ('x = 1', (2, 2))
    """
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise NotebookError(f"not valid JSON ({exc})") from None
    except RecursionError:  # json's decoder recurses once per nested array or object
        raise NotebookError("not a Jupyter notebook (its JSON is nested too deeply)") from None
    cells, key = _cells(data)
    language = (
        data.get("metadata", {}).get("language_info", {}).get("name", "python")
        if isinstance(data.get("metadata"), dict)
        and isinstance(data["metadata"].get("language_info", {}), dict)
        else "python"
    )
    code_cells: list[int] = []
    program: list[str] = []
    line_map: list[tuple[int, int]] = []
    masked: list[str] = []
    originals: list[str] = []
    indents: dict[int, str] = {}
    dedented: dict[int, int] = {}
    seals: list[int] = []
    if str(language).lower() not in ("python", "python3", "ipython"):
        # An R or Julia notebook holds no Python to check.
        return Notebook(data, code_cells, "", line_map, masked, _layout(text), cells=cells)
    for index, cell in enumerate(cells):
        if not isinstance(cell, dict):
            raise NotebookError(f"cell {index + 1} is not an object")
        if cell.get("cell_type") != "code":
            continue
        code_cells.append(index)
        own = _lines(cell.get(key, ""))
        originals.extend(line if line.endswith("\n") else line + "\n" for line in own)
        cell_program = _cell_program(own, masked)
        lines = cell_program.lines
        if cell_program.indent:
            indents[index + 1] = cell_program.indent
        widths = cell_program.widths
        dedented.update((len(program) + n + 1, w) for n, w in enumerate(widths) if w)
        seals.extend(cell_program.seals)
        program.extend(lines)
        line_map.extend((index + 1, n) for n in range(1, len(lines) + 1))
    return Notebook(
        data,
        code_cells,
        "".join(program),
        line_map,
        masked,
        _layout(text),
        originals,
        indents,
        dedented,
        seals,
        cells,
        key,
    )


def _cells(data: object) -> tuple[list[Any], str]:
    """The cells of a notebook and the key of a code cell's text: nbformat 4's ``cells`` and
    ``source``, or nbformat 3's ``input`` in the cells of its worksheets, in order."""
    if isinstance(data, dict) and isinstance(data.get("cells"), list):
        return data["cells"], "source"
    sheets = data.get("worksheets") if isinstance(data, dict) else None
    if (
        isinstance(data, dict)
        and data.get("nbformat") == 3
        and isinstance(sheets, list)
        and all(
            isinstance(sheet, dict) and isinstance(sheet.get("cells"), list) for sheet in sheets
        )
    ):
        return [cell for sheet in sheets for cell in sheet["cells"]], "input"
    raise NotebookError("not a Jupyter notebook (no list of cells)")


def _leading_indent(lines: list[str]) -> str:
    """The indent of a cell's first non-blank line (IPython's ``leading_indent`` after
    ``leading_empty_lines``), or ``""``."""
    for line in lines:
        if line.strip():
            match = _INDENT.match(line)
            return match.group(0) if match else ""
    return ""
