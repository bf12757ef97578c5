"""Every output that prints a file name escapes it the same way; a closed pipe is no traceback.

File names here are real bytes on disk that are not UTF-8 (``os.fsdecode`` turns them into lone
surrogates), with a control character, or plain non-ASCII (left as is).
"""

from __future__ import annotations

import json
import os

import pytest

from tests._child import ROOT, cli, start
from tfcompat_gpu.lint.formats import FORMATS, render
from tfcompat_gpu.lint.report import Finding, Report
from tfcompat_gpu.utils.shown import shown, uri_path

SOURCE = (
    "import tensorflow as tf\n"
    "config = tf.compat.v1.ConfigProto()\n"
    "config.gpu_options.per_process_gpu_memory_fraction = 1.5\n"
)
NAMES = {
    "latin1-byte": (b"caf\xe9.py", "caf\\xe9.py", "caf%E9.py"),
    "invalid-utf8": (b"bad\xff\xfename.py", "bad\\xff\\xfename.py", "bad%FF%FEname.py"),
    "tab": (b"a\tb.py", "a\\tb.py", "a%09b.py"),
    "utf8": ("caf\u00e9.py".encode(), "caf\u00e9.py", "caf%C3%A9.py"),
}


@pytest.fixture(params=NAMES.values(), ids=NAMES.keys())
def named(request, tmp_path):
    raw, text, uri = request.param
    (tmp_path / os.fsdecode(raw)).write_bytes(SOURCE.encode())
    return tmp_path, text, uri


def _check(fmt: str, where) -> bytes:  # type: ignore[no-untyped-def]
    proc = cli("check", "--format", fmt, ".", cwd=where, timeout=120, text=False)
    assert b"Traceback" not in proc.stderr
    assert b"internal error" not in proc.stderr, proc.stderr
    assert proc.returncode == 1, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_each_format_prints_a_strange_file_name_as_valid_utf8(named, fmt):
    where, text, uri = named
    raw = _check(fmt, where)
    try:
        out = raw.decode("utf-8")  # strict: an undecodable byte would fail here
    except UnicodeDecodeError:
        pytest.fail(f"not UTF-8: {raw[:300]!r}")
    if fmt == "sarif":
        data = json.loads(out)
        (result,) = data["runs"][0]["results"]
        assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == uri
    elif fmt == "json":
        (finding,) = json.loads(out)
        # ascii(): a failure report holding a lone surrogate could not be sent between workers
        assert ascii(finding["path"]) == ascii(f"./{text}")
    else:
        assert f"{text}:3:" in out if fmt == "text" else f"file=./{text}," in out
    assert "\\udc" not in out


def test_one_escaping_for_every_format():
    finding = Finding(
        "TFG010", "n", "m in bad\udcffname.py", "bad\udcffname.py", 1, 1, "warning", ""
    )
    report = Report([finding], 1)
    for fmt in ("text", "json", "github"):
        out = render(report, fmt)
        _has(out, "bad\\xffname.py", fmt)
        ok = "\udcff" not in out
        assert ok, ascii(out)
    _has(render(report, "sarif"), "bad%FFname.py", "sarif")


def _has(text: str, part: str, label: str) -> None:
    # ascii(): a failure report holding a lone surrogate could not be sent between workers
    found = part in text.replace("\\\\", "\\")
    assert found, f"{label}: {part!r} not in {text!a}"


def test_the_escapes_themselves():
    assert shown("a\udcffb\nc\x1bd") == "a\\xffb\\nc\\x1bd"
    assert shown("plain/caf\u00e9.py") == "plain/caf\u00e9.py"
    assert uri_path("dir/a b\udcff.py") == "dir/a%20b%FF.py"


def test_a_settings_file_with_a_strange_name_is_named_in_the_error(tmp_path):
    from tfcompat_gpu import GPUConfig, GPUConfigError

    path = tmp_path / os.fsdecode(b"gpu\xff.ini")
    path.write_text("[gpu]\nrate = x\n", encoding="utf-8")
    with pytest.raises(GPUConfigError) as caught:
        GPUConfig.from_file(path)
    message = str(caught.value)
    _has(message, "gpu\\xff.ini:2", "settings")


# -- a reader that goes away ---------------------------------------------------------------------


@pytest.mark.tf
@pytest.mark.parametrize(
    "args", [["plan", "--gpus", "2"], ["plan", "--gpus", "2", "--format", "json"], ["env"]]
)
def test_a_closed_pipe_ends_the_command_quietly(args):
    # The reader closes before the command writes (as `| head -2` does once it has its lines).
    proc = start(["-m", "tfcompat_gpu", *args], cwd=ROOT, text=False)
    assert proc.stdout is not None
    proc.stdout.close()
    _, err = proc.communicate(timeout=300)
    assert b"Traceback" not in err, err.decode(errors="replace")
    assert b"BrokenPipeError" not in err
    assert proc.returncode == 1
