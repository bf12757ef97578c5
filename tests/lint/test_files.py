"""File discovery shared by ``check`` and ``migrate`` (``tfcompat_gpu.utils.files``)."""

from __future__ import annotations

import os
import pickle
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tfcompat_gpu.lint.api import check
from tfcompat_gpu.utils.files import iter_python_files

BAD = "import os\nos.environ['CUDA_VISIBLE_DEVCIES'] = '1'\n"


def _tree(root: Path, *rels: str) -> None:
    for rel in rels:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(BAD)


def _found(root: Path, exclude: tuple[str, ...] = ()) -> tuple[list[str], list[tuple[str, str]]]:
    problems: list[tuple[str, str]] = []
    files = iter_python_files([str(root)], exclude, lambda p, why: problems.append((p, why)))
    rels = [os.path.relpath(f, root).replace(os.sep, "/") for f in files]
    return rels, [(os.path.relpath(p, root), why) for p, why in problems]


def test_order_skips_and_excludes(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        "b.py",
        "a.py",
        "notes.txt",
        "pkg/z.py",
        "pkg/legacy/old.py",
        ".tox/t.py",
        "build/lib/c.py",
        "env1/lib/d.py",
        "x.egg-info/e.py",
    )
    (tmp_path / "env1" / "pyvenv.cfg").write_text("home = /usr\n")
    files, problems = _found(tmp_path, ("pkg/legacy/*",))
    assert files == ["a.py", "b.py", "pkg/z.py"]
    assert problems == []


def test_explicit_file_is_yielded_even_in_a_skipped_folder(tmp_path: Path) -> None:
    _tree(tmp_path, "build/c.py")
    path = str(tmp_path / "build" / "c.py")
    assert list(iter_python_files([path])) == [path]
    assert list(iter_python_files([path], ["c.py"])) == []


def test_fifo_under_a_directory_is_reported_not_yielded(tmp_path: Path) -> None:
    _tree(tmp_path, "a.py")
    os.mkfifo(tmp_path / "pipe.py")
    files, problems = _found(tmp_path)
    assert files == ["a.py"]
    assert problems == [("pipe.py", "not a regular file")]
    # The lint reports it and never blocks on opening it.
    found = [(Path(f.path).name, f.code) for f in check([str(tmp_path)]).findings]
    assert sorted(found) == [("a.py", "TFG003"), ("pipe.py", "TFG000")]


def _unprivileged(func: Callable[[], object]) -> object:
    """``func()`` in a forked child that reads files as an ordinary user (root reads any)."""
    if os.geteuid() != 0:
        return func()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (child)
        try:
            os.setgid(65534)
            os.setuid(65534)
            os.write(write, pickle.dumps(func()))
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as handle:
        data = handle.read()
    os.waitpid(pid, 0)
    return pickle.loads(data)


@pytest.fixture
def shared_tmp() -> Iterator[Path]:
    # A folder an ordinary user can reach (pytest's own is private to root).
    path = Path(tempfile.mkdtemp())
    path.chmod(0o755)
    yield path
    for sub in [path, *path.rglob("*")]:
        if sub.is_dir():
            sub.chmod(0o755)
    shutil.rmtree(path)


def test_unreadable_directory_is_reported(shared_tmp: Path) -> None:
    _tree(shared_tmp, "top/a.py", "top/sub/b.py")
    (shared_tmp / "top" / "sub").chmod(0)
    files, problems = _unprivileged(lambda: _found(shared_tmp / "top"))  # type: ignore[misc]
    assert files == ["a.py"]
    assert problems == [("sub", "cannot read directory: Permission denied")]
    # A directory named on the command line that cannot be read is reported, not skipped.
    (shared_tmp / "top").chmod(0)
    found = _unprivileged(
        lambda: [(f.code, f.message) for f in check([str(shared_tmp / "top")]).findings]
    )
    assert found == [
        ("TFG000", "cannot read directory: Permission denied; its files were not checked")
    ]
