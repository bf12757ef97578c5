"""The TensorFlow version a project targets: given, or read from its declared requirements.

A project pinned to ``tensorflow<2`` or ``tensorflow-gpu==1.15`` stays on TensorFlow 1: the
rules about moving to TensorFlow 2 (TFG009, TFG013) say nothing useful there, while the real
TensorFlow 1 bugs (sessions, fractions, device lists, environment variables) still matter.
When no target is set, each folder gets the target of the nearest folder (its own, or a
parent) whose files name TensorFlow: ``pyproject.toml``, ``setup.cfg``, ``setup.py``,
``requirements*.txt``, ``environment.yml`` (conda), or a ``Dockerfile`` built ``FROM`` a
TensorFlow image (``tensorflow/tensorflow:1.15.2-gpu-py3``, NVIDIA's
``nvcr.io/nvidia/tensorflow:20.06-tf1-py3``, also through an ``ARG`` default used as
``FROM ${FROM_IMAGE_NAME}``).  A requirement with an upper bound gives that TensorFlow; one
without (``tensorflow>=2.4``) the latest.  So the TensorFlow 1 sub-projects of a monorepo are
checked for TensorFlow 1, and the others for TensorFlow 2.
"""

from __future__ import annotations

import configparser
import os
import re
import sys
from collections.abc import Iterable
from typing import Any, NamedTuple

from tfcompat_gpu.utils.files import read_bytes
from tfcompat_gpu.utils.numbers import INT_TEXT, parse_int
from tfcompat_gpu.utils.shown import shown_value

__all__ = ["Decision", "TargetError", "Targets", "infer_target", "parse_target"]

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
    match = re.fullmatch(
        rf"\s*(?:tf|tensorflow)?\s*({INT_TEXT})(?:\.({INT_TEXT}|x|\*)(?:\.\d[\w.]*)?)?\s*", value
    )
    if match is None or int(match.group(1)) not in (1, 2):
        raise TargetError(
            "Expected a TensorFlow version such as '1.15' or '2.16'. "
            f"Received: target-version={shown_value(value)}"
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
    parts = [n for n in map(parse_int, version.split(".")) if n is not None]
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
        data: dict[str, Any] = tomllib.loads(_read(path, strict=True))
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
        parser.read_string(_read(path, strict=True), path)
    except (configparser.Error, UnicodeDecodeError):
        return []
    texts = []
    if parser.has_option("options", "install_requires"):
        texts.append(parser.get("options", "install_requires"))
    if parser.has_section("options.extras_require"):
        texts += [value for _, value in parser.items("options.extras_require")]
    return texts


def _read(path: str, strict: bool = False) -> str:
    """A project file's text ("" when it cannot be read); never blocks on a FIFO."""
    try:
        data = read_bytes(path, max_bytes=4 * 1024 * 1024)
    except OSError:
        return ""
    return data.decode("utf-8", "strict" if strict else "replace")


_MENTION = re.compile(rf"(?<![\w-]){_NAMES}(?![\w-])", re.IGNORECASE)
_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", "environment.yml", "environment.yaml")
_ARG = re.compile(r"^\s*ARG\s+(\w+)\s*=\s*(\S+)", re.IGNORECASE | re.MULTILINE)
_FROM = re.compile(r"^\s*FROM\s+(?:--platform=\S+\s+)?(\S+)", re.IGNORECASE | re.MULTILINE)
_VARIABLE = re.compile(r"\$\{(\w+)(?::?-([^}]*))?\}|\$(\w+)")
_TF_IMAGE = re.compile(r"(?:^|/)tensorflow(?:-gpu)?:(?P<tag>\S+)$", re.IGNORECASE)


def _image_target(image: str) -> tuple[bool, tuple[int, int] | None]:
    """(whether ``image`` is a TensorFlow image, its TensorFlow or None for the latest)."""
    match = _TF_IMAGE.search(image.strip("\"'"))
    if match is None:
        return False, None
    tag = match.group("tag").lower()
    if re.search(r"(?:^|-)tf1(?:-|$)", tag):  # NGC: 20.06-tf1-py3
        return True, _TF1_LAST
    version = re.match(rf"({INT_TEXT})\.({INT_TEXT})", tag)
    if version is not None and not re.search(r"(?:^|-)tf2(?:-|$)", tag):
        major, minor = int(version.group(1)), int(version.group(2))
        if major in (1, 2):  # tensorflow/tensorflow:1.15.2-gpu-py3; NGC tags are YY.MM
            return True, _capped(major, minor)
    return True, None  # tf2 NGC tags, latest, nightly


def _dockerfile_target(text: str) -> tuple[bool, tuple[int, int] | None]:
    defaults = {name: value.strip("\"'") for name, value in _ARG.findall(text)}

    def expand(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(3)
        return defaults.get(name) or match.group(2) or ""

    found = [_image_target(_VARIABLE.sub(expand, image)) for image in _FROM.findall(text)]
    bounds = [target for named, target in found if named and target is not None]
    if bounds:
        return True, min(bounds)
    return any(named for named, _ in found), None


class Decision(NamedTuple):
    """The target of a folder, and the file that decided it (None: nothing did)."""

    target: tuple[int, int] | None
    source: str | None


def _declared(folder: str, names: list[str]) -> Decision | None:
    """What the files of ``folder`` say about TensorFlow, or None when they name none."""
    texts: list[str] = []
    sources: list[str] = []
    for name in names:
        path = os.path.join(folder, name)
        lower = name.lower()
        if lower == "pyproject.toml":
            found = _pyproject_texts(path)
        elif lower == "setup.cfg":
            found = _setup_cfg_texts(path)
        elif lower == "setup.py":
            found = re.findall(r"""["']([^"'\n]*)["']""", _read(path))
        elif (lower.startswith("requirements") and lower.endswith(".txt")) or lower in (
            "environment.yml",
            "environment.yaml",
        ):
            found = [line.split("#", 1)[0] for line in _read(path).splitlines()]
        else:
            continue
        if any(_MENTION.search(text) for text in found):
            texts += found
            sources.append(path)
    docker: list[tuple[int, int] | None] = []
    for name in names:
        lower = name.lower()
        if (
            lower == "dockerfile"
            or lower.startswith("dockerfile.")
            or lower.endswith(".dockerfile")
        ):
            path = os.path.join(folder, name)
            named, target = _dockerfile_target(_read(path))
            if named:
                docker.append(target)
                sources.append(path)
    if not sources:
        return None
    bounds = [b for b in [_requirements(texts), *docker] if b is not None]
    return Decision(min(bounds) if bounds else None, ", ".join(sorted(sources)))


class Targets:
    """The target of each folder, from the nearest folder that names TensorFlow (cached).

    Example: with ``tf1/Dockerfile`` built ``FROM nvcr.io/nvidia/tensorflow:20.06-tf1-py3``,
    ``Targets().decide("tf1/models")`` is ``Decision((1, 15), "tf1/Dockerfile")``.
    """

    def __init__(self) -> None:
        self._folders: dict[str, Decision] = {}
        self._asked: dict[str, Decision] = {}

    def decide(self, folder: str) -> Decision:
        known = self._asked.get(folder)
        if known is not None:
            return known
        decision = self._asked[folder] = self._decide(folder)
        return decision

    def _decide(self, folder: str) -> Decision:
        current = os.path.abspath(folder)
        if not os.path.isdir(current):
            current = os.path.dirname(current)
        seen: list[str] = []
        decision = Decision(None, None)
        while True:
            cached = self._folders.get(current)
            if cached is not None:
                decision = cached
                break
            seen.append(current)
            try:
                names = sorted(os.listdir(current))
            except OSError:
                names = []
            wanted = [
                n
                for n in names
                if n in _MARKERS
                or n.lower().startswith(("requirements", "dockerfile"))
                or n.lower().endswith(".dockerfile")
            ]
            found = _declared(current, wanted) if wanted else None
            if found is not None:
                decision = found
                break
            parent = os.path.dirname(current)
            if parent == current:
                break
            current = parent
        for folder_seen in seen:
            self._folders[folder_seen] = decision
        return decision


def infer_target(start: str) -> tuple[int, int] | None:
    """The TensorFlow a project declares it runs on (its upper bound), or None (the latest).

    Example: a ``requirements.txt`` line ``tensorflow-gpu==1.15.5`` gives ``(1, 15)``;
    ``tensorflow>=2.4`` gives None.
    """
    return Targets().decide(start).target
