"""The TensorFlow version a project targets: given, or read from its declared requirements.

A project pinned to ``tensorflow<2`` or ``tensorflow-gpu==1.15`` stays on TensorFlow 1: the
rules about moving to TensorFlow 2 (TFG009, TFG013) say nothing useful there, while the real
TensorFlow 1 bugs (sessions, fractions, device lists, environment variables) still matter.
When no target is set, the nearest folder holding ``pyproject.toml``, ``setup.cfg``,
``setup.py`` or ``requirements*.txt`` is read for a ``tensorflow`` requirement with an upper
bound; without one the target is the latest TensorFlow.
"""

from __future__ import annotations

import configparser
import glob
import os
import re
import sys
from collections.abc import Iterable
from typing import Any

__all__ = ["TargetError", "infer_target", "parse_target"]

_TF1_LAST = (1, 15)
_NAMES = r"(?:tensorflow|tensorflow-gpu|tensorflow-cpu|tensorflow_gpu|tensorflow_cpu|tf-nightly)"
_REQUIREMENT = re.compile(
    rf"(?<![\w-]){_NAMES}\s*(?:\[[^\]]*\])?\s*(?P<specs>(?:[<>=!~^]=?=?\s*[\w.*]+\s*,?\s*)+)",
    re.IGNORECASE,
)
_CLAUSE = re.compile(r"(?P<op>===|==|<=|>=|~=|!=|<|>|\^|~)?\s*(?P<version>\d+(?:\.[\d*]+)*)")


class TargetError(ValueError):
    """A target version that is not a TensorFlow version."""


def parse_target(value: str) -> tuple[int, int]:
    """``"1.15"`` -> ``(1, 15)``; ``"1"`` is the last TensorFlow 1, ``"2"`` TensorFlow 2.0."""
    match = re.fullmatch(r"\s*(?:tf|tensorflow)?\s*(\d+)(?:\.(\d+|x|\*))?(?:\.\d[\w.]*)?\s*", value)
    if match is None or int(match.group(1)) not in (1, 2):
        raise TargetError(
            "Expected a TensorFlow version such as '1.15' or '2.16'. "
            f"Received: target-version={value!r}"
        )
    major = int(match.group(1))
    minor = match.group(2)
    if minor is None or not minor.isdigit():
        return _TF1_LAST if major == 1 else (2, 0)
    return (major, int(minor))


def _capped(major: int, minor: int) -> tuple[int, int]:
    return min((major, minor), _TF1_LAST) if major == 1 else (major, minor)


def _upper(op: str, version: str) -> tuple[int, int] | None:
    """The newest (major, minor) one clause of a requirement allows, or None (no bound)."""
    parts = [int(p) for p in version.split(".") if p.isdigit()]
    if not parts:
        return None
    major = parts[0]
    minor = parts[1] if len(parts) > 1 else None
    if op in ("==", "===", "<=", "", "~") or (op == "~=" and len(parts) > 2):
        return _capped(major, 99 if minor is None else minor)
    if op in ("~=", "^"):  # ~=1.15 and ^1.15 allow every 1.x from 1.15 on
        return _capped(major, 99)
    if op == "<":
        rest = parts[1:]
        if not any(rest):  # <2, <2.0, <2.0.0
            return _capped(major - 1, 99) if major > 1 else None
        if minor is not None and not any(parts[2:]):  # <2.5, <2.5.0
            return _capped(major, minor - 1)
        return _capped(major, minor or 0)  # <2.5.3
    return None


def _bound(specs: str) -> tuple[int, int] | None:
    bounds = [
        bound
        for match in _CLAUSE.finditer(specs)
        if (bound := _upper(match.group("op") or "", match.group("version"))) is not None
    ]
    if not bounds:
        return None
    return min(bounds)


def _requirements(texts: Iterable[str]) -> tuple[int, int] | None:
    found = []
    for text in texts:
        for match in _REQUIREMENT.finditer(text):
            bound = _bound(match.group("specs"))
            if bound is not None:
                found.append(bound)
    return min(found) if found else None


def _toml(path: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        with open(path, "rb") as handle:
            data: dict[str, Any] = tomllib.load(handle)
    except Exception:  # a broken file declares nothing the lint can use
        return {}
    return data


def _pyproject_texts(path: str) -> list[str]:
    data = _toml(path)
    project = data.get("project", {})
    texts: list[str] = []
    if isinstance(project, dict):
        deps = project.get("dependencies", [])
        if isinstance(deps, list):
            texts += [d for d in deps if isinstance(d, str)]
        extras = project.get("optional-dependencies", {})
        if isinstance(extras, dict):
            for group in extras.values():
                if isinstance(group, list):
                    texts += [d for d in group if isinstance(d, str)]
    poetry = data.get("tool", {}).get("poetry", {}).get("dependencies", {})
    if isinstance(poetry, dict):
        for name, spec in poetry.items():
            if isinstance(spec, dict):
                spec = spec.get("version", "")
            if isinstance(spec, str):
                texts.append(f"{name}{spec if spec[:1] in '<>=!~^' else '==' + spec}")
    return texts


def _setup_cfg_texts(path: str) -> list[str]:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read(path, encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError, OSError):
        return []
    texts = []
    if parser.has_option("options", "install_requires"):
        texts.append(parser.get("options", "install_requires"))
    if parser.has_section("options.extras_require"):
        texts += [value for _, value in parser.items("options.extras_require")]
    return texts


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read(1024 * 1024)
    except OSError:
        return ""


def _project_dir(start: str) -> str | None:
    current = os.path.abspath(start)
    if not os.path.isdir(current):
        current = os.path.dirname(current)
    while True:
        names = ("pyproject.toml", "setup.cfg", "setup.py")
        if any(os.path.isfile(os.path.join(current, n)) for n in names) or glob.glob(
            os.path.join(glob.escape(current), "requirements*.txt")
        ):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def infer_target(start: str) -> tuple[int, int] | None:
    """The TensorFlow a project declares it runs on (its upper bound), or None (the latest).

    Example: a ``requirements.txt`` line ``tensorflow-gpu==1.15.5`` gives ``(1, 15)``;
    ``tensorflow>=2.4`` gives None.
    """
    project = _project_dir(start)
    if project is None:
        return None
    texts: list[str] = []
    pyproject = os.path.join(project, "pyproject.toml")
    if os.path.isfile(pyproject):
        texts += _pyproject_texts(pyproject)
    setup_cfg = os.path.join(project, "setup.cfg")
    if os.path.isfile(setup_cfg):
        texts += _setup_cfg_texts(setup_cfg)
    setup_py = os.path.join(project, "setup.py")
    if os.path.isfile(setup_py):
        # Read, never run: the requirement strings are what matters.
        texts += re.findall(r"""["']([^"'\n]*)["']""", _read(setup_py))
    for requirements in sorted(glob.glob(os.path.join(glob.escape(project), "requirements*.txt"))):
        texts += [line.split("#", 1)[0] for line in _read(requirements).splitlines()]
    return _requirements(texts)
