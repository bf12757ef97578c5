"""The progress line of long runs: on a terminal only, never in pipes, CI or machine formats."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from tfcompat_gpu.commands import check as cli
from tfcompat_gpu.lint.progress import MIN_FILES, progress_line


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def big_tree(tmp_path: Path) -> Path:
    for n in range(MIN_FILES + 5):
        (tmp_path / f"m{n}.py").write_text("import tensorflow as tf\n" if n % 3 else "x = 1\n")
    return tmp_path


def test_progress_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    stream = Terminal()
    draw = progress_line(stream, "checked")
    assert draw is not None
    draw(1, MIN_FILES * 2)
    assert stream.getvalue() == f"\rchecked 1/{MIN_FILES * 2} files"
    draw(MIN_FILES * 2, MIN_FILES * 2)
    assert stream.getvalue().endswith("\r\x1b[K")  # erased at the end


@pytest.mark.parametrize(
    ("stream", "ci"),
    [(io.StringIO(), None), (Terminal(), "true")],
    ids=["piped", "ci"],
)
def test_no_progress_when_piped_or_in_ci(
    monkeypatch: pytest.MonkeyPatch, stream: io.StringIO, ci: str | None
) -> None:
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    assert progress_line(stream, "checked") is None


def test_small_runs_draw_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    stream = Terminal()
    draw = progress_line(stream, "checked")
    assert draw is not None
    for n in range(1, 11):
        draw(n, 10)
    assert stream.getvalue() == ""


@pytest.mark.parametrize(("fmt", "shown"), [("text", True), ("json", False), ("sarif", False)])
def test_check_shows_progress_in_text_format_only(
    big_tree: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    fmt: str,
    shown: bool,
) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    terminal = Terminal()
    monkeypatch.setattr(cli.sys, "stderr", terminal)
    cli.main(["check", "--isolated", "--no-cache", "-j1", "--format", fmt, str(big_tree)])
    capsys.readouterr()
    assert (f"/{MIN_FILES + 5} files" in terminal.getvalue()) is shown
    if shown:
        assert terminal.getvalue().endswith("\r\x1b[K")
