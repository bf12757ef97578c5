"""TF1 names imported from TensorFlow's private modules → their public homes.

``tensorflow.python`` and ``tensorflow.core`` are TensorFlow's implementation, not its API: TF
1.x re-exported ``Session`` in ``tensorflow/python/__init__.py``, TF 2 does not, and
``tensorflow.python.keras`` (TF's Keras 2 copy) is not Keras 3.  An import moves only where the
public module exports the same object:

- ``Session`` / ``InteractiveSession`` (``tensorflow/python/client/session.py``) are
  ``tf.compat.v1.Session`` / ``InteractiveSession`` (tensorflow/_api/v2/compat/v1/__init__.py);
- ``ConfigProto``, ``GPUOptions``, ... of ``tensorflow/core/protobuf/config_pb2`` are
  re-exported as ``tf.compat.v1.X`` (tensorflow/python/proto_exports.py), so ``from
  tensorflow.core.protobuf import config_pb2`` becomes ``from tensorflow.compat import v1 as
  config_pb2`` when every ``config_pb2.X`` of the file is one of them; the GPU configuration
  built from them is then migrated like any ``tf.ConfigProto`` (``_tfnames.canonical`` folds the
  private names);
- ``tensorflow.python.keras.M`` → ``keras.M`` (a file that imports ``keras``) or
  ``tensorflow.keras.M``, for the modules Keras 3 has (keras/__init__.py), and a name imported
  from ``layers`` / ``models`` / ``utils`` only where Keras 3 exports it.

MNIST's tutorial loader (``from tensorflow.examples.tutorials.mnist import input_data``) is
imported from ``tfcompat_gpu.dropin.mnist_input_data``, the same ``read_data_sets`` on NumPy.
Anything else from those modules is left alone with a warning, and so is an import of
the rest of ``tensorflow.examples`` or of ``tensorflow.contrib`` (``from
tensorflow.contrib import rnn``, ``import tensorflow.contrib.eager as tfe``), which TensorFlow 2
no longer ships: the import itself would raise ModuleNotFoundError.
"""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import dotted
from tfcompat_gpu.codemod._triage import text_search
from tfcompat_gpu.tfapi.contrib_names import CONTRIB_SUCCESSORS
from tfcompat_gpu.tfapi.keras_names import KERAS_LAYERS, KERAS_MODELS, KERAS_UTILS

__all__ = [
    "CONFIG_PB2_NAMES",
    "SESSION_MODULES",
    "TfPrivateImportsCommand",
    "contrib_successor",
    "eager_import",
    "layers_import",
    "rnn_import",
    "seq2seq_import",
    "slim_import",
]

SESSION_MODULES = ("tensorflow.python", "tensorflow.python.client.session")
_SESSIONS = frozenset({"Session", "InteractiveSession"})
CONFIG_PB2 = "tensorflow.core.protobuf.config_pb2"
# the config_pb2 messages tf.compat.v1 exports (tensorflow/python/proto_exports.py)
CONFIG_PB2_NAMES = frozenset(
    {"ConfigProto", "GPUOptions", "GraphOptions", "OptimizerOptions", "RunMetadata", "RunOptions"}
)
_PRIVATE_KERAS = "tensorflow.python.keras"
# Keras 3's public modules (keras/__init__.py) that TF's Keras 2 copy also had
_KERAS_MODULES = frozenset(
    {
        "activations",
        "applications",
        "backend",
        "callbacks",
        "constraints",
        "datasets",
        "initializers",
        "layers",
        "losses",
        "metrics",
        "mixed_precision",
        "models",
        "optimizers",
        "preprocessing",
        "regularizers",
        "utils",
    }
)
_KERAS_EXPORTS: dict[str, frozenset[str]] = {
    "layers": KERAS_LAYERS,
    "models": KERAS_MODELS,
    "utils": KERAS_UTILS,
}
_IMPORTS_KERAS = re.compile(r"^\s*(?:import\s+keras\b|from\s+keras\b)", re.M)


def _names(node: cst.ImportFrom) -> list[str] | None:
    if isinstance(node.names, cst.ImportStar):
        return None
    return [str(dotted(alias.name)) for alias in node.names]


# ``tf.python.control_flow_ops = tf``: the line Keras 1.1 scripts ran for its backend
_CONTROL_FLOW_SHIM = r"|\.\s*python\s*\.\s*control_flow_ops\s*="
_PRIVATE_IMPORT = re.compile(
    r"\bfrom\s+tensorflow\.(?:python|core|examples|contrib)\b"
    r"|\bimport\s+tensorflow\.(?:examples|contrib)\b" + _CONTROL_FLOW_SHIM
)
# and each statement reading config_pb2: the import moves only if all its uses may
_PRIVATE_USE = re.compile(
    r"\bfrom\s+tensorflow\.(?:python|core|examples|contrib)\b"
    r"|\bimport\s+tensorflow\.(?:examples|contrib)\b|\bconfig_pb2\b" + _CONTROL_FLOW_SHIM
)
_EXAMPLES = "tensorflow.examples"
_MNIST = "tensorflow.examples.tutorials.mnist"
# TF1's MNIST loader, on NumPy (tfcompat_gpu/dropin/mnist_input_data.py)
_INPUT_DATA = "tfcompat_gpu.dropin.mnist_input_data"
_NO_EXAMPLES = (
    "TensorFlow 2 no longer ships tensorflow.examples (MNIST's input_data.read_data_sets); "
    "load MNIST with tf.keras.datasets.mnist.load_data() [tensorflow.examples removed]"
)
_CONTRIB = "tensorflow.contrib"
# where the names of a tf.contrib module went (tf_upgrade_v2's renames_v2.py)


class TfPrivateImportsCommand(MigrationCommand):
    DESCRIPTION = "TF1 names imported from tensorflow.python / tensorflow.core to public ones."
    PRECHECK = Precheck(
        text_search(
            _PRIVATE_IMPORT,
            "tensorflow.python",
            "tensorflow.core",
            _EXAMPLES,
            _CONTRIB,
            "control_flow_ops",
        ),
        text_search(
            _PRIVATE_USE,
            "tensorflow.python",
            "tensorflow.core",
            "config_pb2",
            _EXAMPLES,
            _CONTRIB,
            "control_flow_ops",
        ),
    )
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.RemovalSentinel:
        # ``tf.python.control_flow_ops = tf``: Keras 1.1's backend read TensorFlow's control
        # flow there (TF 0.12 moved it); nothing reads it now, and TF 2 has no ``tf.python``
        if len(original_node.body) != 1:
            return updated_node
        small = original_node.body[0]
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1):
            return updated_node
        target = small.targets[0].target
        if not (
            isinstance(target, cst.Attribute)
            and target.attr.value == "control_flow_ops"
            and isinstance(target.value, cst.Attribute)
            and "tensorflow.python" in self.names_of(target.value)
        ):
            return updated_node
        return cst.RemovalSentinel.REMOVE

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.ImportFrom:
        if original_node.module is None or original_node.relative:
            return updated_node
        if rnn_import(original_node) or layers_import(original_node):
            return updated_node
        if eager_import(original_node):
            return updated_node  # contrib_eager rewrites it or warns
        if seq2seq_import(original_node) or slim_import(original_node):
            return updated_node
        module = dotted(original_node.module)
        names = _names(original_node)
        if module == _MNIST and names == ["input_data"]:
            # from tensorflow.examples.tutorials.mnist import input_data [as X]
            alias = updated_node.names[0]  # type: ignore[index]
            return updated_node.with_changes(
                module=cst.parse_expression(_INPUT_DATA.rpartition(".")[0]),
                names=[
                    alias.with_changes(
                        name=cst.Name(_INPUT_DATA.rpartition(".")[2]),
                        asname=alias.asname or cst.AsName(name=cst.Name("input_data")),
                    )
                ],
            )
        # from tensorflow.contrib import rnn: the module said is the name imported
        whole = f"{module}.{names[0]}" if module == _CONTRIB and names else module
        removed = None if whole is None else _removed(whole)
        if removed is not None:
            self.warn_at(original_node, f"from {module} import ... left unchanged: {removed}")
            return updated_node
        if module is None or not module.startswith(("tensorflow.python", "tensorflow.core")):
            return updated_node
        if module in SESSION_MODULES or module == CONFIG_PB2:
            allowed = _SESSIONS if module in SESSION_MODULES else CONFIG_PB2_NAMES
            if names is None:
                self.warn_at(
                    original_node, f"from {module} import * left unchanged: {_PUBLIC} [star import]"
                )
                return updated_node
            if module == "tensorflow.python" and not set(names) & _SESSIONS:
                return updated_node  # TensorFlow's own modules (ops, framework): not TF1 names
            others = [name for name in names if name not in allowed]
            if others:
                self.warn_at(
                    original_node,
                    f"from {module} import {', '.join(others)} left unchanged: {_PUBLIC} "
                    "[name not in tf.compat.v1]",
                )
                return updated_node
            return updated_node.with_changes(module=cst.parse_expression("tensorflow.compat.v1"))
        if module == "tensorflow.core.protobuf" and names is not None and "config_pb2" in names:
            return self._config_pb2(original_node, updated_node, names)
        if module == _PRIVATE_KERAS or module.startswith(_PRIVATE_KERAS + "."):
            return self._keras(original_node, updated_node, module, names)
        return updated_node

    def leave_Import(
        self, original_node: cst.Import, updated_node: cst.Import
    ) -> cst.Import | cst.ImportFrom:
        if slim_import(original_node) or eager_import(original_node):
            return updated_node  # contrib_layers / contrib_eager rewrite it or warn
        if len(updated_node.names) == 1 and updated_node.names[0].asname is not None:
            alias = updated_node.names[0]
            if dotted(alias.name) == f"{_MNIST}.input_data":
                # import tensorflow.examples.tutorials.mnist.input_data as input_data
                return cst.ImportFrom(
                    module=cst.parse_expression(_INPUT_DATA.rpartition(".")[0]),  # type: ignore[arg-type]
                    names=[alias.with_changes(name=cst.Name(_INPUT_DATA.rpartition(".")[2]))],
                )
        for alias in original_node.names:
            name = dotted(alias.name) or ""
            removed = _removed(name)
            if removed is not None:
                self.warn_at(original_node, f"import {name} left unchanged: {removed}")
                break
        return updated_node

    def _config_pb2(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom, names: list[str]
    ) -> cst.ImportFrom:
        assert not isinstance(updated_node.names, cst.ImportStar)  # _names() said so
        alias = next(a for a in updated_node.names if dotted(a.name) == "config_pb2")
        bound = "config_pb2"
        if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
            bound = alias.asname.name.value
        used = set(
            re.findall(rf"(?<![\w.]){re.escape(str(bound))}\s*\.\s*(\w+)", self.source_text())
        )
        # bound under its own name: the pre-check keeps every statement that reads it
        if len(names) != 1 or bound != "config_pb2" or not used or not used <= CONFIG_PB2_NAMES:
            unknown = sorted(used - CONFIG_PB2_NAMES)
            why = (
                f"config_pb2.{', config_pb2.'.join(unknown)} is not among the messages "
                "tf.compat.v1 exports [config_pb2 message not in tf.compat.v1]"
                if unknown
                else "import it on a line of its own, as config_pb2, and run migrate again "
                "[config_pb2 import form]"
            )
            self.warn_at(
                original_node, f"tensorflow.core.protobuf.config_pb2 left unchanged: {why}"
            )
            return updated_node
        return updated_node.with_changes(
            module=cst.parse_expression("tensorflow.compat"),
            names=[
                alias.with_changes(name=cst.Name("v1"), asname=cst.AsName(cst.Name(str(bound))))
            ],
        )

    def _keras(
        self,
        original_node: cst.ImportFrom,
        updated_node: cst.ImportFrom,
        module: str,
        names: list[str] | None,
    ) -> cst.ImportFrom:
        public = "keras" if _IMPORTS_KERAS.search(self.source_text()) else "tensorflow.keras"
        rest = module[len(_PRIVATE_KERAS) :].lstrip(".")
        if names is not None and not rest and set(names) <= _KERAS_MODULES:
            return updated_node.with_changes(module=cst.parse_expression(public))
        exports = _KERAS_EXPORTS.get(rest)
        if names is not None and exports is not None and set(names) <= exports:
            return updated_node.with_changes(module=cst.parse_expression(f"{public}.{rest}"))
        if rest in _KERAS_MODULES and rest not in _KERAS_EXPORTS and names is not None:
            # backend, optimizers, callbacks, ...: whether Keras 3 still has the name is not
            # known without importing it
            why = (
                f"check that Keras 3's {public}.{rest} has it and import it from there "
                "[private Keras name]"
            )
        else:
            why = f"Keras 3 has no {public}.{rest or '*'} with these names [no Keras 3 module]"
        self.warn_at(
            original_node, f"from {module} import ... left unchanged (TensorFlow-private): {why}"
        )
        return updated_node


def rnn_import(node: cst.ImportFrom) -> bool:
    """``from tensorflow.contrib import rnn [as r]`` or ``from tensorflow.contrib.rnn import ...``:
    an import ``contrib_rnn`` rewrites or warns about, not this command."""
    if node.module is None or node.relative or isinstance(node.names, cst.ImportStar):
        return False
    module = dotted(node.module)
    if module == "tensorflow.contrib.rnn":
        return True
    return module == "tensorflow.contrib" and [dotted(a.name) for a in node.names] == ["rnn"]


def eager_import(node: cst.Import | cst.ImportFrom) -> bool:
    """``import tensorflow.contrib.eager as tfe``, ``from tensorflow.contrib.eager.python import
    tfe`` or ``from tensorflow.contrib import eager as tfe``: an import ``contrib_eager``
    rewrites or warns about, not this command."""
    if isinstance(node, cst.Import):
        return any(
            dotted(alias.name) == "tensorflow.contrib.eager" and alias.asname
            for alias in node.names
        )
    if node.module is None or node.relative or isinstance(node.names, cst.ImportStar):
        return False
    module = dotted(node.module)
    names = [dotted(alias.name) for alias in node.names]
    return (module, names) in (
        ("tensorflow.contrib.eager.python", ["tfe"]),
        ("tensorflow.contrib", ["eager"]),
    )


def layers_import(node: cst.ImportFrom) -> bool:
    """``from tensorflow.contrib import layers [as l]`` or ``from tensorflow.contrib.layers import
    ...``: an import ``contrib_layers`` rewrites or warns about, not this command."""
    if node.module is None or node.relative or isinstance(node.names, cst.ImportStar):
        return False
    module = dotted(node.module)
    if module == "tensorflow.contrib.layers":
        return True
    return module == "tensorflow.contrib" and [dotted(a.name) for a in node.names] == ["layers"]


def slim_import(node: cst.Import | cst.ImportFrom) -> bool:
    """``import tensorflow.contrib.slim as slim`` or ``from tensorflow.contrib import slim [as s]``,
    alone in its statement: an import ``contrib_layers`` rewrites or warns about."""
    if isinstance(node, cst.Import):
        return (
            len(node.names) == 1
            and node.names[0].asname is not None
            and dotted(node.names[0].name) == "tensorflow.contrib.slim"
        )
    if node.module is None or node.relative or isinstance(node.names, cst.ImportStar):
        return False
    names = [dotted(a.name) for a in node.names]
    return dotted(node.module) == "tensorflow.contrib" and names == ["slim"]


def seq2seq_import(node: cst.ImportFrom) -> bool:
    """``from tensorflow.contrib.seq2seq import sequence_loss [as l]`` or ``from tensorflow.contrib
    import seq2seq [as s]``: an import ``contrib_seq2seq`` rewrites or warns about."""
    if node.module is None or node.relative or isinstance(node.names, cst.ImportStar):
        return False
    module = dotted(node.module)
    names = [dotted(a.name) for a in node.names]
    if module == "tensorflow.contrib.seq2seq":
        return set(names) == {"sequence_loss"}
    return module == "tensorflow.contrib" and names == ["seq2seq"]


def _no_contrib(module: str) -> str:
    part = module[len(_CONTRIB) :].lstrip(".").split(".")[0]
    return (
        f"TensorFlow 2.0 removed tensorflow.contrib, so the import raises ModuleNotFoundError; "
        f"{contrib_successor(part)} [tf.contrib removed]"
    )


def contrib_successor(module: str) -> str:
    """What replaces ``tf.contrib.<module>``, as a sentence for a warning."""
    home = CONTRIB_SUCCESSORS.get(module)
    if home is None:
        return (
            "this module has no exact successor; rewrite its calls with tf.keras, tf_slim or "
            "tensorflow_addons"
        )
    return f"use {home} instead"


def _removed(module: str) -> str | None:
    """Why ``module`` cannot be imported on TensorFlow 2, or None where it may be."""
    if module == _EXAMPLES or module.startswith(_EXAMPLES + "."):
        return _NO_EXAMPLES
    if module == _CONTRIB or module.startswith(_CONTRIB + "."):
        return _no_contrib(module)
    return None


_PUBLIC = "TensorFlow-private module; import the public name (tf.compat.v1.X) instead"
