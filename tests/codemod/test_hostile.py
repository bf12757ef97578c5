"""``migrate`` on hostile input: a file LibCST cannot take, odd whitespace, odd names, odd options.

Each test reproduces one failure seen with such input; the run must report the file as
skipped (or do the right thing) and go on with the others.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import SAMPLE_LEGACY as LEGACY
from _support import SAMPLE_MIGRATED as MIGRATED
from _support import migrate_cli
from binding_forms import available

from tests._child import cli, run
from tfcompat_gpu.codemod._engine import _migrate
from tfcompat_gpu.codemod._focus import Focus, focus, unfocus
from tfcompat_gpu.codemod._limits import MAX_DEPTH, TooComplex, depth
from tfcompat_gpu.codemod.api import migrate_source
from tfcompat_gpu.codemod.commands import commands_for

# a legacy config LibCST must see, and an expression that nests past what its parser takes
CHAIN = (
    "import tensorflow as tf\n"
    "config = tf.ConfigProto()\n"
    "config.gpu_options.allow_growth = True\n"
    "sess = tf.Session(config=config)\n"
    "ready = config and " + " and ".join(["sess"] * 8000) + "\n"
)


_cli = migrate_cli


def test_a_chain_the_native_parser_cannot_take_is_a_skipped_file(tmp_path: Path) -> None:
    # LibCST 1.9's native parser dies with SIGSEGV on this file (8,000 ``and`` operands)
    (tmp_path / "a_chain.py").write_text(CHAIN)
    (tmp_path / "b_train.py").write_text(LEGACY)
    done = _cli(".", cwd=tmp_path)
    assert done.returncode == 1, (done.returncode, done.stderr[-2000:])
    assert "a_chain.py: skipped: cannot parse it with LibCST (line 5 nests 8002 levels" in (
        done.stderr
    )
    assert "+++ b/b_train.py" in done.stdout  # the run went on
    assert (tmp_path / "a_chain.py").read_text() == CHAIN


# The check before LibCST turned off: the worker really dies, and the run must still end.
_WITHOUT_CHECK = """
import sys
try:
    import tfcompat_gpu.codemod._limits as limits
    limits.MAX_DEPTH = 10**9
except ImportError:
    pass
from tfcompat_gpu.commands.migrate import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_worker_that_dies_is_a_skipped_file_never_a_hang(tmp_path: Path) -> None:
    for n in range(10):
        (tmp_path / f"f{n}.py").write_text(CHAIN if n == 4 else LEGACY)
    done = run(["-c", _WITHOUT_CHECK, "migrate", "-j2", "."], cwd=tmp_path, timeout=120)
    assert done.returncode == 1, done.stderr[-2000:]
    assert "f4.py: skipped: the process migrating it died" in done.stderr
    assert done.stdout.count("+++ b/") == 9
    assert (tmp_path / "f4.py").read_text() == CHAIN


@pytest.mark.parametrize("jobs", ["-1", "-5", "two"])
def test_a_negative_or_odd_worker_count_is_a_usage_error(tmp_path: Path, jobs: str) -> None:
    (tmp_path / "train.py").write_text(LEGACY)
    done = _cli("-j", jobs, "train.py", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "argument -j/--jobs: expected" in done.stderr
    assert done.stdout == ""


def test_a_dangling_link_in_a_folder_does_not_fail_every_check(tmp_path: Path) -> None:
    (tmp_path / "clean.py").write_text("print('nothing to do')\n")
    (tmp_path / "gone.py").symlink_to(tmp_path / "removed.py")
    done = _cli("--check", ".", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "gone.py: note: skipped, a dangling symbolic link" in done.stderr
    # named on the command line, the link is a file the user asked for: still a failure
    named = _cli("--check", "gone.py", cwd=tmp_path)
    assert named.returncode == 1
    assert "gone.py: skipped: dangling symbolic link" in named.stderr


def _git_apply(diff: str, folder: Path) -> None:
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed")
    subprocess.run([git, "init", "-q"], cwd=folder, check=True)
    patch = folder.parent / f"{folder.name}.diff"
    patch.write_bytes(os.fsencode(diff) if isinstance(diff, str) else diff)
    applied = subprocess.run(
        [git, "apply", "--verbose", str(patch)], cwd=folder, capture_output=True, text=True
    )
    assert applied.returncode == 0, applied.stderr


@pytest.mark.parametrize(
    "name", ["new\nline.py", "tab\there.py", 'quote"d.py', "back\\slash.py", "réglage.py"]
)
def test_odd_file_names_give_a_diff_git_applies(tmp_path: Path, name: str) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / name).write_text(LEGACY)
    done = cli("migrate", ".", cwd=work, timeout=120, text=False)
    assert done.returncode == 0, done.stderr
    header = done.stdout.split(b"\n")[:2]
    assert header[0].startswith(b"--- "), header
    assert header[1].startswith(b"+++ "), header
    _git_apply(done.stdout, work)
    assert (work / name).read_text() == MIGRATED


@pytest.mark.parametrize("given", ["../project", "../project/train.py", "../project/./sub/.."])
def test_paths_outside_the_current_folder_give_a_diff_git_applies(
    tmp_path: Path, given: str
) -> None:
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    project.mkdir()
    (project / "sub").mkdir()
    elsewhere.mkdir()
    (project / "train.py").write_text(LEGACY)
    done = _cli(given, cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    assert "/.." not in done.stdout, done.stdout
    assert "--- a/train.py" in done.stdout, done.stdout
    root = given if not given.endswith(".py") else "../project"
    assert f"apply it in {root}" in done.stderr
    _git_apply(done.stdout, project)
    assert (project / "train.py").read_text() == MIGRATED


def test_write_handles_the_longest_legal_file_name(tmp_path: Path) -> None:
    longest = os.pathconf(tmp_path, "PC_NAME_MAX")
    names = ["t" * (longest - 3) + ".py", "é" * ((longest - 3) // 2) + ".py"]
    for name in names:
        (tmp_path / name).write_text(LEGACY)
    done = _cli("--write", ".", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    for name in names:
        assert (tmp_path / name).read_text() == MIGRATED
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names)  # no temporary left


def test_write_never_splits_hard_links_silently(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(LEGACY)
    os.link(tmp_path / "train.py", tmp_path / "alias.py")
    done = _cli("--write", "train.py", cwd=tmp_path)
    assert done.returncode == 1
    assert "train.py: skipped: it has 2 hard links" in done.stderr
    assert os.path.samefile(tmp_path / "train.py", tmp_path / "alias.py")
    assert (tmp_path / "train.py").read_text() == LEGACY


_CONFIG = (
    "import tensorflow as tf\n"
    "config = tf.ConfigProto()\n"
    "config.gpu_options.allow_growth = True\n"
    "sess = tf.Session(config=config)\n"
)


def _focused(code: str) -> Focus | None:
    tree = ast.parse(code)
    wanted = commands_for(code, tree)
    return focus(code, tree, lambda text: any(c.relevant(text) for c in wanted))


def test_libcsts_input_grows_with_the_kept_statements_not_with_the_file() -> None:
    # thousands of small functions around a config: one stub holds them all
    functions = "".join(f"def f{i}(x):\n    return x + {i}\n\n" for i in range(3000))
    for code in (_CONFIG + functions, functions + _CONFIG + functions):
        focused = _focused(code)
        assert focused is not None
        assert len(focused.stubs) <= 2
        # the lines stay (positions are the file's), their text goes
        assert focused.code.count("\n") == code.count("\n")
        assert len(focused.code.replace("\n", "")) < 400
        whole = migrate_source(code)
        assert whole.changed
        assert "tfcompat_gpu.configure(allow_growth=True)" in whole.code
        assert whole.code.endswith(functions)


def test_one_long_line_of_data_is_left_out_of_libcsts_input() -> None:
    # 7 lines of legacy code and one 1.5 MB line: the share left out is counted in bytes
    data = "DATA = [" + ", ".join(str(i) for i in range(200_000)) + "]\n"
    code = _CONFIG + "print(sess)\nprint(config)\n" + data
    assert len(data) > 1_000_000
    focused = _focused(code)
    assert focused is not None
    assert "DATA" not in focused.code
    assert migrate_source(code).code.endswith(data)


def test_restoring_thousands_of_stubs_checks_each_one() -> None:
    stubs = [(f"__tfcompat_gpu_kept_{i}__()", f"x{i} = {i}") for i in range(20_000)]
    migrated = "import tfcompat_gpu\n" + "\n".join(stub for stub, _ in stubs) + "\n"
    restored = unfocus(migrated, stubs)
    assert restored == "import tfcompat_gpu\n" + "\n".join(o for _, o in stubs) + "\n"
    # a stub the migration touched, lost or doubled: the whole file goes to LibCST instead
    assert unfocus(migrated.replace("kept_7__()", "kept_7__(1)"), stubs) is None
    assert unfocus(migrated.replace(stubs[9][0], ""), stubs) is None
    assert unfocus(migrated + stubs[3][0], stubs) is None


_PADDING = "".join(f"def helper_{i}(x):\n    return x + {i}\n\n" for i in range(12))


@pytest.mark.parametrize(("form", "template"), available(), ids=[f for f, _ in available()])
@pytest.mark.parametrize("name", ["config", "sess", "tf"])
def test_the_focus_sees_every_binding_form(form: str, template: str, name: str) -> None:
    # the statement that binds the name again is not about GPU configuration: left out of
    # LibCST's input, unless the focus sees that it binds a name the kept code uses
    code = (
        "import tensorflow as tf\n"
        "config = tf.ConfigProto()\n"
        "config.gpu_options.allow_growth = True\n"
        + _PADDING
        + template.format(name=name)
        + _PADDING
        + "sess = tf.Session(config=config)\n"
        "sess.run(1)\n"
    )
    tree = ast.parse(code)
    wanted = commands_for(code, tree)
    whole, notes = _migrate(code, wanted, "facade", "", set())
    fast = migrate_source(code)
    assert (fast.code, fast.warnings) == (whole, notes)


FORM_FEED_CASES = {
    # a form feed in a block's indentation: Python reads the block as indented by four
    "in-indentation": (
        "import tensorflow as tf\n"
        "config = tf.ConfigProto()\n"
        "config.gpu_options.allow_growth = True\n"
        "sess = tf.Session(config=config)\n"
        "if sess:\n"
        "\f    sess.run(1)\n"
    ),
    # form feeds opening untouched lines, a page break line, one inside a string
    "line-starts": (
        "import tensorflow as tf\n"
        "\fconfig = tf.ConfigProto()\n"
        "config.gpu_options.allow_growth = True\n"
        "\f\n"
        "\fsess = tf.Session(config=config)\n"
        "\fprint(sess)\n"
        "def f():\n"
        "    x = 1\n"
        "  \f    return x\n"
        'TEXT = """\n\f  kept as it is\n"""\n'
    ),
}


@pytest.mark.parametrize("case", sorted(FORM_FEED_CASES))
def test_form_feeds_at_line_starts_are_kept_on_both_paths(case: str) -> None:
    code = FORM_FEED_CASES[case]
    tree = ast.parse(code)
    wanted = commands_for(code, tree)
    whole, notes = _migrate(code, wanted, "facade", "", set())
    fast = migrate_source(code)
    assert (fast.code, fast.warnings) == (whole, notes)
    assert "tfcompat_gpu.configure(allow_growth=True)" in whole
    compile(whole, case, "exec")
    # every line the migration did not rewrite is still there, form feeds and all
    untouched = [line for line in code.splitlines(True) if "config" not in line]
    kept = whole.splitlines(True)
    for line in untouched:
        assert line in kept, line


@pytest.mark.parametrize(
    "make",
    [
        lambda n: "config and " + " and ".join(["x"] * (n - 1)),
        lambda n: "config" + "[0]" * (n - 1),
        lambda n: "not " * (n - 1) + "config",
        lambda n: "config" + "()" * (n - 1),
    ],
    ids=["and-chain", "subscripts", "not", "calls"],
)
def test_the_depth_limit_lets_through_what_libcst_takes_and_no_more(make: object) -> None:
    head = _CONFIG
    # the statement's own level and the assignment's: MAX_DEPTH levels in all
    at_limit = head + "ready = " + make(MAX_DEPTH - 2) + "\n"  # type: ignore[operator]
    assert depth(ast.parse(at_limit).body[-1]) <= MAX_DEPTH
    migrate_source(at_limit)  # no RecursionError, no crash
    over = head + "ready = " + make(MAX_DEPTH + 5) + "\n"  # type: ignore[operator]
    with pytest.raises(TooComplex):
        migrate_source(over)


def test_code_the_parser_finds_too_deep_is_skipped_with_a_reason(tmp_path: Path) -> None:
    # 3.12 raises SyntaxError ("too many nested parentheses") here, 3.13 a MemoryError ("Parser
    # stack overflowed"): either way the file is skipped and the next one migrated.
    deep = "x = " + "(" * 1000 + "1" + ")" * 1000 + "\n"
    (tmp_path / "deep.py").write_text(LEGACY + deep)
    (tmp_path / "train.py").write_text(LEGACY)
    done = _cli("--write", "deep.py", "train.py", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "deep.py: skipped: cannot parse it" in done.stderr
    assert "internal error" not in done.stderr
    assert (tmp_path / "deep.py").read_text() == LEGACY + deep
    assert (tmp_path / "train.py").read_text() == MIGRATED


def test_a_parser_stack_overflow_is_refused_as_too_deep(monkeypatch: pytest.MonkeyPatch) -> None:
    # CPython 3.13 raises MemoryError("Parser stack overflowed ...") for code 3.12 calls too
    # deeply nested (how deep depends on the C stack already in use, so it is forced here).
    def overflow(*args: object, **kwargs: object) -> ast.Module:
        raise MemoryError("Parser stack overflowed - Python source too complex to parse")

    caught: BaseException | None = None
    with monkeypatch.context() as patch:  # only around the call: pytest itself uses ast.parse
        patch.setattr(ast, "parse", overflow)
        try:
            migrate_source(LEGACY)
        except BaseException as error:
            caught = error
    assert isinstance(caught, RecursionError), caught
    assert "too complex" in str(caught)


# -- a name assigned thousands of times -------------------------------------------------------


def _reassigned(count: int) -> str:
    block = (
        "config = tf.ConfigProto()\n"
        "config.gpu_options.allow_growth = True\n"
        "sess = tf.Session(config=config)\n"
    )
    return "import tensorflow as tf\n" + block * count


def test_a_name_assigned_many_times_is_followed_in_linear_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # LibCST answers a qualified-name question by going through every assignment of the name,
    # and the dataflow split every assignment's reads anew for each of them: a script of a few
    # thousand `config = ...` blocks took minutes.  Names no import binds are not asked about,
    # and the reads of a name are split once.
    import libcst as cst

    from tfcompat_gpu.codemod import _dataflow
    from tfcompat_gpu.codemod._base import MigrationCommand

    local = built = 0
    ask = MigrationCommand.qualified_names
    make = _dataflow._Binding.__init__

    def count_asked(self: MigrationCommand, node: cst.CSTNode) -> object:
        nonlocal local
        root = node
        while isinstance(root, cst.Attribute):
            root = root.value
        local += isinstance(root, cst.Name) and root.value in ("config", "sess")
        return ask(self, node)

    def count_built(self: object, *args: object) -> None:
        nonlocal built
        built += 1
        make(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(MigrationCommand, "qualified_names", count_asked)
    monkeypatch.setattr(_dataflow._Binding, "__init__", count_built)
    seen = {}
    for count in (20, 80):
        local = built = 0
        result = migrate_source(_reassigned(count), upgrade=True)
        assert result.code.count("tfcompat_gpu.configure(allow_growth=True)") == count
        seen[count] = (local, built)
    assert seen[20][1] == seen[80][1], seen  # one split per name, however often it is assigned
    assert seen[80][0] == 0, seen  # nothing imported as config or sess: nothing to ask


def test_an_import_repeated_in_every_cell_is_asked_about_once_per_spelling(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A notebook re-importing tensorflow in each of hundreds of cells: LibCST goes through every
    # `import tensorflow as tf` for each `tf.X` it is asked about; the answer is kept per scope
    # and spelling.
    import sys

    import libcst as cst
    from libcst.metadata.scope_provider import Scope

    from tfcompat_gpu.codemod._names import dotted

    asked = 0
    ask = Scope.get_qualified_names_for

    def count_asked(self: Scope, node: object) -> object:
        nonlocal asked
        ours = sys._getframe(1).f_code.co_filename.endswith(os.path.join("codemod", "_base.py"))
        asked += ours and isinstance(node, cst.Attribute) and dotted(node) == "tf.ConfigProto"
        return ask(self, node)  # type: ignore[arg-type]

    monkeypatch.setattr(Scope, "get_qualified_names_for", count_asked)
    cell = (
        "import tensorflow as tf\n"
        "config = tf.ConfigProto()\n"
        "config.gpu_options.allow_growth = True\n"
        "sess = tf.Session(config=config)\n"
    )
    result = migrate_source(cell * 40, upgrade=True)
    assert result.code.count("tfcompat_gpu.configure(allow_growth=True)") == 40
    assert asked <= 2, asked  # once per pass over the module, not once per read
