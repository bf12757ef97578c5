"""Linting paths: configuration, file discovery, selection and suppression together."""

from __future__ import annotations

import gc
import hashlib
import os
from collections.abc import Callable, Iterable, Iterator, Sequence

from tfcompat_gpu.lint.cache import FileCache, content_key, fingerprint
from tfcompat_gpu.lint.config import (
    ConfigError,
    LintConfig,
    find_config,
    load_config,
    select_codes,
)
from tfcompat_gpu.lint.engine import Target, check_bytes, read_path, unchecked
from tfcompat_gpu.lint.prefilter import may_trigger
from tfcompat_gpu.lint.report import Finding, Report
from tfcompat_gpu.lint.target import TargetError, Targets, parse_target
from tfcompat_gpu.utils.files import iter_python_files
from tfcompat_gpu.utils.notebooks import is_notebook

__all__ = ["default_jobs", "lint_paths"]


Progress = Callable[[int, int], None]
"""Called with (files done, files in all) as the run goes."""


def _check_job(job: tuple[bytes, str, Target]) -> list[Finding]:
    # only files the prefilter let through become jobs
    return check_bytes(*job, relevant=True)


def _run(
    jobs: Iterator[tuple[bytes, str, Target]], total: int, workers: int
) -> Iterator[list[Finding]]:
    check = _check_job
    # Files are independent: with several CPUs, fork workers as flake8 and ruff do. Small runs
    # stay in-process, where a pool would cost more than it saves.
    if workers > 1 and total >= 4 * workers:
        import multiprocessing

        try:
            context = multiprocessing.get_context("fork")
        except ValueError:  # no fork on this platform
            yield from map(check, jobs)
            return
        with context.Pool(workers) as pool:
            yield from pool.imap(check, jobs, chunksize=max(1, total // (workers * 8)))
        return
    yield from map(check, jobs)


def _file_key(content: str, target: Target) -> str:
    # a cache key as long as a content key (the cache checks it): content and target together
    text = f"{content}:{target!r}".encode()
    return hashlib.blake2b(text, digest_size=20).hexdigest()


def _check_all(
    files: list[str],
    workers: int,
    targets: list[Target],
    cache: FileCache | None,
    progress: Progress | None,
) -> list[list[Finding]]:
    """The findings of each file (checked for its folder's target), read here once; the cache
    answers for unchanged files."""
    results: list[list[Finding]] = [[] for _ in files]
    pending: list[tuple[int, str | None]] = []
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, len(files))

    def jobs() -> Iterator[tuple[bytes, str, Target]]:
        for index, (path, target) in enumerate(zip(files, targets)):
            data = read_path(path)
            if isinstance(data, list):
                results[index] = data
                tick()
                continue
            if not may_trigger(data):
                # Nothing to parse (see lint.prefilter): no worker, no cache entry needed.
                results[index] = check_bytes(data, path, target, relevant=False)
                tick()
                continue
            key = None
            if cache is not None:
                # the folder's target is part of what the findings depend on
                key = _file_key(content_key(data, is_notebook(path)), target)
                hit = cache.get(key, path)
                if hit is not None:
                    results[index] = hit
                    tick()
                    continue
            pending.append((index, key))
            yield data, path, target

    for n, found in enumerate(_run(jobs(), len(files), workers)):
        index, key = pending[n]
        results[index] = found
        if cache is not None and key is not None:
            cache.put(key, found)
        tick()
    if cache is not None:
        cache.save()
    return results


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
    cache_dir: str | None = None,
    progress: Progress | None = None,
) -> Report:
    """Lint files and directories; settings given here extend or override pyproject.toml.

    The target TensorFlow is ``target_version``, else the configuration's, else, folder by
    folder, the one the nearest requirements or Dockerfile declare (see
    :mod:`tfcompat_gpu.lint.target`).  With ``cache_dir``, files unchanged since an earlier
    run are answered from the cache there (:mod:`tfcompat_gpu.lint.cache`).
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
    files = list(
        iter_python_files(
            paths, patterns, lambda path, why: problems.append((path, why)), (".py", ".ipynb")
        )
    )
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
        cache = None
        if cache_dir is not None:
            root = config.root if config.path else os.getcwd()
            cache = FileCache(cache_dir, root, fingerprint())
        results = _check_all(files, jobs, targets, cache, progress)
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
