"""Large bodies of real and generated code: no new rule fires where nothing is wrong."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections import Counter
from pathlib import Path

import pytest

from tfcompat_gpu.lint.api import check

ROOT = Path(__file__).resolve().parents[2]
STDLIB = Path(os.__file__).parent
# The parts of the standard library that set environments, spawn children and branch on them.
STDLIB_PARTS = [
    "os.py",
    "subprocess.py",
    "multiprocessing",
    "concurrent",
    "asyncio",
    "unittest",
    "email",
    "logging",
    "venv",
    "ensurepip",
    "idlelib",
    "sysconfig.py",
    "platform.py",
    "webbrowser.py",
]


def test_standard_library_is_clean() -> None:
    paths = [str(STDLIB / part) for part in STDLIB_PARTS if (STDLIB / part).exists()]
    report = check(paths, select="TFG")
    assert report.files > 200
    assert [f for f in report.findings if f.code != "TFG000"] == []


def test_generated_tree_fires_only_what_it_holds(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("lint_bench", ROOT / "bench" / "lint_bench.py")
    assert spec is not None
    assert spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.generate(tmp_path / "tree", 40)
    counts = Counter(f.code for f in check([str(tmp_path / "tree")], select="TFG").findings)
    # Fractions, device strings, TF1 names, deprecated names, direct GPU calls: what the
    # generator writes.  Its sessions and environment variables sit in separate functions
    # that nothing calls together, so no combining rule fires.  Its TF1 graph names
    # (tf.placeholder, ...) are TFG041.
    assert set(counts) <= {"TFG002", "TFG009", "TFG010", "TFG013", "TFG014", "TFG041"}, counts
    assert counts["TFG009"] > 0
    assert counts["TFG014"] > 0


MATCH_CASES = """\
import tensorflow as tf


def setup(mode):
    gpus = tf.config.list_physical_devices("GPU")
    match mode:
        case "grow":
            for gpu in gpus:
                tf.config.experimental.set_memory_growth(gpu, True)
        case _:
            tf.config.set_logical_device_configuration(
                gpus[0], [tf.config.LogicalDeviceConfiguration(memory_limit=2048)]
            )
    tf.config.experimental.set_memory_growth(gpus[0], True)
"""


@pytest.mark.skipif(sys.version_info < (3, 10), reason="match statements need Python 3.10")
def test_match_cases_exclude_each_other(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text(MATCH_CASES)
    found = [(f.line, f.code) for f in check([str(path)], select="TFG007").findings]
    # The two cases never combine; the growth after the match combines with the limit.
    assert found == [(14, "TFG007")]
