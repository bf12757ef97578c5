"""Inputs a user's world hands the lint: encodings, broken pipes, odd paths, loose arguments."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests._child import cli
from tfcompat_gpu.commands.check import main
from tfcompat_gpu.lint.api import check

BAD = "import os\nos.environ['CUDA_VISIBLE_DEVCIES'] = '0'\n"


def test_pyproject_not_utf8_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pyproject.toml").write_bytes(
        b'[tool.tfcompat-gpu.lint]\n# caf\xe9\nignore = ["TFG003"]\n'
    )
    (tmp_path / "bad.py").write_text(BAD)
    assert main(["check", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "pyproject.toml" in err
    assert "UTF-8" in err


def test_pyproject_without_lint_table_may_be_any_encoding(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_bytes(b"[project]\nname = 'caf\xe9'\n")
    (tmp_path / "bad.py").write_text(BAD)
    assert [f.code for f in check([str(tmp_path)]).findings] == ["TFG003"]


def test_broken_pipe_keeps_the_findings_status(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text(BAD)
    read, write = os.pipe()
    os.close(read)  # the reader (`| head`) is gone before anything is written
    try:
        proc = cli("check", "--isolated", str(tmp_path), stdout=write, stderr=subprocess.PIPE)
    finally:
        os.close(write)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "BrokenPipe" not in proc.stderr


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"# -*- coding: latin-1 -*-\nname = 'caf\xe9'\n", "TFG003"),
        (b"#!/usr/bin/env python\n# vim: set fileencoding=iso-8859-15 :\nx = '\xa4'\n", "TFG003"),
        (b"# coding: cp1252\nx = '\x80'\n", "TFG003"),
        (b"\xef\xbb\xbfx = 'caf\xc3\xa9'\n", "TFG003"),
        (b"x = 'caf\xe9'\n", "TFG000"),
        (b"# coding: no-such-codec\nx = 1\n", "TFG000"),
    ],
    ids=["latin1-cookie", "vim-cookie-line2", "cp1252", "utf8-bom", "latin1-no-cookie", "unknown"],
)
def test_source_encoding_as_python_reads_it(tmp_path: Path, data: bytes, expected: str) -> None:
    path = tmp_path / "f.py"
    path.write_bytes(data + BAD.encode())
    codes = [f.code for f in check([str(path)]).findings]
    assert codes[0] == expected, check([str(path)]).findings
    if expected == "TFG003":
        assert codes == ["TFG003"]
    compiled = True
    try:
        compile(path.read_bytes(), str(path), "exec")
    except SyntaxError:
        compiled = False
    assert compiled == (expected != "TFG000")  # exactly the files Python itself accepts


@pytest.mark.parametrize(
    ("name", "uri"),
    [
        ("my file.py", "my%20file.py"),
        ("caf\u00e9.py", "caf%C3%A9.py"),
        ("100%.py", "100%25.py"),
        ("sub dir/a#b.py", "sub%20dir/a%23b.py"),
    ],
)
def test_sarif_uris_are_percent_encoded(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    uri: str,
) -> None:
    (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / name).write_text(BAD)
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--isolated", "--format", "sarif", "."]) == 1
    log = json.loads(capsys.readouterr().out)
    location = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": uri, "uriBaseId": "%SRCROOT%"}


def test_sarif_uri_outside_the_source_root_is_a_file_uri(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "other dir").mkdir()
    (tmp_path / "other dir" / "x.py").write_text(BAD)
    monkeypatch.chdir(tmp_path / "src")
    main(["check", "--isolated", "--format", "sarif", str(tmp_path / "other dir")])
    log = json.loads(capsys.readouterr().out)
    location = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    expected = (tmp_path / "other dir" / "x.py").as_uri()
    assert location["artifactLocation"] == {"uri": expected}


def test_select_and_ignore_accept_a_string(tmp_path: Path) -> None:
    path = tmp_path / "f.py"
    path.write_text(
        BAD + "import tensorflow as tf\ntf.config.experimental.list_physical_devices()\n"
    )
    assert [f.code for f in check([str(path)], select="TFG003").findings] == ["TFG003"]
    assert [f.code for f in check([str(path)], select="TFG003, TFG013").findings] == [
        "TFG003",
        "TFG013",
    ]
    assert [f.code for f in check([str(path)], ignore="TFG003").findings] == ["TFG013"]
    with pytest.raises(TypeError, match="Expected rule codes"):
        check([str(path)], select=[3])  # type: ignore[list-item]
