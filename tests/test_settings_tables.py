"""A table under ``[tool.tfcompat-gpu]`` (or ``[gpu]``) that no part reads is an error, not defaults.

Written as users write TensorFlow's nesting into a settings file: a sub-table, an inline table,
dotted keys. Each must name the file, the line and the key; ``[tool.tfcompat-gpu.lint]`` stays
the lint's.
"""

from __future__ import annotations

import pytest

from tests._child import ROOT, cli
from tfcompat_gpu import GPUConfig, GPUConfigError

CASES = {
    "sub-table": (
        "[tool.tfcompat-gpu]\nrate = 0.5\n\n[tool.tfcompat-gpu.gpu_options]\nallow_growth = true\n",
        4,
    ),
    "inline-table": ("[tool.tfcompat-gpu]\ngpu_options = {allow_growth = true}\n", 2),
    "dotted-keys": ("[tool.tfcompat-gpu]\nrate = 0.5\ngpu_options.allow_growth = true\n", 3),
    "quoted-sub-table": ('[tool.tfcompat-gpu]\n[tool.tfcompat-gpu."session"]\nx = 1\n', 2),
    "gpu-table": ("[gpu]\nallow_growth = true\n[gpu.gpu_options]\nallow_growth = true\n", 3),
}


@pytest.mark.parametrize(("text", "line"), CASES.values(), ids=CASES.keys())
def test_an_unknown_table_names_file_line_and_key(tmp_path, text, line):
    path = tmp_path / "pyproject.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(GPUConfigError) as caught:
        GPUConfig.from_file(path)
    message = str(caught.value)
    assert f"{path}:{line} " in message
    assert "is a table" in message


def test_the_hint_moves_known_keys_up(tmp_path):
    path = tmp_path / "pyproject.toml"
    path.write_text(CASES["inline-table"][0], encoding="utf-8")
    with pytest.raises(
        GPUConfigError, match=r"directly under .tool\.tfcompat-gpu.: allow_growth = true"
    ):
        GPUConfig.from_file(path)


def test_the_lint_table_is_left_to_the_lint(tmp_path):
    path = tmp_path / "pyproject.toml"
    path.write_text(
        '[tool.tfcompat-gpu]\nallow_growth = true\n\n[tool.tfcompat-gpu.lint]\nselect = ["TFG001"]\n'
        '[tool.tfcompat-gpu.lint.per-file-ignores]\n"a.py" = ["TFG001"]\n',
        encoding="utf-8",
    )
    assert GPUConfig.from_file(path).allow_growth is True


def test_plan_config_refuses_the_file_before_planning(tmp_path):
    path = tmp_path / "pyproject.toml"
    path.write_text(CASES["sub-table"][0], encoding="utf-8")
    proc = cli("plan", "--gpus", "1", "--config", str(path), cwd=ROOT, timeout=120)
    assert proc.returncode == 2
    assert f"{path}:4 [tool.tfcompat-gpu] gpu_options" in proc.stderr
    assert "Traceback" not in proc.stderr
