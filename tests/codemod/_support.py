"""Helpers for the codemod tests: ``migrate`` and migrated code in a child (:mod:`tests._child`)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
from pathlib import Path

import pytest

from tests._child import ROOT, cli, run

FIXTURES = Path(__file__).resolve().parent / "fixtures"
LEGACY = ROOT / "legacy_examples"


# Migrated scripts run on the CPU unless the test process names GPUs itself.
NO_GPUS = {"CUDA_VISIBLE_DEVICES": os.environ.get("CUDA_VISIBLE_DEVICES", "")}


def needs_tensorflow() -> None:
    # find_spec, not importorskip: the test process itself never imports TensorFlow
    if importlib.util.find_spec("tensorflow") is None:
        pytest.skip("TensorFlow is not installed")


def migrated_twice(source: str) -> tuple[str, tuple[str, ...]]:
    """``source`` (dedented) migrated with ``upgrade=True``: the code and the warnings; a second
    run must change nothing."""
    import textwrap

    from tfcompat_gpu.codemod.api import migrate_source

    source = textwrap.dedent(source).lstrip("\n")
    result = migrate_source(source, upgrade=True)
    again = migrate_source(result.code, upgrade=True)
    assert again.code == result.code, "a second run changed the code again"
    return result.code, result.warnings


def keras3(*, tf_keras_too: bool = False) -> bool:
    """Whether ``import keras`` gives Keras 3 (and, with ``tf_keras_too``, whether ``tf.keras``
    does as well: not where ``TF_USE_LEGACY_KERAS`` makes it tf_keras)."""
    from importlib.metadata import PackageNotFoundError, version

    if tf_keras_too and os.environ.get("TF_USE_LEGACY_KERAS", "") in ("1", "true", "True"):
        return False
    try:
        return int(version("keras").split(".")[0]) >= 3
    except PackageNotFoundError:
        return False


def run_file(
    path: Path, runner: tuple[str, ...] | None = None, timeout: float = 240
) -> subprocess.CompletedProcess[str]:
    """Run ``path`` with ``python``, or with ``tfcompat-gpu run RUNNER...`` when given."""
    command = [str(path)] if runner is None else ["-m", "tfcompat_gpu", "run", *runner, str(path)]
    return run(command, cwd=path.parent, env=NO_GPUS, timeout=timeout)


def migrate_cli(
    *args: str, cwd: Path | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return cli("migrate", *args, cwd=cwd, timeout=timeout)


def migrate_in_fresh_process(
    path: Path, status: int, loaded: tuple[str, ...] = (), not_loaded: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """``migrate --write path`` in a fresh interpreter, which checks its exit status and which
    modules the run loaded (the child fails, with the reason on stderr, where one differs)."""
    code = (
        "import sys\n"
        "from tfcompat_gpu.commands.migrate import main\n"
        f"status = main(['migrate', '--write', {str(path)!r}])\n"
        f"assert status == {status}, status\n"
        f"missing = [m for m in {list(loaded)!r} if m not in sys.modules]\n"
        "assert not missing, f'not loaded: {missing}'\n"
        f"extra = [m for m in {list(not_loaded)!r} if m in sys.modules]\n"
        "assert not extra, f'loaded: {extra}'\n"
    )
    return run(["-c", code])


def split_warning(warning: str) -> tuple[int, str]:
    line, _, message = warning.partition(": ")
    return int(line), message


def assert_warnings(got: tuple[str, ...], expected: list[tuple[int, str]]) -> None:
    """``got`` are ``"LINE: message"``; each expected ``(line, text)`` matches one, in order."""
    parsed = sorted(split_warning(w) for w in got)
    assert len(parsed) == len(expected), got
    for (line, message), (want_line, want_text) in zip(parsed, sorted(expected)):
        assert line == want_line, got
        assert want_text in message, got


# A legacy session config with a comment, and what migrate makes of it.
SAMPLE_LEGACY = """\
import tensorflow as tf
config = tf.ConfigProto()
config.gpu_options.allow_growth = True  # keep
sess = tf.Session(config=config)
sess.run(op)
"""
SAMPLE_MIGRATED = """\
import tensorflow as tf
import tfcompat_gpu

tf.compat.v1.disable_v2_behavior()
# keep
tfcompat_gpu.configure(allow_growth=True)
sess = tfcompat_gpu.session()
sess.run(op)
"""
