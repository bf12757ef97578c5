from __future__ import annotations

from pathlib import Path

import pytest

from tests.lint.helpers import FIXTURES, expected
from tfcompat_gpu.lint.api import check
from tfcompat_gpu.lint.registry import RULES

FILES = sorted(FIXTURES.glob("*.py"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_fixture(path: Path) -> None:
    select, want = expected(path)
    report = check([str(path)], select=select)
    got = {(f.line, f.code) for f in report.findings}
    assert got == want, "\n" + str(report)


@pytest.mark.parametrize("rule", [r for r in RULES if r.scope != "runtime"], ids=lambda r: r.code)
def test_every_static_rule_has_a_fixture(rule: object) -> None:
    code = rule.code  # type: ignore[attr-defined]
    hits = [p for p in FILES if code in expected(p)[1].__repr__()]
    assert hits, f"no fixture expects {code}"
