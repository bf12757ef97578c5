"""Every ``tfcompat-gpu`` command speaks the same way (docs/cli.md): its own errors read
``tfcompat-gpu COMMAND: error: ...`` on stderr, usage errors come after argparse's ``usage:``
line, and the exit status is 0 done, 1 findings, 2 usage or input error."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests._child import cli
from tfcompat_gpu.cli import main
from tfcompat_gpu.utils.words import plural

LEGACY = (
    "import tensorflow as tf\n"
    "config = tf.ConfigProto()\n"
    "config.gpu_options.allow_growth = True\n"
    "sess = tf.Session(config=config)\n"
)

USAGE, INPUT = "usage", "input"

# (argv, exit status, what stderr ends with: a usage error or an input error, its prefix)
ERRORS = [
    ([], USAGE, "tfcompat-gpu: error: the following arguments are required: COMMAND"),
    (["nosuch"], USAGE, "tfcompat-gpu: error: unknown command 'nosuch'"),
    (["check", "--bogus"], USAGE, "tfcompat-gpu check: error: unrecognized arguments: --bogus"),
    (["check", "-j", "x", "ok.py"], USAGE, "tfcompat-gpu check: error: argument -j/--jobs"),
    (["check", "-j", "-3", "ok.py"], USAGE, "tfcompat-gpu check: error: argument -j/--jobs"),
    (["check", "--select", "", "ok.py"], INPUT, "tfcompat-gpu check: error: Expected at least"),
    (["check", "--select", ",,", "ok.py"], INPUT, "tfcompat-gpu check: error: Expected at least"),
    (["check", "missing.py"], INPUT, "tfcompat-gpu check: error: no such file or directory"),
    (["check", "--config", "missing.toml", "ok.py"], INPUT, "tfcompat-gpu check: error: "),
    (["check", "--config", "bad.toml", "ok.py"], INPUT, "tfcompat-gpu check: error: bad.toml: "),
    (["rules", "--format", "xml"], USAGE, "tfcompat-gpu rules: error: argument --format"),
    (["explain"], USAGE, "tfcompat-gpu explain: error: the following arguments are required"),
    (["explain", "TFG999"], INPUT, "tfcompat-gpu explain: error: unknown rule 'TFG999'"),
    (["migrate"], USAGE, "tfcompat-gpu migrate: error: the following arguments are required"),
    (["migrate", "-j", "-1", "ok.py"], USAGE, "tfcompat-gpu migrate: error: argument -j/--jobs"),
    (["migrate", "missing.py"], INPUT, "tfcompat-gpu migrate: error: no such file or directory"),
    (["env", "--bogus"], USAGE, "tfcompat-gpu env: error: unrecognized arguments: --bogus"),
    (["plan", "--gpus", "x"], USAGE, "tfcompat-gpu plan: error: argument --gpus"),
    (["plan", "--gpu-memory", "1G"], INPUT, "tfcompat-gpu plan: error: --gpu-memory"),
    (["plan", "--gpus", "1", "--config", "missing.ini"], INPUT, "tfcompat-gpu plan: error: "),
    (["plan", "--gpus", "1", "--config", "broken.ini"], INPUT, "tfcompat-gpu plan: error: "),
    (["run"], USAGE, "tfcompat-gpu run: error: the following arguments are required"),
    (["run", "--bogus", "ok.py"], USAGE, "tfcompat-gpu run: error: unrecognized arguments"),
    (["run", "missing.py"], INPUT, "tfcompat-gpu run: error: can't open file 'missing.py'"),
    (["run", "--memory-fraction", "lots", "ok.py"], INPUT, "tfcompat-gpu run: error: "),
    (["run", "--config", "missing.ini", "ok.py"], INPUT, "tfcompat-gpu run: error: "),
    (["run", "--config", "broken.ini", "ok.py"], INPUT, "tfcompat-gpu run: error: broken.ini:1: "),
]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ok.py").write_text("x = 1\n")
    (tmp_path / "legacy.py").write_text(LEGACY)
    (tmp_path / "bad.toml").write_text("[tool.tfcompat-gpu.lint]\nbogus = 1\n")
    (tmp_path / "broken.ini").write_text("[gpu\n")
    return tmp_path


def _ids(rows: list[tuple[list[str], str, str]]) -> list[str]:
    return [" ".join(argv) or "(nothing)" for argv, _, _ in rows]


@pytest.mark.parametrize(("argv", "kind", "prefix"), ERRORS, ids=_ids(ERRORS))
def test_errors_have_one_prefix_and_exit_2(
    argv: list[str], kind: str, prefix: str, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    # the error is the last line, and one line: what a CI log shows last
    assert lines[-1].startswith(prefix), err
    if kind == USAGE:
        assert lines[0].startswith("usage: tfcompat-gpu"), err
    else:
        assert lines == [lines[-1]], err


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "--no-cache", "legacy.py"],
        ["migrate", "--check", "--no-cache", "legacy.py"],
        ["migrate", "--no-cache", "bad.py"],
    ],
    ids=["check-finds", "migrate-check-would-change", "migrate-skips-a-file"],
)
def test_findings_exit_1(argv: list[str], folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("libcst")
    (folder / "bad.py").write_text("x = (\n")
    assert main(argv) == 1
    assert "error:" not in capsys.readouterr().err


@pytest.mark.parametrize("command", ["run", "check", "rules", "explain", "migrate", "env", "plan"])
def test_help_exits_0_on_stdout(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, "--help"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith(f"usage: tfcompat-gpu {command}")
    assert err == ""


def test_counts_are_words_not_file_s(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--no-cache", "ok.py"]) == 0
    assert capsys.readouterr().out == "All checks passed (1 file).\n"
    assert main(["check", "--no-cache", "--select", "TFG", "ok.py", "legacy.py"]) == 1
    assert capsys.readouterr().out.splitlines()[-1].endswith(" in 2 files.")
    pytest.importorskip("libcst")
    assert main(["migrate", "--write", "--no-cache", "legacy.py", "ok.py"]) == 0
    summary = capsys.readouterr().err.splitlines()[-1]
    assert summary.startswith("tfcompat-gpu migrate: 1 of 2 files changed, "), summary
    assert "(s)" not in summary


def test_plural() -> None:
    assert [plural(n, "file") for n in (0, 1, 2)] == ["0 files", "1 file", "2 files"]
    assert plural(2, "process", "processes") == "2 processes"


@pytest.mark.parametrize(
    ("argv", "status", "prefix"),
    [
        ([], 2, "tfcompat-gpu: error: "),
        (["check", "missing.py"], 2, "tfcompat-gpu check: error: "),
        (["migrate", "missing.py"], 2, "tfcompat-gpu migrate: error: "),
        (["run", "missing.py"], 2, "tfcompat-gpu run: error: "),
        (["env", "--bogus"], 2, "tfcompat-gpu env: error: "),
        (["run", "exit3.py"], 3, ""),
    ],
    ids=["no-command", "check", "migrate", "run", "env", "run-keeps-the-script-status"],
)
def test_the_program_exits_with_the_status(
    argv: list[str], status: int, prefix: str, tmp_path: Path
) -> None:
    (tmp_path / "exit3.py").write_text("import sys\nsys.exit(3)\n")
    done = cli(*argv, cwd=tmp_path, timeout=120)
    assert done.returncode == status, done.stderr
    assert done.stdout == ""
    if prefix:
        assert done.stderr.splitlines()[-1].startswith(prefix), done.stderr
    else:
        assert done.stderr == ""
