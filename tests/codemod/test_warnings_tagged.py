"""Every ``migrate`` warning ends with the construct that stopped it, in brackets.

The coverage benchmark counts warnings by that tag with its own regex; this runs the migration
over every before/after case, fixture and example script, with and without the upgrade
rewrites, and holds each warning to that regex.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import FIXTURES, LEGACY
from cases_keras1 import KERAS1_CASES
from cases_multigpu import CASES as MULTIGPU_CASES
from cases_rewrites import CASES as REWRITE_CASES
from cases_rewrites import NOOPS
from cases_upgrade import UPGRADE_CASES

from tests._child import ROOT
from tfcompat_gpu.codemod.api import migrate_source


def _bench_reason() -> re.Pattern[str]:
    spec = importlib.util.spec_from_file_location(
        "config_coverage_bench", ROOT / "bench" / "config_coverage_bench.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    reason: re.Pattern[str] = module._REASON
    return reason


REASON = _bench_reason()
SCRIPTS = Path(__file__).resolve().parent / "legacy_scripts"


def _sources() -> list[tuple[str, str, str]]:
    """(id, target, code) of every case and example file."""
    sources = [(f"rewrites-{i}", t, b) for i, t, b, _, _ in REWRITE_CASES]
    sources += [(f"noop-{i}-{t}", t, c) for i, c in NOOPS for t in ("facade", "tf2")]
    sources += [(f"multigpu-{i}", "facade", b) for i, b, _, _ in MULTIGPU_CASES]
    sources += [(f"upgrade-{i}", "facade", b) for i, b, _, _ in UPGRADE_CASES]
    sources += [(f"keras1-{i}", "facade", b) for i, b, _, _ in KERAS1_CASES]
    files = [*sorted(LEGACY.rglob("*.py")), *sorted(FIXTURES.glob("*.py"))]
    files += sorted(SCRIPTS.glob("*.py"))
    for path in files:
        name = path.relative_to(ROOT).as_posix()
        sources += [(f"{name}-{t}", t, path.read_text()) for t in ("facade", "tf2")]
    return sources


SOURCES = _sources()


def test_every_source_is_found() -> None:
    # none of the case lists and globs came up empty
    groups = ("rewrites-", "noop-", "multigpu-", "upgrade-", "keras1-", "legacy_examples/")
    groups += ("tests/codemod/fixtures/", "tests/codemod/legacy_scripts/")
    for group in groups:
        assert any(id.startswith(group) for id, _, _ in SOURCES), group


def untagged(code: str, target: str, upgrade: bool) -> list[str]:
    warnings = migrate_source(code, target=target, upgrade=upgrade).warnings  # type: ignore[arg-type]
    return [w for w in warnings if not w.endswith("]") or REASON.search(w) is None]


@pytest.mark.parametrize("upgrade", [False, True], ids=["gpu-only", "upgrade"])
@pytest.mark.parametrize(("target", "code"), [pytest.param(t, c, id=i) for i, t, c in SOURCES])
def test_every_warning_ends_with_its_construct(target: str, code: str, upgrade: bool) -> None:
    assert untagged(code, target, upgrade) == []


def test_the_check_sees_an_untagged_warning() -> None:
    assert REASON.search("3: ConfigProto left unchanged: built in a loop [loop]")
    assert not REASON.search("3: ConfigProto left unchanged: built in a loop")
    assert not REASON.search("3: ConfigProto left unchanged: read as config[0] [x]]")
