"""``tfcompat-gpu rules [--format text|json]``: the lint rules, one line each."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from tfcompat_gpu.commands import _voice
from tfcompat_gpu.lint.registry import RULES

__all__ = ["main"]


def _rules(argv: list[str]) -> int:
    parser = _voice.Parser(prog=_voice.prog("rules"), description="List the lint rules.")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args(argv)
    if args.format == "json":
        import json

        print(
            json.dumps(
                [
                    {
                        "code": r.code,
                        "name": r.name,
                        "default": r.default,
                        "severity": r.severity,
                        "scope": r.scope,
                        "summary": r.summary,
                    }
                    for r in RULES
                ],
                indent=2,
            )
        )
        return 0
    for rule in RULES:
        flag = "on " if rule.default else "off"
        print(f"{rule.code}  {flag}  {rule.severity:<7}  {rule.name:<32}  {rule.summary}")
    return 0


@_voice.returns_status
def main(argv: Sequence[str] | None = None) -> int:
    """``main(["NAME", ...])`` (the subcommand's name first); returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        return _rules(args[1:])
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, as other command-line tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
