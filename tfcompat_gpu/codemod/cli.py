"""``tfcompat-gpu migrate [--write | --check] [--target facade|tf2] [-j N] PATHS...``.

Prints a unified diff by default, rewrites in place with ``--write``, and with ``--check`` exits
1 when anything would change (for CI).  A file that cannot be read, parsed or written is
reported as ``path: skipped: reason``, left untouched, and makes the run exit 1 at the end; the
other files are still processed.  Exit 2 is a usage error.  Warnings (``path:line: why``) go
to stderr.  Files are found as ``check`` finds them (:mod:`tfcompat_gpu._files`).
"""

from __future__ import annotations

import argparse
import difflib
import gc
import importlib.util
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from tfcompat_gpu.codemod._io import split_lines
from tfcompat_gpu.codemod._stack import KERAS_MAJORS

__all__ = ["INSTALL_HINT", "main", "unified_diff"]

INSTALL_HINT = (
    'tfcompat-gpu migrate needs LibCST, an optional dependency: pip install "tfcompat-gpu[migrate]"'
)


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse would exit the interpreter; main() returns the status instead
        self.print_usage(sys.stderr)
        raise _UsageError(f"{self.prog}: error: {message}")


def _parser() -> _Parser:
    parser = _Parser(
        prog="tfcompat-gpu migrate",
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
        type=int,
        default=0,
        metavar="N",
        help="worker processes (default: one per idle CPU)",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or directories")
    return parser


def unified_diff(old: str, new: str, shown: str) -> str:
    """A diff ``git apply`` accepts: lines split on ``\\n`` only, a missing final newline marked."""
    out: list[str] = []
    for line in difflib.unified_diff(
        split_lines(old), split_lines(new), fromfile=f"a/{shown}", tofile=f"b/{shown}"
    ):
        out.append(line)
        if not line.endswith("\n"):
            out.append("\n\\ No newline at end of file\n")
    return "".join(out)


@dataclass
class _Outcome:
    messages: list[str] = field(default_factory=list)
    diff: bytes = b""
    changed: bool = False
    failed: bool = False
    warnings: int = 0


def _shown(path: str) -> str:
    relative = os.path.relpath(path)
    return (path if relative.startswith("..") else relative).replace(os.sep, "/")


def _migrate_one(job: tuple[str, str, str, bool, int | None]) -> _Outcome:
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


def _migrate_file(job: tuple[str, str, str, bool, int | None]) -> _Outcome:
    from tfcompat_gpu.codemod._io import Skip, read_source, write_source
    from tfcompat_gpu.codemod.api import migrate_source

    path, target, mode, upgrade, keras = job
    outcome = _Outcome()
    try:
        source = read_source(path)
        try:
            result = migrate_source(
                source.text,
                target=target,  # type: ignore[arg-type]
                filename=path,
                upgrade=upgrade,
                keras=keras,
            )
        except SyntaxError as error:
            raise Skip(
                f"cannot parse it (line {error.lineno}, column {error.offset}: {error.msg})"
            ) from None
        except RecursionError:
            raise Skip("cannot parse it (nested too deeply)") from None
        except Exception as error:
            # code Python accepts and LibCST not (LibCST is loaded only for files that need it)
            from libcst import ParserSyntaxError

            if not isinstance(error, ParserSyntaxError):
                raise
            raise Skip(
                f"cannot parse it with LibCST (line {error.raw_line}, column "
                f"{error.raw_column + 1}: {error.message})"
            ) from None
        outcome.messages += [f"{path}:{warning}" for warning in result.warnings]
        outcome.warnings = len(result.warnings)
        if not result.changed:
            return outcome
        outcome.changed = True
        if mode == "check":
            outcome.messages.append(f"{path}: would be migrated")
        elif mode == "write":
            write_source(source, source.encode(result.code))
            outcome.messages.append(f"{path}: migrated")
        else:
            diff = unified_diff(
                source.full_text(source.text), source.full_text(result.code), _shown(path)
            )
            outcome.diff = diff.encode(source.encoding, "surrogateescape")
    except Skip as why:
        outcome.messages.append(f"{path}: skipped: {why}")
        outcome.failed = True
    except Exception as error:  # a bug on one file must not stop the run
        outcome.messages.append(f"{path}: skipped: internal error ({error!r})")
        outcome.failed = True
    return outcome


def _within(path: str, roots: Sequence[str]) -> bool:
    return any(path == root or path.startswith(root.rstrip(os.sep) + os.sep) for root in roots)


def _files(paths: Sequence[str], note: Callable[[str], None]) -> Iterator[str]:
    """The files to migrate, each real file once; links leading outside ``paths`` skipped."""
    from tfcompat_gpu._files import iter_python_files

    roots = [os.path.realpath(path) for path in paths]
    found = list(iter_python_files(paths, on_error=lambda p, why: note(f"{p}: skipped: {why}")))
    real = {path: os.path.realpath(path) for path in found}
    direct = {real[path] for path in found if not os.path.islink(path)}
    seen: set[str] = set()
    for path in found:
        target = real[path]
        if os.path.islink(path):
            if not _within(target, roots):
                note(f"{path}: note: skipped, a symbolic link to {target}, outside the paths given")
                continue
            if target in direct:
                continue  # migrated under its own name
        if target not in seen:
            seen.add(target)
            yield path


def _run(jobs: list[tuple[str, str, str, bool, int | None]], workers: int) -> Iterable[_Outcome]:
    # Files are independent: forked workers as check has; small runs stay in-process.
    if workers > 1 and len(jobs) >= 4 * workers:
        import multiprocessing

        try:
            context = multiprocessing.get_context("fork")
        except ValueError:  # no fork on this platform
            yield from map(_migrate_one, jobs)
            return
        with context.Pool(workers) as pool:
            yield from pool.imap(_migrate_one, jobs, chunksize=max(1, len(jobs) // (workers * 8)))
        return
    yield from map(_migrate_one, jobs)


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


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``migrate``; ``argv`` starts with the subcommand name. Returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "migrate":
        args = args[1:]
    try:
        options = _parser().parse_args(args)
    except _UsageError as error:
        print(error, file=sys.stderr)
        return 2
    except SystemExit as done:  # --help
        return done.code if isinstance(done.code, int) else 0
    missing = [p for p in options.paths if not os.path.lexists(p)]
    if missing:
        print(f"tfcompat-gpu migrate: no such file or directory: {missing[0]}", file=sys.stderr)
        return 2
    if importlib.util.find_spec("libcst") is None:  # found, not loaded: most files need none
        print(INSTALL_HINT, file=sys.stderr)
        return 2
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
    jobs = [(path, options.target, mode, upgrade, keras) for path in _files(options.paths, note)]
    progress = _Progress(stderr, len(jobs))
    changed = 0
    warnings = 0
    out = sys.stdout
    for outcome in _run(jobs, options.jobs if options.jobs > 0 else default_jobs()):
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
    out.flush()
    if mode != "check" and (changed or warnings):
        # what is left to do by hand, after the per-file lines
        what = "changed" if mode == "write" else "to change (diff above)"
        print(
            f"tfcompat-gpu migrate: {changed} of {len(jobs)} file(s) {what}, "
            f"{warnings} warning(s) left to review by hand",
            file=stderr,
        )
    return 1 if failed or (options.check and changed) else 0
