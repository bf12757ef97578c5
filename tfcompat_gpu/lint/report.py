"""Findings and the report that ``check()`` returns."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from tfcompat_gpu.lint.registry import RULES_BY_CODE, Severity

__all__ = ["Finding", "Report"]


@dataclass(frozen=True)
class Finding:
    """One problem: where it is, which rule, and how to fix it.

    ``line`` and ``col`` count from 1, as editors and linters print them.
    """

    code: str
    name: str
    message: str
    path: str
    line: int
    col: int
    severity: Severity
    fix: str
    """A short hint of what to write instead."""
    cell: int | None = None
    """In a notebook, the cell (counted from 1 among all cells) that ``line`` counts in."""

    @property
    def where(self) -> str:
        """``path:line:col``, or ``path:cell N:line:col`` in a notebook (as ruff writes it)."""
        if self.cell is not None:
            return f"{self.path}:cell {self.cell}:{self.line}:{self.col}"
        return f"{self.path}:{self.line}:{self.col}"

    def __str__(self) -> str:
        return f"{self.where}: {self.code} {self.message}"

    def as_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "name": self.name,
            "message": self.message,
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "severity": self.severity,
            "fix": self.fix,
            **({"cell": self.cell} if self.cell is not None else {}),
        }


@dataclass
class Report:
    """The result of :func:`tfcompat_gpu.check`.

    >>> report = check(["train.py"])          # doctest: +SKIP
    >>> report.ok, [f.code for f in report.findings]   # doctest: +SKIP
    (False, ['TFG001'])
    """

    findings: list[Finding] = field(default_factory=list)
    files: int = 0
    """Number of files checked (0 for the runtime check)."""
    target: tuple[int, int] | None = None
    """The TensorFlow (major, minor) the files were checked for; None: the latest."""

    @property
    def ok(self) -> bool:
        return not self.findings

    def __str__(self) -> str:
        return "\n".join(str(finding) for finding in self.findings)

    def statistics(self) -> list[tuple[str, str, int]]:
        """``(code, name, count)`` per code, most frequent first."""
        counts = Counter(finding.code for finding in self.findings)
        return [
            (code, RULES_BY_CODE[code].name, n)
            for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        ]
