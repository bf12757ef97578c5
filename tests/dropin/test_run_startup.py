"""``tfcompat-gpu run``'s start-up stays light: a script without TensorFlow pays next to nothing.

Guarded by what the runner imports, not by a timing (a loaded machine makes timings flaky):
each heavy module below costs several ms to import, and a script that never imports
TensorFlow or Keras must not find one in ``sys.modules`` that plain ``python`` did not load.
"""

from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path

import pytest

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

# What the runner itself imports for a script run with no option and no TFCOMPAT_GPU_*
# variable, whose code auto mode has nothing to read in (no import): no option parser, no
# settings, no reader, none of the standard modules their import costs (some ms each).
BARE = (
    "argparse",
    "ast",
    "dataclasses",
    "inspect",
    "json",
    "logging",
    "threading",
    "typing",
    "tfcompat_gpu.commands._settings_flags",
    "tfcompat_gpu.dropin._auto",
    "tfcompat_gpu.dropin._sessions",
    "tfcompat_gpu.dropin._tf1",
    "tfcompat_gpu.dropin.placement",
    "tfcompat_gpu.runtime.conflicts",
    "tfcompat_gpu.settings.config",
    "tfcompat_gpu.settings.env_vars",
    "tfcompat_gpu.settings.kinds",
    "tfcompat_gpu.settings.options",
    "tfcompat_gpu.tfapi._tf",
)
# ... and, started as the console script is (not with -m, whose runpy imports them itself):
BARE_CONSOLE = ("collections", "contextlib", "functools", "importlib.util")
CONSOLE_SCRIPT = "import sys\nfrom tfcompat_gpu.cli import main\nsys.exit(main())\n"
# No "import" in its text (auto mode skips it), modules listed before anything else is loaded.
SHOW_MODULES_BARE = (
    "b = globals()['__builtins__']\n"
    "load = (b if isinstance(b, dict) else vars(b))['__im' + 'port__']\n"
    "names = sorted(load('sys').modules)\n"
    "print(load('json').dumps(names))\n"
)


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


def test_a_bare_run_imports_no_parser_settings_or_reader(tmp_path: Path) -> None:
    script = tmp_path / "bare.py"
    script.write_text(SHOW_MODULES_BARE)
    python = _modules(tmp_path, "bare.py")
    ours = _modules(tmp_path, "-m", "tfcompat_gpu", "run", "bare.py")
    added = ours - python
    assert "tfcompat_gpu.commands.run" in added
    assert sorted(added & set(BARE)) == []
    # As the installed `tfcompat-gpu` starts it (no runpy, which imports these itself).
    ours = _modules(tmp_path, "-c", CONSOLE_SCRIPT, "run", "bare.py")
    added = ours - python
    assert "tfcompat_gpu.commands.run" in added
    assert sorted(added & {*BARE, *BARE_CONSOLE}) == []
    # With imports to read, auto mode loads its reader, and still no parser nor settings.
    script.write_text("import os\n" + SHOW_MODULES_BARE)
    added = _modules(tmp_path, "-m", "tfcompat_gpu", "run", "bare.py") - python
    assert "tfcompat_gpu.dropin._auto" in added
    assert sorted(added & {"argparse", "typing", "tfcompat_gpu.settings.config"}) == []
    # An option (or a variable) takes the full path: parser, settings, their checks.
    added = _modules(tmp_path, "-m", "tfcompat_gpu", "run", "--no-auto", "bare.py") - python
    assert {"argparse", "tfcompat_gpu.settings.config"} <= added
    assert "tfcompat_gpu.dropin._auto" not in added


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


# -- the short cuts of a bare run give what the long way gives ------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["s.py"],
        ["s.py", "--tf1", "-h", "--allow-growth=1"],
        ["", "a"],
        ["a b.py", "-", "x=1"],
        ["@f", "--no-auto"],
        ["s.py", "--", "a"],
        ["s.py", "a", "--"],
        ["--tf1", "s.py"],
        ["-", "a"],
    ],
)
def test_a_bare_command_line_reads_as_argparse_reads_it(args: list[str]) -> None:
    from tfcompat_gpu.commands import run as runner

    plain = runner._plain(args)
    if plain is not None:
        assert vars(plain) == vars(runner._parser().parse_args(args))
    else:
        assert "--" in args or args[0].startswith("-")


def test_every_settings_variable_is_one_a_bare_run_looks_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tfcompat_gpu.commands import run as runner
    from tfcompat_gpu.commands.run import REPORT_ENV
    from tfcompat_gpu.dropin._legacy_keras import LEGACY_KERAS_ENV
    from tfcompat_gpu.settings.env_vars import CONFLICT_POLICY_ENV
    from tfcompat_gpu.settings.options import OPTIONS

    read = [option.env for option in OPTIONS if option.env]
    read += [CONFLICT_POLICY_ENV, REPORT_ENV, LEGACY_KERAS_ENV, "TF_FORCE_GPU_ALLOW_GROWTH"]
    for name in [k for k in os.environ if k.startswith(("TFCOMPAT_GPU_", "TF_FORCE"))]:
        monkeypatch.delenv(name)
    assert not runner._settings_in_env()
    for name in (*read, *runner._NOT_SETTINGS):
        monkeypatch.setenv(name, "0")
        assert runner._settings_in_env() is (name in read), name
        monkeypatch.delenv(name)


def test_the_child_mode_is_written_as_json_writes_it() -> None:
    from tfcompat_gpu.dropin._children import RunMode

    modes = [
        RunMode(),
        RunMode(
            settings={"visible_device_list": "1,0", "per_process_gpu_memory_fraction": 0.5},
            tf1=True,
            legacy_keras=True,
            policy="remap",
            script_dirs=('/tmp/a "b"\\c', "/d\u00e9j\u00e0/\U0001f600\n\t\x00"),
        ),
    ]
    for mode in modes:
        text = mode.to_json()
        assert text == json.dumps(
            {
                "settings": repr(mode.settings),
                "tf1": mode.tf1,
                "legacy_keras": mode.legacy_keras,
                "policy": mode.policy,
                "script_dirs": list(mode.script_dirs),
            }
        )
        assert RunMode.from_json(text) == mode


def test_code_without_import_is_code_auto_mode_finds_nothing_in(tmp_path: Path) -> None:
    from tfcompat_gpu.commands import run as runner
    from tfcompat_gpu.dropin import _auto

    code = (
        b"# tf.placeholder, tf.Session().run(x), keras.layers.merge, tf.device('/gpu:3')\n"
        b"sess = tf.Session()\nsess.run(tf.placeholder(tf.float32))\n"
        b"model.fit_generator(gen)\nwith tf.device('/gpu:7'):\n    pass\n"
    )
    assert runner._imports_nothing(code)
    assert not runner._imports_nothing(b"import os\n" + code)
    assert not runner._imports_nothing("# é\n".encode() + code)  # not ASCII: read it
    script = tmp_path / "s.py"
    script.write_bytes(code)
    for tf1 in (False, True):
        choice = _auto.choose(
            _auto.read(str(script), code),
            str(script),
            tf1=tf1,
            legacy_keras=False,
            soft_placement=None,
            gpu_count=0,
        )
        assert (choice.tf1, choice.legacy_keras, choice.soft_placement) == (False, False, False)
        assert (choice.message, choice.notes) == (None, ())
