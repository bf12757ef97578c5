"""``tfcompat-gpu migrate [--write | --check] [--target facade|tf2] PATHS...``.

Prints a unified diff by default, rewrites in place with ``--write``, and with ``--check`` exits
1 when anything would change (for CI).  Exit 2 is a usage error.  A file that does not parse is
reported on stderr and skipped.  Warnings (``path:line: why``) go to stderr.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

__all__ = ["INSTALL_HINT", "main"]

INSTALL_HINT = (
    'tfcompat-gpu migrate needs LibCST, an optional dependency: pip install "tfcompat-gpu[migrate]"'
)
_SKIPPED_DIRS = frozenset({".git", ".hg", ".tox", ".nox", ".venv", "venv", "__pycache__"})


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
        help="facade: tfcompat_gpu.configure() (default); tf2: plain tf.config calls where exact",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or directories")
    return parser


def _files(paths: Sequence[str]) -> Iterator[Path]:
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for found in sorted(path.rglob("*.py")):
                if not _SKIPPED_DIRS.intersection(found.relative_to(path).parts[:-1]):
                    yield found
        else:
            yield path


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
    missing = [p for p in options.paths if not Path(p).exists()]
    if missing:
        print(f"tfcompat-gpu migrate: no such file or directory: {missing[0]}", file=sys.stderr)
        return 2
    try:
        import libcst  # noqa: F401
    except ImportError:
        print(INSTALL_HINT, file=sys.stderr)
        return 2
    from tfcompat_gpu.codemod.api import migrate_source

    changed = 0
    for path in _files(options.paths):
        try:
            source = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            print(f"{path}: skipped: cannot read it ({error})", file=sys.stderr)
            continue
        try:
            result = migrate_source(source, target=options.target, filename=str(path))
        except Exception as error:  # one bad file must not stop the run
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            print(f"{path}: skipped: cannot parse it ({reason})", file=sys.stderr)
            continue
        for warning in result.warnings:
            print(f"{path}:{warning}", file=sys.stderr)
        if result.code == source:
            continue
        changed += 1
        if options.check:
            print(f"{path}: would be migrated", file=sys.stderr)
        elif options.write:
            path.write_text(result.code, encoding="utf-8")
            print(f"{path}: migrated", file=sys.stderr)
        else:
            sys.stdout.writelines(
                difflib.unified_diff(
                    source.splitlines(keepends=True),
                    result.code.splitlines(keepends=True),
                    fromfile=f"a/{path}",
                    tofile=f"b/{path}",
                )
            )
    return 1 if options.check and changed else 0
