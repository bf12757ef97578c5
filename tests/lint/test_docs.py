from __future__ import annotations

from pathlib import Path

import pytest

from tfcompat_gpu.lint import docs
from tfcompat_gpu.lint.registry import RULES, RULES_BY_CODE

ROOT = Path(__file__).resolve().parents[2]


def test_rules_md_is_up_to_date() -> None:
    committed = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert committed == docs.rules_markdown() + "\n", (
        "docs/rules.md is stale: run python -m tfcompat_gpu.lint.docs"
    )


def test_readme_span_is_up_to_date() -> None:
    readme = ROOT / "README.md"
    if not readme.exists() or docs.README_START not in readme.read_text(encoding="utf-8"):
        pytest.skip("README.md has no lint span yet")
    text = readme.read_text(encoding="utf-8")
    assert docs.readme_span() in text


def test_docs_check_mode(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text(
        f"# x\n\n{docs.README_START}\nold\n{docs.README_END}\ntail\n"
    )
    assert docs.main(["--root", str(tmp_path), "--check"]) == 1
    assert docs.main(["--root", str(tmp_path)]) == 0
    assert docs.main(["--root", str(tmp_path), "--check"]) == 0
    text = (tmp_path / "README.md").read_text()
    assert text.startswith("# x\n\n<!-- lint:start -->")
    assert text.endswith("<!-- lint:end -->\ntail\n")
    assert "tfcompat-gpu check --no-cache --format github" in text


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_rule_metadata(rule: object) -> None:
    r = RULES_BY_CODE[rule.code]  # type: ignore[attr-defined]
    assert r.code.startswith("TFG")
    assert len(r.code) == 6
    assert r.name == r.name.lower()
    assert " " not in r.name
    assert "_" not in r.name
    assert r.what
    assert r.why
    assert r.example
    assert r.use_instead
    assert "\n" not in r.message
    page = docs.rule_page(r)
    for section in ("What it does", "Why is this bad?", "Example", "Use instead"):
        assert f"### {section}" in page


def test_names_are_unique() -> None:
    assert len({r.name for r in RULES}) == len(RULES)
    assert [r.code for r in RULES] == sorted(r.code for r in RULES)


def test_every_rule_has_a_summary() -> None:
    assert all(r.summary and len(r.summary) < 90 for r in RULES)
