"""Helpers for the drop-in tests: run a script file under ``tfcompat-gpu run`` and read it back.

Scripts are real files (so ``file:line`` in messages is known), run in a fresh interpreter from
``tmp_path``; they print results with :func:`emit`, and the runner's ``--report`` JSON shows
what reached TensorFlow.  :func:`flavour` is computed in the child.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
MARK = "@@tfcompat-result@@"


def emit(value: Any) -> None:
    print(MARK + json.dumps(value, default=repr), flush=True)


def flavour() -> str:
    """``keras2`` (TF <= 2.15), ``tf_keras`` (TF_USE_LEGACY_KERAS) or ``keras3``."""
    import tensorflow as tf

    major, minor = (int(p) for p in tf.__version__.split(".")[:2])
    if (major, minor) < (2, 16):
        return "keras2"
    if os.environ.get("TF_USE_LEGACY_KERAS", "") in ("1", "true", "True"):
        return "tf_keras"
    return "keras3"


@dataclass
class Run:
    rc: int
    out: str
    err: str
    result: Any
    report: Any


def run_script(
    tmp_path: Path,
    code: str,
    *flags: str,
    env: dict[str, str] | None = None,
    name: str = "script.py",
    args: tuple[str, ...] = (),
    runner: bool = True,
    timeout: float = 240,
) -> Run:
    """Write ``code`` to ``tmp_path/name`` and run it (under the runner unless ``runner=False``)."""
    from conftest import child_env

    script = tmp_path / name
    script.write_text(textwrap.dedent(code).lstrip("\n"), encoding="utf-8")
    report = tmp_path / "report.json"
    if report.exists():
        report.unlink()
    base = child_env()
    env = dict(env or {})
    paths = [env.pop("PYTHONPATH")] if "PYTHONPATH" in env else []
    extra = {"PYTHONPATH": os.pathsep.join([*paths, base["PYTHONPATH"], str(HERE)])}
    extra.update(env)
    if runner:
        command = [sys.executable, "-m", "tfcompat_gpu", "run", "--report", str(report), *flags]
    else:
        command = [sys.executable]
    proc = subprocess.run(
        [*command, name, *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=child_env(extra),
        timeout=timeout,
    )
    results = [line[len(MARK) :] for line in proc.stdout.splitlines() if line.startswith(MARK)]
    return Run(
        proc.returncode,
        proc.stdout,
        proc.stderr,
        json.loads(results[-1]) if results else None,
        json.loads(report.read_text()) if report.exists() else None,
    )


def run_child(code: str, env: dict[str, str] | None = None, **kwargs: Any) -> Any:
    """:func:`conftest.run_py` with this folder importable (``from dropin_support import ...``)."""
    from conftest import child_env, run_py

    extra = {"PYTHONPATH": os.pathsep.join([child_env()["PYTHONPATH"], str(HERE)])}
    extra.update(env or {})
    return run_py(code, env=extra, **kwargs)
