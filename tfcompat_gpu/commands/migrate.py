"""``tfcompat-gpu migrate [--write | --check] [--target facade|tf2] [-j N] PATHS...``.

Prints a unified diff by default, rewrites in place with ``--write``, and with ``--check`` exits
1 when anything would change (for CI).  A file that cannot be read, parsed or written is
reported as ``path: skipped: reason``, left untouched, and makes the run exit 1 at the end; the
other files are still processed.  Exit 2 is a usage or input error (a path that does not exist,
LibCST not installed).  Warnings (``path:line: why``) go to stderr.  Files are found as ``check`` finds them (:mod:`tfcompat_gpu.utils.files`).
"""

from __future__ import annotations

import difflib
import gc
import importlib.util
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Optional, TextIO

from tfcompat_gpu.codemod._io import split_lines
from tfcompat_gpu.codemod._stack import KERAS_MAJORS
from tfcompat_gpu.commands import _voice
from tfcompat_gpu.utils.shown import shown
from tfcompat_gpu.utils.words import plural

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

__all__ = ["INSTALL_HINT", "main", "unified_diff"]

INSTALL_HINT = (
    'LibCST, an optional dependency, is not installed: pip install "tfcompat-gpu[migrate]"'
)


_Job = tuple[str, str, str, bool, str, Optional[int]]
"""(path, target, mode, upgrade the Keras/TF1 API, the folder the diff names the file from
("" for the current one), the Keras major to upgrade for (None: the installed one))."""


def _parser() -> _voice.Parser:
    parser = _voice.Parser(
        prog=_voice.prog("migrate"),
        description="Rewrite legacy TensorFlow GPU configuration (ConfigProto, set_session, "
        "deprecated tf.config names) into what TF2 honours.",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="rewrite the files in place")
    mode.add_argument(
        "--check", action="store_true", help="exit 1 if any file would change; print nothing else"
    )
    parser.add_argument(
        "--target",
        choices=("facade", "tf2"),
        default="facade",
        help="what GPU configuration becomes. facade (default): tfcompat_gpu.configure(), "
        "tfcompat_gpu.session() for TF1 sessions, so every ConfigProto field the facade models "
        "moves; tf2: plain tf.config calls, only for the fields with an exact tf.config "
        "equivalent (the rest is left with a warning)",
    )
    parser.add_argument(
        "--keras",
        type=int,
        choices=KERAS_MAJORS,
        default=None,
        help="the Keras major version the code is to run on; default: the one installed "
        "(from package metadata; TensorFlow < 2.16 means 2), else 3. 3 adds the rewrites only "
        "Keras 3 needs (K.get_value / K.set_value); both get the other Keras 2 rewrites",
    )
    parser.add_argument(
        "--gpu-only",
        action="store_true",
        help="only the GPU configuration rewrites, not the Keras 2 -> Keras 3 and TF1 -> TF2 "
        "API rewrites (optimizer lr/decay, fit_generator, removed Keras modules, weight file "
        "names, tensorflow.compat.v1 for graph code)",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=_voice.jobs_count,
        default=0,
        metavar="N",
        help="worker processes (default 0: one per idle CPU)",
    )
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="migrate every file; do not remember the files found unchanged (use in CI)",
    )
    parser.add_argument(
        "--cache-dir", metavar="DIR", help="where to remember them (default: as check)"
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or directories")
    return parser


def unified_diff(old: str, new: str, shown: str) -> str:
    """A diff ``git apply`` accepts: lines split on ``\\n`` only, a missing final newline marked,
    a name with special characters quoted as git quotes it."""
    out: list[str] = []
    for line in difflib.unified_diff(
        split_lines(old),
        split_lines(new),
        fromfile=_git_quoted(f"a/{shown}"),
        tofile=_git_quoted(f"b/{shown}"),
    ):
        out.append(line)
        if not line.endswith("\n"):
            out.append("\n\\ No newline at end of file\n")
    return "".join(out)


_C_ESCAPES = {7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r"}
_C_ESCAPES.update({ord('"'): '\\"', ord("\\"): "\\\\"})


def _git_quoted(name: str) -> str:
    """``name`` as git writes it in a diff header: in double quotes with C escapes (octal for
    every byte outside printable ASCII) when it holds such a byte, a quote or a backslash,
    else as it is (git's ``quote.c``, ``quote_c_style``, with ``core.quotePath`` on)."""
    raw = os.fsencode(name)
    if all(32 <= byte < 127 and byte not in b'"\\' for byte in raw):
        return name
    escaped = (
        _C_ESCAPES.get(byte) or (chr(byte) if 32 <= byte < 127 else f"\\{byte:03o}") for byte in raw
    )
    return '"' + "".join(escaped) + '"'


@dataclass
class _Outcome:
    messages: list[str] = field(default_factory=list)
    diff: bytes = b""
    changed: bool = False
    failed: bool = False
    warnings: int = 0
    neighbours: bool = False
    """The migration looked at other files beside this one (``codemod/_siblings.py``)."""


def _shown(path: str, root: str) -> str:
    """The name the diff gives ``path``: from the current folder, or from ``root`` (a
    ``../`` in a diff's names is refused by ``git apply``)."""
    return os.path.relpath(path, root or os.curdir).replace(os.sep, "/")


def _root(path: str, given: Sequence[str]) -> str:
    """ "" when ``path`` lies under the current folder, else the argument it was found
    under (a file's own folder when it was named itself)."""
    if not os.path.relpath(path).startswith(".." + os.sep) and os.path.relpath(path) != "..":
        return ""
    for top in given:
        if os.path.isdir(top) and _within(os.path.abspath(path), [os.path.abspath(top)]):
            return top
    return os.path.dirname(path) or os.curdir


def _migrate_one(job: _Job) -> _Outcome:
    # LibCST builds many short-lived objects per file, which reference counting frees; the
    # cycle collector's passes over them cost about 15% of a run.  It is off during one file
    # and on between files, so what a file leaves in cycles is collected before the next.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _migrate_file(job)
    finally:
        if enabled:
            gc.enable()


def _migrate_file(job: _Job) -> _Outcome:
    from tfcompat_gpu.codemod._io import Skip, read_source, write_source
    from tfcompat_gpu.codemod._limits import TooComplex
    from tfcompat_gpu.codemod._notebook import cell_warnings, read_cells, write_cells
    from tfcompat_gpu.codemod._siblings import read_neighbours
    from tfcompat_gpu.codemod.api import migrate_source
    from tfcompat_gpu.utils.notebooks import is_notebook

    path, target, mode, upgrade, root, keras = job
    outcome = _Outcome()
    try:
        source = read_source(path)
        notebook = read_cells(source.text) if is_notebook(path) else None
        code = source.text if notebook is None else notebook.program
        try:
            result = migrate_source(
                code,
                target=target,  # type: ignore[arg-type]
                filename=path,
                upgrade=upgrade,
                keras=keras,
            )
        except SyntaxError as error:
            where = f"line {error.lineno}"
            if notebook is not None:
                where = "cell {}, line {}".format(*notebook.where(error.lineno or 1))
            raise Skip(f"cannot parse it ({where}, column {error.offset}: {error.msg})") from None
        except RecursionError:
            raise Skip("cannot parse it (nested too deeply)") from None
        except TooComplex as error:
            raise Skip(f"cannot parse it with LibCST ({error})") from None
        except Exception as error:
            # code Python accepts and LibCST not (LibCST is loaded only for files that need it)
            from libcst import ParserSyntaxError

            if not isinstance(error, ParserSyntaxError):
                raise
            raise Skip(
                f"cannot parse it with LibCST (line {error.raw_line}, column "
                f"{error.raw_column + 1}: {error.message})"
            ) from None
        outcome.neighbours = read_neighbours(path)
        warnings = result.warnings if notebook is None else cell_warnings(notebook, result)
        outcome.messages += [f"{path}:{warning}" for warning in warnings]
        outcome.warnings = len(warnings)
        if not result.changed:
            return outcome
        new_text = result.code if notebook is None else write_cells(notebook, result.code)
        if new_text == source.text:
            return outcome
        outcome.changed = True
        if mode == "check":
            outcome.messages.append(f"{path}: would be migrated")
        elif mode == "write":
            write_source(source, source.encode(new_text))
            outcome.messages.append(f"{path}: migrated")
        else:
            diff = unified_diff(
                source.full_text(source.text), source.full_text(new_text), _shown(path, root)
            )
            outcome.diff = diff.encode(source.encoding, "surrogateescape")
    except Skip as why:
        outcome.messages.append(f"{path}: skipped: {why}")
        outcome.failed = True
    except Exception as error:  # a bug on one file must not stop the run
        outcome.messages.append(f"{path}: skipped: internal error ({error!r})")
        outcome.failed = True
    if outcome.failed:  # a file whose new text could not be written is not a changed file
        outcome.changed = False
        outcome.diff = b""
    return outcome


def _within(path: str, roots: Sequence[str]) -> bool:
    return any(path == root or path.startswith(root.rstrip(os.sep) + os.sep) for root in roots)


def _files(paths: Sequence[str], note: Callable[[str], None]) -> Iterator[str]:
    """The files to migrate, each real file once; links leading outside ``paths`` skipped."""
    from tfcompat_gpu.utils.files import iter_python_files

    roots = [os.path.realpath(path) for path in paths]
    found = list(
        iter_python_files(
            paths, on_error=lambda p, why: note(f"{p}: skipped: {why}"), suffixes=(".py", ".ipynb")
        )
    )
    real = {path: os.path.realpath(path) for path in found}
    direct = {real[path] for path in found if not os.path.islink(path)}
    seen: set[str] = set()
    given = set(paths)
    for path in found:
        target = real[path]
        if path not in given and os.path.islink(path) and not os.path.exists(path):
            # a link to nothing found in a folder is no Python file: not a failure of the run
            note(f"{path}: note: skipped, a dangling symbolic link")
            continue
        if os.path.islink(path):
            if not _within(target, roots):
                note(f"{path}: note: skipped, a symbolic link to {target}, outside the paths given")
                continue
            if target in direct:
                continue  # migrated under its own name
        if target not in seen:
            seen.add(target)
            yield path


def _run(jobs: list[_Job], workers: int) -> Iterable[_Outcome]:
    # Files are independent: forked workers as check has; small runs stay in-process.
    if workers > 1 and len(jobs) >= 4 * workers:
        import multiprocessing

        try:
            context = multiprocessing.get_context("fork")
        except ValueError:  # no fork on this platform
            yield from map(_migrate_one, jobs)
            return
        yield from _pooled(jobs, workers, context)
        return
    yield from map(_migrate_one, jobs)


def _migrate_batch(batch: list[_Job]) -> list[_Outcome]:
    return [_migrate_one(job) for job in batch]


def _pooled(jobs: list[_Job], workers: int, context: BaseContext) -> Iterator[_Outcome]:
    """The outcomes in the order of ``jobs``; a file whose worker dies is a skipped file.

    A worker can die without a Python exception (a native parser's crash, the kernel's
    out-of-memory killer).  ``multiprocessing.Pool`` then waits forever for its result;
    ``ProcessPoolExecutor`` fails every pending call with ``BrokenProcessPool``.  The batch
    that failed first is then run again one file per call in a new pool, and a single file
    whose call fails once more runs alone in a worker of its own, so that only the file that
    kills a worker is reported; the later batches run again too (their results may have
    been lost with the pool).
    """
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    size = max(1, len(jobs) // (workers * 8))
    pending = [jobs[i : i + size] for i in range(0, len(jobs), size)]
    while pending:
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            futures = [pool.submit(_migrate_batch, batch) for batch in pending]
            for index, future in enumerate(futures):
                try:
                    outcomes = future.result()
                except BrokenProcessPool:
                    batch = pending[index]
                    if len(batch) == 1:
                        # another worker's death breaks this call too: alone, it is sure
                        yield _alone(batch[0], context)
                        pending = pending[index + 1 :]
                    else:
                        pending = [[job] for job in batch] + pending[index + 1 :]
                    break
                yield from outcomes
            else:
                pending = []


def _alone(job: _Job, context: BaseContext) -> _Outcome:
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    with ProcessPoolExecutor(1, mp_context=context) as pool:
        try:
            return pool.submit(_migrate_one, job).result()
        except BrokenProcessPool:
            return _died(job[0])


def _died(path: str) -> _Outcome:
    return _Outcome(
        messages=[
            f"{path}: skipped: the process migrating it died (a crash in the parser, or it "
            "ran out of memory); the file is unchanged"
        ],
        failed=True,
    )


class _Progress:
    """``[#####.....] 37/200`` on one line of a terminal's stderr; nothing elsewhere."""

    def __init__(self, stream: TextIO, total: int) -> None:
        self._stream = stream
        self._total = total
        self._on = total > 1 and stream.isatty()
        self._done = 0

    def say(self, line: str) -> None:
        self._stream.write(("\r\x1b[K" if self._on else "") + line + "\n")

    def step(self) -> None:
        self._done += 1
        if self._on:
            filled = 30 * self._done // self._total
            self._stream.write(
                f"\r[{'#' * filled}{'.' * (30 - filled)}] {self._done}/{self._total} files"
            )
            self._stream.flush()

    def close(self) -> None:
        if self._on:
            self._stream.write("\r\x1b[K")
            self._stream.flush()


@_voice.returns_status
def main(argv: Sequence[str] | None = None) -> int:
    """Run ``migrate``; ``argv`` starts with the subcommand name. Returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "migrate":
        args = args[1:]
    options = _parser().parse_args(args)
    missing = _voice.first_missing(options.paths)
    if missing is not None:
        return _voice.error("migrate", f"no such file or directory: {shown(missing)}")
    if importlib.util.find_spec("libcst") is None:  # found, not loaded: most files need none
        return _voice.error("migrate", INSTALL_HINT)
    from tfcompat_gpu.lint.paths import default_jobs

    stderr = sys.stderr
    failed = False

    def note(line: str) -> None:
        nonlocal failed
        failed = failed or ": skipped: " in line
        print(line, file=stderr)

    mode = "write" if options.write else "check" if options.check else "diff"
    upgrade = not options.gpu_only
    # None: the installed Keras, read (once per process) only where a file needs to know
    keras: int | None = options.keras
    jobs = [
        (
            path,
            options.target,
            mode,
            upgrade,
            _root(path, options.paths) if mode == "diff" else "",
            keras,
        )
        for path in _files(options.paths, note)
    ]
    for root in sorted({job[4] for job in jobs} - {""}):
        _voice.say(
            "migrate",
            "note",
            f"the diff names the files under {root} from there "
            f"(outside the current folder): apply it in {root}",
        )
    total = len(jobs)
    remembered_warnings = 0
    unchanged = None
    if not options.no_cache:
        from tfcompat_gpu.codemod._cache import UnchangedFiles
        from tfcompat_gpu.codemod._stack import installed_keras
        from tfcompat_gpu.lint.cache import default_cache_dir

        # what "unchanged" means depends on the target, on whether the API is upgraded and on
        # the Keras it is upgraded for (the installed one may change between runs)
        unchanged = UnchangedFiles(
            options.cache_dir or default_cache_dir(),
            os.getcwd(),
            f"{options.target}:{'upgrade' if upgrade else 'gpu-only'}:"
            f"keras{keras or installed_keras()}",
        )
        todo = []
        for job in jobs:
            cached = unchanged.cached_warnings(job[0])
            if cached is None:
                todo.append(job)
            else:  # nothing to change since a run found it so: only its warnings again
                for warning in cached:
                    print(f"{job[0]}{warning}", file=stderr)
                remembered_warnings += len(cached)
        jobs = todo
    progress = _Progress(stderr, len(jobs))
    changed = 0
    warnings = remembered_warnings
    out = sys.stdout
    workers = options.jobs if options.jobs > 0 else default_jobs()
    for job, outcome in zip(jobs, _run(jobs, workers)):
        if unchanged is not None:
            unchanged.done(
                job[0], outcome.changed, outcome.failed or outcome.neighbours, outcome.messages
            )
        for line in outcome.messages:
            progress.say(line)
        if outcome.diff:
            # the diff is in the file's own encoding, so that it applies to the file's bytes
            out.flush()
            buffer = getattr(out, "buffer", None)
            if buffer is not None:
                buffer.write(outcome.diff)
                buffer.flush()
            else:
                out.write(outcome.diff.decode("utf-8", "replace"))
        changed += outcome.changed
        warnings += outcome.warnings
        failed = failed or outcome.failed
        progress.step()
    progress.close()
    if unchanged is not None:
        unchanged.save()
    out.flush()
    if mode != "check" and (changed or warnings):
        # what is left to do by hand, after the per-file lines
        what = "changed" if mode == "write" else "to change (diff above)"
        print(
            f"{_voice.prog('migrate')}: {changed} of {plural(total, 'file')} {what}, "
            f"{plural(warnings, 'warning')} left to review by hand",
            file=stderr,
        )
    return _voice.FINDINGS if failed or (options.check and changed) else _voice.OK
