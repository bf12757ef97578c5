"""A repository of TensorFlow 1 and TensorFlow 2 sub-projects: each is checked for its own
TensorFlow, decided by its nearest requirements, environment.yml or Dockerfile base image."""

from __future__ import annotations

from pathlib import Path

import pytest

from tfcompat_gpu.commands.check import main
from tfcompat_gpu.lint.api import check
from tfcompat_gpu.lint.target import Targets

# TFG009 / TFG013 are the TensorFlow 2 migration rules; TFG010 holds on every TensorFlow.
SCRIPT = """\
import tensorflow as tf

config = tf.ConfigProto()
config.gpu_options.per_process_gpu_memory_fraction = 1.5
sess = tf.Session(config=config)
gpus = tf.config.experimental.list_physical_devices("GPU")
"""
MIGRATION = {"TFG009", "TFG013"}

# (sub-project, file that decides, its text, TensorFlow 1?)
PROJECTS = [
    (
        "TensorFlow/Classification/ConvNets",
        "Dockerfile",
        "ARG FROM_IMAGE_NAME=nvcr.io/nvidia/tensorflow:20.06-tf1-py3\n"
        "FROM ${FROM_IMAGE_NAME}\nADD requirements.txt .\nRUN pip install -r requirements.txt\n",
        True,
    ),
    (
        "TensorFlow/Detection/SSD",
        "Dockerfile",
        "FROM nvcr.io/nvidia/tensorflow:19.05-py3 as base\n"
        "FROM tensorflow/tensorflow:1.15.2-gpu-py3\nWORKDIR /workdir\n",
        True,
    ),
    (
        "TensorFlow/LanguageModeling/BERT",
        "requirements.txt",
        "requests\ntensorflow-gpu==1.15.4  # CUDA 10.0\n",
        True,
    ),
    (
        "TensorFlow/Segmentation/UNet",
        "environment.yml",
        "name: unet\ndependencies:\n  - python=3.7\n  - tensorflow-gpu=1.14\n",
        True,
    ),
    (
        "TensorFlow2/Classification/ConvNets",
        "Dockerfile",
        "ARG FROM_IMAGE_NAME=nvcr.io/nvidia/tensorflow:21.02-tf2-py3\nFROM $FROM_IMAGE_NAME\n",
        False,
    ),
    (
        "TensorFlow2/Recommendation/DLRM",
        "requirements.txt",
        "tensorflow>=2.4\nnumpy\n",
        False,
    ),
    ("tools/plots", "requirements.txt", "matplotlib\n", False),
]


@pytest.fixture
def monorepo(tmp_path: Path) -> Path:
    root = tmp_path / "examples"
    for project, name, text, _ in PROJECTS:
        folder = root / project
        (folder / "scripts").mkdir(parents=True)
        (folder / name).write_text(text)
        (folder / "scripts" / "train.py").write_text(SCRIPT)
    return root


def _codes_by_project(root: Path, **options: str) -> dict[str, set[str]]:
    report = check([str(root)], **options)  # type: ignore[arg-type]
    found: dict[str, set[str]] = {project: set() for project, *_ in PROJECTS}
    for finding in report.findings:
        relative = Path(finding.path).relative_to(root).as_posix()
        project = next(p for p, *_ in PROJECTS if relative.startswith(p + "/"))
        found[project].add(finding.code)
    return found


def test_tf1_subprojects_get_no_migration_findings(monorepo: Path) -> None:
    found = _codes_by_project(monorepo)
    for project, _, _, tf1 in PROJECTS:
        assert "TFG010" in found[project], project  # real bugs on every TensorFlow
        if tf1:
            assert not found[project] & MIGRATION, project
        else:
            assert found[project] >= MIGRATION, project


def test_target_version_still_wins(monorepo: Path) -> None:
    found = _codes_by_project(monorepo, target_version="2.16")
    assert all(codes >= MIGRATION for codes in found.values())


@pytest.mark.parametrize(
    ("project", "expected"),
    [
        ("TensorFlow/Classification/ConvNets", (1, 15)),
        ("TensorFlow/Detection/SSD", (1, 15)),
        ("TensorFlow/LanguageModeling/BERT", (1, 15)),
        ("TensorFlow/Segmentation/UNet", (1, 14)),
        ("TensorFlow2/Classification/ConvNets", None),
        ("TensorFlow2/Recommendation/DLRM", None),
    ],
)
def test_decisions_name_their_file(monorepo: Path, project: str, expected: object) -> None:
    target, source = Targets().decide(str(monorepo / project / "scripts"))
    assert target == expected
    assert source is not None
    assert Path(source).parent == monorepo / project


def test_nearest_file_wins_over_a_parent(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("tensorflow==2.12\n")
    (tmp_path / "legacy").mkdir()
    (tmp_path / "legacy" / "Dockerfile").write_text("FROM tensorflow/tensorflow:1.13.1-gpu\n")
    (tmp_path / "legacy" / "notes").mkdir()
    targets = Targets()
    assert targets.decide(str(tmp_path / "legacy" / "notes")).target == (1, 13)
    assert targets.decide(str(tmp_path)).target == (2, 12)


def test_show_settings_names_the_deciding_file(
    monorepo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(monorepo)
    assert main(["check", "--isolated", "--show-settings", "."]) == 0
    out = capsys.readouterr().out
    assert "target: per folder" in out
    bert = "TensorFlow/LanguageModeling/BERT"
    assert f"{bert}/scripts/: TensorFlow 1.15 ({bert}/requirements.txt)" in out
    assert "tools/plots/scripts/: the latest TensorFlow (no file names TensorFlow)" in out
    assert main(["check", "--isolated", "--show-settings", "--target-version", "1.15", "."]) == 0
    assert "target: TensorFlow 1.15 (--target-version)" in capsys.readouterr().out
