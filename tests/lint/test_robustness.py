from __future__ import annotations

import ast
import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tfcompat_gpu.lint.api import check
from tfcompat_gpu.lint.engine import MAX_BYTES, check_bytes


def only(report: object) -> tuple[str, str]:
    findings = report.findings  # type: ignore[attr-defined]
    assert len(findings) == 1, findings
    return findings[0].code, findings[0].message


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"print 'py2'\n", "syntax error"),
        (b"def f(:\n", "syntax error"),
        (b"x = '\xff\xfe'\n", "not valid UTF-8"),
        (b"x = 1\x00\n", "NUL byte"),
        (b"x = " + b"(" * 5000 + b")" * 5000 + b"\n", "nest"),
        (b"x = " + b"-" * 200000 + b"1\n", "nest"),
    ],
    ids=["python2", "broken", "latin1", "nul", "deep-parens", "deep-unary"],
)
def test_unparsable_files_are_tfg000(tmp_path: Path, content: bytes, reason: str) -> None:
    path = tmp_path / "f.py"
    # A file mentioning TensorFlow: one that names nothing a rule looks for is never parsed.
    path.write_bytes(b"# tensorflow\n" + content)
    (tmp_path / "ok.py").write_text("import os\nos.environ['CUDA_VISIBLE_DEVCIES'] = '1'\n")
    report = check([str(tmp_path)])
    # One TFG000 for the bad file, and the run went on to the next one.
    assert [(Path(f.path).name, f.code) for f in report.findings] == [
        ("f.py", "TFG000"),
        ("ok.py", "TFG003"),
    ]
    assert reason in report.findings[0].message


@pytest.mark.parametrize(
    ("content", "found"),
    [
        pytest.param(b"def f(:\n", [], id="no-rule-word-not-parsed"),
        pytest.param(b"x = '\xff\xfe'\n", ["TFG000"], id="still-decoded"),
        pytest.param(b"x = 1\x00\n", ["TFG000"], id="still-nul"),
    ],
)
def test_files_no_rule_can_concern_are_not_parsed(
    tmp_path: Path, content: bytes, found: list[str]
) -> None:
    path = tmp_path / "f.py"
    path.write_bytes(content)
    assert [f.code for f in check([str(path)]).findings] == found


def test_huge_file(tmp_path: Path) -> None:
    path = tmp_path / "big.py"
    path.write_bytes(b"x = 1\n" * (MAX_BYTES // 6 + 10))
    code, message = only(check([str(path)]))
    assert code == "TFG000"
    assert "larger than 5 MB" in message


def test_dangling_link_and_missing_file(tmp_path: Path) -> None:
    os.symlink(tmp_path / "nowhere.py", tmp_path / "link.py")
    code, message = only(check([str(tmp_path)]))
    assert code == "TFG000"
    assert "dangling" in message
    assert only(check([str(tmp_path / "missing.py")]))[1].startswith("no such file")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "secret.py"
    path.write_text("x = 1\n")
    path.chmod(0)
    assert only(check([str(path)]))[0] == "TFG000"


def test_skipped_directories(tmp_path: Path) -> None:
    bad = "import os\nos.environ['CUDA_VISIBLE_DEVCIES'] = '1'\n"
    for rel in (".git/a.py", "venv/b.py", "build/c.py", "env1/d.py", "x.egg-info/e.py", "src/f.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(bad)
    (tmp_path / "env1" / "pyvenv.cfg").write_text("home = /usr\n")
    os.symlink(tmp_path / "src", tmp_path / "loop")  # directory links are not followed
    assert [Path(f.path).name for f in check([str(tmp_path)]).findings] == ["f.py"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=400))
def test_arbitrary_text_never_crashes(text: str) -> None:
    for finding in check_bytes(text.encode("utf-8", "surrogatepass"), "t.py"):
        assert "internal error" not in finding.message


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_arbitrary_bytes_never_crash(data: bytes) -> None:
    for finding in check_bytes(data, "b.py"):
        assert "internal error" not in finding.message


_PIECES = st.sampled_from(
    [
        "import tensorflow as tf\n",
        "import os\n",
        "import keras.backend as K\n",
        "tf.config.experimental.set_memory_growth(gpus[0], True)\n",
        "os.environ['CUDA_VISIBLE_DEVICES'] = '1'\n",
        "with tf.device('/gpu:0,1'):\n    pass\n",
        "s = tf.Session(config=tf.ConfigProto(gpu_options=tf.GPUOptions(visible_device_list='1')))\n",
        "c = tf.compat.v1.ConfigProto()\nc.gpu_options.per_process_gpu_memory_fraction = 2\n",
        "for g in gpus:\n    tf.config.set_logical_device_configuration(g, [])\n",
        "def f():\n    tf.constant(1)\n",
        "x = [y for y in z]\n",
        "tf.config.x = 1\n",
        "lambda: tf.config.list_logical_devices()\n",
        "K.set_session(s)\n",
        "del os.environ['A']\n",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=12))
def test_arbitrary_gpu_code_never_crashes(pieces: list[str]) -> None:
    for finding in check_bytes("".join(pieces).encode(), "g.py"):
        assert finding.code != "TFG000", finding.message


# Every line of every fixture, shuffled together: each rule's code path with odd neighbours.
_FIXTURE_LINES = sorted(
    {
        line + "\n"
        for path in (Path(__file__).parent / "fixtures").glob("*.py")
        for line in path.read_text().splitlines()
        if line and not line.startswith((" ", "#", ")"))
    }
)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_FIXTURE_LINES), max_size=25))
def test_fixture_lines_in_any_order_never_crash(lines: list[str]) -> None:
    for finding in check_bytes("".join(lines).encode(), "m.py"):
        assert "internal error" not in finding.message


def test_permission_denied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Root can read anything, so simulate the error the OS would raise.
    path = tmp_path / "secret.py"
    path.write_text("x = 1\n")

    def deny(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("builtins.open", deny)
    code, message = only(check([str(path)], select=["TFG000"]))
    assert code == "TFG000"
    assert "Permission denied" in message


def _stdlib_files() -> list[str]:
    lib = Path(ast.__file__).parent
    files = sorted(str(p) for p in lib.glob("*.py"))
    # Grammar and pattern-matching tests use every construct the parser knows.
    files += [str(p) for p in (lib / "test").glob("test_[gp]*.py")]
    return files


def test_standard_library_never_crashes_a_rule() -> None:
    files = _stdlib_files()
    assert len(files) > 100
    report = check(files, select=["TFG"])
    assert report.files == len(files)
    internal = [str(f) for f in report.findings if "internal error" in f.message]
    assert internal == []


def test_odd_list_items() -> None:
    source = (
        "import tensorflow as tf\n"
        "d = {**tf.config.experimental, 'a': tf.constant(1)}\n"
        "def f(*, a=1, b): pass\n"
        "match p:\n    case tf.config.LogicalDevice(a=1, b=tf.Session):\n        pass\n"
    )
    # Walked without error, down into the pattern's value reference; before Python 3.10 the
    # match statement is a syntax error, reported as such.
    expected = [(5, "TFG009")] if sys.version_info >= (3, 10) else [(4, "TFG000")]
    assert [(f.line, f.code) for f in check_bytes(source.encode(), "m.py")] == expected


def _corpus() -> list[Path]:
    fixtures = sorted((Path(__file__).parent / "fixtures").glob("*.py"))
    legacy = sorted((Path(__file__).resolve().parents[2] / "legacy_examples").rglob("*.py"))
    return fixtures + legacy + [Path(p) for p in _stdlib_files()[:80]]


@pytest.mark.parametrize("path", _corpus(), ids=lambda p: p.name)
def test_skipping_statements_changes_nothing(path: Path) -> None:
    from tfcompat_gpu.lint.engine import check_tree

    source = path.read_text(encoding="utf-8")
    try:
        tree = ast.parse(source)
    except SyntaxError:
        pytest.skip("does not parse")
    assert check_tree(tree, "m.py", source) == check_tree(tree, "m.py")


def test_skipping_statements_on_generated_tree(tmp_path: Path) -> None:
    import importlib.util

    from tfcompat_gpu.lint.engine import check_tree

    spec = importlib.util.spec_from_file_location(
        "lint_bench", Path(__file__).resolve().parents[2] / "bench" / "lint_bench.py"
    )
    assert spec is not None
    assert spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    for path in bench.generate(tmp_path, 8):
        source = path.read_text()
        tree = ast.parse(source)
        full = check_tree(tree, "m.py")
        assert full, "the generated files carry findings"
        assert check_tree(tree, "m.py", source) == full


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r", "\x0c\n", "  # \u2028 \x85\n"], ids=repr)
def test_skipping_statements_with_odd_line_breaks(newline: str) -> None:
    from tfcompat_gpu.lint.engine import check_tree

    lines = [
        "import tensorflow as tf",
        "def unrelated(a):",
        "    return a + 1",
        "def configure(gpus):",
        "    tf.config.set_soft_device_placement = False",
        "    tf.config.experimental.set_memory_growth(gpus[0], True)",
    ]
    source = newline.join(lines) + newline
    tree = ast.parse(source)
    full = check_tree(tree, "m.py")
    assert [f.code for f in full] == ["TFG001", "TFG006", "TFG014"]
    assert check_tree(tree, "m.py", source) == full
