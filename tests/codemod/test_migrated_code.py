"""Migrated code runs under TensorFlow 2 and is clean under ``tfcompat-gpu check``.

Each script runs in its own interpreter (GPU configuration is process-wide); they import
TensorFlow, so these tests take a few seconds each.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import FIXTURES, LEGACY, migrate_cli, run_script
from cases_rewrites import CASES

from tfcompat_gpu.codemod.api import migrate_source

# rules the migration addresses: assignments to tf.config functions, TF1-only names
# (ConfigProto, Session, set_session, keras.backend.tensorflow_backend), deprecated names
ADDRESSED = ("TFG001", "TFG009", "TFG013")
TF2_TARGET = {"tf2_target_session.py"}
_FIXTURES = sorted(FIXTURES.glob("*.py"))
_LEGACY = sorted(LEGACY.glob("*.py")) if LEGACY.is_dir() else []


def _migrate_copy(source: Path, tmp_path: Path, target: str = "facade") -> Path:
    copy = tmp_path / source.name
    shutil.copy(source, copy)
    done = migrate_cli("--write", "--target", target, str(copy))
    assert done.returncode == 0, done.stderr
    # everything in these scripts is translatable: no warning may be printed
    assert ": ConfigProto left unchanged" not in done.stderr, done.stderr
    assert copy.read_text() != source.read_text()
    return copy


@pytest.mark.tf
@pytest.mark.parametrize("source", _FIXTURES, ids=[p.name for p in _FIXTURES])
def test_migrated_fixture_runs(source: Path, tmp_path: Path) -> None:
    pytest.importorskip("tensorflow")
    target = "tf2" if source.name in TF2_TARGET else "facade"
    copy = _migrate_copy(source, tmp_path, target)
    done = run_script(copy)
    assert done.returncode == 0, f"{copy.read_text()}\n{done.stderr[-3000:]}"
    assert "ok" in done.stdout


@pytest.mark.tf
@pytest.mark.parametrize("source", _LEGACY, ids=[p.name for p in _LEGACY])
def test_migrated_legacy_example_runs_and_is_clean(source: Path, tmp_path: Path) -> None:
    pytest.importorskip("tensorflow")
    from tfcompat_gpu.lint.api import check

    copy = _migrate_copy(source, tmp_path)
    assert not check([copy]).findings, str(check([copy]))
    done = run_script(copy)
    assert done.returncode == 0, f"{copy.read_text()}\n{done.stderr[-3000:]}"


@pytest.mark.parametrize("source", _FIXTURES, ids=[p.name for p in _FIXTURES])
def test_migrated_fixture_is_clean_under_check(source: Path, tmp_path: Path) -> None:
    from tfcompat_gpu.lint.api import check

    target = "tf2" if source.name in TF2_TARGET else "facade"
    copy = tmp_path / source.name
    copy.write_text(migrate_source(source.read_text(), target=target).code)  # type: ignore[arg-type]
    assert not check([copy]).findings, str(check([copy]))


_TRANSLATED = [(i, t, b) for i, t, b, _, w in CASES if not w]


@pytest.mark.parametrize(
    ("target", "before"), [pytest.param(t, b, id=i) for i, t, b in _TRANSLATED]
)
def test_translated_cases_leave_no_finding_of_the_addressed_rules(
    target: str, before: str, tmp_path: Path
) -> None:
    from tfcompat_gpu.lint.api import check

    path = tmp_path / "migrated.py"
    path.write_text(migrate_source(before, target=target).code)  # type: ignore[arg-type]
    assert not check([path], select=ADDRESSED).findings, str(check([path], select=ADDRESSED))
