"""A tolerant reading of a file Python 3 cannot parse (Python 2 code, mostly).

TF1-era training scripts are often Python 2 (``print 'x'``, ``except E, e:``).  Their GPU
settings can still be wrong, so rather than skip the file, the lines Python 3 cannot read are
neutralised in place (the same line count, the other lines untouched) until the rest parses:
a Python 2 ``print`` / ``exec`` statement becomes ``pass``, ``except E, e:`` becomes
``except E:``, and any other line the parser stops at becomes ``pass`` (``if True:`` when it
opens a block, so its body is still read).  Every rule then runs on what is left: the
environment-variable, device-string, fraction and ConfigProto rules see the lines they need.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
import warnings

__all__ = ["repair"]

_MAX_REPAIRS = 100
"""Give up on a file needing more: what is left would say little about it."""
_MAX_CHARS = 512 * 1024
"""Each repair parses the file again: larger broken files get their TFG000 only."""

_PY2_STATEMENT = re.compile(r"[ \t]*(?:print\b(?![ \t]*[=(.,)\[\]]|[ \t]*$)|exec[ \t]+[\"'\w])")
_PY2_EXCEPT = re.compile(r"^(?P<head>[ \t]*except\b[^,:#]*(?:\([^)]*\))?[^,:#]*),[ \t]*\w+[ \t]*:")
_OPENS_BLOCK = re.compile(r":[ \t]*(?:#.*)?$")


def _logical_lines(lines: list[str]) -> list[tuple[int, int]]:
    """(first, last) 0-based physical lines of each statement that tokenize can delimit."""
    spans: list[tuple[int, int]] = []
    start: int | None = None
    reader = io.StringIO("".join(lines)).readline
    try:
        for token in tokenize.generate_tokens(reader):
            if token.type in (tokenize.NL, tokenize.COMMENT) and start is None:
                continue
            if start is None and token.type not in (
                tokenize.INDENT,
                tokenize.DEDENT,
                tokenize.ENDMARKER,
            ):
                start = token.start[0] - 1
            if token.type == tokenize.NEWLINE and start is not None:
                spans.append((start, token.end[0] - 1))
                start = None
    except Exception:  # the tokenizer's errors vary by Python version (3.13: even Unicode ones)
        pass
    return spans


def _neutralise(lines: list[str], first: int, last: int) -> None:
    text = lines[first]
    indent = text[: len(text) - len(text.lstrip(" \t"))]
    end = "\n" if text.endswith("\n") else ""
    if re.match(r"[ \t]*(?:except|else|elif|finally)\b", text):
        keyword = text.split()[0].rstrip(":")
        replacement = {"elif": "elif True:", "except": "except Exception:"}.get(
            keyword, keyword + ":"
        )
    elif _OPENS_BLOCK.search(lines[last].rstrip("\r\n")):
        replacement = "if True:"
    else:
        replacement = "pass"
    lines[first] = indent + replacement + end
    for index in range(first + 1, last + 1):
        lines[index] = "\n" if lines[index].endswith("\n") else ""


def _parse(text: str) -> ast.Module:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(text)


def repair(source: str) -> tuple[ast.Module, str, bool] | None:
    """A syntax tree of ``source`` with the lines Python 3 cannot read neutralised, the text
    it was parsed from, and whether Python 2 statements were seen; None when too much of the
    file had to go."""
    if len(source) > _MAX_CHARS:
        return None
    lines = source.splitlines(keepends=True)
    if any("\r" in line.rstrip("\r\n") for line in lines):
        return None  # a lone carriage return: line numbers would not match
    spans = _logical_lines(lines)
    span_of = {}
    for first, last in spans:
        for index in range(first, last + 1):
            span_of[index] = (first, last)
    python2 = False
    for first, last in spans:
        match = _PY2_STATEMENT.match(lines[first])
        if match is not None:
            _neutralise(lines, first, last)
            python2 = True
            continue
        fixed = _PY2_EXCEPT.sub(r"\g<head>:", lines[first], count=1)
        if fixed != lines[first]:
            lines[first] = fixed
            python2 = True
    done: set[int] = set()
    for _ in range(_MAX_REPAIRS):
        text = "".join(lines)
        try:
            return _parse(text), text, python2
        except SyntaxError as exc:
            line = (exc.lineno or 1) - 1
        except (ValueError, RecursionError, MemoryError, OverflowError):
            return None
        if not 0 <= line < len(lines):
            return None
        first, last = span_of.get(line, (line, line))
        if first in done:
            # Already neutralised and still failing: the statement before it is open.
            if first == 0 or (first - 1) in done:
                return None
            first = last = first - 1
        done.add(first)
        _neutralise(lines, first, last)
    return None
