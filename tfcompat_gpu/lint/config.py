"""Lint settings from ``[tool.tfcompat-gpu.lint]`` in ``pyproject.toml``, and rule selection.

``[tool.tfcompat-gpu]`` itself holds the GPU settings of the library; the lint keys live in its
``lint`` sub-table so the two never collide::

    [tool.tfcompat-gpu.lint]
    select = ["TFG"]                 # every rule, the opinionated ones too
    ignore = ["TFG013"]
    exclude = ["legacy/*"]
    per-file-ignores = { "tests/*" = ["TFG006"] }
    target-version = "1.15"          # default: read from the project's tensorflow requirement
"""

from __future__ import annotations

import fnmatch
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tfcompat_gpu.lint.registry import RULES, default_codes
from tfcompat_gpu.lint.target import TargetError, parse_target

__all__ = ["ConfigError", "LintConfig", "find_config", "load_config", "select_codes"]

KEYS = frozenset(
    {"select", "extend-select", "ignore", "exclude", "per-file-ignores", "target-version"}
)


class ConfigError(ValueError):
    """The lint configuration is invalid."""


@dataclass
class LintConfig:
    root: str = "."
    """Directory of the pyproject.toml; per-file-ignores and excludes are relative to it."""
    path: str | None = None
    select: list[str] | None = None
    extend_select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    target_version: tuple[int, int] | None = None

    def ignored_for(self, path: str) -> frozenset[str]:
        """Codes (or prefixes) ignored for ``path`` by per-file-ignores."""
        if not self.per_file_ignores:
            return frozenset()
        rel = os.path.relpath(os.path.abspath(path), os.path.abspath(self.root))
        rel = rel.replace(os.sep, "/")
        base = os.path.basename(path)
        found: set[str] = set()
        for pattern, codes in self.per_file_ignores.items():
            pattern = pattern.replace(os.sep, "/")
            if fnmatch.fnmatchcase(rel, pattern) or (
                "/" not in pattern and fnmatch.fnmatchcase(base, pattern)
            ):
                found.update(codes)
        return frozenset(found)


def find_config(paths: Sequence[str]) -> str | None:
    """The nearest ``pyproject.toml`` with a ``[tool.tfcompat-gpu.lint]`` table, walking up."""
    start = os.path.abspath(paths[0] if paths else os.getcwd())
    if not os.path.isdir(start):
        start = os.path.dirname(start)
    current = start
    while True:
        candidate = os.path.join(current, "pyproject.toml")
        if os.path.isfile(candidate):
            try:
                with open(candidate, "rb") as handle:
                    data = handle.read()
            except OSError:
                data = b""
            # Cheap test first: most projects have no lint table and need no TOML parse.  A
            # file that may hold one but is not UTF-8 is an error, never silently ignored.
            if b"tfcompat-gpu" in data and b"lint" in data:
                try:
                    data.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise ConfigError(
                        f"{candidate}: cannot read [tool.tfcompat-gpu.lint]: TOML files are "
                        f"UTF-8, byte {exc.start} is not; save the file as UTF-8"
                    ) from exc
                return candidate
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _toml(path: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    from tfcompat_gpu.utils.files import read_bytes

    data: dict[str, Any] = tomllib.loads(read_bytes(path).decode("utf-8"))
    return data


def _strings(value: object, key: str) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise ConfigError(f"Expected a list of strings for {key!r}. Received: {key}={value!r}")


def load_config(path: str | None) -> LintConfig:
    """Read the lint table of ``path`` (an empty config for None)."""
    if path is None:
        return LintConfig(root=os.getcwd())
    try:
        data = _toml(path)
    except Exception as exc:  # TOMLDecodeError, OSError
        raise ConfigError(f"{path}: cannot read [tool.tfcompat-gpu.lint]: {exc}") from exc
    table = data.get("tool", {}).get("tfcompat-gpu", {}).get("lint", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.tfcompat-gpu.lint] must be a table")
    unknown = set(table) - KEYS
    if unknown:
        raise ConfigError(
            f"{path}: unknown key(s) in [tool.tfcompat-gpu.lint]: {', '.join(sorted(unknown))}; "
            f"expected one of {', '.join(sorted(KEYS))}"
        )
    try:
        return _config(path, table)
    except ConfigError as exc:
        if str(exc).startswith(f"{path}:"):
            raise
        raise ConfigError(f"{path}: [tool.tfcompat-gpu.lint]: {exc}") from None


def _config(path: str, table: dict[str, Any]) -> LintConfig:
    config = LintConfig(root=os.path.dirname(os.path.abspath(path)), path=path)
    if "select" in table:
        config.select = _strings(table["select"], "select")
        if not any(s.strip() for s in config.select):
            raise ConfigError(_EMPTY_SELECT)
    config.extend_select = _strings(table.get("extend-select", []), "extend-select")
    config.ignore = _strings(table.get("ignore", []), "ignore")
    config.exclude = _strings(table.get("exclude", []), "exclude")
    pfi = table.get("per-file-ignores", {})
    if not isinstance(pfi, dict):
        raise ConfigError(f"{path}: per-file-ignores must be a table of pattern = [codes]")
    config.per_file_ignores = {k: _strings(v, k) for k, v in pfi.items()}
    if "target-version" in table:
        value = table["target-version"]
        try:
            config.target_version = parse_target(str(value))
        except TargetError as exc:
            raise ConfigError(f"{path}: {exc}") from exc
    for selector in [
        *(config.select or []),
        *config.extend_select,
        *config.ignore,
        *(c for codes in config.per_file_ignores.values() for c in codes),
    ]:
        _validate(selector)
    return config


_EMPTY_SELECT = (
    "Expected at least one rule code or prefix for select, such as 'TFG003' or 'TFG'. "
    "Received: an empty selection, which would enable no rule; leave select out for the "
    "default rules, or use ignore to turn some off"
)


def _validate(selector: str) -> None:
    if selector != "ALL" and not any(rule.code.startswith(selector) for rule in RULES):
        raise ConfigError(
            f"Expected a rule code or prefix such as 'TFG003' or 'TFG'. Received: {selector!r}"
        )


def _matches(code: str, selectors: Iterable[str]) -> bool:
    return any(s == "ALL" or code.startswith(s) for s in selectors)


def select_codes(
    select: Iterable[str] | None = None,
    extend_select: Iterable[str] = (),
    ignore: Iterable[str] = (),
) -> frozenset[str]:
    """Codes enabled by a selection: ``select`` replaces the defaults, ``ignore`` wins."""
    select = None if select is None else [s.strip().upper() for s in select if s.strip()]
    if select == []:
        # "--select ''" (an empty CI variable, say) would pass every file with no rule run
        raise ConfigError(_EMPTY_SELECT)
    extend = [s.strip().upper() for s in extend_select if s.strip()]
    ignored = [s.strip().upper() for s in ignore if s.strip()]
    for selector in [*(select or []), *extend, *ignored]:
        _validate(selector)
    base = (
        default_codes()
        if select is None
        else frozenset(rule.code for rule in RULES if _matches(rule.code, select))
    )
    # Unreadable files are always reported unless TFG000 is ignored explicitly.
    codes = base | {"TFG000"} | {rule.code for rule in RULES if _matches(rule.code, extend)}
    return frozenset(code for code in codes if not _matches(code, ignored))
