"""tfcompat-gpu run as a command, without TensorFlow: what the user sees is what ``python`` shows.

These run on every Python version the package supports, and compare the runner's output with
the interpreter's own for the same script: a syntax error, Ctrl-C, a folder, a symlink.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
from pathlib import Path

import pytest

from tests._child import run


def _default_sigint() -> None:
    # A test run started in the background (CI, nohup, `&`) inherits SIGINT ignored, and Python
    # then installs no KeyboardInterrupt handler: give each child the terminal's default.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _run(cwd: Path, *args: str, runner: bool = True, env: dict[str, str] | None = None):
    command = ["-m", "tfcompat_gpu", "run"] if runner else []
    return run(
        [*command, *args],
        env=env,
        cwd=cwd,
        timeout=120,
        preexec_fn=_default_sigint if os.name == "posix" else None,
    )


def _same_as_python(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    ours, python = _run(cwd, *args), _run(cwd, *args, runner=False)
    assert (ours.returncode, ours.stdout, ours.stderr) == (
        python.returncode,
        python.stdout,
        python.stderr,
    )
    return ours


def test_syntax_error_looks_as_under_python(tmp_path):
    (tmp_path / "broken.py").write_text("print('ran')\nx = = 1\nprint('after')\n")
    run = _same_as_python(tmp_path, "broken.py")
    assert run.returncode == 1
    assert run.stdout == ""
    assert run.stderr.startswith(f'  File "{tmp_path / "broken.py"}", line 2\n')
    assert "SyntaxError" in run.stderr
    assert "tfcompat_gpu" not in run.stderr


def test_ctrl_c_looks_as_under_python_and_ends_by_sigint(tmp_path):
    (tmp_path / "interrupted.py").write_text(
        "import atexit, os, signal\n"
        "atexit.register(lambda: print('atexit ran', flush=True))\n"
        "def work():\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "work()\n"
    )
    run = _same_as_python(tmp_path, "interrupted.py")
    if os.name == "posix":
        assert run.returncode == -signal.SIGINT
    lines = run.stderr.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[-1] == "KeyboardInterrupt"
    assert "tfcompat_gpu" not in run.stderr
    assert run.stdout == "atexit ran\n"


def test_a_folder_runs_its_main_module(tmp_path):
    app = tmp_path / "app"
    app.mkdir()
    (app / "helper.py").write_text("NAME = 'helper'\n")
    (app / "__main__.py").write_text(
        "import os, sys, helper\n"
        "print(sys.argv, __name__, os.path.basename(__file__), helper.NAME)\n"
        "print(sys.path[0] == os.path.dirname(os.path.abspath(__file__)))\n"
        "def fail():\n    raise ValueError('from the folder')\n"
        "fail()\n"
    )
    ours = _run(tmp_path, "app", "x")
    python = _run(tmp_path, "app", "x", runner=False)
    assert ours.returncode == python.returncode == 1
    assert ours.stdout == python.stdout == "['app', 'x'] __main__ __main__.py helper\nTrue\n"
    # Python shows runpy's frames for a folder; the runner shows the script's only.
    main_py = f'  File "{app / "__main__.py"}"'
    ours_lines, python_lines = ours.stderr.splitlines(), python.stderr.splitlines()
    assert ours_lines[0] == "Traceback (most recent call last):"
    assert ours_lines[1].startswith(main_py)
    first = next(i for i, line in enumerate(python_lines) if line.startswith(main_py))
    assert ours_lines[1:] == python_lines[first:]
    assert "tfcompat_gpu" not in ours.stderr
    assert "runpy" not in ours.stderr


def test_a_folder_without_main_module_gets_pythons_message(tmp_path):
    (tmp_path / "empty").mkdir()
    ours = _run(tmp_path, "empty")
    python = _run(tmp_path, "empty", runner=False)
    assert ours.returncode == python.returncode == 1
    assert ours.stderr == "tfcompat-gpu run: error: can't find '__main__' module in 'empty'\n"
    assert "can't find '__main__' module in" in python.stderr


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_symlinked_script_finds_modules_beside_its_target(tmp_path):
    real = tmp_path / "project"
    real.mkdir()
    (real / "sibling.py").write_text("NAME = 'sibling'\n")
    (real / "train.py").write_text(
        "import os, sys, sibling\n"
        "print(sibling.NAME, os.path.basename(sys.path[0]), os.path.basename(__file__))\n"
    )
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    os.symlink(real / "train.py", bin_dir / "train-link.py")
    run = _same_as_python(bin_dir, "train-link.py")
    assert run.returncode == 0, run.stderr
    assert run.stdout == "sibling project train-link.py\n"


@pytest.mark.parametrize(
    ("report", "problem"),
    [
        ("no/such/dir/r.json", "does not exist"),
        (".", "it is a directory"),
    ],
    ids=["missing-folder", "directory"],
)
def test_report_path_is_checked_before_the_script_runs(tmp_path, report, problem):
    (tmp_path / "script.py").write_text("print('ran')\n")
    run = _run(tmp_path, "--report", report, "script.py")
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.startswith(
        f"tfcompat-gpu run: error: --report: cannot write the report to {report!r}"
    )
    assert problem in run.stderr
    assert "Traceback" not in run.stderr


def test_report_path_from_the_environment_is_checked_too(tmp_path):
    (tmp_path / "script.py").write_text("print('ran')\n")
    run = _run(tmp_path, "script.py", env={"TFCOMPAT_GPU_REPORT": str(tmp_path / "x" / "r.json")})
    assert run.returncode == 2
    assert run.stdout == ""
    assert "environment variable TFCOMPAT_GPU_REPORT: cannot write the report" in run.stderr


def test_a_report_that_cannot_be_written_at_exit_keeps_the_scripts_status(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "script.py").write_text("import shutil, sys\nshutil.rmtree('out')\nsys.exit(3)\n")
    run = _run(tmp_path, "--report", "out/r.json", "script.py")
    assert run.returncode == 3
    assert "tfcompat-gpu run: warning: cannot write the report to 'out/r.json'" in run.stderr
    assert "Traceback" not in run.stderr


def test_memory_fraction_above_one_warns_once_naming_its_source(tmp_path):
    (tmp_path / "script.py").write_text("print('ran')\n")
    run = _run(tmp_path, "--memory-fraction", "2", "script.py")
    assert run.returncode == 0, run.stderr
    assert run.stdout == "ran\n"
    assert run.stderr.count("is above 1") == 1, run.stderr
    assert run.stderr.startswith(
        "tfcompat-gpu run: warning: per_process_gpu_memory_fraction=2.0 is above 1"
    )
    assert run.stderr.rstrip().endswith("(from the command line)")
    assert "dataclasses" not in run.stderr


def test_memory_fraction_above_one_from_two_sources_warns_for_each(tmp_path):
    (tmp_path / "script.py").write_text("print('ran')\n")
    run = _run(
        tmp_path, "--memory-fraction", "2", "script.py", env={"TFCOMPAT_GPU_MEMORY_FRACTION": "3"}
    )
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    assert [line.rsplit("(", 1)[-1] for line in lines] == [
        "from the environment)",
        "from the command line)",
    ]


def test_legacy_keras_variable_with_a_bad_value_exits_2(tmp_path):
    (tmp_path / "script.py").write_text("print('ran')\n")
    run = _run(tmp_path, "script.py", env={"TFCOMPAT_GPU_LEGACY_KERAS": "maybe"})
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr == (
        "tfcompat-gpu run: error: environment variable TFCOMPAT_GPU_LEGACY_KERAS: expected a "
        "boolean (1/0, true/false, yes/no, on/off). Received: 'maybe'.\n"
    )


@pytest.mark.skipif(
    importlib.util.find_spec("tensorflow") is not None, reason="TensorFlow is installed here"
)
def test_legacy_keras_without_tensorflow_says_what_to_install(tmp_path):
    (tmp_path / "script.py").write_text("print('ran')\n")
    run = _run(tmp_path, "--legacy-keras", "script.py")
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.startswith("tfcompat-gpu run: error: --legacy-keras runs Keras 2 code")
    assert 'pip install "tfcompat-gpu[legacy-keras]"' in run.stderr


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("latin1.ini", b"[gpu]\nrate = 0.5\xe9\n"),
        ("binary.ini", b"\x00\x01\x02\xff\xfe"),
        ("bom.ini", b"\xef\xbb\xbf[gpu]\nrate = 50%\n"),
        ("percent.ini", b"[gpu]\nrate = 50%\n"),
        ("tool.toml", b"tool = 3\n"),
    ],
    ids=["latin-1", "binary", "bom-percent", "percent", "toml-tool-int"],
)
def test_a_bad_config_file_exits_2_with_our_message(tmp_path, name, content):
    (tmp_path / name).write_bytes(content)
    (tmp_path / "script.py").write_text("print('ran')\n")
    run = _run(tmp_path, "--config", name, "script.py")
    assert run.returncode == 2, run.stderr
    assert run.stdout == ""
    assert run.stderr.startswith("tfcompat-gpu run: error: ")
    assert name in run.stderr
    assert "Traceback" not in run.stderr
