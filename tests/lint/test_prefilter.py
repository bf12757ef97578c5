"""The text test before parsing: derived from the registrations, and never hides a finding."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tfcompat_gpu.lint import engine, prefilter
from tfcompat_gpu.lint.dispatch import NODE_HANDLERS, on_node
from tfcompat_gpu.lint.engine import check_bytes
from tfcompat_gpu.lint.registry import RULES

FIXTURES = sorted((Path(__file__).parent / "fixtures").glob("*.py"))
LEGACY = sorted((Path(__file__).parents[2] / "legacy_examples").rglob("*.py"))


def test_every_callback_declares_its_words() -> None:
    # A new rule's node, reference or end callback must say which words it needs in
    # lint/prefilter.py HANDLER_WORDS; until it does, every file is parsed.
    assert prefilter.undeclared_handlers() == []
    assert prefilter.words() is not None


def test_call_and_keyword_words_come_from_the_tables() -> None:
    found = prefilter.words()
    assert found is not None
    assert {"tensorflow", "keras", "environ", "getenv", "env"} <= found
    assert "os" not in found  # most files import os: the attribute after it decides


def test_an_undeclared_callback_turns_the_test_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(NODE_HANDLERS, ast.Lambda, list(NODE_HANDLERS.get(ast.Lambda, [])))

    @on_node(ast.Lambda)
    def _new_rule(ctx: object, node: ast.Lambda) -> None:
        pass

    assert prefilter.undeclared_handlers() == [f"{__name__}.{_new_rule.__qualname__}"]
    assert prefilter.words() is None


@pytest.mark.parametrize("path", [*FIXTURES, *LEGACY], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_filter_never_hides_a_finding(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = path.read_bytes()
    found = check_bytes(data, str(path))
    monkeypatch.setattr(engine, "may_trigger", lambda data: True)
    assert check_bytes(data, str(path)) == found


@pytest.mark.parametrize("rule", [r for r in RULES if r.code != "TFG000"], ids=lambda r: r.code)
def test_rule_examples_pass_the_filter(rule: object) -> None:
    # The documented example of every rule, with the imports such code carries.
    example = rule.example  # type: ignore[attr-defined]
    source = f"import os\nimport tensorflow as tf\n{example}\n"
    assert prefilter.may_trigger(source.encode())


@pytest.mark.parametrize(
    "source",
    [
        "import os\nimport torch\nprint(os.path.join('a', 'b'))\n",
        "import numpy as np\n\ndef f(x):\n    return np.sum(x)\n",
        "from subprocess import run\nrun(['ls'])\n",
    ],
)
def test_code_no_rule_is_about_is_not_parsed(source: str) -> None:
    assert not prefilter.may_trigger(source.encode())
