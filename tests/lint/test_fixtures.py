from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.lint.helpers import FIXTURES, differences, expected, found
from tfcompat_gpu.lint.api import check
from tfcompat_gpu.lint.registry import RULES

FILES = sorted(FIXTURES.glob("*.py"))


def _differences(path: Path) -> list[str]:
    select, want = expected(path)
    return differences(want, found(check([str(path)], select=select).findings))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_fixture(path: Path) -> None:
    wrong = _differences(path)
    assert not wrong, "pinned (-) and found (+) differ:\n" + "\n".join(wrong)


@pytest.mark.parametrize("rule", [r for r in RULES if r.scope != "runtime"], ids=lambda r: r.code)
def test_every_static_rule_has_a_fixture(rule: object) -> None:
    code = rule.code  # type: ignore[attr-defined]
    hits = [p for p in FILES if any(e.code == code for e in expected(p)[1])]
    assert hits, f"no fixture expects {code}"


def _edited(tmp_path: Path, old: str, new: str) -> Path:
    path = tmp_path / "tfg003_env_typo.py"
    shutil.copy(FIXTURES / path.name, path)
    text = path.read_text()
    assert text.count(old) == 1
    path.write_text(text.replace(old, new))
    return path


def test_a_fixture_pins_the_column(tmp_path: Path) -> None:
    path = _edited(tmp_path, "# expect: TFG003:20 ", "# expect: TFG003:21 ")
    assert [d[:13] for d in _differences(path)] == ["- 8:21 TFG003", "+ 8:20 TFG003"]


def test_a_fixture_pins_the_message(tmp_path: Path) -> None:
    path = _edited(tmp_path, "'TF_GPU_ALOCATOR' looks like", "'TF_GPU_ALOCATOR' seems like")
    assert [d[:13] for d in _differences(path)] == ["- 10:23 TFG00", "+ 10:23 TFG00"]


def test_a_fixture_pins_every_finding_once(tmp_path: Path) -> None:
    line = (FIXTURES / "tfg003_env_typo.py").read_text().splitlines()[4]
    code, _, pin = line.partition("  # expect: ")
    assert pin.startswith("TFG003:12 ")
    path = tmp_path / "fixture.py"
    path.write_text(f"import os\n{code}  # expect: {pin}  # expect: {pin}\n")
    assert _differences(path) == [f"- 2:12 TFG003 {pin[10:]}"]
    path.write_text(f"import os\n{code}\n")
    assert _differences(path) == [f"+ 2:12 TFG003 {pin[10:]}"]
