"""Reading fixture files: ``# select: CODES`` on the first line, ``# expect: CODES`` on lines."""

from __future__ import annotations

import re
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
_EXPECT = re.compile(r"#\s*expect:\s*([A-Z0-9, ]+)")
_SELECT = re.compile(r"#\s*select:\s*([A-Z0-9, ]+)")


def expected(path: Path) -> tuple[list[str], set[tuple[int, str]]]:
    """The fixture's selection and its expected ``(line, code)`` pairs."""
    lines = path.read_text(encoding="utf-8").splitlines()
    select = ["TFG"]
    match = _SELECT.search(lines[0]) if lines else None
    if match:
        select = [c.strip() for c in match.group(1).split(",") if c.strip()]
    pairs = set()
    for number, line in enumerate(lines, 1):
        found = _EXPECT.search(line)
        if found:
            pairs |= {(number, c.strip()) for c in found.group(1).split(",") if c.strip()}
    return select, pairs
