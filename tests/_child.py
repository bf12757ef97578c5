"""Running code in a fresh interpreter: the one helper for every test that starts a child.

Import it one way, from any test folder and from a child alike::

    from tests._child import run_py, run_script, cli, child_env, emit

(pytest puts the checkout first on ``sys.path``, ``[tool.pytest.ini_options] pythonpath``, and
:func:`child_env` puts it first on a child's ``PYTHONPATH``.)  It imports nothing but the standard
library at import time, so a child that imports it for :func:`emit` loads nothing of ours.

Everything that changes TensorFlow's process-wide state (the GPU configuration, v1 behaviour,
the drop-in, simulated GPUs) runs in a child: :func:`run_py` for a snippet, :func:`run_script`
for a script file (under ``tfcompat-gpu run`` or plain ``python``), :func:`run` / :func:`cli` for
any other command line.  A child prints one JSON document with :func:`emit`, and the test asserts
on it.  Several cases share one child where they can, since importing TensorFlow costs seconds.

Environment policy (:func:`child_env`, used by every helper here):

* the child starts from the test process's environment;
* every ``TFCOMPAT_GPU_*`` and ``TF_FORCE_*`` variable is removed (settings and forced growth
  from the developer's shell never reach a test), except ``TFCOMPAT_GPU_CACHE_DIR``: the test's
  own cache folder (``conftest.py``), so a child's ``check`` / ``migrate`` keep their cache
  apart from the user's and from other tests';
* ``TF_CPP_MIN_LOG_LEVEL`` is ``3`` unless the test process sets it;
* ``PYTHONPATH`` is the checkout, then ``tests/`` (``simgpu``, ``cases``, ``nvmlfake``), then
  what the test process had;
* ``CUDA_*`` and everything else is kept as it is: a test that needs GPUs hidden or described
  says so, with ``CUDA_VISIBLE_DEVICES`` in ``env`` or ``drop=("CUDA_",)``;
* ``drop`` removes more prefixes; ``env`` is applied last, except that its ``PYTHONPATH`` goes
  in front of the one above rather than replacing it.
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

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
MARK = "@@tfcompat-result@@"

_REMOVED = ("TFCOMPAT_GPU_", "TF_FORCE")
_KEPT = ("TFCOMPAT_GPU_CACHE_DIR",)

# run_py's child defines emit itself, not to import anything before the test's code
_PRELUDE = f"""
import json as _json
def emit(value):
    print({MARK!r} + _json.dumps(value, default=repr), flush=True)
"""


def child_env(env: dict[str, str] | None = None, *, drop: tuple[str, ...] = ()) -> dict[str, str]:
    """The environment of a child (the policy is in this module's docstring)."""
    removed = _REMOVED + tuple(drop)
    out = {k: v for k, v in os.environ.items() if k in _KEPT or not k.startswith(removed)}
    out.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    extra = dict(env or {})
    paths = [extra.pop("PYTHONPATH")] if "PYTHONPATH" in extra else []
    paths += [str(ROOT), str(TESTS)]
    if out.get("PYTHONPATH"):
        paths.append(out["PYTHONPATH"])
    out["PYTHONPATH"] = os.pathsep.join(paths)
    out.update(extra)
    return out


def emit(value: Any) -> None:
    """In a child: hand ``value`` back to the test (the last one wins)."""
    print(MARK + json.dumps(value, default=repr), flush=True)


def emitted(stdout: str) -> Any:
    """What a child passed to :func:`emit` last, or ``None``."""
    results = [line[len(MARK) :] for line in stdout.splitlines() if line.startswith(MARK)]
    return json.loads(results[-1]) if results else None


def flavour() -> str:
    """In a child: ``keras2`` (TF <= 2.15), ``tf_keras`` (TF_USE_LEGACY_KERAS) or ``keras3``."""
    import tensorflow as tf

    major, minor = (int(p) for p in tf.__version__.split(".")[:2])
    if (major, minor) < (2, 16):
        return "keras2"
    if os.environ.get("TF_USE_LEGACY_KERAS", "") in ("1", "true", "True"):
        return "tf_keras"
    return "keras3"


def run(
    argv: list[str],
    *,
    env: dict[str, str] | None = None,
    drop: tuple[str, ...] = (),
    cwd: Path | str | None = None,
    timeout: float = 300,
    **kwargs: Any,
) -> subprocess.CompletedProcess[Any]:
    """``python ARGV...`` in a child; output captured as text unless ``kwargs`` say otherwise."""
    if not {"stdout", "stderr", "capture_output"} & kwargs.keys():
        kwargs["capture_output"] = True
    kwargs.setdefault("text", True)
    kwargs.setdefault("check", False)
    return subprocess.run(
        [sys.executable, *argv],
        env=child_env(env, drop=drop),
        cwd=cwd,
        timeout=timeout,
        **kwargs,
    )


def start(
    argv: list[str],
    *,
    env: dict[str, str] | None = None,
    drop: tuple[str, ...] = (),
    cwd: Path | str | None = None,
    **kwargs: Any,
) -> subprocess.Popen[Any]:
    """``python ARGV...`` started in the background (stdout and stderr piped, as text)."""
    kwargs.setdefault("stdout", subprocess.PIPE)
    kwargs.setdefault("stderr", subprocess.PIPE)
    kwargs.setdefault("text", True)
    return subprocess.Popen(
        [sys.executable, *argv], env=child_env(env, drop=drop), cwd=cwd, **kwargs
    )


def cli(
    *args: str,
    env: dict[str, str] | None = None,
    drop: tuple[str, ...] = (),
    cwd: Path | str | None = None,
    timeout: float = 300,
    **kwargs: Any,
) -> subprocess.CompletedProcess[Any]:
    """``tfcompat-gpu ARGS...`` (``python -m tfcompat_gpu``) in a child."""
    return run(
        ["-m", "tfcompat_gpu", *args], env=env, drop=drop, cwd=cwd, timeout=timeout, **kwargs
    )


def run_py(
    code: str,
    *,
    env: dict[str, str] | None = None,
    expect_fail: bool = False,
    timeout: float = 300,
    cwd: Path | None = None,
) -> Any:
    """Run ``code`` in a fresh interpreter and return what it passed to ``emit()``.

    With ``expect_fail`` the child must fail, and the finished process is returned.
    """
    import pytest

    proc = run(["-c", _PRELUDE + textwrap.dedent(code)], env=env, cwd=cwd, timeout=timeout)
    if (proc.returncode != 0) != expect_fail:
        pytest.fail(
            f"child exited with {proc.returncode}\n--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"
        )
    if expect_fail:
        return proc
    if MARK not in proc.stdout:
        pytest.fail(f"child emitted nothing\n--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}")
    return emitted(proc.stdout)


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
    """Write ``code`` to ``tmp_path/name`` and run it there, under ``tfcompat-gpu run --report
    FLAGS...`` unless ``runner=False``.

    A real file, so ``file:line`` in messages is known; the script hands results back with
    ``from tests._child import emit``, and the runner's report says what reached TensorFlow.
    """
    script = tmp_path / name
    script.write_text(textwrap.dedent(code).lstrip("\n"), encoding="utf-8")
    report = tmp_path / "report.json"
    if report.exists():
        report.unlink()
    command = ["-m", "tfcompat_gpu", "run", "--report", str(report), *flags] if runner else []
    proc = run([*command, name, *args], env=env, cwd=tmp_path, timeout=timeout)
    return Run(
        proc.returncode,
        proc.stdout,
        proc.stderr,
        emitted(proc.stdout),
        json.loads(report.read_text()) if report.exists() else None,
    )
