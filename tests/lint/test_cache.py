"""The findings cache of ``check``: only changed files are checked again; a damaged, foreign or
concurrent cache never changes a finding."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests._child import cli, start
from tfcompat_gpu.commands.check import main
from tfcompat_gpu.lint import engine

BAD = "import os\nos.environ['CUDA_VISIBLE_DEVCIES'] = '0'\n"
WARN = "import tensorflow as tf\ngpus = tf.config.experimental.list_physical_devices('GPU')\n"
CLEAN = "import tensorflow as tf\nprint(tf.__version__)\n"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "bad.py").write_text(BAD)
    (src / "warn.py").write_text(WARN)
    (src / "clean.py").write_text(CLEAN)
    (src / "torch_only.py").write_text("import torch\nprint(torch.cuda.is_available())\n")
    return src


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files each run really parsed and walked."""
    seen: list[str] = []
    real = engine._check_source

    def counting(data: bytes, path: str, target: object) -> object:
        seen.append(Path(path).name)
        return real(data, path, target)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "_check_source", counting)
    return seen


def run(tree: Path, cache: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    main(["check", "--isolated", "-j1", "--cache-dir", str(cache), *extra, str(tree)])
    return capsys.readouterr().out


def cache_files(cache: Path) -> list[Path]:
    return sorted(cache.glob("lint-*.json"))


def test_second_run_answers_from_cache_and_edits_are_seen(
    tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], checked: list[str]
) -> None:
    cache = tmp_path / "cache"
    first = run(tree, cache, capsys)
    assert sorted(checked) == ["bad.py", "clean.py", "warn.py"]  # torch_only: never parsed
    checked.clear()
    (written,) = cache_files(cache)
    stamp = written.stat().st_mtime_ns
    assert run(tree, cache, capsys) == first
    assert checked == []  # nothing changed: nothing parsed
    assert written.stat().st_mtime_ns == stamp  # and nothing written
    # Fix one file: only it is checked again, and only its findings change.
    (tree / "bad.py").write_text(BAD.replace("DEVCIES", "DEVICES"))
    third = run(tree, cache, capsys)
    assert checked == ["bad.py"]
    assert [line for line in first.splitlines() if "bad.py" not in line][:-1] == (
        third.splitlines()[:-1]
    )
    assert "bad.py" not in third
    assert "TFG003" in first


def test_cache_folder_is_json_with_its_own_gitignore(
    tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / ".tfcompat-gpu-cache"
    run(tree, cache, capsys)
    assert (cache / ".gitignore").read_text().splitlines()[-1] == "*"
    (written,) = cache_files(cache)
    data = json.loads(written.read_bytes())  # plain data, never pickle
    assert set(data) == {"format", "settings", "entries"}


def test_no_cache_neither_reads_nor_writes(
    tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    run(tree, cache, capsys, "--no-cache")
    assert not cache.exists()


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda text: text[: len(text) // 2], id="truncated"),
        pytest.param(lambda text: "", id="empty"),
        pytest.param(lambda text: "\x00" * 10, id="binary"),
        pytest.param(lambda text: text.replace('"TFG003"', '"TFG999"'), id="unknown-code"),
        pytest.param(
            lambda text: re.sub(r'\["TFG003",(\d+)', r'["TFG003","\1"', text), id="wrong-type"
        ),
        pytest.param(lambda text: "[" * 100000 + "]" * 100000, id="deep"),
    ],
)
def test_damaged_cache_is_ignored(
    tree: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    checked: list[str],
    damage: object,
) -> None:
    cache = tmp_path / "cache"
    first = run(tree, cache, capsys)
    (written,) = cache_files(cache)
    written.write_text(damage(written.read_text()))  # type: ignore[operator]
    checked.clear()
    assert run(tree, cache, capsys) == first
    assert sorted(checked) == ["bad.py", "clean.py", "warn.py"]  # all checked again
    json.loads(written.read_text())  # and a whole cache written in its place
    checked.clear()
    assert run(tree, cache, capsys) == first
    assert checked == []


def test_foreign_cache_cannot_hide_a_finding(
    tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A well-formed cache written by another version (or by hand) saying "no findings".
    cache = tmp_path / "cache"
    first = run(tree, cache, capsys)
    (written,) = cache_files(cache)
    data = json.loads(written.read_text())
    data["settings"] = "0" * 32
    data["entries"] = {key: [] for key in data["entries"]}
    written.write_text(json.dumps(data))
    assert run(tree, cache, capsys) == first


def test_two_runs_at_once(tree: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    for n in range(40):
        (tree / f"mod_{n}.py").write_text(WARN + f"x = {n}\n")
    args = ["check", "--isolated", "-j1", "--cache-dir", str(cache), str(tree)]
    expected = cli(*args[:-3], "--no-cache", str(tree)).stdout
    for _ in range(3):
        for stale in cache_files(cache):
            stale.unlink()
        runs = [start(["-m", "tfcompat_gpu", *args], stderr=None) for _ in "ab"]
        outs = [proc.communicate()[0] for proc in runs]
        assert outs == [expected, expected]
        (written,) = cache_files(cache)
        json.loads(written.read_text())  # whole, whichever run finished last
        assert not list(cache.glob("*.tmp"))
        again = cli(*args)
        assert again.stdout == expected


def test_same_file_in_tf1_and_tf2_sub_projects_keeps_each_folders_findings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], checked: list[str]
) -> None:
    # The target TensorFlow is decided per folder: one content, two targets, two entries.
    tree = tmp_path / "mono"
    session = "import tensorflow as tf\nsess = tf.Session()\n"
    for name, requirement in (("tf1", "tensorflow-gpu==1.15\n"), ("tf2", "tensorflow==2.15\n")):
        (tree / name).mkdir(parents=True)
        (tree / name / "requirements.txt").write_text(requirement)
        (tree / name / "train.py").write_text(session)
    cache = tmp_path / "cache"
    first = run(tree, cache, capsys)
    assert "tf2/train.py:2" in first
    assert "TFG009" in first
    assert "tf1/train.py" not in first
    checked.clear()
    assert run(tree, cache, capsys) == first
    assert checked == []
