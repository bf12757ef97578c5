"""A file of thousands of statements costs about a thousand times one: the rules that pair
statements (two sessions, memory growth and a limit, a late variable and a child process, a
strategy and a later setting) look up partners instead of trying every earlier statement.

Counted, not timed: the number of questions put to :class:`~tfcompat_gpu.lint.flow.Flow`
grows with the statements, not with their square.  One end-to-end run of the shapes that were
quadratic (each took from seconds to minutes at 3,000 repetitions, and this file has 6,000) runs in a child with a
limit far above the time it needs.  ``bench/lint_scale.py`` measures every rule's example.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tfcompat_gpu.lint.api import check
from tfcompat_gpu.lint.flow import Flow

HEADER = "import os\nimport subprocess\nimport tensorflow as tf\n"

SHAPES = {
    # distinct sessions, one per function: no two run together, every pair was asked
    "sessions": (
        "def f{i}():\n"
        "    config = tf.ConfigProto()\n"
        "    config.gpu_options.per_process_gpu_memory_fraction = 0.{i:04d}\n"
        "    return tf.Session(config=config)\n"
    ),
    # growth and a limit on one GPU, one pair per function
    "growth": (
        "def f{i}(gpu):\n"
        "    tf.config.set_logical_device_configuration(\n"
        "        gpu, [tf.config.LogicalDeviceConfiguration(memory_limit={i} + 1)])\n"
        "    tf.config.experimental.set_memory_growth(gpu, True)\n"
    ),
}


def _source(shape: str, count: int) -> str:
    return HEADER + "".join(SHAPES[shape].format(i=i) for i in range(count))


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_questions_to_flow_grow_linearly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shape: str
) -> None:
    asked = 0
    together = Flow.together

    def counted(self: Flow, a: object, b: object) -> bool:
        nonlocal asked
        asked += 1
        return together(self, a, b)  # type: ignore[arg-type]

    monkeypatch.setattr(Flow, "together", counted)
    counts = {}
    for count in (100, 400):
        path = tmp_path / f"{shape}_{count}.py"
        path.write_text(_source(shape, count))
        asked = 0
        report = check(str(path))
        assert report.findings  # each shape is reported, so each pair was considered
        counts[count] = asked
    # linear: about 4x the questions for 4x the statements; quadratic would be about 16x
    assert counts[400] <= 4 * counts[100] + 40, counts


def test_thousands_of_paired_statements_are_checked_in_seconds(tmp_path: Path) -> None:
    body = "".join(
        f"config = tf.ConfigProto()\n"
        f"config.gpu_options.per_process_gpu_memory_fraction = 0.{i:04d}\n"
        f"sess = tf.Session(config=config)\n"
        f"tf.config.list_physical_devices('GPU')\n"
        f"os.environ['CUDA_VISIBLE_DEVICES'] = '{i % 4}'\n"
        f"strategy = tf.distribute.MirroredStrategy()\n"
        f"tf.config.experimental.set_memory_growth(gpus[0], True)\n"
        for i in range(6000)
    )
    functions = _source("sessions", 6000)[len(HEADER) :]
    path = tmp_path / "generated.py"
    path.write_text(HEADER + "gpus = tf.config.list_physical_devices('GPU')\n" + body + functions)
    code = textwrap.dedent(
        f"""
        from tfcompat_gpu.lint.api import check
        report = check({str(path)!r})
        codes = {{f.code for f in report.findings}}
        assert {{"TFG004", "TFG005", "TFG024"}} <= codes, codes
        """
    )
    # about 15 s here; with the quadratic pairings, minutes
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=90, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
