from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

from tests._child import run
from tests.lint.helpers import FIXTURES, Expected, differences, expected
from tfcompat_gpu.lint.flake8_plugin import Plugin
from tfcompat_gpu.lint.registry import default_codes

SOURCE = (
    "import os\n"
    "import tensorflow as tf\n"
    "os.environ['CUDA_VISIBLE_DEVCIES'] = '0'\n"
    "tf.config.set_soft_device_placement = False\n"
    "cfg = tf.compat.v1.ConfigProto()  # TFG014 is opinionated: not yielded\n"
)


def test_protocol() -> None:
    plugin = Plugin(ast.parse(SOURCE), "x.py")
    assert Plugin.name == "tfcompat-gpu"
    assert Plugin.version
    results = list(plugin.run())
    assert [(line, col, text.split()[0]) for line, col, text, _ in results] == [
        (3, 11, "TFG003"),  # flake8 columns count from 0
        (4, 0, "TFG001"),
    ]
    assert all(kind is Plugin for *_, kind in results)
    assert results[0][2].startswith("TFG003 environment variable 'CUDA_VISIBLE_DEVCIES'")


# flake8 hands plugins parsed trees only: the files that do not parse are not theirs.
PARSED = [p for p in sorted(FIXTURES.glob("tfg0[0-1]*.py")) if not p.stem.startswith("tfg000")]


@pytest.mark.parametrize("path", PARSED, ids=lambda p: p.stem)
def test_same_findings_as_check(path: Path) -> None:
    select, want = expected(path)
    want = [e for e in want if e.code in default_codes()]
    tree = ast.parse(path.read_text())
    got = [
        # flake8 columns count from 0; its text is the code, then the message
        Expected(line, col + 1, *text.split(" ", 1))
        for line, col, text, _ in Plugin(tree, str(path)).run()
        if any(text.startswith(s) for s in select)
    ]
    # flake8 applies noqa itself; the fixtures here carry none.
    assert differences(want, got) == []


@pytest.mark.skipif(importlib.util.find_spec("flake8") is None, reason="flake8 not installed")
def test_through_flake8(tmp_path: Path) -> None:
    path = tmp_path / "t.py"
    path.write_text(SOURCE + "os.environ['CUDA_VISIBLE_DEVCIES'] = '1'  # noqa: TFG003\n")
    proc = run(["-m", "flake8", "--select", "TFG", str(path)])
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert [line.split(": ", 1)[1].split()[0] for line in lines] == ["TFG003", "TFG001"]
    assert lines[0].startswith(f"{path}:3:12: TFG003")
