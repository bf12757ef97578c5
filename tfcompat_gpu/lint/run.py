"""Linting paths: configuration, file discovery, selection and suppression together."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from tfcompat_gpu.lint.config import LintConfig, find_config, load_config, select_codes
from tfcompat_gpu.lint.engine import check_path, iter_python_files
from tfcompat_gpu.lint.report import Finding, Report

__all__ = ["lint_paths"]


def _selected(code: str, ignored: frozenset[str]) -> bool:
    return not any(code.startswith(prefix) for prefix in ignored)


def lint_paths(
    paths: Sequence[str],
    *,
    select: Iterable[str] | None = None,
    extend_select: Iterable[str] = (),
    ignore: Iterable[str] = (),
    exclude: Iterable[str] = (),
    config: LintConfig | None = None,
    use_config: bool = True,
) -> Report:
    """Lint files and directories; settings given here extend or override pyproject.toml."""
    if config is None:
        config = load_config(find_config(paths)) if use_config else LintConfig(root=os.getcwd())
    codes = select_codes(
        select if select is not None else config.select,
        [*config.extend_select, *extend_select],
        [*config.ignore, *ignore],
    )
    patterns = [*config.exclude, *exclude]
    report = Report()
    findings: list[Finding] = report.findings
    for path in iter_python_files(paths, patterns):
        report.files += 1
        found = check_path(path)
        if not found:
            continue
        ignored = config.ignored_for(path)
        findings.extend(
            f for f in found if f.code in codes and (not ignored or _selected(f.code, ignored))
        )
    return report
