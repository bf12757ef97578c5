"""``tfcompat-gpu run``'s start-up stays light: a script without TensorFlow pays next to nothing.

Guarded by what the runner imports, not by a timing (a loaded machine makes timings flaky):
each heavy module below costs several ms to import, and a script that never imports
TensorFlow or Keras must not find one in ``sys.modules`` that plain ``python`` did not load.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from tests._child import cli, run, run_py

# Modules the runner once imported at every start (wrapt 2 alone brings asyncio and
# importlib.metadata, ~100 ms of CPU), and those a TF-free script must never pay for.
HEAVY = (
    "asyncio",
    "email",
    "importlib.abc",
    "importlib.metadata",
    "importlib.resources",
    "keras",
    "libcst",
    "logging",
    "numpy",
    "packaging",
    "packaging.version",
    "pathlib",
    "shutil",
    "tempfile",
    "tensorflow",
    "tf_keras",
    "wrapt",
    "zipfile",
)

SHOW_MODULES = "import json, sys\nprint(json.dumps(sorted(sys.modules)))\n"


def _modules(tmp_path: Path, *command: str) -> set[str]:
    proc = run([*command], cwd=tmp_path, timeout=120, check=True)
    return set(json.loads(proc.stdout.splitlines()[-1]))


def test_run_imports_no_heavy_module_for_a_script_without_tensorflow(tmp_path: Path) -> None:
    script = tmp_path / "plain.py"
    # Names auto mode looks for, in a string and a comment only: reading them imports nothing.
    script.write_text("# import tensorflow as tf; tf.Session()\nx = 'keras'\n" + SHOW_MODULES)
    python = _modules(tmp_path, "plain.py")
    for flags in ((), ("--no-auto",), ("--allow-growth", "--tf1")):
        ours = _modules(tmp_path, "-m", "tfcompat_gpu", "run", *flags, "plain.py")
        added = ours - python
        assert "tfcompat_gpu.commands.run" in added  # it did run through the runner
        assert sorted(added & set(HEAVY)) == [], flags


def test_zip_files_still_run_as_python_runs_them(tmp_path: Path) -> None:
    # The runner imports zipfile only for a file that ends like a zip; these must still run.
    app = tmp_path / "app.zip"
    with zipfile.ZipFile(app, "w") as archive:
        archive.writestr("__main__.py", "import sys\nprint('zip main', sys.argv[1:])\n")
    prefixed = tmp_path / "app.pyz"
    prefixed.write_bytes(b"#!/usr/bin/env python3\n" + app.read_bytes())
    for name in ("app.zip", "app.pyz"):
        python = run([name, "a"], cwd=tmp_path, timeout=120)
        ours = cli("run", name, "a", cwd=tmp_path, timeout=120)
        assert python.stdout == "zip main ['a']\n", python.stderr
        assert (ours.returncode, ours.stdout) == (0, python.stdout), ours.stderr


def test_post_import_hooks_fire_once_with_the_real_loader(tmp_path: Path) -> None:
    (tmp_path / "later_mod.py").write_text("VALUE = 41\n")
    out = run_py(
        f"""
        import sys
        sys.path.insert(0, {str(tmp_path)!r})
        from tfcompat_gpu.utils import postimport as _postimport
        seen = []
        _postimport.register(lambda m: seen.append(("later", m.VALUE)), "later_mod")
        _postimport.register(lambda m: seen.append(("json", m.__name__)), "json")  # imported
        before = list(seen)
        import later_mod
        import importlib
        importlib.reload(later_mod)
        emit({{
            "before": before,
            "after": seen,
            "loader": type(later_mod.__loader__).__name__,
            "spec_loader": type(later_mod.__spec__.loader).__name__,
        }})
        """
    )
    assert out["before"] == [["json", "json"]]
    assert out["after"] == [["json", "json"], ["later", 41]]
    assert out["loader"] == out["spec_loader"] == "SourceFileLoader"
