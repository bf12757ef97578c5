"""``tfcompat-gpu explain RULE``: one lint rule's documentation, by code or name."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from tfcompat_gpu.commands import _voice
from tfcompat_gpu.lint.registry import RULES_BY_CODE, RULES_BY_NAME

__all__ = ["main"]


def _explain(argv: list[str]) -> int:
    from tfcompat_gpu.lint.docs import rule_page

    parser = _voice.Parser(
        prog=_voice.prog("explain"), description="Print one rule's documentation."
    )
    parser.add_argument("rule", help="a code (TFG003) or a name (misspelled-gpu-env-var)")
    args = parser.parse_args(argv)
    rule = RULES_BY_CODE.get(args.rule.upper()) or RULES_BY_NAME.get(args.rule.lower())
    if rule is None:
        return _voice.error("explain", f"unknown rule {args.rule!r}; see 'tfcompat-gpu rules'")
    print(rule_page(rule, level=1))
    return 0


@_voice.returns_status
def main(argv: Sequence[str] | None = None) -> int:
    """``main(["NAME", ...])`` (the subcommand's name first); returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        return _explain(args[1:])
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, as other command-line tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
