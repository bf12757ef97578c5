"""Reading, parsing and walking one file.

Every way a file can fail (unreadable, not UTF-8, NUL bytes, too large, syntax errors, nesting
too deep for the parser, even a bug in a rule) becomes one TFG000 finding for that file, so a run
always finishes.
"""

from __future__ import annotations

import ast
import dataclasses
import io
import os
import re
import stat
import tokenize
import warnings
from collections.abc import Callable
from typing import Optional

from tfcompat_gpu.lint import rules as _rules  # noqa: F401  (registers the rule callbacks)
from tfcompat_gpu.lint.context import FileContext, RawFinding
from tfcompat_gpu.lint.prefilter import may_trigger
from tfcompat_gpu.lint.registry import RULES_BY_CODE, applies
from tfcompat_gpu.lint.report import Finding
from tfcompat_gpu.lint.textual import text_findings
from tfcompat_gpu.lint.tolerant import repair
from tfcompat_gpu.lint.walker import walk
from tfcompat_gpu.utils.notebooks import NotebookError, is_notebook, read_notebook

__all__ = [
    "MAX_BYTES",
    "Target",
    "check_bytes",
    "check_path",
    "check_tree",
    "decode_source",
    "noqa_codes",
    "read_path",
    "unchecked",
]

MAX_BYTES = 5 * 1024 * 1024
"""Files above this size are reported (TFG000), not parsed: the lint must never hang."""

_NOQA = re.compile(
    r"#\s*noqa(?::[\s]?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?", re.IGNORECASE
)


def noqa_codes(line: str) -> frozenset[str] | None:
    """Codes a ``# noqa`` comment on ``line`` suppresses: None (no comment), empty (all)."""
    if "noqa" not in line.lower():
        return None
    match = _NOQA.search(line)
    if match is None:
        return None
    codes = match.group("codes")
    if not codes:
        return frozenset()
    return frozenset(code.upper() for code in re.split(r"[,\s]+", codes) if code)


def _finding(raw: RawFinding, path: str) -> Finding:
    rule = RULES_BY_CODE[raw.code]
    return Finding(
        raw.code, rule.name, raw.message, path, raw.line, raw.col + 1, raw.severity, raw.fix
    )


def _unreadable(path: str, reason: str, line: int = 1, col: int = 0) -> list[Finding]:
    return unchecked(path, f"{reason}; the file was not checked", line, col)


def unchecked(path: str, message: str, line: int = 1, col: int = 0) -> list[Finding]:
    """The TFG000 finding of a file or directory that could not be checked."""
    return [
        _finding(
            RawFinding(
                "TFG000",
                line,
                col,
                message,
                "fix the file or exclude it",
                "error",
            ),
            path,
        )
    ]


_COOKIE = re.compile(rb"^(?:\xef\xbb\xbf)?[ \t\f]*#.*?coding[:=]", re.MULTILINE)


def decode_source(data: bytes) -> str:
    """The text of a Python file as the interpreter reads it (PEP 263 coding cookie, BOM)."""
    head = data[: data.find(b"\n", data.find(b"\n") + 1) + 1] if b"\n" in data else data
    if b"coding" not in head or _COOKIE.search(head) is None:
        return data.decode("utf-8-sig")
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return data.decode(encoding)


Target = Optional[tuple[int, int]]
"""The TensorFlow (major, minor) a project runs on; None: the latest."""
_PYTHON2_TARGET = (1, 15)
"""TensorFlow 2 never ran on Python 2: a Python 2 file targets TensorFlow 1."""


def check_tree(
    tree: ast.AST, path: str, source: str | None = None, target: Target = None
) -> list[RawFinding]:
    """Run every rule over a parsed module (no suppression, no selection).

    Passing the module's ``source`` lets the walk skip statements no rule can be about;
    ``target`` (a TensorFlow ``(major, minor)``) turns off the rules that do not apply to it.
    """
    ctx = FileContext(path)
    ctx.target = target
    walk(tree, ctx, source)
    found = ctx.findings
    if target is not None:
        found = [f for f in found if applies(f.code, target)]
    found.sort(key=lambda f: (f.line, f.col, f.code))
    return found


def check_bytes(
    data: bytes, path: str, target: Target = None, relevant: bool | None = None
) -> list[Finding]:
    """Check one file's content; ``path`` is only used in the findings (and a path ending in
    ``.ipynb`` is read as a notebook).  ``relevant`` is what :func:`may_trigger` said of
    ``data`` when the caller already asked it (None: ask it here)."""
    if b"\x00" in data:
        return _unreadable(path, "file contains a NUL byte")
    if len(data) > MAX_BYTES:
        return _unreadable(path, f"file is larger than {MAX_BYTES // (1024 * 1024)} MB")
    if not (may_trigger(data) if relevant is None else relevant):
        # No rule can fire in these bytes (see lint.prefilter): only make sure they are text.
        try:
            if is_notebook(path):  # reading the JSON is cheap; a broken notebook is a TFG000
                read_notebook(data.decode("utf-8-sig"))
            else:
                decode_source(data)
        except NotebookError as exc:
            return _unreadable(path, f"cannot read the notebook: {exc}")
        except SyntaxError as exc:
            return _unreadable(path, exc.msg)
        except UnicodeDecodeError as exc:
            encoding = "UTF-8" if exc.encoding.lower().startswith("utf") else exc.encoding
            return _unreadable(path, f"file is not valid {encoding} (byte {exc.start})")
        return []
    if is_notebook(path):
        return _check_notebook(data, path, target)
    return _check_source(data, path, target)


def _check_notebook(data: bytes, path: str, target: Target) -> list[Finding]:
    """A notebook's code cells checked as one program; each finding names its cell."""
    try:
        notebook = read_notebook(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        return _unreadable(path, f"file is not valid UTF-8 (byte {exc.start})")
    except NotebookError as exc:
        return _unreadable(path, f"cannot read the notebook: {exc}")
    if not notebook.program:
        return []
    program, env_lines = _env_magics(notebook.program, notebook.unmask)
    found = _check_source(program.encode("utf-8"), path, target)

    def cell_line(match: re.Match[str]) -> str:
        cell, line = notebook.where(int(match.group(1)))
        return f"cell {cell}, line {line}"

    placed = []
    for finding in found:
        cell, line = notebook.where(finding.line)
        # Messages that name another line ("after ... on line 8") count in the program too.
        message = _LINE_REF.sub(cell_line, finding.message)
        fix = _LINE_REF.sub(cell_line, finding.fix)
        col = env_lines.get(finding.line, finding.col) + notebook.shift(finding.line)
        placed.append(
            dataclasses.replace(finding, line=line, col=col, cell=cell, message=message, fix=fix)
        )
    return placed


_LINE_REF = re.compile(r"\bline (\d+)\b")

# IPython's ``%env NAME=value`` / ``%env NAME value`` and ``%set_env NAME=value``: an
# ``os.environ`` assignment (``%env NAME`` alone reads the variable, and is left alone).
_ENV_MAGIC = re.compile(
    r"^([ \t]*)%(?:set_)?env[ \t]+([A-Za-z_][A-Za-z0-9_]*)(?:[ \t]*=[ \t]*|[ \t]+)(\S.*?)?[ \t]*$"
)
_MASK_WORD = "tfcompat-gpu: IPython line"


def _env_magics(program: str, unmask: Callable[[str], str]) -> tuple[str, dict[int, int]]:
    """``program`` with each masked ``%env NAME=value`` line written as the ``os.environ``
    assignment IPython makes of it, so the environment rules see it where it runs (after the
    GPUs were set up, misspelled...); and the column of each such line (its indent), where
    findings on it are shown (counted from 1)."""
    if _MASK_WORD not in program:
        return program, {}
    lines = program.splitlines(keepends=True)
    columns: dict[int, int] = {}
    for number, line in enumerate(lines, 1):
        if _MASK_WORD not in line:
            continue
        match = _ENV_MAGIC.match(unmask(line).rstrip("\r\n"))
        if match is None:
            continue
        indent, name, value = match.group(1), match.group(2), match.group(3) or ""
        lines[number - 1] = f"{indent}import os; os.environ[{name!r}] = {value!r}\n"
        columns[number] = len(indent) + 1
    return "".join(lines), columns


def _check_source(data: bytes, path: str, target: Target) -> list[Finding]:
    try:
        source = decode_source(data)
    except SyntaxError as exc:  # an unknown coding, or a cookie that contradicts the BOM
        return _unreadable(path, exc.msg)
    except UnicodeDecodeError as exc:
        encoding = "UTF-8" if exc.encoding.lower().startswith("utf") else exc.encoding
        return _unreadable(path, f"file is not valid {encoding} (byte {exc.start})")
    try:
        with warnings.catch_warnings():
            # Invalid escapes and the like are not this lint's business.
            warnings.simplefilter("ignore")
            tree = ast.parse(source, path)
    except SyntaxError as exc:
        return _tolerant(source, path, exc, target)
    except (RecursionError, MemoryError):
        return _unreadable(path, "code is nested too deeply to parse")
    except (ValueError, OverflowError) as exc:
        return _unreadable(path, f"cannot parse: {exc}")
    return _checked(tree, source, path, target)


def _checked(tree: ast.AST, source: str, path: str, target: Target) -> list[Finding]:
    try:
        raw = check_tree(tree, path, source, target)
    except RecursionError:
        return _unreadable(path, "code is nested too deeply to check")
    except Exception as exc:  # a bug in a rule must not end the run
        return _unreadable(path, f"internal error while checking: {exc!r}")
    if not raw:
        return []
    lines = source.splitlines()
    findings = []
    for item in raw:
        text = lines[item.line - 1] if 0 < item.line <= len(lines) else ""
        codes = noqa_codes(text)
        if codes is not None and (not codes or item.code in codes):
            continue
        findings.append(_finding(item, path))
    return findings


def _tolerant(source: str, path: str, error: SyntaxError, target: Target) -> list[Finding]:
    """TFG000 for a file Python 3 cannot parse, plus what the rules find in the rest of it."""
    line, col = error.lineno or 1, max((error.offset or 1) - 1, 0)
    try:
        repaired = repair(source)
    except Exception:  # the tolerant reading is a bonus: it must never cost the TFG000
        repaired = None
    lines = source.splitlines()
    if repaired is None:
        unread: list[int] = list(range(1, len(lines) + 1))
        return _unreadable(path, f"syntax error: {error.msg}", line, col) + _textual(
            lines, unread, path
        )
    tree, text, python2 = repaired
    # The lines the repair had to neutralise still get the checks that need no syntax tree.
    unread = [n for n, pair in enumerate(zip(lines, text.splitlines()), 1) if pair[0] != pair[1]]
    what = "Python 2 code: " if python2 else ""
    head = unchecked(
        path,
        f"{what}syntax error: {error.msg}; only the lines Python 3 can read were checked",
        line,
        col,
    )
    if python2:
        target = min(target or _PYTHON2_TARGET, _PYTHON2_TARGET)
    rest = _checked(tree, text, path, target)
    if rest and rest[0].code == "TFG000":  # the repaired text failed a check itself
        return head + _textual(lines, unread, path)
    return head + rest + _textual(lines, unread, path)


def _textual(lines: list[str], unread: list[int], path: str) -> list[Finding]:
    found = []
    for item in text_findings(lines, unread):
        codes = noqa_codes(lines[item.line - 1])
        if codes is None or (codes and item.code not in codes):
            found.append(_finding(item, path))
    return found


def read_path(path: str, display: str | None = None) -> bytes | list[Finding]:
    """The bytes of one file on disk, or the TFG000 finding of why it cannot be read."""
    shown = display or path
    try:
        info = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            return _unreadable(shown, "dangling symbolic link")
        return _unreadable(shown, "no such file")
    except OSError as exc:
        return _unreadable(shown, f"cannot read file: {exc.strerror or exc}")
    if not stat.S_ISREG(info.st_mode):
        return _unreadable(shown, "not a regular file")
    if info.st_size > MAX_BYTES:
        return _unreadable(shown, f"file is larger than {MAX_BYTES // (1024 * 1024)} MB")
    try:
        with open(path, "rb") as handle:
            # Sized by the stat: read(MAX_BYTES + 1) would allocate 5 MB for every file.
            data = handle.read(min(info.st_size, MAX_BYTES) + 1)
            if len(data) > info.st_size:  # grew since the stat
                data += handle.read(MAX_BYTES + 1 - len(data))
    except OSError as exc:
        return _unreadable(shown, f"cannot read file: {exc.strerror or exc}")
    return data


def check_path(path: str, display: str | None = None, target: Target = None) -> list[Finding]:
    """Check one file on disk."""
    data = read_path(path, display)
    if isinstance(data, list):
        return data
    return check_bytes(data, display or path, target)
