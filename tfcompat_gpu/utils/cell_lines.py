"""Which cell each line of a rewritten block of a notebook's program goes to.

A notebook's code cells are migrated as one program; the rewritten program is split back into
cells by a line diff against the old one (:meth:`.notebooks.Notebook.with_program`).  A block
of changed lines may run across cells, and each rewritten line must go back to its own cell.
"""

from __future__ import annotations

import difflib

__all__ = ["spread"]

_SPREAD_WORK = 40_000
"""Line pairs :func:`spread` compares at most; beyond, lines are spread in proportion."""
_LIKE = 0.5
"""How alike (``difflib`` ratio) a new line and an old one must be to be one line rewritten."""


def spread(old: list[str], owners: list[int], new: list[str]) -> list[int]:
    """The cell of each line of ``new``, the rewrite of the lines ``old`` (of cells
    ``owners``): a block of changed lines may run across cells (a cell's last line and the next
    cell's first line both rewritten), and each line must stay in its own cell.

    New lines are aligned with the old ones they resemble, in order (the most alike pairs in
    all, as ``diff`` aligns equal lines); each new line left between two aligned pairs goes to
    an old line left between them, the last ones one to one and any more with the first of
    those (a rewrite puts what it adds before the line it rewrites), else with the line above.
    """
    first = owners[0]
    if all(owner == first for owner in owners):
        return [first] * len(new)
    if len(old) == len(new):
        return list(owners)  # rewritten line by line
    if len(old) * len(new) > _SPREAD_WORK:
        return [owners[k * len(old) // len(new)] for k in range(len(new))]
    n, m = len(new), len(old)
    like: dict[tuple[int, int], float] = {}

    def alike(i: int, j: int) -> float:
        key = (i, j)
        found = like.get(key)
        if found is None:
            matcher = difflib.SequenceMatcher(None, old[j], new[i], autojunk=False)
            found = 0.0
            if matcher.real_quick_ratio() > _LIKE and matcher.quick_ratio() > _LIKE:
                ratio = matcher.ratio()
                found = ratio if ratio > _LIKE else 0.0
            like[key] = found
        return found

    score = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        row, above = score[i], score[i - 1]
        for j in range(1, m + 1):
            best = max(above[j], row[j - 1])
            pair = alike(i - 1, j - 1)
            if pair and above[j - 1] + pair > best:
                best = above[j - 1] + pair
            row[j] = best
    match: list[int | None] = [None] * n
    i, j = n, m
    while i and j:
        pair = alike(i - 1, j - 1)
        if pair and score[i][j] == score[i - 1][j - 1] + pair:
            match[i - 1] = j - 1
            i, j = i - 1, j - 1
        elif score[i][j] == score[i - 1][j]:
            i -= 1
        else:
            j -= 1
    placed = [first] * n
    previous = -1  # the old line of the last aligned pair
    start = 0  # the first new line after it
    for index in range(n + 1):
        at = match[index] if index < n else m
        if at is None:
            continue
        gap = list(range(start, index))  # new lines between two aligned pairs
        free = list(range(previous + 1, at))  # old lines between them
        if gap:
            if free:
                extra = max(len(gap) - len(free), 0)
                for k, line in enumerate(gap):
                    placed[line] = owners[free[max(k - extra, 0)]]
            else:
                for line in gap:
                    placed[line] = owners[previous] if previous >= 0 else first
        if index < n:
            placed[index] = owners[at]
        previous, start = at, index + 1
    return placed
