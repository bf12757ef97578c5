"""Form feeds at line starts, which LibCST does not keep.

Python's tokenizer takes a form feed in a line's leading whitespace as a reset of the column
count (CPython ``Parser/tokenizer.c``, ``tok_get``: ``col = altcol = 0`` on ``'\\014'``), so
``if x:\\n\\f    y`` is valid and ``y`` is indented by four.  LibCST 1.9 drops such a form
feed when it prints the module (``\\fx = 1`` comes back as ``x = 1``), and takes a block's
indentation with the form feed in it as the module's default indent, which later fails
(``ValueError: Got an invalid value for default_indent``).

:func:`without_form_feeds` gives LibCST the text with each line's leading whitespace cut
after its last form feed (what Python reads the same way), outside string literals;
:func:`with_form_feeds` puts the original lines back in LibCST's output wherever a line is
one LibCST left as it was.
"""

from __future__ import annotations

import difflib
import io
import tokenize

from tfcompat_gpu.codemod._io import split_lines

__all__ = ["Stripped", "with_form_feeds", "without_form_feeds"]

Stripped = dict[int, str]
"""Index of each line that had its form feeds cut -> the line as it was."""


def _string_rows(code: str) -> set[int] | None:
    """Line numbers (from 1) that continue a string literal: their start is the string's."""
    rows: set[int] = set()
    opened: list[int] = []
    fstring_start = getattr(tokenize, "FSTRING_START", None)  # 3.12 and later
    fstring_end = getattr(tokenize, "FSTRING_END", None)
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            if token.type == tokenize.STRING and token.end[0] > token.start[0]:
                rows.update(range(token.start[0] + 1, token.end[0] + 1))
            elif token.type == fstring_start:
                opened.append(token.start[0])
            elif token.type == fstring_end and opened:
                rows.update(range(opened.pop() + 1, token.end[0] + 1))
    except (tokenize.TokenError, SyntaxError):
        return None
    return rows


def without_form_feeds(code: str) -> tuple[str, Stripped]:
    """``code`` with no form feed in any line's leading whitespace (outside strings), and
    the lines as they were.  Unchanged (and nothing stripped) when it has none."""
    if "\f" not in code:
        return code, {}
    lines = split_lines(code)
    candidates = [
        index
        for index, line in enumerate(lines)
        if "\f" in line[: len(line) - len(line.lstrip(" \t\f"))]
    ]
    if not candidates:
        return code, {}
    in_strings = _string_rows(code)
    if in_strings is None:
        return code, {}
    stripped: Stripped = {}
    for index in candidates:
        if index + 1 in in_strings:
            continue
        line = lines[index]
        stripped[index] = line
        lines[index] = line[_cut(line) :]
    return "".join(lines), stripped


def _cut(line: str) -> int:
    """Where the leading whitespace of ``line`` is cut: after its last form feed."""
    indent = len(line) - len(line.lstrip(" \t\f"))
    return line.rindex("\f", 0, indent) + 1


def with_form_feeds(plain: str, new: str, stripped: Stripped) -> str:
    """``new`` (LibCST's output for ``plain``) with the lines of ``stripped`` as they were
    wherever LibCST left the line unchanged; a line it changed in place (a block of changed
    lines as long as the old one) gets its form feeds back in front of its new text."""
    if not stripped:
        return new
    old_lines = split_lines(plain)
    new_lines = split_lines(new)
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, old_start, old_end, new_start, new_end in matcher.get_opcodes():
        if tag not in ("equal", "replace") or old_end - old_start != new_end - new_start:
            continue
        for offset in range(old_end - old_start):
            original = stripped.get(old_start + offset)
            if original is None:
                continue
            if tag == "equal":
                new_lines[new_start + offset] = original
            else:
                new_lines[new_start + offset] = (
                    original[: _cut(original)] + (new_lines[new_start + offset])
                )
    return "".join(new_lines)
