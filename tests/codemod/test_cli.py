"""``tfcompat-gpu migrate``: diff by default, --write, --check, usage errors, bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import SAMPLE_LEGACY as LEGACY
from _support import SAMPLE_MIGRATED as MIGRATED
from _support import migrate_cli

from tests._child import run
from tfcompat_gpu.cli import main as tfcompat_main
from tfcompat_gpu.commands.migrate import INSTALL_HINT, main

LEFT_ALONE = "import tensorflow as tf\nsess = tf.Session(config=tf.ConfigProto(**opts))\n"
# its configuration is left alone; the TF1 session it keeps now runs through tf.compat.v1
LEFT_ALONE_UPGRADED = (
    "import tensorflow.compat.v1 as tf\n\ntf.disable_v2_behavior()\n"
    "sess = tf.Session(config=tf.ConfigProto(**opts))\n"
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "train.py").write_text(LEGACY)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "clean.py").write_text("print('nothing to do')\n")
    (tmp_path / "pkg" / "odd.py").write_text(LEFT_ALONE)
    return tmp_path


def test_default_prints_a_diff_and_changes_nothing(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["migrate", str(project)]) == 0
    out, err = capsys.readouterr()
    # outside the current folder: named from the folder given, which the note says
    assert "--- a/train.py" in out
    assert f"the diff names the files under {project} from there" in err
    assert "+tfcompat_gpu.configure(allow_growth=True)" in out
    assert "-config.gpu_options.allow_growth = True  # keep" in out
    assert "clean.py" not in out
    assert (project / "train.py").read_text() == LEGACY
    # what was left alone is reported with file and line
    assert f"{project / 'pkg' / 'odd.py'}:2: ConfigProto left unchanged" in err


def test_write_rewrites_in_place(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["migrate", "--write", str(project)]) == 0
    assert (project / "train.py").read_text() == MIGRATED
    assert (project / "pkg" / "clean.py").read_text() == "print('nothing to do')\n"
    assert (project / "pkg" / "odd.py").read_text() == LEFT_ALONE_UPGRADED
    capsys.readouterr()
    # a second run finds nothing left to do
    assert main(["migrate", "--check", str(project / "train.py")]) == 0


def test_check_exits_1_when_something_would_change(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["migrate", "--check", str(project)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert f"{project / 'train.py'}: would be migrated" in err
    assert (project / "train.py").read_text() == LEGACY
    assert main(["migrate", "--check", str(project / "pkg" / "clean.py")]) == 0


def test_target_tf2(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["migrate", "--target", "tf2", str(project / "train.py")]) == 0
    out = capsys.readouterr().out
    assert "+    tf.config.experimental.set_memory_growth(gpu, True)" in out
    assert "+sess = tf.compat.v1.Session()" in out


def test_unparsable_file_is_reported_and_skipped(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "broken.py").write_text("def oops(:\n")
    # the others are migrated; the skipped file makes the run fail at the end
    assert main(["migrate", "--write", str(project)]) == 1
    err = capsys.readouterr().err
    # the column is Python's: the ``:`` after the parenthesis
    assert f"{project / 'broken.py'}: skipped: cannot parse it (line 1, column 10:" in err
    assert (project / "broken.py").read_text() == "def oops(:\n"
    assert (project / "train.py").read_text() == MIGRATED


@pytest.mark.parametrize(
    "args",
    [
        pytest.param([], id="no-paths"),
        pytest.param(["--write", "--check", "x.py"], id="write-and-check"),
        pytest.param(["--target", "tf3", "x.py"], id="bad-target"),
        pytest.param(["does-not-exist.py"], id="missing-path"),
        pytest.param(["--frobnicate", "x.py"], id="unknown-option"),
    ],
)
def test_usage_errors_exit_2(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.py").write_text("")
    assert main(["migrate", *args]) == 2


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["migrate", "--help"]) == 0
    assert "--target" in capsys.readouterr().out


def test_dispatcher_reaches_migrate(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert tfcompat_main(["migrate", "--check", str(project / "train.py")]) == 1


def test_entry_point_runs_as_a_program(project: Path) -> None:
    done = migrate_cli("--check", "train.py", cwd=project)
    assert done.returncode == 1, done.stderr
    assert "train.py: would be migrated" in done.stderr


def test_without_libcst_says_how_to_install(project: Path) -> None:
    # a None entry in sys.modules makes ``import libcst`` fail as if it were not installed
    code = (
        "import sys; sys.modules['libcst'] = None\n"
        "from tfcompat_gpu.commands.migrate import main\n"
        f"raise SystemExit(main(['migrate', {str(project)!r}]))\n"
    )
    done = run(["-c", code])
    assert done.returncode == 2
    assert INSTALL_HINT in done.stderr
    assert 'pip install "tfcompat-gpu[migrate]"' in done.stderr


def test_never_imports_tensorflow(project: Path) -> None:
    code = (
        "import sys\n"
        "from tfcompat_gpu.commands.migrate import main\n"
        f"main(['migrate', '--target', 'tf2', {str(project)!r}])\n"
        "assert not any(m == 'tensorflow' or m.startswith('keras') for m in sys.modules), "
        "sorted(sys.modules)\n"
    )
    done = run(["-c", code])
    assert done.returncode == 0, done.stderr


def test_cycle_collector_is_off_during_a_file_and_on_after(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import gc

    import tfcompat_gpu.codemod.api as api

    seen: list[bool] = []
    migrate = api.migrate_source

    def recording(*args: object, **kwargs: object) -> object:
        seen.append(gc.isenabled())
        return migrate(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(api, "migrate_source", recording)
    assert gc.isenabled()
    assert main(["migrate", "-j1", str(project)]) == 0
    assert seen
    assert not any(seen)
    assert gc.isenabled()
    assert "configure(" in capsys.readouterr().out


def test_unchanged_files_are_remembered(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tfcompat_gpu.commands import migrate as cli

    cache = str(tmp_path / "cache")
    seen: list[str] = []
    real = cli._migrate_one

    def counting(job: tuple[str, str, str]) -> object:
        seen.append(Path(job[0]).name)
        return real(job)

    clean = project / "pkg" / "clean.py"
    argv = ["migrate", "--check", "-j1", "--cache-dir", cache, str(project)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cli, "_migrate_one", counting)
        first = main(argv)
        first_err = capsys.readouterr().err
        assert "clean.py" in seen
        seen.clear()
        assert main(argv) == first
        # the clean file is answered from the cache; the one to migrate is migrated again
        assert "clean.py" not in seen
        assert "train.py" in seen
        # the same warnings (a remembered file's come first)
        assert sorted(capsys.readouterr().err.splitlines()) == sorted(first_err.splitlines())
        clean.write_text(LEGACY)  # changed: migrated again, and now it would change
        seen.clear()
        assert main(argv) == 1
        assert "clean.py" in seen
        assert f"{clean}: would be migrated" in capsys.readouterr().err


KERAS2 = (
    "from keras.optimizers import SGD\nopt = SGD(lr=0.1)\nmodel.fit_generator(gen, workers=2)\n"
)


def test_summary_line_counts_changed_files_and_warnings(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "keras2.py").write_text(KERAS2)
    assert main(["migrate", "--write", str(project)]) == 0
    err = capsys.readouterr().err
    # train.py, odd.py (TF1 session kept: compat.v1) and keras2.py; clean.py untouched
    assert err.splitlines()[-1] == (
        "tfcompat-gpu migrate: 3 of 4 files changed, 2 warnings left to review by hand"
    )
    assert (project / "keras2.py").read_text() == (
        "from keras.optimizers import SGD\nopt = SGD(learning_rate=0.1)\nmodel.fit(gen)\n"
    )


def test_gpu_only_leaves_the_keras_api(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "keras2.py").write_text(KERAS2)
    assert main(["migrate", "--write", "--gpu-only", str(project)]) == 0
    assert (project / "keras2.py").read_text() == KERAS2
    assert (project / "pkg" / "odd.py").read_text() == LEFT_ALONE
    assert "1 of 4 files changed" in capsys.readouterr().err


def test_a_file_that_reads_its_neighbours_is_not_remembered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a Keras 2 project split in two: main.py takes its Keras names from model.py by a star
    # import, so what main.py needs depends on model.py too
    project = tmp_path / "unet"
    project.mkdir()
    main_py = project / "main.py"
    main_py.write_text(
        "from model import *\n"
        "checkpoint = ModelCheckpoint('unet.hdf5', monitor='loss', save_best_only=True)\n"
    )
    model_py = project / "model.py"
    model_py.write_text("import numpy as np\n\ndef unet():\n    return None\n")
    argv = ["migrate", "--check", "-j1", "--cache-dir", str(tmp_path / "cache"), str(project)]
    assert main(argv) == 0
    capsys.readouterr()
    # model.py now imports Keras' ModelCheckpoint: main.py's checkpoint name must change
    model_py.write_text(
        "import numpy as np\nfrom keras.callbacks import ModelCheckpoint\n\n"
        "def unet():\n    return None\n"
    )
    assert main(argv) == 1
    assert f"{main_py}: would be migrated" in capsys.readouterr().err
