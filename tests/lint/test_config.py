from __future__ import annotations

from pathlib import Path

import pytest

from tfcompat_gpu.lint.api import check
from tfcompat_gpu.lint.config import ConfigError, find_config, load_config, select_codes
from tfcompat_gpu.lint.registry import default_codes

TYPO = "import os\nos.environ['CUDA_VISIBLE_DEVCIES'] = '0'\n"
DIRECT = "import tensorflow as tf\ntf.config.set_soft_device_placement(True)\n"


def codes(report: object) -> list[tuple[str, str]]:
    return [(Path(f.path).name, f.code) for f in report.findings]  # type: ignore[attr-defined]


def write_project(root: Path, table: str) -> None:
    (root / "pyproject.toml").write_text(
        "[project]\nname = 'x'\n\n[tool.tfcompat-gpu]\nallow_growth = true\n\n"
        f"[tool.tfcompat-gpu.lint]\n{table}\n"
    )


def test_select_and_ignore_from_pyproject(tmp_path: Path) -> None:
    write_project(tmp_path, 'select = ["TFG"]\nignore = ["TFG003"]')
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text(TYPO + DIRECT)
    # Found by walking up from the checked path.
    assert codes(check([str(tmp_path / "pkg" / "a.py")])) == [("a.py", "TFG014")]


def test_per_file_ignores_and_exclude(tmp_path: Path) -> None:
    write_project(
        tmp_path,
        'exclude = ["vendored"]\n[tool.tfcompat-gpu.lint.per-file-ignores]\n'
        '"tests/*" = ["TFG003"]\n"conftest.py" = ["TFG0"]',
    )
    for rel in ("tests/test_a.py", "src/a.py", "vendored/v.py", "sub/conftest.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(TYPO)
    assert codes(check([str(tmp_path)])) == [("a.py", "TFG003")]


def test_api_select_overrides_config(tmp_path: Path) -> None:
    write_project(tmp_path, 'ignore = ["TFG003"]')
    (tmp_path / "a.py").write_text(TYPO)
    assert codes(check([str(tmp_path)])) == []
    assert codes(check([str(tmp_path)], ignore=["TFG013"])) == []
    assert codes(check([str(tmp_path)], select=["TFG003"])) == []  # config ignore still wins


def test_find_config_needs_lint_table(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.tfcompat-gpu]\nallow_growth = true\n")
    assert find_config([str(tmp_path)]) is None


@pytest.mark.parametrize(
    "table",
    ['select = "TFG999"', "ignore = 3", "unknown = 1", "per-file-ignores = 2"],
)
def test_invalid_config(tmp_path: Path, table: str) -> None:
    write_project(tmp_path, table)
    with pytest.raises(ConfigError):
        load_config(str(tmp_path / "pyproject.toml"))


def test_select_codes() -> None:
    assert select_codes() == default_codes()
    assert "TFG014" not in default_codes()
    assert select_codes(["TFG014"]) == {"TFG000", "TFG014"}
    assert "TFG014" in select_codes(extend_select=["TFG014"])
    assert select_codes(["TFG01"], ignore=["TFG011"]) == {
        "TFG000",
        "TFG010",
        "TFG012",
        "TFG013",
        "TFG014",
        "TFG015",
        "TFG016",
        "TFG017",
        "TFG018",
        "TFG019",
    }
    with pytest.raises(ValueError, match="XYZ"):
        select_codes(["XYZ"])
