"""``tfcompat_gpu.check``: the static lint (with paths) and the runtime check (without)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import Union

from tfcompat_gpu.lint.report import Finding, Report
from tfcompat_gpu.utils.shown import shown_value

__all__ = ["Finding", "Report", "check"]

_PathLike = Union[str, "os.PathLike[str]"]


def _selectors(value: Iterable[str] | str | None, name: str) -> list[str] | None:
    # "TFG003" or "TFG003,TFG005" is one selection, not the letters of one.
    if value is None:
        return None
    if isinstance(value, str):
        return [part for part in value.replace(" ", ",").split(",") if part]
    if not isinstance(value, Iterable):
        raise TypeError(
            f"Expected rule codes or prefixes (a str or a list of str) for {name}. "
            f"Received: {name}={shown_value(value)}"
        )
    items = list(value)
    for item in items:
        if not isinstance(item, str):
            raise TypeError(
                f"Expected rule codes or prefixes (str) for {name}. "
                f"Received: {name}={shown_value(value)}"
            )
    return items


def _path_list(paths: object) -> list[str]:
    # A file name or a list of them; bytes names and other objects are a caller's mistake.
    items = [paths] if isinstance(paths, (str, os.PathLike)) else paths
    if isinstance(items, (Sequence, Iterable)) and not isinstance(items, (bytes, bytearray)):
        names = []
        for item in items:
            name = os.fspath(item) if isinstance(item, (str, os.PathLike)) else None
            if not isinstance(name, str):
                break
            names.append(name)
        else:
            return names
    raise TypeError(
        "Expected paths as a file or directory name (str or os.PathLike) or a list of them. "
        f"Received: paths={shown_value(paths)}"
    )


def check(
    paths: _PathLike | Sequence[_PathLike] | None = None,
    *,
    select: Iterable[str] | str | None = None,
    ignore: Iterable[str] | str | None = None,
    strict: bool = False,
    target_version: str | None = None,
) -> Report:
    """Lint ``paths`` for GPU-configuration mistakes, or check the live process.

    With paths (files or directories, searched recursively), the files are read and parsed,
    never imported; ``[tool.tfcompat-gpu.lint]`` in the nearest ``pyproject.toml`` applies.
    Without paths, the environment variables, the configuration in force and the sessions
    created so far are checked; TensorFlow is neither imported nor started.

    ``select`` replaces the default rules (codes or prefixes: ``["TFG"]`` is every rule),
    ``ignore`` removes some; either may be one string (``"TFG003,TFG005"``).
    ``target_version`` (``"1.15"``, ``"2.16"``) is the TensorFlow the code runs on; by default
    it is read from the project's ``tensorflow`` requirement.  On TensorFlow 1 targets the
    rules about moving to TensorFlow 2 are off.  ``strict=True`` raises :class:`tfcompat_gpu.GPUConfigError`
    listing the findings instead of returning them.

    Example::

        report = tfcompat_gpu.check(["src/"], ignore=["TFG013"])
        print(report)                      # path:line:col: CODE message

        def test_gpu_config():             # in a test suite
            tfcompat_gpu.check(strict=True)
    """
    chosen = _selectors(select, "select")
    ignored = _selectors(ignore, "ignore") or []
    if paths is None:
        from tfcompat_gpu.lint.config import select_codes
        from tfcompat_gpu.lint.live import check_runtime

        codes = select_codes(chosen, (), ignored)
        report = Report([f for f in check_runtime() if f.code in codes])
    else:
        from tfcompat_gpu.lint.paths import lint_paths

        if target_version is not None and not isinstance(target_version, str):
            raise TypeError(
                "Expected target_version as a str such as '1.15' or '2.16'. "
                f"Received: target_version={shown_value(target_version)}"
            )
        report = lint_paths(
            _path_list(paths),
            select=chosen,
            ignore=ignored,
            target_version=target_version,
        )
    if strict and report.findings:
        from tfcompat_gpu.errors import GPUConfigError

        count = len(report.findings)
        raise GPUConfigError(
            f"{count} GPU configuration problem{'s' if count != 1 else ''} found:\n{report}"
        )
    return report
