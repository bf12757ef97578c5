"""Linting paths: configuration, file discovery, selection and suppression together."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterable, Sequence

from tfcompat_gpu._files import iter_python_files
from tfcompat_gpu.lint.config import (
    ConfigError,
    LintConfig,
    find_config,
    load_config,
    select_codes,
)
from tfcompat_gpu.lint.engine import Target, check_path, unchecked
from tfcompat_gpu.lint.report import Finding, Report
from tfcompat_gpu.lint.target import TargetError, Targets, parse_target

__all__ = ["default_jobs", "lint_paths"]


def _check_one(item: tuple[str, Target]) -> list[Finding]:
    return check_path(item[0], target=item[1])


def _check_all(files: list[str], jobs: int, targets: list[Target]) -> Iterable[list[Finding]]:
    check = _check_one
    work = list(zip(files, targets))  # each file with its folder's target
    # Files are independent: with several CPUs, fork workers as flake8 and ruff do. Small runs
    # stay in-process, where a pool would cost more than it saves.
    if jobs > 1 and len(files) >= 4 * jobs:
        import multiprocessing

        try:
            context = multiprocessing.get_context("fork")
        except ValueError:  # no fork on this platform
            return map(check, work)
        with context.Pool(jobs) as pool:
            return pool.map(check, work, chunksize=max(1, len(files) // (jobs * 4)))
    return map(check, work)


def default_jobs() -> int:
    """Worker processes for the CLI: one per CPU that other work leaves idle.

    Like ``make -l``, the 1-minute load average counts the CPUs already busy: forked workers
    speed up a run on idle CPUs, but on CPUs shared with other jobs (tests running beside the
    lint in CI) they only add start-up and scheduling costs.
    """
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    try:
        busy = int(os.getloadavg()[0])
    except (AttributeError, OSError):  # no load average on this platform
        busy = 0
    return max(1, cpus - busy)


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
    jobs: int = 1,
    target_version: str | None = None,
) -> Report:
    """Lint files and directories; settings given here extend or override pyproject.toml.

    The target TensorFlow is ``target_version``, else the configuration's, else, folder by
    folder, the one the nearest requirements or Dockerfile declare (see
    :mod:`tfcompat_gpu.lint.target`).
    """
    if config is None:
        config = load_config(find_config(paths)) if use_config else LintConfig(root=os.getcwd())
    codes = select_codes(
        select if select is not None else config.select,
        [*config.extend_select, *extend_select],
        [*config.ignore, *ignore],
    )
    report = Report()
    findings: list[Finding] = report.findings
    folders: Targets | None = None
    if target_version is not None:
        try:
            target: Target = parse_target(target_version)
        except TargetError as exc:
            raise ConfigError(str(exc)) from exc
    elif config.target_version is not None:
        target = config.target_version
    else:
        # Each folder's own: the TensorFlow 1 sub-projects of a monorepo stay on TensorFlow 1.
        folders = Targets()
        target = folders.decide(config.root if config.path else (paths[0] if paths else ".")).target
    report.target = target
    patterns = [*config.exclude, *exclude]

    problems: list[tuple[str, str]] = []
    files = list(iter_python_files(paths, patterns, lambda path, why: problems.append((path, why))))
    report.files = len(files)
    # Syntax trees hold no reference cycles and die with their file; the cyclic collector
    # would only rescan them over and over (a third of the parse time on large trees).
    collecting = gc.isenabled()
    gc.disable()
    try:
        targets = (
            [folders.decide(os.path.dirname(f) or os.curdir).target for f in files]
            if folders
            else [target] * len(files)
        )
        results = list(_check_all(files, jobs, targets))
    finally:
        if collecting:
            gc.enable()
    for path, why in problems:
        what = "its files were" if why.startswith("cannot read directory") else "the file was"
        results.append(unchecked(path, f"{why}; {what} not checked"))
        files.append(path)
    for path, found in zip(files, results):
        if not found:
            continue
        ignored = config.ignored_for(path)
        findings.extend(
            f for f in found if f.code in codes and (not ignored or _selected(f.code, ignored))
        )
    return report
