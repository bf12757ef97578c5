"""How every ``tfcompat-gpu`` subcommand speaks: one message prefix, one set of exit statuses.

- A message of the command itself goes to stderr as ``tfcompat-gpu COMMAND: KIND: text``,
  KIND being ``error``, ``warning``, ``note`` or ``hint``; a line about one file starts with
  the file (``path: skipped: why``, ``path:line: why``).  Results (findings, diffs, reports)
  go to stdout.
- A usage error (unknown flag, bad value, missing argument) prints argparse's ``usage:`` line,
  then ``tfcompat-gpu COMMAND: error: text``, and exits :data:`USAGE`.
- Exit statuses: :data:`OK` (0), :data:`FINDINGS` (1: ``check`` found something, ``migrate
  --check`` would change a file or a file was skipped, ``plan``'s settings fail), :data:`USAGE`
  (2: usage or input error, such as a missing path or an unreadable settings file).
  ``tfcompat-gpu run`` exits with the script's own status once the script has started.

``docs/cli.md`` says the same to users.  Nothing here imports TensorFlow.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Iterable, Sequence
    from typing import Any, NoReturn

    Parser = argparse.ArgumentParser
    """:func:`_parser_class`'s, whose exits raise :class:`ParserExit` (same methods)."""

__all__ = [
    "FINDINGS",
    "OK",
    "USAGE",
    "Parser",
    "ParserExit",
    "error",
    "first_missing",
    "jobs_count",
    "prog",
    "returns_status",
    "say",
]

OK = 0
FINDINGS = 1
USAGE = 2


def prog(command: str = "") -> str:
    """``tfcompat-gpu COMMAND``, the name every message of ``command`` starts with."""
    return f"tfcompat-gpu {command}" if command else "tfcompat-gpu"


def say(command: str, kind: str, text: str) -> None:
    """Print ``tfcompat-gpu COMMAND: KIND: text`` on stderr."""
    print(f"{prog(command)}: {kind}: {text}", file=sys.stderr)


def error(command: str, text: str, status: int = USAGE) -> int:
    """Print ``tfcompat-gpu COMMAND: error: text`` on stderr; return ``status`` to exit with."""
    say(command, "error", text)
    return status


def first_missing(paths: Iterable[str]) -> str | None:
    """The first of ``paths`` that names nothing (a dangling symbolic link names something)."""
    return next((path for path in paths if not os.path.lexists(path)), None)


class ParserExit(SystemExit):
    """The parser is done (``--help``, or a usage error already printed): exit ``status``.

    A ``SystemExit``, as argparse's own exit is, for code that calls a parser itself; the
    commands' ``main`` catch it by this class, so that a script's ``sys.exit`` under ``run``
    is never taken for it."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def _parser_class() -> type[argparse.ArgumentParser]:
    import argparse

    class Parser(argparse.ArgumentParser):
        """argparse's parser, whose exits (``--help``, usage errors) raise
        :class:`ParserExit`: ``main(argv)`` (see :func:`returns_status`) returns its status,
        and a ``SystemExit`` that reaches the caller of ``main`` comes from a script ``run``
        started, never from the parser."""

        def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
            if message:
                sys.stderr.write(message)
            raise ParserExit(status)

        def error(self, message: str) -> NoReturn:
            self.print_usage(sys.stderr)
            self.exit(USAGE, f"{self.prog}: error: {message}\n")

    Parser.__qualname__ = "Parser"
    return Parser


def __getattr__(name: str) -> Any:
    # ``Parser`` is made on first use: ``tfcompat-gpu run script.py`` never parses options with
    # argparse, and importing it (gettext, locale) costs at every start otherwise.
    if name == "Parser":
        made = globals()["Parser"] = _parser_class()
        return made
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def returns_status(main: Callable[..., int]) -> Callable[..., int]:
    """Make ``main(argv)`` return the status of a :class:`ParserExit` raised in it."""
    import functools  # (here: `run`, which does without, starts without it)

    @functools.wraps(main)
    def wrapper(argv: Sequence[str] | None = None, *args: Any, **kwargs: Any) -> int:
        try:
            return main(argv, *args, **kwargs)
        except ParserExit as done:
            return done.status

    return wrapper


def jobs_count(text: str) -> int:
    """``-j/--jobs``: a worker count, 0 (one per idle CPU) or more."""
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(
            f"expected 0 (one per idle CPU) or a positive number of workers, got {value}"
        )
    return value
