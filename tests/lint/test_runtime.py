from __future__ import annotations

import importlib.util
import json
import os
import textwrap
from collections.abc import Iterator

import pytest

from tests._child import run
from tfcompat_gpu.errors import GPUConfigError
from tfcompat_gpu.lint.api import check
from tfcompat_gpu.lint.live import check_runtime
from tfcompat_gpu.runtime.state import STATE, SessionRecord
from tfcompat_gpu.settings.config import GPUConfig


@pytest.fixture
def clean_state(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in list(os.environ):
        if name.startswith(("CUDA", "TF_", "TFCOMPAT", "KERAS")):
            monkeypatch.delenv(name)
    saved = (STATE.applied, STATE.applied_where, list(STATE.sessions))
    STATE.sessions.clear()
    yield
    STATE.applied, STATE.applied_where = saved[0], saved[1]
    STATE.sessions[:] = saved[2]


@pytest.mark.parametrize(
    ("env", "codes"),
    [
        ({"CUDA_VISIBLE_DEVCIES": "0"}, ["TFG003"]),
        ({"cuda_visible_devices": "0"}, ["TFG003"]),
        ({"TF_FORCE_GPU_ALLOW_GROWTH": "True"}, ["TFG016"]),
        ({"TF_FORCE_GPU_ALLOW_GROWTH": "true"}, []),
        ({"CUDA_VISIBLE_DEVICES": "0", "CUDA_DEVICE_ORDER": "PCI_BUS_ID", "PATH": "/bin"}, []),
    ],
    ids=["typo", "lowercase", "growth-True", "growth-true", "clean"],
)
def test_environment(env: dict[str, str], codes: list[str], clean_state: None) -> None:
    assert [f.code for f in check_runtime(env)] == codes


def test_env_overrides_config_and_out_of_range(clean_state: None) -> None:
    STATE.applied = GPUConfig(allow_growth=False, visible_device_list="1")
    STATE.applied_where = "train.py:12"
    found = check_runtime({"TF_FORCE_GPU_ALLOW_GROWTH": "true", "CUDA_VISIBLE_DEVICES": "3"})
    assert [(f.code, f.path, f.line) for f in found] == [
        ("TFG018", "train.py", 12),
        ("TFG017", "train.py", 12),
    ]
    assert "only 1 GPU(s) are visible (CUDA_VISIBLE_DEVICES='3')" in found[1].message


def test_sessions_with_different_process_wide_options(clean_state: None) -> None:
    STATE.sessions += [
        SessionRecord(GPUConfig(visible_device_list="1", allow_growth=True), "a.py:3"),
        SessionRecord(GPUConfig(visible_device_list="1", log_device_placement=True), "a.py:4"),
        SessionRecord(GPUConfig(visible_device_list="2", allow_growth=True), "a.py:5"),
    ]
    found = [f for f in check_runtime({}) if f.code == "TFG005"]
    # a.py:4 differs only in growth (process-wide) and a per-session field.
    assert [(f.path, f.line) for f in found] == [("a.py", 4), ("a.py", 5)]
    assert "visible_device_list='2' (first: '1')" in found[1].message


def test_sessions_unset_and_default_values_agree(clean_state: None) -> None:
    # None is TensorFlow's default: 0 threads and growth False ask for the same thing.
    STATE.sessions += [
        SessionRecord(GPUConfig(visible_device_list="1"), "a.py:3"),
        SessionRecord(
            GPUConfig(visible_device_list="1", allow_growth=False, intra_op_parallelism_threads=0),
            "a.py:4",
        ),
    ]
    assert [f for f in check_runtime({}) if f.code == "TFG005"] == []


def test_check_without_paths_and_strict(clean_state: None, monkeypatch: pytest.MonkeyPatch) -> None:
    assert check().ok
    check(strict=True)  # clean: no exception
    monkeypatch.setenv("CUDA_VISIBLE_DEVCIES", "0")
    report = check()
    assert [f.code for f in report.findings] == ["TFG003"]
    assert str(report) == (
        "<environment>:1:1: TFG003 environment variable 'CUDA_VISIBLE_DEVCIES' looks like a "
        "misspelling of 'CUDA_VISIBLE_DEVICES', which nothing reads; use 'CUDA_VISIBLE_DEVICES'"
    )
    assert check(ignore=["TFG003"]).ok
    with pytest.raises(GPUConfigError, match=r"1 GPU configuration problem found:\n.*TFG003"):
        check(strict=True)


def test_strict_with_paths(tmp_path: object) -> None:
    path = os.path.join(str(tmp_path), "a.py")
    with open(path, "w") as handle:
        handle.write("import os\nos.environ['CUDA_VISIBLE_DEVCIES'] = '0'\n")
    with pytest.raises(GPUConfigError, match="TFG003"):
        check(path, strict=True)


def _run(code: str, env: dict[str, str]) -> dict[str, object]:
    proc = run(["-c", textwrap.dedent(code)], env=env, drop=("CUDA",))
    assert proc.returncode == 0, proc.stderr[-3000:]
    result: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def test_never_imports_tensorflow() -> None:
    out = _run(
        """
        import json, sys, tfcompat_gpu
        from tfcompat_gpu.lint.api import check
        report = check()
        print(json.dumps({"tf": "tensorflow" in sys.modules,
                          "codes": [f.code for f in report.findings]}))
        """,
        {"CUDA_VISIBLE_DEVCIES": "0"},
    )
    assert out == {"tf": False, "codes": ["TFG003"]}


@pytest.mark.tf
def test_with_tensorflow_imported() -> None:
    if importlib.util.find_spec("tensorflow") is None:  # not importorskip: keep TF out of here
        pytest.skip("TensorFlow is not installed")
    # Several cases in one process: importing TensorFlow takes seconds.
    out = _run(
        """
        import json, warnings
        import tensorflow as tf
        import tfcompat_gpu
        from tfcompat_gpu.tfapi import _tf
        from tfcompat_gpu.lint.api import check
        warnings.simplefilter("ignore")
        result = {}
        result["clean"] = [f.code for f in check().findings]
        tfcompat_gpu.configure(allow_growth=False)
        result["override"] = [f.code for f in check().findings]
        try:
            check(strict=True)
            result["strict"] = None
        except tfcompat_gpu.GPUConfigError as exc:
            result["strict"] = str(exc).splitlines()[0]
        result["started"] = _tf.runtime_started()
        print(json.dumps(result))
        """,
        {"TF_FORCE_GPU_ALLOW_GROWTH": "true"},
    )
    assert out == {
        "clean": [],
        "override": ["TFG018"],
        "strict": "1 GPU configuration problem found:",
        "started": False,
    }
