"""``tfcompat-gpu check --show-settings``: the settings a run would use, and where they come from.

Most useful for the target TensorFlow, decided folder by folder: each line names the folder,
its target and the file that decided it, so a TensorFlow 1 sub-project checked for TensorFlow 2
(or the reverse) shows which file to fix.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from tfcompat_gpu.lint.config import ConfigError, LintConfig, select_codes
from tfcompat_gpu.lint.target import TargetError, Targets, parse_target
from tfcompat_gpu.utils.files import iter_python_files

__all__ = ["show_settings"]


def _version(target: tuple[int, int] | None) -> str:
    return "the latest TensorFlow" if target is None else f"TensorFlow {target[0]}.{target[1]}"


def show_settings(
    paths: Sequence[str],
    config: LintConfig,
    *,
    select: Iterable[str] | None = None,
    extend_select: Iterable[str] = (),
    ignore: Iterable[str] = (),
    exclude: Iterable[str] = (),
    target_version: str | None = None,
) -> str:
    """The settings ``check paths`` would use, one per line.

    Example (a monorepo with a TensorFlow 1 sub-project)::

        target: per folder, from the nearest file that names TensorFlow
          legacy/: TensorFlow 1.15 (legacy/Dockerfile)
          models/: the latest TensorFlow (models/requirements.txt)
    """
    codes = select_codes(
        select if select is not None else config.select,
        [*config.extend_select, *extend_select],
        [*config.ignore, *ignore],
    )
    lines = [
        f"config: {config.path or '(none)'}",
        f"select: {', '.join(sorted(codes))}",
    ]
    if target_version is not None:
        try:
            fixed = parse_target(target_version)
        except TargetError as exc:
            raise ConfigError(str(exc)) from exc
        lines.append(f"target: {_version(fixed)} (--target-version)")
        return "\n".join(lines)
    if config.target_version is not None:
        lines.append(f"target: {_version(config.target_version)} ({config.path}: target-version)")
        return "\n".join(lines)
    lines.append("target: per folder, from the nearest file that names TensorFlow")
    targets = Targets()
    folders = sorted(
        {
            os.path.dirname(f) or os.curdir
            for f in iter_python_files(paths, [*config.exclude, *exclude])
        }
    )
    for folder in folders:
        target, source = targets.decide(folder)
        why = os.path.relpath(source) if source else "no file names TensorFlow"
        if source and ", " in source:
            why = ", ".join(os.path.relpath(s) for s in source.split(", "))
        lines.append(f"  {folder}{os.sep}: {_version(target)} ({why})")
    return "\n".join(lines)
