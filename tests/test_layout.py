"""The package's layout, kept: the layer rule, no import circles, every module on the map.

The layer table and the map are read from ``docs/architecture.md``, so the page and the tree
cannot drift apart.  Imports are read with :mod:`ast` from the sources: module-level ones, the
lazy ones inside functions, those under ``TYPE_CHECKING`` and dotted ``"tfcompat_gpu.x"``
strings handed to :mod:`importlib` all count.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "tfcompat_gpu"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
MAX_LINES = 600

# Imports the layer rule allows against its table, each with its reason.  Keep it empty where
# possible: an entry here is a dependency the table does not show.
EXCEPTIONS: dict[tuple[str, str], str] = {
    (
        "tfcompat_gpu.codemod.commands.tf_private_imports",
        "tfcompat_gpu.dropin.mnist_input_data",
    ): "the module migrated code imports, written into that code as text; never imported here",
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(name: str) -> Iterator[tuple[str, int]]:
    """The package modules ``name`` imports, with the line of each import."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        found: list[str] = []
        if isinstance(node, ast.Import):
            found = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([module] if module else [])])
            # ``from pkg import mod`` imports the module; ``from mod import name`` the module
            found = [
                f"{module}.{alias.name}" if f"{module}.{alias.name}" in MODULES else module
                for alias in node.names
            ]
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and re.fullmatch(r"tfcompat_gpu(?:\.\w+)+", node.value)
        ):
            found = [node.value]
        for target in found:
            # a dotted string may name an attribute: the longest module prefix is imported
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            # importing a submodule runs its package's __init__ first: not a dependency
            if target and target != name and not name.startswith(target + "."):
                yield target, node.lineno


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _names(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def _layer_table() -> list[tuple[list[str], list[str] | None]]:
    """Rows of the layer table: (the folders/modules of the row, what they may import).

    ``None`` for "may import": anything of the package.
    """
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        if not line.startswith("| `"):
            continue
        cells = _cells(line)
        owners, allowed = _names(cells[0]), cells[-1]
        rows.append((owners, None if allowed == "anything" else _names(allowed)))
    return rows


def _owner(module: str, rows: list[tuple[list[str], list[str] | None]]) -> str:
    """The row entry (``"lint/"``, ``"errors.py"``) a module belongs to."""
    relative = MODULES[module].relative_to(PACKAGE).as_posix()
    entries = [entry for owners, _ in rows for entry in owners]
    for entry in sorted(entries, key=len, reverse=True):
        if relative == entry or (entry.endswith("/") and relative.startswith(entry)):
            return entry
    raise AssertionError(f"tfcompat_gpu/{relative} is in no row of the layer table")


def test_layer_table_covers_the_package() -> None:
    rows = _layer_table()
    assert len(rows) >= 8, rows
    entries = [entry for owners, _ in rows for entry in owners]
    assert len(entries) == len(set(entries)), entries
    for entry in entries:
        assert (PACKAGE / entry).exists(), f"the layer table names {entry}, which does not exist"
    for module in MODULES:
        _owner(module, rows)


def test_every_import_keeps_the_layer_rule() -> None:
    rows = _layer_table()
    allowed_of = {entry: allowed for owners, allowed in rows for entry in owners}
    broken = []
    for module in MODULES:
        owner = _owner(module, rows)
        allowed = allowed_of[owner]
        if allowed is None:
            continue
        for target, line in _imports(module):
            target_owner = _owner(target, rows)
            if target_owner == owner or target_owner in allowed:
                continue
            if (module, target) in EXCEPTIONS:
                continue
            broken.append(f"{MODULES[module].relative_to(ROOT)}:{line}: imports {target}")
    assert not broken, "imports the layer table does not allow:\n" + "\n".join(broken)


def test_layers_are_listed_lowest_first() -> None:
    """A row may import only rows above it in the table (lower layers are listed first)."""
    rows = _layer_table()
    seen: list[str] = []
    for owners, allowed in rows:
        for entry in allowed or []:
            assert entry in seen, f"{owners} may import {entry}, which is not listed before it"
        seen.extend(owners)


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circles() -> None:
    graph = {module: {target for target, _ in _imports(module)} for module in MODULES}
    assert not _strongly_connected(graph)


def test_the_circle_finder_finds_circles() -> None:
    assert _strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [
        ["a", "b", "c"]
    ]


def _map_sections() -> dict[str, set[str]]:
    """Folder (``"lint/rules/"``, ``""`` for the package root) -> the file names its map lists."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("## The map", 1)[1].split("\n## ", 1)[0]
    sections: dict[str, set[str]] = {}
    current: set[str] | None = None
    for line in section.splitlines():
        heading = re.match(r"### `tfcompat_gpu/([\w/]*)`", line)
        if heading:
            current = sections.setdefault(heading.group(1), set())
        elif current is not None:
            current.update(name for name in _names(line) if re.fullmatch(r"[\w]+\.py|[\w]+/", name))
    return sections


def test_every_module_is_on_the_map() -> None:
    sections = _map_sections()
    missing, stale = [], []
    for path in MODULES.values():
        relative = path.relative_to(PACKAGE)
        folder = "" if relative.parent == Path(".") else relative.parent.as_posix() + "/"
        if relative.name == "__init__.py":
            if folder and folder not in sections:
                missing.append(f"tfcompat_gpu/{folder} has no section in the map")
            continue
        if relative.name not in sections.get(folder, set()):
            missing.append(f"tfcompat_gpu/{relative} is not on the map")
    for folder, names in sections.items():
        for name in names:
            if not (PACKAGE / folder / name).exists():
                stale.append(f"the map lists tfcompat_gpu/{folder}{name}, which does not exist")
    assert not missing + stale, "\n".join(missing + stale)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_over_the_size_limit(name: str) -> None:
    lines = MODULES[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{MODULES[name].relative_to(ROOT)} has {lines} lines"


def _importers_of(library: str) -> set[str]:
    """The package files that import ``library`` (any form, lazy ones included)."""
    found = set()
    for path in MODULES.values():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            elif isinstance(node, ast.Call) and getattr(
                node.func, "attr", getattr(node.func, "id", "")
            ) in (
                "import_module",
                "__import__",
            ):
                names = [
                    a.value
                    for a in node.args[:1]
                    if isinstance(a, ast.Constant) and isinstance(a.value, str)
                ]
            if any(name == library or name.startswith(library + ".") for name in names):
                found.add(path.relative_to(PACKAGE).as_posix())
    return found


def test_one_module_per_optional_library() -> None:
    """The boundaries the layer table states: TensorFlow, NVML and LibCST each behind one place."""
    assert _importers_of("tensorflow") == {"tfapi/_tf.py"}
    assert _importers_of("pynvml") == {"machine/nvml.py"}
    libcst = _importers_of("libcst")
    # migrate's command asks whether LibCST is installed, and names its parse error
    assert libcst - {"commands/migrate.py"}
    assert all(path.startswith("codemod/") for path in libcst - {"commands/migrate.py"}), libcst
