"""Shared test helpers.

Everything that changes TensorFlow's process-wide state runs in a fresh interpreter through
:func:`run_py`; the script prints one JSON document with :func:`emit` (available in the child)
and the test asserts on it.  Several cases share one child where they can, since importing
TensorFlow costs seconds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).resolve().parent

# `check` and `migrate` keep a cache in the user's cache folder: the suite's runs keep theirs
# apart, one per test (below), so that no test is answered from another's run.
os.environ.setdefault("TFCOMPAT_GPU_CACHE_DIR", tempfile.mkdtemp(prefix="tfcompat-gpu-cache-"))


@pytest.fixture(autouse=True)
def _own_cache(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    monkeypatch.setenv("TFCOMPAT_GPU_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


ROOT = TESTS.parent
MARK = "@@tfcompat-result@@"

_PRELUDE = f"""
import json as _json, sys as _sys
_sys.path.insert(0, {str(TESTS)!r})
def emit(value):
    print({MARK!r} + _json.dumps(value, default=repr), flush=True)
"""


def child_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TFCOMPAT_GPU_", "TF_FORCE"))}
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(TESTS), env.get("PYTHONPATH", "")])
    env.update(extra or {})
    return env


def run_py(
    code: str,
    *,
    env: dict[str, str] | None = None,
    expect_fail: bool = False,
    timeout: float = 300,
    cwd: Path | None = None,
) -> Any:
    """Run ``code`` in a fresh interpreter and return what it passed to ``emit()``."""
    script = _PRELUDE + textwrap.dedent(code)
    proc = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env=child_env(env),
        timeout=timeout,
        cwd=cwd,
    )
    if (proc.returncode != 0) != expect_fail:
        pytest.fail(
            f"child exited with {proc.returncode}\n--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"
        )
    results = [line[len(MARK) :] for line in proc.stdout.splitlines() if line.startswith(MARK)]
    if expect_fail:
        return proc
    if not results:
        pytest.fail(f"child emitted nothing\n--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}")
    return json.loads(results[-1])
