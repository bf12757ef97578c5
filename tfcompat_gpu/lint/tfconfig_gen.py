"""Regenerate ``tfcompat_gpu/lint/_tfconfig_api.py``: TensorFlow's public ``tf.config`` API per
release, for the lint rule on names that do not exist (TFG030).

Two ways to read a release, both from TensorFlow's own API:

* ``--python PATH``: a Python interpreter with that TensorFlow installed; a child process
  imports it and lists ``tf.config`` and ``tf.compat.v1.config`` (modules, functions, classes).
* ``--golden DIR --release X.Y``: TensorFlow's API golden files of that release
  (``tensorflow/tools/api/golden/v2/tensorflow.config*.pbtxt`` and ``v1/...``, as in the
  release's source tree), read without importing anything.

Each run adds (or replaces) one release and rewrites the table; the table records how each
release was obtained.  Releases share most names, so the table stores each release as the names
it adds to and removes from the release before it (the oldest one: all its names), and decodes
them into ``API`` (the full names of each release) on import.  Example::

    python -m tfcompat_gpu.lint.tfconfig_gen --python /path/to/venv/bin/python
    python -m tfcompat_gpu.lint.tfconfig_gen --golden tensorflow/tools/api/golden --release 2.4
"""

from __future__ import annotations

import argparse
import json
import re
import runpy
import subprocess
import sys
from pathlib import Path

TABLE = Path(__file__).resolve().parent / "_tfconfig_api.py"

_LIST = r"""
import json, types
import tensorflow as tf

def names(module, prefix, depth):
    found = []
    for name in dir(module):
        if name.startswith("_"):
            continue
        value = getattr(module, name)
        found.append(prefix + name)
        if isinstance(value, types.ModuleType) and depth < 2:
            found += names(value, prefix + name + ".", depth + 1)
    return found

print(json.dumps({
    "version": tf.__version__,
    "v2": sorted(names(tf.config, "", 0)),
    "v1": sorted(names(tf.compat.v1.config, "", 0)),
}))
"""


def from_python(python: str) -> tuple[str, dict[str, list[str]], str]:
    out = subprocess.run(
        [python, "-c", _LIST],
        capture_output=True,
        text=True,
        check=True,
        env={"TF_CPP_MIN_LOG_LEVEL": "3", "PATH": "/usr/bin:/bin"},
    ).stdout
    data = json.loads(out.strip().splitlines()[-1])
    version = data["version"]
    return version, {"v2": data["v2"], "v1": data["v1"]}, f"imported TensorFlow {version}"


_MEMBER = re.compile(r"(member|member_method)\s*\{\s*name:\s*\"(\w+)\"")


def from_golden(root: Path, release: str) -> tuple[str, dict[str, list[str]], str]:
    api: dict[str, list[str]] = {}
    for flavour in ("v2", "v1"):
        names: list[str] = []
        for path in sorted((root / flavour).glob("tensorflow.config*.pbtxt")):
            module = path.name[len("tensorflow.config") : -len(".pbtxt")].lstrip(".")
            if module.count(".") > 1:
                continue
            prefix = module + "." if module else ""
            # Class pages (tensorflow.config.LogicalDevice.pbtxt) list attributes, not names.
            text = path.read_text()
            if "tf_module" not in text:
                continue
            names += [prefix + name for _, name in _MEMBER.findall(text)]
        api[flavour] = sorted(set(names))
    return release, api, f"API golden files of TensorFlow {release} ({root})"


def _release(version: str) -> tuple[int, int]:
    major, minor = version.split(".")[:2]
    return int(major), int(minor)


Table = dict[tuple[int, int], dict[str, list[str]]]
"""Release -> flavour (``"v2"``, ``"v1"``) -> its sorted names."""

FLAVOURS = ("v2", "v1")


def _load(path: Path = TABLE) -> tuple[Table, dict[tuple[int, int], str]]:
    """The table as it stands: every release's full names, and how each was read."""
    if not path.exists():
        return {}, {}
    module = runpy.run_path(str(path))
    api = {
        release: {flavour: sorted(names[flavour]) for flavour in FLAVOURS}
        for release, names in module["API"].items()
    }
    return api, dict(module["SOURCES"])


def _quote(text: str) -> str:
    # Double quotes, as the formatter writes them, so that a regenerated table diffs cleanly;
    # JSON's escapes are Python's.
    return json.dumps(text)


def _changes(api: Table) -> tuple[Table, Table]:
    """Per release, the names it adds to the release before it, and those it removes."""
    added: Table = {}
    removed: Table = {}
    before: dict[str, set[str]] = {flavour: set() for flavour in FLAVOURS}
    for release in sorted(api):
        now = {flavour: set(api[release][flavour]) for flavour in FLAVOURS}
        for flavour in FLAVOURS:
            if now[flavour] - before[flavour]:
                added.setdefault(release, {})[flavour] = sorted(now[flavour] - before[flavour])
            if before[flavour] - now[flavour]:
                removed.setdefault(release, {})[flavour] = sorted(before[flavour] - now[flavour])
        before = now
    return added, removed


def _lines(name: str, table: Table, doc: str) -> list[str]:
    lines = [f"{name}: dict[tuple[int, int], dict[str, list[str]]] = {{"]
    for release in sorted(table):
        lines.append(f"    {release!r}: {{")
        for flavour in FLAVOURS:
            if flavour in table[release]:
                lines.append(f"        {_quote(flavour)}: [")
                lines += [f"            {_quote(name)}," for name in table[release][flavour]]
                lines.append("        ],")
        lines.append("    },")
    lines += ["}", f'"""{doc}"""']
    return lines


def render(api: Table, sources: dict[tuple[int, int], str]) -> str:
    """The text of ``_tfconfig_api.py`` for ``api`` (full names per release) and ``sources``."""
    added, removed = _changes(api)
    lines = [
        '"""TensorFlow\'s public ``tf.config`` / ``tf.compat.v1.config`` names per release.',
        "",
        "Generated by ``python -m tfcompat_gpu.lint.tfconfig_gen`` from TensorFlow's own API; do not edit.",
        "``SOURCES`` says how each release was read.  Each release is stored as the names it adds",
        "to and removes from the release before it; ``API`` holds every release's full names.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        '__all__ = ["API", "SOURCES"]',
        "",
        "SOURCES: dict[tuple[int, int], str] = {",
    ]
    for release in sorted(sources):
        lines.append(f"    {release!r}: {_quote(sources[release])},")
    lines.append("}")
    lines += _lines("_ADDED", added, "Names new in a release (all of the oldest release's).")
    lines += _lines(
        "_REMOVED", removed, "Names of the release before that a release no longer has."
    )
    lines += [
        "",
        "",
        "def _decode() -> dict[tuple[int, int], dict[str, frozenset[str]]]:",
        "    api: dict[tuple[int, int], dict[str, frozenset[str]]] = {}",
        '    names: dict[str, frozenset[str]] = {"v2": frozenset(), "v1": frozenset()}',
        "    for release in sorted(SOURCES):",
        "        names = {",
        "            flavour: (before - set(_REMOVED.get(release, {}).get(flavour, ())))",
        "            | set(_ADDED.get(release, {}).get(flavour, ()))",
        "            for flavour, before in names.items()",
        "        }",
        "        api[release] = names",
        "    return api",
        "",
        "",
        "API: dict[tuple[int, int], dict[str, frozenset[str]]] = _decode()",
        '"""Release -> ``"v2"`` (``tf.config``) / ``"v1"`` (``tf.compat.v1.config``) -> names."""',
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", help="an interpreter with TensorFlow installed")
    parser.add_argument("--golden", type=Path, help="tensorflow/tools/api/golden of a release")
    parser.add_argument("--release", help="the release of --golden, such as 2.4")
    args = parser.parse_args(argv)
    if args.python:
        version, names, source = from_python(args.python)
    elif args.golden and args.release:
        version, names, source = from_golden(args.golden, args.release)
    else:
        parser.error("give --python, or --golden with --release")
    api, sources = _load()
    release = _release(version)
    api[release] = {flavour: sorted(names[flavour]) for flavour in FLAVOURS}
    sources[release] = source
    TABLE.write_text(render(api, sources))
    print(f"{TABLE}: TensorFlow {release[0]}.{release[1]}: {len(names['v2'])} tf.config names")
    return 0


if __name__ == "__main__":
    sys.exit(main())
