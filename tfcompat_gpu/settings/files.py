"""GPU settings files: an INI ``[gpu]`` section or a TOML ``[tool.tfcompat-gpu]`` / ``[gpu]`` table.

:func:`read_fields` turns a file into ``GPUConfig`` keyword arguments, each value checked by its
kind.  Every problem is a :class:`GPUConfigError` that names the file, the line where it is
known, the key and the fix: a file that is not UTF-8, a ``%`` (no interpolation: ``rate = 50%``
is a value, not a reference), a GPU key left in INI's ``[DEFAULT]``, a ``tool`` that is not a
table, one option given twice under two names.  Nothing here imports TensorFlow.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tfcompat_gpu.errors import GPUConfigError
from tfcompat_gpu.settings.options import OPTIONS_BY_NAME, check_value, parse_text, resolve_key
from tfcompat_gpu.utils.files import read_bytes
from tfcompat_gpu.utils.numbers import is_int
from tfcompat_gpu.utils.shown import shown

__all__ = ["read_fields"]

_TABLES = ("memory_limit_mb", "device_count")
"""Options whose TOML value is itself a table."""


@dataclass(frozen=True)
class _Entry:
    key: str
    value: Any
    line: int | None
    text: bool
    """``value`` is text to parse (INI) rather than a typed value (TOML)."""


def read_fields(path: str | os.PathLike[str]) -> tuple[dict[str, Any], str]:
    """``(GPUConfig keyword arguments, where they were read)`` for the file at ``path``."""
    location = Path(path)
    try:
        data = read_bytes(location)
    except OSError as exc:
        raise GPUConfigError(
            f"Cannot read GPU settings from '{_place(location, None)}': {shown(str(exc))}"
        ) from exc
    text = _decode(data, location)
    if location.suffix == ".toml":
        table, entries = _toml_entries(text, location)
    else:
        table, entries = _ini_entries(text, location)
    return _fields(location, table, entries), f"{_place(location, None)} {table}"


def _decode(data: bytes, location: Path) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise GPUConfigError(
            f"{_place(location, line)}: the file is not valid UTF-8 (byte 0x{data[exc.start]:02x}). "
            "GPU settings files are read as UTF-8: save it as UTF-8 (or remove the other "
            "characters, e.g. from comments)."
        ) from None


def _place(location: Path, line: int | None) -> str:
    return shown(f"{location}:{line}" if line is not None else str(location))


def _fields(location: Path, table: str, entries: Iterable[_Entry]) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    seen: dict[str, _Entry] = {}
    for entry in entries:
        where = f"{_place(location, entry.line)} {table} {entry.key}"
        name = resolve_key(entry.key, f"{_place(location, entry.line)} {table}")
        first = seen.get(name)
        if first is not None:
            also = f" (line {first.line})" if first.line is not None else ""
            raise GPUConfigError(
                f"{where}: {entry.key} and {first.key}{also} both set {name}. "
                f"Expected each setting once: keep one of them."
            )
        seen[name] = entry
        value = parse_text(name, entry.value, where) if entry.text else entry.value
        if name == "memory_limit_mb" and isinstance(value, dict) and not entry.text:
            value = _gpu_keys(value, where)
        try:
            fields[name] = check_value(name, value)
        except GPUConfigError as exc:
            raise GPUConfigError(f"{where}: {exc}") from None
    return fields


def _gpu_keys(value: dict[Any, Any], where: str) -> dict[int, Any]:
    # TOML keys are strings; GPU ids are ints.
    if not all(is_int(str(k)) for k in value):
        raise GPUConfigError(
            f"{where}: expected GPU ids as keys of memory_limit_mb, such as "
            f'{{ "0" = [1024, 1024] }}. Received: {value!r}.'
        )
    return {int(k): v for k, v in value.items()}


# -- INI --------------------------------------------------------------------------------------

_NO_DEFAULTS = "\x00no default section"
_HEADER = re.compile(r"\s*\[(?P<name>[^\]]+)\]")
_KEY = re.compile(r"(?P<key>[^\s=:;#][^=:]*?)\s*[=:]")


def _ini_lines(text: str) -> dict[tuple[str, str], int]:
    """``(section, key) -> line`` of the first place each key is written (configparser's view)."""
    lines: dict[tuple[str, str], int] = {}
    section = ""
    for number, line in enumerate(text.splitlines(), 1):
        header = _HEADER.match(line)
        if header:
            section = header["name"].strip()
            continue
        key = _KEY.match(line)
        if key:
            lines.setdefault((section, key["key"].strip().lower()), number)
    return lines


def _ini_entries(text: str, location: Path) -> tuple[str, list[_Entry]]:
    import configparser

    # No interpolation: "50%" is a value; no default section: [DEFAULT] keys of a shared file
    # must not flow into [gpu].
    parser = configparser.ConfigParser(interpolation=None, default_section=_NO_DEFAULTS)
    try:
        parser.read_string(text, source=str(location))
    except configparser.DuplicateOptionError as exc:
        raise GPUConfigError(
            f"{_place(location, exc.lineno)} [{exc.section}] {exc.option}: set twice in the "
            "section. Expected each setting once: keep one of them."
        ) from None
    except configparser.Error as exc:
        line = getattr(exc, "lineno", None)
        if line is None and isinstance(exc, configparser.ParsingError) and exc.errors:
            line = exc.errors[0][0]
        # configparser's message spans lines (file, line, the text): one line, as every error
        detail = " ".join(part.strip() for part in str(exc).splitlines() if part.strip())
        raise GPUConfigError(
            f"{_place(location, line)}: '{_place(location, None)}' is not a valid INI file: "
            f"{detail}"
        ) from None
    lines = _ini_lines(text)
    if parser.has_section("DEFAULT"):
        for key in parser.options("DEFAULT"):
            if key.replace("-", "_") in _known_keys():
                raise GPUConfigError(
                    f"{_place(location, lines.get(('DEFAULT', key)))} [DEFAULT] {key}: GPU "
                    "settings are read from [gpu] only (a [DEFAULT] key would reach every "
                    "section of a shared file). Move it under [gpu]."
                )
    if not parser.has_section("gpu"):
        raise GPUConfigError(
            f"'{_place(location, None)}' has no [gpu] section. Expected INI keys such as "
            "allow_growth, allow_soft_placement and rate under [gpu]."
        )
    entries = [
        _Entry(key, raw, lines.get(("gpu", key)), text=True) for key, raw in parser.items("gpu")
    ]
    return "[gpu]", entries


def _known_keys() -> set[str]:
    return {*OPTIONS_BY_NAME, *(alias for o in OPTIONS_BY_NAME.values() for alias in o.aliases)}


# -- TOML -------------------------------------------------------------------------------------


def _toml_entries(text: str, location: Path) -> tuple[str, list[_Entry]]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise GPUConfigError(f"'{_place(location, None)}' is not valid TOML: {exc}") from None
    missing = (
        f"'{_place(location, None)}' has no [tool.tfcompat-gpu] (or [gpu]) table with GPU settings."
    )
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise GPUConfigError(f"{missing} Its `tool` is {tool!r}, not a table.")
    table, header = tool.get("tfcompat-gpu"), "[tool.tfcompat-gpu]"
    if table is None:
        table, header = data.get("gpu"), "[gpu]"
    if not isinstance(table, dict):
        raise GPUConfigError(missing)
    lines = _toml_lines(text, header)
    entries = []
    for key, value in table.items():
        if isinstance(value, dict) and key in _OTHER_PARTS:
            continue  # [tool.tfcompat-gpu.lint] is read by the lint
        if isinstance(value, dict) and key not in _TABLES:
            # An unknown table is an unknown key: TensorFlow's nesting ([...gpu_options]) is
            # not this file's, and silently running with defaults would hide it.
            where = f"{_place(location, lines.get(key))} {header}"
            known = _known_keys()
            inner = sorted(k for k in value if k.replace("-", "_") in known)
            hint = (
                f" Write its keys directly under {header}: "
                + ", ".join(f"{k} = {_toml_value(value[k])}" for k in inner)
                + "."
                if inner
                else ""
            )
            raise GPUConfigError(
                f"{where} {key}: {key!r} is a table, and no GPU setting or part of tfcompat-gpu "
                f"is called so. Expected GPU settings as keys of {header} (allow_growth = true), "
                f"or a [{header[1:-1]}.lint] table for the lint.{hint}"
            )
        entries.append(_Entry(key, value, lines.get(key), text=False))
    return header, entries


_OTHER_PARTS = ("lint",)
"""Sub-tables of ``[tool.tfcompat-gpu]`` that other parts of tfcompat-gpu read."""


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if not isinstance(value, str) else f'"{value}"'


def _toml_lines(text: str, header: str) -> dict[str, int]:
    """``key -> line`` for the keys written directly under ``header`` (best effort)."""
    lines: dict[str, int] = {}
    inside = False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("["):
            name = stripped.replace(" ", "").split("]", 1)[0] + "]"
            inside = name == header
            # [tool.tfcompat-gpu.gpu_options]: the table is a key of the header's table.
            sub = re.fullmatch(
                re.escape(header[:-1]) + r"""\.["']?([A-Za-z0-9_-]+)["']?.*\]""", name
            )
            if sub:
                lines.setdefault(sub[1], number)
            continue
        if inside:
            # "key =" or a dotted "key.sub =" (a table written inline)
            key = re.match(r"""["']?(?P<key>[A-Za-z0-9_-]+)["']?\s*[=.]""", stripped)
            if key:
                lines.setdefault(key["key"], number)
    return lines
