"""Checks that need no syntax tree, for the lines of a file the parser could not read.

A file cut off by a syntax error (a half-saved script, a merge conflict, Python 2 code the
tolerant reading gives up on) still holds its environment variables and device strings: a
misspelled ``CUDA_VISBLE_DEVICES`` there is as wrong as anywhere.  These checks read the raw
text of those lines: a quoted name that misspells a GPU variable (TFG003) and the literal given
to a ``.device(...)`` call (TFG002).  A comment is not read: there, as in a file that parses,
a name is only talked about.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tfcompat_gpu.lint.context import RawFinding
from tfcompat_gpu.lint.registry import RULES_BY_CODE
from tfcompat_gpu.lint.values import device_string_problem, suggest_env_var

__all__ = ["text_findings"]

_QUOTED_NAME = re.compile(r"""(?P<q>['"])(?P<name>[A-Za-z_][A-Za-z0-9_]{5,})(?P=q)""")
_DEVICE = re.compile(r"""\bdevice\(\s*[rRuU]?(?P<q>['"])(?P<spec>[^'"\n]*)(?P=q)\s*\)""")


def _without_comment(text: str) -> str:
    """``text`` up to a ``#`` that is not inside a quoted string."""
    quote = ""
    escaped = False
    for index, char in enumerate(text):
        if escaped:
            escaped = False
        elif quote:
            if char == "\\":
                escaped = True
            elif text.startswith(quote, index):
                quote = ""
        elif char == "#":
            return text[:index]
        elif char in "'\"":
            quote = char
    return text


def _raw(code: str, line: int, col: int, fix: str, **fields: object) -> RawFinding:
    rule = RULES_BY_CODE[code]
    return RawFinding(code, line, col, rule.message.format(**fields), fix, rule.severity)


def text_findings(lines: list[str], numbers: Iterable[int]) -> list[RawFinding]:
    """TFG002 / TFG003 findings on the 1-based ``numbers`` of ``lines``."""
    found = []
    for number in numbers:
        text = _without_comment(lines[number - 1])
        if "'" not in text and '"' not in text:
            continue
        for match in _QUOTED_NAME.finditer(text):
            name = match.group("name")
            known = suggest_env_var(name)
            if known is not None:
                found.append(
                    _raw(
                        "TFG003",
                        number,
                        match.start(),
                        f"os.environ[{known!r}]",
                        value=name,
                        known=known,
                    )
                )
        if "device" in text:
            for match in _DEVICE.finditer(text):
                spec = match.group("spec")
                reason = device_string_problem(spec)
                if reason is not None:
                    found.append(
                        _raw(
                            "TFG002",
                            number,
                            match.start("q"),
                            "tf.device('/GPU:0')",
                            value=spec,
                            reason=reason,
                        )
                    )
    return found
