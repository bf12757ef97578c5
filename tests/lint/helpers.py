"""Lint fixtures: ``# select: CODES`` on the first line, every expected finding pinned inline.

A line that should get a finding ends with one annotation per finding, in column order::

    os.environ['CUDA_VISIBLE_DEVCIES'] = '0'  # expect: TFG003:1 environment variable ...

``CODE:COL`` (columns count from 1, as ``check`` reports them) and then the whole message, where
``{python}`` stands for the words of a syntax error that come from Python itself (they differ
between versions, and so does the column CPython gives such an error: it is not compared).  The fixture passes only when ``check`` reports exactly these findings: one
missing, one more, one twice, a column or a word of a message changed all fail it.

After a deliberate change to a rule's output, ``python -m tests.lint.helpers FIXTURE...``
rewrites the annotations from what ``check`` reports now; read the diff before keeping it.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

FIXTURES = Path(__file__).parent / "fixtures"
_SELECT = re.compile(r"#\s*select:\s*([A-Z0-9, ]+)")
_MARK = "# expect: "
PYTHON = "{python}"
"""In a pinned message, the words CPython's parser supplies (a syntax error's text), which
differ between Python versions: any text matches."""
_EXPECT = re.compile(r"#\s*expect:\s*([A-Z]+[0-9]+):(\d+) (.*?)\s*(?=#\s*expect:|$)")


class Expected(NamedTuple):
    line: int
    col: int
    code: str
    message: str


def selection(path: Path) -> list[str]:
    """The codes a fixture is checked with (``TFG``, all of them, unless its first line says)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    match = _SELECT.search(lines[0]) if lines else None
    if not match:
        return ["TFG"]
    return [c.strip() for c in match.group(1).split(",") if c.strip()]


def _pins(line: str, number: int) -> list[Expected]:
    found = list(_EXPECT.finditer(line, line.find("# expect:")))
    if len(found) != line.count("# expect:"):
        raise ValueError(f"{number}: an annotation without CODE:COL message")
    return [Expected(number, int(m[2]), m[1], m[3]) for m in found]


def expected(path: Path) -> tuple[list[str], list[Expected]]:
    """The fixture's selection and its expected findings, sorted."""
    pinned = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        at = line.find("# expect:")
        if at < 0:
            continue
        try:
            pinned += _pins(line, number)
        except ValueError as exc:
            raise ValueError(f"{path.name}:{exc}") from None
    return selection(path), sorted(pinned)


def found(findings: Iterable[object]) -> list[Expected]:
    """``check``'s findings in the fixtures' terms, sorted."""
    return sorted(
        Expected(f.line, f.col, f.code, f.message)  # type: ignore[attr-defined]
        for f in findings
    )


def _matches(pinned: Expected, got: Expected) -> bool:
    if PYTHON not in pinned.message:
        return pinned == got
    # the column of a syntax error is CPython's too, and moves between versions
    if (pinned.line, pinned.code) != (got.line, got.code):
        return False
    parts = (re.escape(part) for part in pinned.message.split(PYTHON))
    return re.fullmatch(".+?".join(parts), got.message) is not None


def differences(want: list[Expected], got: list[Expected]) -> list[str]:
    """What is pinned and not found (``-``) and what is found and not pinned (``+``), each
    as often as it is missing or extra: empty when the fixture holds."""
    missing, extra = Counter(want) - Counter(got), Counter(got) - Counter(want)
    for pinned in [p for p in sorted(missing.elements()) if PYTHON in p.message]:
        for other in sorted(extra.elements()):
            if _matches(pinned, other):
                missing[pinned] -= 1
                extra[other] -= 1
                break
    lines = [f"- {e.line}:{e.col} {e.code} {e.message}" for e in sorted(missing.elements())]
    lines += [f"+ {e.line}:{e.col} {e.code} {e.message}" for e in sorted(extra.elements())]
    return lines


def annotate(text: str, findings: list[Expected]) -> str:
    """``text`` with its annotations replaced by ``findings``."""
    by_line: dict[int, list[Expected]] = {}
    for finding in findings:
        by_line.setdefault(finding.line, []).append(finding)
    lines = text.splitlines(keepends=True)
    for number, line in enumerate(lines, 1):
        body = line.rstrip("\r\n")
        end = line[len(body) :]
        if "# expect:" in body:
            try:
                kept = [e for e in _pins(body, number) if PYTHON in e.message]
            except ValueError:  # not pinned yet
                kept = []
            body = body[: body.index("# expect:")].rstrip()
            for pin in kept:  # a pin that matched keeps its placeholder
                pins_here = by_line.get(number, [])
                for index, new in enumerate(pins_here):
                    if _matches(pin, new):
                        pins_here[index] = pin
                        break
        pins = sorted(by_line.get(number, []))
        if pins:
            notes = "  ".join(f"{_MARK}{p.code}:{p.col} {p.message}" for p in pins)
            body = f"{body}  {notes}" if body.strip() else notes
        lines[number - 1] = body + end
    return "".join(lines)


def main(paths: list[str]) -> int:
    from tfcompat_gpu.lint.api import check

    for name in paths:
        path = Path(name)
        report = check([str(path)], select=selection(path))
        new = annotate(path.read_text(encoding="utf-8"), found(report.findings))
        path.write_text(new, encoding="utf-8")
        again = check([str(path)], select=selection(path))
        if differences(expected(path)[1], found(again.findings)):
            print(f"{path}: the annotations change what is found; place them by hand")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
