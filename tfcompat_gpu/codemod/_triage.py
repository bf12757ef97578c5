"""Which files, and which statements of a file, the migration needs LibCST for.

Nothing here imports LibCST: a file no command wants is answered without loading it, which is
what keeps ``migrate`` on a tree of model code close to ``check``'s time.  Each command names
its entry of :data:`PRECHECKS` (``MigrationCommand.PRECHECK``); ``wanted`` may answer yes
wrongly, never no wrongly (the command would miss a file), and ``relevant`` is asked of each
module-level statement of a wanted file.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal, Protocol

from tfcompat_gpu.codemod._astwalk import DEFINITIONS
from tfcompat_gpu.tfapi.tf1_module_names import TF1_ONLY_IN
from tfcompat_gpu.tfapi.tf1_names import TF1_ONLY

__all__ = [
    "PRECHECKS",
    "RENAME_PRECHECK",
    "TARGETS",
    "UPGRADE_PRECHECKS",
    "Precheck",
    "Target",
    "statements",
    "wanted_prechecks",
]

Target = Literal["facade", "tf2"]
TARGETS: tuple[Target, ...] = ("facade", "tf2")


@dataclass(frozen=True)
class Precheck:
    wanted: Callable[[str, ast.Module | None], bool]
    """Whether a file's text (and its :mod:`ast` tree, where known) may hold something."""
    relevant: Callable[[str], bool]
    """Whether a module-level statement's text may (asked only of wanted files)."""


_CONFIG_PROTO = re.compile(
    r"\b(?:ConfigProto|GPUOptions|Session|InteractiveSession|set_session|get_session)\b"
)
# every deprecated name is spelled through ``config.experimental``
_DEPRECATED = re.compile(r"experimental")
# tf.config.set_logical_device_configuration and its deprecated name
_LOGICAL = re.compile(r"set_logical_device_configuration|set_virtual_device_configuration")

_CONTRIB = re.compile(r"\bcontrib\b")
_DISTRIBUTE = re.compile(r"\bdistribute\b")
_DISCOVERY = re.compile(r"_get_available_gpus|is_gpu_available|gpu_device_name")
_STRATEGY = re.compile(r"multi_gpu_model|\bdistribute\s*=")

# Keras 2 / TF1 code that Keras 3 / TF2 reject (commands keras_*, tf1_compat)
_OPTIMIZER_ARGS = re.compile(r"\b(?:lr|decay)\s*=|\boptimizers\b|\bget_updates\b")
_GENERATOR_METHODS = re.compile(r"_generator\s*\(|\bnb_epoch\b|\.predict_(?:proba|classes)\b")
_KERAS_MODULES = re.compile(
    r"\bkeras\.(?:layers\.\w+\s+import|utils\.\w+_utils|engine|legacy|wrappers)"
    r"|\bkeras\.utils\s+import\b|\bimport\s+.*\b(?:np_utils|Merge)\b"
    r"|ImageDataGenerator"
)
_PRIVATE_IMPORT = re.compile(r"\bfrom\s+tensorflow\.(?:python|core)\b")
_BACKEND_VALUES = re.compile(r"\b[gs]et_value\b|\boptimizer\s*\.\s*lr\b")
_PRIVATE_USE = re.compile(r"\bfrom\s+tensorflow\.(?:python|core)\b|\bconfig_pb2\b")
_WEIGHT_FILES = re.compile(r"save_weights|ModelCheckpoint|load_weights")
_TF1_WORDS = (
    "|".join(sorted(TF1_ONLY))
    + "|contrib|estimator|"
    + "|".join(
        f"{module}\\s*\\.\\s*(?:{'|'.join(sorted(names))})" for module, names in TF1_ONLY_IN.items()
    )
)
_TF1 = re.compile(r"\.\s*(?:" + _TF1_WORDS + r")\b")
_TF1_STATEMENT = re.compile(r"\.\s*(?:" + _TF1_WORDS + r")\b|\bimport\s+tensorflow\b")
_TF_ALIAS = re.compile(r"^\s*import\s+tensorflow(?:\.compat\.v1)?(?:\s+as\s+(\w+))?", re.M)


def _tf1_wanted(text: str, tree: ast.Module | None = None) -> bool:
    """A TF1-only name (``.placeholder``) read from a name tensorflow is imported as."""
    if "tensorflow" not in text:
        return False
    aliases = {found.group(1) or "tensorflow" for found in _TF_ALIAS.finditer(text)}
    if not aliases:
        return False
    before = re.compile(
        r"(?<![\w.])(?:"
        + "|".join(map(re.escape, aliases))
        + r")\s*\.\s*(?:compat\s*\.\s*v1\s*\.\s*)?$"
    )
    for found in _TF1.finditer(text):
        start = found.start()
        if before.search(text, max(0, start - 80), start + 1) is not None:
            return True
    return False


_ATTRIBUTE_ASSIGNMENT = re.compile(r"\w\s*\.\s*\w+\s*=[^=]")


def statements(body: list[ast.stmt], *, scopes: bool = True) -> Iterator[ast.stmt]:
    """Every statement, nested ones included, without walking into expressions.

    ``scopes=False``: not the statements inside functions and classes (those of the module's
    own scope only).
    """
    todo = list(body)
    while todo:
        statement = todo.pop()
        yield statement
        if not scopes and isinstance(statement, DEFINITIONS):
            continue
        for name in ("body", "orelse", "finalbody"):
            inner = getattr(statement, name, None)
            if isinstance(inner, list):
                todo.extend(inner)
        for handler in getattr(statement, "handlers", ()):
            todo.extend(handler.body)
        for case in getattr(statement, "cases", ()):
            todo.extend(case.body)


def _assigns_tensorflow_attribute(source: str, tree: ast.Module | None = None) -> bool:
    """Whether ``source`` assigns to an attribute of a name imported from TensorFlow.

    ``tree`` is ``source`` parsed, where the caller has it.
    """
    if tree is None:
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return True  # let LibCST say what is wrong with it
    bound: set[str] = set()
    assigned: list[ast.Attribute] = []
    for node in statements(tree.body):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "tensorflow":
                    bound.add(alias.asname or "tensorflow")
        elif isinstance(node, ast.ImportFrom):
            if node.module and node.module.split(".")[0] == "tensorflow" and not node.level:
                bound.update(alias.asname or alias.name for alias in node.names)
        elif (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Attribute)
        ):
            assigned.append(node.targets[0])
    for target in assigned:
        root: ast.expr = target
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root.id in bound:
            return True
    return False


def _assignments_wanted(source: str, tree: ast.Module | None) -> bool:
    return (
        "tensorflow" in source
        and _ATTRIBUTE_ASSIGNMENT.search(source) is not None
        and _assigns_tensorflow_attribute(source, tree)
    )


class _Search(Protocol):
    def __call__(self, text: str, tree: ast.Module | None = None) -> bool: ...


def _found(pattern: re.Pattern[str], *literals: str) -> _Search:
    """A check of a file's or a statement's text alone (a file's tree is not needed).

    ``literals``: strings every match contains, looked for first.  A substring test is a
    fast scan, where a pattern opening with ``\\b`` is tried at every position of the text
    (about 0.3 ms on a 10 KB file, for each such pattern).
    """

    def search(text: str, tree: ast.Module | None = None) -> bool:
        if literals and not any(literal in text for literal in literals):
            return False
        return pattern.search(text) is not None

    return search


def _contrib_distribute(text: str, tree: ast.Module | None = None) -> bool:
    """``contrib`` and, after it, ``distribute``: the command changes only names spelled
    ``...contrib.distribute.X``, and ``tf.contrib.layers`` or ``slim`` (most TF1 code) is none
    of its business."""
    if "distribute" not in text:
        return False
    found = _CONTRIB.search(text)
    return found is not None and _DISTRIBUTE.search(text, found.end()) is not None


_PROTO_WORDS = ("ConfigProto", "GPUOptions", "Session", "set_session", "get_session")
_DISCOVERY_WORDS = ("_get_available_gpus", "is_gpu_available", "gpu_device_name")
_STRATEGY_WORDS = ("multi_gpu_model", "distribute")

RENAME_PRECHECK = "rename-deprecated-config"
"""The renames' pre-check: a file only it finds something in may need no LibCST."""

PRECHECKS: dict[str, Precheck] = {
    RENAME_PRECHECK: Precheck(_found(_DEPRECATED), _found(_DEPRECATED)),
    "config-function-assignments": Precheck(
        _assignments_wanted,
        lambda text: bool(_ATTRIBUTE_ASSIGNMENT.search(text) or _LOGICAL.search(text)),
    ),
    "config-proto-to-configure": Precheck(
        _found(_CONFIG_PROTO, *_PROTO_WORDS), _found(_CONFIG_PROTO, *_PROTO_WORDS)
    ),
    # legacy multi-GPU code (commands contrib_distribute, gpu_discovery, build_in_strategy_scope)
    "contrib-distribute": Precheck(_contrib_distribute, _contrib_distribute),
    "gpu-discovery": Precheck(
        _found(_DISCOVERY, *_DISCOVERY_WORDS), _found(_DISCOVERY, *_DISCOVERY_WORDS)
    ),
    "build-in-strategy-scope": Precheck(
        _found(_STRATEGY, *_STRATEGY_WORDS), _found(_STRATEGY, *_STRATEGY_WORDS)
    ),
    # Keras 2 -> Keras 3 and TF1 -> TF2 (commands keras_*, tf1_compat)
    "keras-optimizers": Precheck(
        _found(_OPTIMIZER_ARGS, "lr", "decay", "optimizers", "get_updates"),
        _found(_OPTIMIZER_ARGS, "lr", "decay", "optimizers", "get_updates"),
    ),
    "keras-generator-methods": Precheck(
        _found(_GENERATOR_METHODS, "_generator", "nb_epoch", "predict_"),
        _found(_GENERATOR_METHODS, "_generator", "nb_epoch", "predict_"),
    ),
    "keras-module-paths": Precheck(
        _found(_KERAS_MODULES, "keras", "ImageDataGenerator"),
        _found(_KERAS_MODULES, "keras", "ImageDataGenerator"),
    ),
    "keras-weight-files": Precheck(
        _found(_WEIGHT_FILES, "_weights", "ModelCheckpoint"),
        _found(_WEIGHT_FILES, "_weights", "ModelCheckpoint"),
    ),
    "tf1-compat": Precheck(_tf1_wanted, _found(_TF1_STATEMENT)),
    "keras-backend-values": Precheck(
        _found(_BACKEND_VALUES, "_value", "lr"), _found(_BACKEND_VALUES, "_value", "lr")
    ),
    "tf-private-imports": Precheck(
        _found(_PRIVATE_IMPORT, "tensorflow.python", "tensorflow.core"),
        # and each statement reading config_pb2: the import moves only if all its uses may
        _found(_PRIVATE_USE, "tensorflow.python", "tensorflow.core", "config_pb2"),
    ),
}


UPGRADE_PRECHECKS = frozenset(
    {
        "keras-optimizers",
        "keras-generator-methods",
        "keras-module-paths",
        "keras-weight-files",
        "tf1-compat",
        "tf-private-imports",
        "keras-backend-values",
    }
)
"""The pre-checks of the Keras 2 → 3 and TF1 → TF2 rewrites (``upgrade=True`` only)."""


def wanted_prechecks(
    source: str, tree: ast.Module | None = None, *, upgrade: bool = False
) -> list[str]:
    """The names of the pre-checks that find something in ``source`` (parsed: ``tree``).

    ``upgrade``: with the pre-checks of the Keras 2 / TF1 API rewrites.
    """
    return [
        name
        for name, check in PRECHECKS.items()
        if (upgrade or name not in UPGRADE_PRECHECKS) and check.wanted(source, tree)
    ]
