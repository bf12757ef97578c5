"""The target TensorFlow: flag, pyproject key, and what a project's requirements declare."""

from __future__ import annotations

from pathlib import Path

import pytest

from tfcompat_gpu.commands.check import main
from tfcompat_gpu.lint.api import check
from tfcompat_gpu.lint.config import ConfigError
from tfcompat_gpu.lint.target import TargetError, infer_target, parse_target

# A TF1 training script: real TF1 bugs (TFG003, TFG010, TFG005) beside TF1 APIs that only
# matter when moving to TF2 (TFG009, TFG013).
SCRIPT = """\
import os
import tensorflow as tf

os.environ["CUDA_VISIBLE_DEVCIES"] = "0"
gpus = tf.config.experimental.list_physical_devices("GPU")
config = tf.ConfigProto()
config.gpu_options.per_process_gpu_memory_fraction = 2
sess = tf.Session(config=config)
other = tf.Session(config=tf.ConfigProto(gpu_options=tf.GPUOptions(allow_growth=True)))
tf.config.set_logical_device_configuration = []
"""
TF1_CODES = ["TFG003", "TFG010", "TFG005", "TFG001"]
TF2_CODES = ["TFG003", "TFG013", "TFG010", "TFG005", "TFG001"] + ["TFG009"] * 5


def _codes(path: Path, **kwargs: str) -> list[str]:
    return [f.code for f in check([str(path)], **kwargs).findings]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "expected"),
    [("1.15", (1, 15)), ("1", (1, 15)), ("1.x", (1, 15)), ("2.16", (2, 16)), ("2.4.1", (2, 4))],
)
def test_parse_target(value: str, expected: tuple[int, int]) -> None:
    assert parse_target(value) == expected


@pytest.mark.parametrize("value", ["3.0", "latest", "", "1.a"])
def test_parse_target_rejects(value: str) -> None:
    with pytest.raises(TargetError, match="Expected a TensorFlow version"):
        parse_target(value)


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("requirements.txt", "numpy\ntensorflow-gpu==1.15.5  # the cluster's CUDA 10.0\n", (1, 15)),
        ("requirements-gpu.txt", "tensorflow>=1.13,<2.0\n", (1, 15)),
        ("requirements.txt", "tensorflow>=2.4\nkeras\n", None),
        ("requirements.txt", "tensorflow<2.5\n", (2, 4)),
        ("requirements.txt", "tensorflow-hub==0.7\ntensorflow-datasets<2\n", None),
        ("setup.py", "setup(name='x', install_requires=['tensorflow-gpu==1.14.0'])\n", (1, 14)),
        (
            "setup.cfg",
            "[options]\ninstall_requires =\n    numpy\n    tensorflow<2\n",
            (1, 15),
        ),
        ("pyproject.toml", '[project]\nname = "x"\ndependencies = ["tensorflow==2.3.*"]\n', (2, 3)),
        (
            "pyproject.toml",
            '[tool.poetry.dependencies]\npython = "^3.7"\ntensorflow-gpu = "^1.15"\n',
            (1, 15),
        ),
    ],
    ids=[
        "pin",
        "range",
        "open",
        "below",
        "other-packages",
        "setup.py",
        "setup.cfg",
        "pep621",
        "poetry",
    ],
)
def test_infer_target(
    tmp_path: Path, name: str, text: str, expected: tuple[int, int] | None
) -> None:
    (tmp_path / name).write_text(text)
    (tmp_path / "src").mkdir()
    assert infer_target(str(tmp_path / "src")) == expected


def test_tf1_project_gets_tf1_rules_only(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("tensorflow-gpu==1.15\n")
    (tmp_path / "train.py").write_text(SCRIPT)
    assert sorted(_codes(tmp_path / "train.py")) == sorted(TF1_CODES)
    report = check([str(tmp_path / "train.py")])
    assert report.target == (1, 15)
    # The fix names what TensorFlow 1.15 has.
    fix = next(f.fix for f in report.findings if f.code == "TFG001")
    assert "tf.config.experimental.set_virtual_device_configuration" in fix
    # An explicit target wins over the requirements.
    assert sorted(_codes(tmp_path / "train.py", target_version="2.16")) == sorted(TF2_CODES)


def test_unpinned_project_targets_latest(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(SCRIPT)
    report = check([str(tmp_path / "train.py")])
    assert report.target is None
    assert sorted(f.code for f in report.findings) == sorted(TF2_CODES)
    fix = next(f.fix for f in report.findings if f.code == "TFG001")
    assert "tf.config.set_logical_device_configuration" in fix


def test_pyproject_key_and_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.tfcompat-gpu.lint]\ntarget-version = "1.15"\n')
    (tmp_path / "train.py").write_text(SCRIPT)
    assert sorted(_codes(tmp_path)) == sorted(TF1_CODES)
    assert main(["check", "--target-version", "2.16", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "TFG009" in out
    assert main(["check", "--target-version", "nope", str(tmp_path)]) == 2
    assert "Expected a TensorFlow version" in capsys.readouterr().err
    (tmp_path / "pyproject.toml").write_text('[tool.tfcompat-gpu.lint]\ntarget-version = "9"\n')
    with pytest.raises(ConfigError, match="target-version='9'"):
        check([str(tmp_path)])
