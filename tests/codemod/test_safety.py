"""``migrate --write`` never loses a byte: failed writes, read-only files, FIFOs, links, encodings."""

from __future__ import annotations

import codecs
import io
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import SAMPLE_LEGACY as LEGACY
from _support import SAMPLE_MIGRATED as MIGRATED

from tests._child import cli
from tfcompat_gpu.codemod._io import Skip, read_source, write_source
from tfcompat_gpu.commands.migrate import main


def _cli(
    *args: str, cwd: Path, preexec: object = None, timeout: float = 120
) -> subprocess.CompletedProcess[bytes]:
    return cli("migrate", *args, cwd=cwd, timeout=timeout, text=False, preexec_fn=preexec)


def test_a_failed_write_leaves_the_original_whole(tmp_path: Path) -> None:
    # A file-size limit makes the write fail part-way, as a full disk does.
    original = LEGACY + "".join(f"# line {i} of a long comment block\n" for i in range(80))
    (tmp_path / "big.py").write_text(original)
    (tmp_path / "small.py").write_text(LEGACY)
    limit = len(original.encode()) - 200

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    done = _cli("--write", "-j", "1", ".", cwd=tmp_path, preexec=small_files)
    err = done.stderr.decode()
    assert "Traceback" not in err
    assert "big.py: skipped: cannot write it" in err
    assert done.returncode == 1
    assert (tmp_path / "big.py").read_text() == original
    # the run went on with the next file
    assert (tmp_path / "small.py").read_text() == MIGRATED
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.py", "small.py"]


@pytest.mark.parametrize("where", ["file", "folder"])
def test_read_only_is_skipped_even_as_root(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    target = locked / "a.py"
    target.write_text(LEGACY)
    (tmp_path / "z.py").write_text(LEGACY)
    if where == "file":
        target.chmod(0o444)
    else:
        locked.chmod(0o555)
    try:
        assert main(["migrate", "--write", "-j", "1", str(tmp_path)]) == 1
        err = capsys.readouterr().err
        assert (
            f"{target}: skipped: {'the file' if where == 'file' else 'its folder'} is read-only"
            in err
        )
        # the summary counts only the file really rewritten
        assert "migrate: 1 of 2 files changed" in err
        assert target.read_text() == LEGACY
        assert (tmp_path / "z.py").read_text() == MIGRATED
    finally:
        locked.chmod(0o755)
        target.chmod(0o644)


def test_a_file_changed_between_read_and_write_is_left_as_the_user_saved_it(
    tmp_path: Path,
) -> None:
    target = tmp_path / "a.py"
    target.write_text(LEGACY)
    source = read_source(str(target))
    saved = LEGACY + "x = 1  # saved in the editor meanwhile\n"
    target.write_text(saved)
    with pytest.raises(Skip, match="it changed while it was being migrated"):
        write_source(source, source.encode(MIGRATED))
    assert target.read_text() == saved
    assert [p.name for p in tmp_path.iterdir()] == ["a.py"]  # no temporary file left


def test_mode_is_kept(tmp_path: Path) -> None:
    script = tmp_path / "run.py"
    script.write_text(LEGACY)
    script.chmod(0o750)
    assert main(["migrate", "--write", str(script)]) == 0
    assert stat.S_IMODE(script.stat().st_mode) == 0o750
    assert script.read_text() == MIGRATED


def test_a_fifo_never_hangs_the_run(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "train.py").write_text(LEGACY)
    for args in ([".", "--write"], ["pipe.py", "train.py", "--write"]):
        done = _cli(*args, cwd=tmp_path, timeout=60)
        assert "pipe.py: skipped: not a regular file" in done.stderr.decode()
        assert done.returncode == 1
    assert (tmp_path / "train.py").read_text() == MIGRATED


def test_folders_check_skips_are_skipped(tmp_path: Path) -> None:
    (tmp_path / "env").mkdir()
    (tmp_path / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (tmp_path / "env" / "lib.py").write_text(LEGACY)
    (tmp_path / "build" / "lib").mkdir(parents=True)
    (tmp_path / "build" / "lib" / "train.py").write_text(LEGACY)
    (tmp_path / "src.py").write_text(LEGACY)
    assert main(["migrate", "--write", str(tmp_path)]) == 0
    assert (tmp_path / "env" / "lib.py").read_text() == LEGACY
    assert (tmp_path / "build" / "lib" / "train.py").read_text() == LEGACY
    assert (tmp_path / "src.py").read_text() == MIGRATED


def test_links_outside_the_tree_are_not_written_through(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "outside.py"
    outside.write_text(LEGACY)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "link.py").symlink_to(outside)
    (tree / "real.py").write_text(LEGACY)
    (tree / "alias.py").symlink_to(tree / "real.py")
    assert main(["migrate", "--write", str(tree)]) == 0
    err = capsys.readouterr().err
    assert f"{tree / 'link.py'}: note: skipped, a symbolic link to {outside}" in err
    assert outside.read_text() == LEGACY
    # a link inside the tree: its target is migrated once, and both stay what they were
    assert (tree / "real.py").read_text() == MIGRATED
    assert (tree / "alias.py").is_symlink()
    assert err.count("migrated") == 1


def _round_trip(tmp_path: Path, data: bytes) -> bytes:
    path = tmp_path / "f.py"
    path.write_bytes(data)
    assert main(["migrate", "--write", str(path)]) == 0
    return path.read_bytes()


def test_crlf_stays_crlf(tmp_path: Path) -> None:
    got = _round_trip(tmp_path, LEGACY.replace("\n", "\r\n").encode())
    assert got == MIGRATED.replace("\n", "\r\n").encode()


def test_bom_is_kept(tmp_path: Path) -> None:
    got = _round_trip(tmp_path, codecs.BOM_UTF8 + LEGACY.encode())
    assert got == codecs.BOM_UTF8 + MIGRATED.encode()


def test_declared_latin1_is_read_and_written_as_latin1(tmp_path: Path) -> None:
    cookie = "# -*- coding: latin-1 -*-\n# réglage du GPU\n"
    got = _round_trip(tmp_path, (cookie + LEGACY).encode("latin-1"))
    assert got == (cookie + MIGRATED).encode("latin-1")


def test_the_diff_applies_with_git_apply(tmp_path: Path) -> None:
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed")
    files = {
        "a_no_final_newline.py": LEGACY.rstrip("\n").encode(),
        "b_crlf.py": LEGACY.replace("\n", "\r\n").encode(),
        "c_latin1.py": ("# coding: latin-1\n# é\n" + LEGACY).encode("latin-1"),
        "d_bom.py": codecs.BOM_UTF8 + LEGACY.encode(),
        "e_form_feed.py": ("\x0c\n" + LEGACY).encode(),
    }
    diffed, written = tmp_path / "diffed", tmp_path / "written"
    for folder in (diffed, written):
        folder.mkdir()
        for name, data in files.items():
            (folder / name).write_bytes(data)
    done = _cli(".", cwd=diffed)
    assert done.returncode == 0, done.stderr
    assert b"\\ No newline at end of file" in done.stdout
    subprocess.run([git, "init", "-q"], cwd=diffed, check=True)
    (tmp_path / "patch.diff").write_bytes(done.stdout)
    applied = subprocess.run(
        [git, "apply", "--verbose", str(tmp_path / "patch.diff")],
        cwd=diffed,
        capture_output=True,
        text=True,
        check=False,
    )
    assert applied.returncode == 0, applied.stderr
    assert _cli("--write", ".", cwd=written).returncode == 0
    for name in files:
        assert (diffed / name).read_bytes() == (written / name).read_bytes(), name
        compile((written / name).read_bytes(), name, "exec")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for n in range(3):
        (tmp_path / f"t{n}.py").write_text(LEGACY)
    assert main(["migrate", "--check", str(tmp_path)]) == 1
    assert "files" not in capsys.readouterr().err
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["migrate", "--check", str(tmp_path)]) == 1
    shown = terminal.getvalue()
    assert "] 3/3 files" in shown
    assert f"{tmp_path / 't0.py'}: would be migrated" in shown


def test_workers_give_what_one_process_gives(tmp_path: Path) -> None:
    for n in range(12):
        body = LEGACY if n % 3 else "print('nothing to do')\n"
        (tmp_path / f"m{n:02d}.py").write_text(body)
    one = _cli(".", "-j", "1", cwd=tmp_path)
    two = _cli(".", "-j", "2", cwd=tmp_path)
    assert one.returncode == two.returncode == 0
    assert one.stdout == two.stdout
    assert one.stdout.count(b"+++ b/") == 8
