from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests._child import run as python
from tfcompat_gpu.cli import main
from tfcompat_gpu.lint.registry import RULES

BAD = "import os\nos.environ['CUDA_VISIBLE_DEVCIES'] = '0'\n"
WARN = "import tensorflow as tf\ngpus = tf.config.experimental.list_physical_devices('GPU')\n"
CLEAN = "import tensorflow as tf\nprint(tf.__version__)\n"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "warn.py").write_text(WARN)
    (tmp_path / "clean.py").write_text(CLEAN)
    return tmp_path


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_exit_0_when_clean(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["check", "--isolated", str(tree / "clean.py")], capsys)
    assert status == 0
    assert "All checks passed" in out


def test_exit_1_with_findings_and_text_lines(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(["check", "--isolated", str(tree)], capsys)
    assert status == 1
    first = out.splitlines()[0]
    assert first.startswith(f"{tree / 'bad.py'}:2:12: TFG003 ")
    assert "Found 2 problems in 3 files." in out


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "--format", "xml"],
        ["check", "--select", "NOPE1"],
        ["check", "--no-such-flag"],
        ["explain", "TFG999"],
        ["frobnicate"],
        [],
    ],
    ids=["bad-format", "bad-code", "bad-flag", "unknown-rule", "unknown-command", "empty"],
)
def test_exit_2_on_usage_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(argv, capsys)
    assert status == 2
    assert err


def test_exit_2_on_bad_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.tfcompat-gpu.lint]\nselekt = ["TFG"]\n')
    (tmp_path / "a.py").write_text(CLEAN)
    status, _, err = run(["check", str(tmp_path)], capsys)
    assert status == 2
    assert "selekt" in err


def test_exit_zero_flag(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["check", "--isolated", "--exit-zero", str(tree)], capsys)[0] == 0


def test_default_path_is_cwd(
    tree: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tree)
    status, out, _ = run(["check", "--isolated"], capsys)
    assert status == 1
    assert out.startswith(os.path.join(".", "bad.py") + ":2:12: TFG003")


def test_select_ignore_statistics(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["check", "--isolated", "--select", "TFG013", str(tree)], capsys)
    assert status == 1
    assert "TFG003" not in out
    assert "TFG013" in out
    status, out, _ = run(["check", "--isolated", "--ignore", "TFG003,TFG013", str(tree)], capsys)
    assert status == 0
    status, out, _ = run(["check", "--isolated", "--statistics", str(tree)], capsys)
    stats = [line for line in out.splitlines() if "\t" in line]
    assert stats == [
        "    1\tTFG003\tmisspelled-gpu-env-var",
        "    1\tTFG013\tdeprecated-config-name",
    ]


def test_exclude(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _status, out, _ = run(["check", "--isolated", "--exclude", "bad.py", str(tree)], capsys)
    assert "bad.py" not in out
    assert "warn.py" in out


def test_json_format(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["check", "--isolated", "--format", "json", str(tree)], capsys)
    data = json.loads(out)
    assert status == 1
    assert [(d["code"], d["line"], d["col"], d["severity"]) for d in data] == [
        ("TFG003", 2, 12, "error"),
        ("TFG013", 2, 8, "warning"),
    ]
    assert set(data[0]) == {"code", "name", "message", "path", "line", "col", "severity", "fix"}


def test_github_format(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["check", "--isolated", "--format", "github", str(tree)], capsys)
    lines = out.splitlines()
    path = str(tree / "bad.py").replace(":", "%3A").replace(",", "%2C")
    assert lines[0].startswith(
        f"::error file={path},line=2,col=12,title=TFG003 misspelled-gpu-env-var::TFG003 "
    )
    assert lines[1].startswith("::warning ")
    assert "title=TFG013 deprecated-config-name" in lines[1]
    assert len(lines) == 2


def test_sarif_format(
    tree: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tree)
    _, out, _ = run(["check", "--isolated", "--format", "sarif", "."], capsys)
    log = json.loads(out)
    assert log["version"] == "2.1.0"
    assert log["$schema"].endswith("sarif-2.1.0.json")
    run_ = log["runs"][0]
    rules = run_["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [r.code for r in RULES]
    for rule in rules:
        assert rule["shortDescription"]["text"]
        assert rule["help"]["markdown"]
        assert rule["defaultConfiguration"]["level"] in ("error", "warning")
    result = run_["results"][0]
    assert rules[result["ruleIndex"]]["id"] == result["ruleId"] == "TFG003"
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "bad.py", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 2, "startColumn": 12}
    assert result["level"] == "error"


def test_rules_and_explain(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["rules"], capsys)
    assert status == 0
    assert [line.split()[0] for line in out.splitlines()] == [r.code for r in RULES]
    assert "TFG014  off" in out
    status, out, _ = run(["explain", "tfg001"], capsys)
    assert status == 0
    for section in ("What it does", "Why is this bad?", "Example", "Use instead"):
        assert f"## {section}" in out
    assert run(["explain", "misspelled-gpu-env-var"], capsys)[1].startswith("# TFG003")


def test_dispatcher_and_no_tensorflow_import(tree: Path) -> None:
    # Through the real console entry point, in a fresh process: TensorFlow must stay unloaded.
    code = (
        "import sys; from tfcompat_gpu.cli import main; status = main(['check', '--isolated', "
        f"{str(tree)!r}]); assert 'tensorflow' not in sys.modules, 'tf imported'; "
        "assert 'libcst' not in sys.modules, 'libcst imported'; sys.exit(status)"
    )
    proc = python(["-c", code])
    assert proc.returncode == 1, proc.stderr
    assert "TFG003" in proc.stdout


def test_workers_give_the_same_report(tmp_path: Path) -> None:
    from tfcompat_gpu.lint.paths import default_jobs, lint_paths

    for n in range(12):
        (tmp_path / f"m{n:02d}.py").write_text(BAD if n % 3 else WARN)
    serial = lint_paths([str(tmp_path)], use_config=False, jobs=1)
    forked = lint_paths([str(tmp_path)], use_config=False, jobs=2)
    assert forked.findings == serial.findings
    assert len(serial.findings) == 12
    assert default_jobs() >= 1
