"""Hostile input to every entry point ends in the project's own error, never in a traceback.

One test per class of input that once escaped as an exception from the standard library:
number text longer than Python's ``int()`` takes, Python values too large for ``repr`` or
``float``, a FIFO named where a settings file is expected (reading it blocked forever), JSON
nested deeper than the decoder recurses, and a malformed notebook ``check`` passed silently.
Each runs the command line in a child, as a user would, and asserts on what the user sees.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests._child import cli
from tfcompat_gpu import GPUConfig, GPUConfigError
from tfcompat_gpu.machine.cluster import tasks_per_node, tf_config_cluster
from tfcompat_gpu.utils.files import read_bytes
from tfcompat_gpu.utils.notebooks import NotebookError, read_notebook
from tfcompat_gpu.utils.numbers import parse_int

HUGE = "9" * 5000  # longer than the 4,300 digits int() converts
SCRIPT = "print('ran')\n"


def _no_traceback(done: object) -> None:
    stderr = getattr(done, "stderr", "")
    assert "Traceback" not in stderr, stderr[-2000:]


# -- number text longer than int() takes -----------------------------------------------------


def test_an_integer_of_thousands_of_digits_is_not_a_number() -> None:
    assert parse_int(HUGE) is None
    assert parse_int("9" * 30) == int("9" * 30)  # long but readable: range checks report it


@pytest.mark.parametrize(
    ("args", "env", "named"),
    [
        (["--memory-limit-mb", HUGE], {}, "--memory-limit-mb"),
        (["--inter-op-threads", HUGE], {}, "--inter-op-threads"),
        (["--visible-devices", HUGE], {}, "visible_device_list"),
        ([], {"TFCOMPAT_GPU_INTRA_OP_THREADS": HUGE}, "TFCOMPAT_GPU_INTRA_OP_THREADS"),
        ([], {"TFCOMPAT_GPU_VISIBLE_DEVICES": "auto:" + HUGE}, "TFCOMPAT_GPU_VISIBLE_DEVICES"),
    ],
)
def test_run_refuses_a_number_of_thousands_of_digits(
    tmp_path: Path, args: list[str], env: dict[str, str], named: str
) -> None:
    (tmp_path / "s.py").write_text(SCRIPT)
    done = cli("run", *args, "s.py", cwd=tmp_path, env=env, timeout=120)
    _no_traceback(done)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "tfcompat-gpu run: error:" in done.stderr
    assert named in done.stderr
    assert "ran" not in done.stdout


def test_a_settings_file_with_a_huge_number_names_the_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "gpu.ini").write_text(f"[gpu]\nmemory_limit_mb = {HUGE}\n")
    with pytest.raises(GPUConfigError, match=r"gpu\.ini:2 \[gpu\] memory_limit_mb: expected"):
        GPUConfig.from_file(tmp_path / "gpu.ini")


def test_check_refuses_a_target_version_of_thousands_of_digits(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("import tensorflow as tf\n")
    done = cli("check", "--no-cache", "--target-version", "2." + HUGE, "a.py", cwd=tmp_path)
    _no_traceback(done)
    assert done.returncode == 2
    assert "Expected a TensorFlow version such as" in done.stderr
    assert "internal error" not in done.stderr
    assert len(done.stderr) < 600  # the value is shown cut short


def test_a_requirement_with_a_huge_version_is_no_crash(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("import tensorflow as tf\nsess = tf.Session()\n")
    (tmp_path / "requirements.txt").write_text(f"tensorflow==2.{HUGE}\n")
    (tmp_path / "Dockerfile").write_text(f"FROM tensorflow/tensorflow:2.{HUGE}-gpu\n")
    done = cli("check", "--no-cache", "a.py", cwd=tmp_path)
    _no_traceback(done)
    assert done.returncode == 1, done.stderr[-2000:]
    assert "TFG009" in done.stdout


# -- Python values too large for repr() or float() -------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"intra_op_parallelism_threads": 10**5000},
        {"memory_limit_mb": 10**5000},
        {"memory_limit_mb": {10**5000: [1024]}},
        {"visible_device_list": [10**5000]},
        {"visible_device_list": [2**40]},  # TensorFlow reads GPU ids as int32
        {"per_process_gpu_memory_fraction": 10**400},  # float() overflows
    ],
)
def test_gpuconfig_refuses_huge_numbers_with_its_own_error(fields: dict[str, object]) -> None:
    (name,) = fields
    with pytest.raises(GPUConfigError, match=rf"^{name}: expected") as caught:
        GPUConfig(**fields)  # type: ignore[arg-type]
    assert len(str(caught.value)) < 1000


@pytest.mark.parametrize(
    ("environ", "named"),
    [
        (5, "environ=5"),
        ({"TFCOMPAT_GPU_MEMORY_FRACTION": 0.5}, "TFCOMPAT_GPU_MEMORY_FRACTION=0.5"),
    ],
)
def test_from_env_names_what_is_not_text(environ: object, named: str) -> None:
    with pytest.raises(GPUConfigError, match=named):
        GPUConfig.from_env(environ)  # type: ignore[arg-type]


# -- a FIFO where a settings file is expected ------------------------------------------------


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    path = tmp_path / "settings.toml"
    os.mkfifo(path)
    return path


def test_reading_a_fifo_nobody_writes_to_is_an_error_not_a_hang(fifo: Path) -> None:
    with pytest.raises(OSError, match="nothing was written to it"):
        read_bytes(fifo)
    with pytest.raises(IsADirectoryError):
        read_bytes(fifo.parent)


def test_a_pipe_with_a_writer_is_read(tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    os.write(write_end, b"[gpu]\nallow_growth = 1\n")
    os.close(write_end)
    try:
        assert read_bytes(f"/proc/self/fd/{read_end}") == b"[gpu]\nallow_growth = 1\n"
    finally:
        os.close(read_end)


@pytest.mark.parametrize("command", ["run", "check"])
def test_a_fifo_given_as_config_is_reported(fifo: Path, command: str) -> None:
    (fifo.parent / "s.py").write_text("import tensorflow as tf\n")
    done = cli(command, "--config", fifo.name, "s.py", cwd=fifo.parent, timeout=60)
    _no_traceback(done)
    assert done.returncode == 2
    assert "settings.toml" in done.stderr
    assert "nothing was written to it" in done.stderr


def test_a_fifo_named_pyproject_does_not_block_check(tmp_path: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(tmp_path / "pyproject.toml")
    (tmp_path / "a.py").write_text("import tensorflow as tf\nsess = tf.Session()\n")
    done = cli("check", "--no-cache", "a.py", cwd=tmp_path, timeout=60)
    assert done.returncode == 1, done.stderr[-2000:]
    assert "TFG009" in done.stdout


def test_a_fifo_in_the_cache_folder_does_not_block_check(tmp_path: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    (tmp_path / "a.py").write_text("import tensorflow as tf\nsess = tf.Session()\n")
    first = cli("check", "--cache-dir", "cache", "a.py", cwd=tmp_path)
    entries = sorted((tmp_path / "cache").glob("lint-*.json"))
    assert entries, first.stderr
    for entry in entries:  # a damaged cache: the entry is now a FIFO nobody writes to
        entry.unlink()
        os.mkfifo(entry)
    done = cli("check", "--cache-dir", "cache", "a.py", cwd=tmp_path, timeout=60)
    assert done.returncode == 1, done.stderr[-2000:]
    assert "TFG009" in done.stdout


# -- JSON nested deeper than the decoder recurses --------------------------------------------


def test_deeply_nested_json_is_a_notebook_error_and_a_tf_config_error() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(NotebookError, match="nested too deeply"):
        read_notebook(deep)
    with pytest.raises(GPUConfigError, match=r"^TF_CONFIG: expected JSON .*nested too deeply"):
        tf_config_cluster({"TF_CONFIG": deep})


def test_a_slurm_task_list_of_billions_of_nodes_is_refused() -> None:
    with pytest.raises(GPUConfigError, match="SLURM_STEP_TASKS_PER_NODE: expected at most"):
        tasks_per_node("2(x100000000000)")
    assert tasks_per_node("2(x3),1") == [2, 2, 2, 1]


# -- a malformed notebook is a finding of check, as it is a skipped file of migrate ----------


@pytest.mark.parametrize(
    ("content", "why"),
    [
        ("{not json", "not valid JSON"),
        ("", "not valid JSON"),
        (json.dumps({"nbformat": 4, "metadata": {}}), "no list of cells"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ],
    # short ids: pytest puts the test's id in PYTEST_CURRENT_TEST, which the child inherits
    ids=["bad-json", "empty", "no-cells", "nested-100k"],
)
def test_check_reports_a_notebook_it_cannot_read(tmp_path: Path, content: str, why: str) -> None:
    (tmp_path / "nb.ipynb").write_text(content)
    done = cli("check", "--no-cache", "nb.ipynb", cwd=tmp_path)
    _no_traceback(done)
    assert done.returncode == 1, (done.stdout, done.stderr[-2000:])
    assert "nb.ipynb:1:1: TFG000 cannot read the notebook:" in done.stdout
    assert why in done.stdout


# -- lint settings errors name their file ----------------------------------------------------


@pytest.mark.parametrize(
    "table",
    [
        "select = 5",
        "select = ['XYZ99']",
        "select = []",
        "select = ['']",
        "exclude = 3",
        "per-file-ignores = {'a.py' = 3}",
    ],
)
def test_a_wrong_lint_setting_names_the_pyproject(tmp_path: Path, table: str) -> None:
    (tmp_path / "pyproject.toml").write_text(f"[tool.tfcompat-gpu.lint]\n{table}\n")
    (tmp_path / "a.py").write_text("import tensorflow as tf\n")
    done = cli("check", "--no-cache", "a.py", cwd=tmp_path)
    assert done.returncode == 2
    assert "pyproject.toml: [tool.tfcompat-gpu.lint]: Expected" in done.stderr, done.stderr


# -- the Python API names the argument a caller got wrong ------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"paths": 5}, "paths=5"),
        ({"paths": [5]}, "paths=[5]"),
        ({"paths": b"train.py"}, "paths=b'train.py'"),
        ({"paths": ["a.py", None]}, "paths=['a.py', None]"),
        ({"paths": "a.py", "select": 5}, "select=5"),
        ({"paths": "a.py", "ignore": [1]}, "ignore=[1]"),
        ({"paths": "a.py", "target_version": 2.16}, "target_version=2.16"),
    ],
)
def test_check_api_names_the_wrong_argument(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kwargs: dict[str, object], named: str
) -> None:
    import tfcompat_gpu

    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text("import tensorflow as tf\n")
    with pytest.raises(TypeError, match=r"^Expected .*Received: ") as caught:
        tfcompat_gpu.check(**kwargs)  # type: ignore[arg-type]
    assert named in str(caught.value)


@pytest.mark.parametrize("select", ["", ",", [], [" "]])
def test_an_empty_selection_is_an_error_not_a_clean_report(tmp_path: Path, select: object) -> None:
    import tfcompat_gpu

    legacy = tmp_path / "a.py"
    legacy.write_text("import tensorflow as tf\nsess = tf.Session()\n")
    with pytest.raises(ValueError, match="at least one rule code"):
        tfcompat_gpu.check(legacy, select=select)  # type: ignore[arg-type]
    assert tfcompat_gpu.check(legacy).findings  # the file does have findings
