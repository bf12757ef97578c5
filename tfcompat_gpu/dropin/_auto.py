"""``tfcompat-gpu run`` without flags: read the script before it starts and pick its mode.

The script, and the modules beside it that it imports, are parsed with :mod:`ast` (nothing is
imported, TensorFlow least of all) and their import aliases followed, so ``tf.placeholder``
means ``tensorflow.placeholder`` whatever ``tf`` is bound to.  Three choices come out of it:

* the v1 API (``--tf1``) for TF1 graph code: names that exist only in ``tf.compat.v1``, spelt
  the TF1 way (``tf.placeholder``; ``tf.compat.v1.placeholder`` is TF2 code that asked for the
  v1 API itself and gets nothing), ``sess.run(...)`` on a ``tf.Session``, or ``tf.estimator``;
* tf_keras (``--legacy-keras``) for Keras 2 code on a Keras 3 install: module paths Keras 3 does
  not have (``keras.layers.merge``), ``lr=``/``decay=`` given to an optimizer, methods it
  lacks (``fit_generator()``, ``predict_classes()``), Keras 1 names Keras 2 still read
  (``fit(nb_epoch=)``, ``Model(input=)``), or TF1 graph code using Keras (not in a v1 graph);
* soft placement when ops are pinned to GPUs this machine does not have, in code that runs v1
  graphs (sessions, or eager execution turned off; TF2's eager mode places softly already).

Only code counts: strings, comments and docstrings that mention ``placeholder`` change nothing.
Each choice carries its first evidence (name, file, line) for the one line ``run`` prints.
It also notes what no flag can fix: ``tf.estimator`` on TensorFlow >= 2.16, a TensorBoard
callback without ``tensorboard`` installed, ``ImageDataGenerator`` without ``scipy``, and
``tensorflow.examples`` (gone in 2.0) beyond MNIST's ``input_data``, which ``run`` serves.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

from tfcompat_gpu.dropin._auto_calls import dropped_name, keras2_keyword, tf1_keyword
from tfcompat_gpu.dropin._keras2_models import REMOVED_METHODS
from tfcompat_gpu.dropin._keras2_paths import KERAS2_MODULES
from tfcompat_gpu.dropin._legacy_keras import COMPANIONS, KERAS1_ARGUMENTS
from tfcompat_gpu.tfapi.keras_names import (
    KERAS2_GRAPH_BACKEND,
    keras2_backend_function,
    metric_keys,
)
from tfcompat_gpu.tfapi.keras_star_names import KERAS2_STAR_ALIAS_MODULES, KERAS2_STAR_ALIASES
from tfcompat_gpu.tfapi.names import keras2_tf
from tfcompat_gpu.tfapi.tf1_names import TF_KERAS_MODULES, TUTORIAL_MODULES, V1_ONLY

__all__ = [
    "V1_ONLY",
    "Choice",
    "Evidence",
    "Reading",
    "choose",
    "read",
    "visible_gpu_count",
]

_MAX_FILES = 64
"""Local modules read at most (a script beside a large source tree must not stall the start)."""

_ESTIMATOR = frozenset({"estimator", "compat.v1.estimator", "python.estimator"})
_GRAPH = frozenset(
    {
        "Session",
        "InteractiveSession",
        "train.MonitoredTrainingSession",
        "train.MonitoredSession",
        "disable_eager_execution",
        "disable_v2_behavior",
    }
)
_SESSIONS = frozenset({"tensorflow.Session", "tensorflow.InteractiveSession"})
_MODULE_ROOTS = frozenset({"tensorflow", "keras", "tf_keras"})
_KERAS_ROOTS = ("keras.", "tensorflow.keras.", "tensorflow.python.keras.", "tf_keras.")
_GENERATOR_METHODS = frozenset({"fit_generator", "evaluate_generator", "predict_generator"})
_OPTIMIZER_ARGUMENTS = ("lr", "decay")
_TENSORBOARD_USERS = frozenset(
    {"keras.callbacks.TensorBoard", "tensorflow.keras.callbacks.TensorBoard"}
)
# Keras 2 installed scipy; its image augmentation needs it (keras_preprocessing / tf_keras
# src/preprocessing/image.py: apply_affine_transform and friends use scipy.ndimage)
_SCIPY_USERS = frozenset(
    {
        "keras.preprocessing.image.ImageDataGenerator",
        "tensorflow.keras.preprocessing.image.ImageDataGenerator",
        "tf_keras.preprocessing.image.ImageDataGenerator",
    }
)


@dataclass(frozen=True)
class Evidence:
    what: str
    path: str
    line: int

    def show(self, main: str, lines: Callable[[int], str] | None = None) -> str:
        """``what, line N`` (``lines`` may name it: a notebook's cell) or ``what, file.py:N``."""
        where = lines(self.line) if lines is not None else f"line {self.line}"
        if os.path.abspath(self.path) != os.path.abspath(main):
            where = f"{os.path.basename(self.path)}:{self.line}"
        return f"{self.what}, {where}"


@dataclass
class Reading:
    """What the script and its local modules use, first occurrence of each kind."""

    tf1: list[Evidence] = field(default_factory=list)
    keras2: list[Evidence] = field(default_factory=list)
    uses_keras: list[Evidence] = field(default_factory=list)
    graph: list[Evidence] = field(default_factory=list)
    """v1 sessions or eager execution turned off, however spelt: where a GPU pin can fail (in
    eager TF2 soft placement is on by default)."""
    pins: list[tuple[int | None, Evidence]] = field(default_factory=list)
    """GPU pins: the index, or None for one computed at run time (``'/gpu:%d' % i``)."""
    estimator: list[Evidence] = field(default_factory=list)
    tensorboard: list[Evidence] = field(default_factory=list)
    scipy: list[Evidence] = field(default_factory=list)
    tutorials: list[Evidence] = field(default_factory=list)
    """``tensorflow.examples`` modules other than MNIST's ``input_data``, gone from TF 2."""
    metric_keys: set[str] = field(default_factory=set)  # history['acc'] (_keras2_models)
    files: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Choice:
    """What auto mode turns on, and the line that says so (None: nothing to say)."""

    tf1: bool = False
    legacy_keras: bool = False
    soft_placement: bool = False
    message: str | None = None
    notes: tuple[str, ...] = ()
    """Lines for what no flag fixes (Estimator on TF >= 2.16, tensorboard missing)."""


# -- reading ------------------------------------------------------------------------------------


def _keras_dir() -> str | None:
    try:
        spec = importlib.util.find_spec("keras")  # a top-level name: found, not imported
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return next(iter(spec.submodule_search_locations))


def _installed_version(*names: str) -> tuple[int, int] | None:
    import importlib.metadata

    for name in names:
        try:
            text = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        parts = [int("".join(c for c in p if c.isdigit()) or 0) for p in text.split(".")[:2]]
        return (parts[0], parts[1] if len(parts) > 1 else 0)
    return None


_V1_KERAS = ("keras", "contrib.rnn", "contrib.layers.batch_norm", "contrib.slim.batch_norm")
_V1_KERAS_MODULES = ("keras.", *(m + "." for m in TF_KERAS_MODULES), "contrib.rnn.")


class _Reader(ast.NodeVisitor):
    def __init__(self, path: str, reading: Reading, keras_dir: list[str | None]) -> None:
        self.path = path
        self.reading = reading
        self._keras_dir = keras_dir
        """``[folder]`` of the installed ``keras`` once looked up (shared by the files read)."""
        self.aliases: dict[str, str] = {}
        self.sessions: set[str] = set()
        self._assigned: set[str] = set()
        """Aliases bound by assignment (``ks = tf.keras``), not by an import."""
        self.local_imports: list[tuple[str, int]] = []

    def _note(self, kind: list[Evidence], what: str, node: ast.AST) -> None:
        if len(kind) < 4:
            kind.append(Evidence(what, self.path, getattr(node, "lineno", 1)))

    def resolve(self, node: ast.AST) -> str | None:
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        base = self.aliases.get(node.id)
        if base is None:
            return None
        # K.tf.image.resize_images: Keras 2's backend handed out the tensorflow module
        return keras2_tf(".".join([base, *reversed(parts)]))

    # imports

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            root = alias.name.partition(".")[0]
            self.aliases[alias.asname or root] = alias.name if alias.asname else root
            self._imported(alias.name, node)
            self.local_imports.append((alias.name, 0))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level:
            self.local_imports.append((module, node.level))
            for alias in node.names:
                if not module:
                    self.local_imports.append((alias.name, node.level))
            return
        self._imported(module, node)
        self.local_imports.append((module, 0))
        for alias in node.names:
            if alias.name == "*":
                if module in KERAS2_STAR_ALIAS_MODULES:  # `from keras.models import *` bound K
                    self.aliases.update(KERAS2_STAR_ALIASES)
                continue
            # `from keras_frcnn import resnet as nn`: a module of the project's package
            self.local_imports.append((f"{module}.{alias.name}", 0))
            full = f"{module}.{alias.name}"
            self.aliases[alias.asname or alias.name] = full
            if module.partition(".")[0] == "keras" and full[len("keras.") :] in KERAS2_MODULES:
                self._keras2_module(full, node)
            self._name(full, node)

    def _imported(self, module: str, node: ast.AST) -> None:
        root = module.partition(".")[0]
        if root in ("keras", "tf_keras") or module.startswith("tensorflow.keras"):
            self._note(self.reading.uses_keras, f"import {module}", node)
        if root == "keras" and module != "keras":
            self._keras2_module(module, node)
        if root in COMPANIONS and importlib.util.find_spec(root) is None:
            # Keras 2.2-2.3's keras_applications / keras_preprocessing, which Keras 3 dropped
            self._note(self.reading.uses_keras, f"import {module}", node)
            self._note(self.reading.keras2, f"import {module}", node)
        if root == "tensorboard":
            self._note(self.reading.tensorboard, f"import {module}", node)
        if module.startswith("tensorflow.examples") and module not in TUTORIAL_MODULES:
            # MNIST's input_data is served (dropin/mnist_input_data.py); the rest is gone
            self._note(self.reading.tutorials, f"import {module}", node)

    def _keras2_module(self, module: str, node: ast.AST) -> None:
        """A ``keras.X`` module Keras 2 published and the installed Keras 3 lacks."""
        rest = module[len("keras.") :]
        if rest not in KERAS2_MODULES:
            return
        if not self._keras_dir:
            self._keras_dir.append(_keras_dir())
        folder = self._keras_dir[0]
        if folder is None:
            return
        base = os.path.join(folder, *rest.split("."))
        if os.path.isfile(base + ".py") or os.path.isfile(os.path.join(base, "__init__.py")):
            return
        self._note(self.reading.keras2, module, node)

    # names and calls

    def visit_Attribute(self, node: ast.Attribute) -> None:
        name = self.resolve(node)
        if name is not None:
            self._name(name, node)
            return  # the chain is resolved: its inner names say nothing more
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        name = self.aliases.get(node.id)
        if name is not None and name != node.id:
            self._name(name, node)

    def _name(self, name: str, node: ast.AST) -> None:
        if name.startswith("tensorflow."):
            rest = name[len("tensorflow.") :]
            if rest in _V1_KERAS or rest.startswith(_V1_KERAS_MODULES):
                # tf.layers and tf.nn.rnn_cell are Keras' legacy layers and cells: tf_keras
                # from TensorFlow 2.16 on (tensorflow/python/util/lazy_loader.py); the drop-in
                # serves tf.contrib.rnn's cells from tf.nn.rnn_cell, batch_norm from
                # tf.layers.BatchNormalization.
                self._note(self.reading.uses_keras, "tf." + rest, node)
            if rest in _GRAPH or rest.replace("compat.v1.", "", 1) in _GRAPH:
                self._note(self.reading.graph, "tf." + rest, node)
            if any(prefix in V1_ONLY for prefix in _prefixes(rest)):
                self._note(self.reading.tf1, "tf." + rest, node)
            if any(p in _ESTIMATOR for p in _prefixes(rest)):
                self._note(self.reading.estimator, "tf." + rest, node)
                # Estimator builds v1 graphs and takes v1 model_fns: it runs in v1 mode.
                self._note(self.reading.tf1, "tf." + rest, node)
        backend = keras2_backend_function(name)
        if backend is not None:  # K.sum, K.gradients: Keras 2's backend (a v1 graph's, some)
            self._note(self.reading.keras2, f"K.{backend}", node)
            if backend in KERAS2_GRAPH_BACKEND:
                self._note(self.reading.tf1, f"K.{backend}", node)
        if name.startswith(_KERAS_ROOTS) and dropped_name(name):
            self._note(self.reading.keras2, name.rpartition(".")[2], node)
        if name.startswith("keras."):
            for old in _prefixes(name[len("keras.") :]):
                if old in KERAS2_MODULES:
                    self._keras2_module("keras." + old, node)
                    break
        if name in _TENSORBOARD_USERS:
            self._note(self.reading.tensorboard, "TensorBoard callback", node)
        if name in _SCIPY_USERS:
            self._note(self.reading.scipy, "ImageDataGenerator", node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = self.resolve(func)
        if name is not None and name.startswith(_KERAS_ROOTS) and node.keywords:
            only_keras2 = keras2_keyword(name, node)
            if only_keras2 is not None:
                self._note(self.reading.keras2, only_keras2, node)
        tf1 = tf1_keyword(name, node) if name is not None else None
        if tf1 is not None:  # tf.nn.softmax(x, dim=1): a keyword only TF 1.x takes
            self._note(self.reading.tf1, tf1, node)
        if name is not None and name.startswith(_KERAS_ROOTS) and ".optimizers." in name:
            for keyword in node.keywords:
                if keyword.arg in _OPTIMIZER_ARGUMENTS:
                    short = name.rpartition(".")[2]
                    self._note(self.reading.keras2, f"{short}({keyword.arg}=...)", node)
        if isinstance(func, ast.Attribute):
            if func.attr in _GENERATOR_METHODS | REMOVED_METHODS and self.reading.uses_keras:
                self._note(self.reading.keras2, f"{_owner(func)}.{func.attr}()", node)
            if func.attr in KERAS1_ARGUMENTS and self.reading.uses_keras:
                # fit(nb_epoch=...): Keras 1 names Keras 2 still translated, as run does on tf_keras
                renamed = {old for old, _ in KERAS1_ARGUMENTS[func.attr]}
                given = next((k.arg for k in node.keywords if k.arg in renamed), None)
                if given is not None:
                    what = f"{_owner(func)}.{func.attr}({given}=...)"
                    self._note(self.reading.keras2, what, node)
            value = func.value
            if func.attr == "run" and isinstance(value, ast.Name) and value.id in self.sessions:
                self._note(self.reading.tf1, f"{value.id}.run()", node)
        if name in ("tensorflow.device", "tensorflow.compat.v1.device") and node.args:
            self._pin(node.args[0], node)
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        if isinstance(node.value, ast.Call) and self.resolve(node.value.func) in _SESSIONS:
            for target in node.targets:
                if isinstance(target, ast.Name):
                    self.sessions.add(target.id)
        self.generic_visit(node)
        # ``ks = tf.keras``, ``layers = keras.layers``: a module bound to a short name, then used
        # through it (``ks.models.Sequential()``) as through an import alias.
        for target in node.targets:
            if not isinstance(target, ast.Name):
                continue
            bound = self.resolve(node.value) if isinstance(node.value, ast.Attribute) else None
            if bound is not None and bound.partition(".")[0] in _MODULE_ROOTS:
                self.aliases[target.id] = bound
                self._assigned.add(target.id)
            elif target.id in self._assigned:  # rebound to something else
                del self.aliases[target.id]
                self._assigned.discard(target.id)

    def visit_With(self, node: ast.With) -> None:
        for item in node.items:
            call = item.context_expr
            bound = item.optional_vars
            is_session = isinstance(call, ast.Call) and self.resolve(call.func) in _SESSIONS
            if is_session and isinstance(bound, ast.Name):
                self.sessions.add(bound.id)
        self.generic_visit(node)

    def _pin(self, arg: ast.expr, node: ast.AST) -> None:
        text = _text_of(arg)
        if text is None:
            return
        low = text.lower().replace(" ", "")
        marker = "gpu:"
        at = low.find(marker)
        if at < 0:
            return
        digits = ""
        for char in low[at + len(marker) :]:
            if not char.isdigit():
                break
            digits += char
        literal = isinstance(arg, ast.Constant) and digits
        index = int(digits) if literal else None
        shown = repr(text) if isinstance(arg, ast.Constant) else f"{text!r} (computed)"
        if len(self.reading.pins) < 8:
            line = getattr(node, "lineno", 1)
            self.reading.pins.append((index, Evidence(f"tf.device({shown})", self.path, line)))


def _prefixes(dotted: str) -> Iterator[str]:
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        yield ".".join(parts[:end])


def _owner(func: ast.Attribute) -> str:
    value = func.value
    return value.id if isinstance(value, ast.Name) else "model"


def _text_of(arg: ast.expr) -> str | None:
    """The device string, or its constant parts for ``'/gpu:%d' % i`` and f-strings."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.BinOp) and isinstance(arg.left, ast.Constant):
        return str(arg.left.value) if isinstance(arg.left.value, str) else None
    if isinstance(arg, ast.JoinedStr):
        return "".join(
            v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "{}"
            for v in arg.values
        )
    func = arg.func if isinstance(arg, ast.Call) else None
    base = func.value if isinstance(func, ast.Attribute) and func.attr == "format" else None
    if isinstance(base, ast.Constant) and isinstance(base.value, str):
        return base.value
    return None


def _local_file(folder: str, module: str) -> str | None:
    if not module:
        return None
    base = os.path.join(folder, *module.split("."))
    for candidate in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(candidate):
            return candidate
    return None


def read(path: str, source: bytes | str | None = None) -> Reading:
    """Read the script at ``path`` and the local modules it imports (never raises for bad code).

    Example::

        reading = read("train.py")
        print([e.what for e in reading.tf1])      # ['tf.placeholder', 'tf.Session.run()'...]
    """
    reading = Reading()
    keras_dir: list[str | None] = []
    folder = os.path.dirname(os.path.abspath(path))
    queue: list[tuple[str, bytes | str | None]] = [(os.path.abspath(path), source)]
    seen: set[str] = set()
    while queue and len(seen) < _MAX_FILES:
        file, text = queue.pop(0)
        if file in seen:
            continue
        seen.add(file)
        try:
            if text is None:
                with open(file, "rb") as handle:
                    text = handle.read()
            tree = ast.parse(text, filename=file)
        except (OSError, SyntaxError, ValueError):
            continue  # Python reports a broken script itself when it runs it
        reading.files.append(file)
        reader = _Reader(file, reading, keras_dir)
        reader.visit(tree)
        reading.metric_keys |= metric_keys(tree)
        here = os.path.dirname(file)
        for module, level in reader.local_imports:
            base = folder if level == 0 else here
            for _ in range(max(level - 1, 0)):
                base = os.path.dirname(base)
            found = _local_file(base, module)
            if found is not None and found not in seen:
                queue.append((found, None))
    return reading


# -- choosing -----------------------------------------------------------------------------------


def visible_gpu_count(environ: Mapping[str, str] | None = None) -> int | None:
    """GPUs TensorFlow will see here, without importing it; None when it cannot be told."""
    from tfcompat_gpu.machine.inventory import inventory

    env = os.environ if environ is None else environ
    machine = inventory(env)
    if machine.available:
        return len(machine.visible())
    if machine.reason in ("no-driver", "no-gpu"):
        return 0
    if sys.platform.startswith("linux") and not os.path.isdir("/proc/driver/nvidia"):
        return 0  # no NVIDIA kernel driver loaded: CUDA finds no GPU
    return None


def choose(
    reading: Reading,
    main: str,
    *,
    tf1: bool,
    legacy_keras: bool,
    soft_placement: bool | None,
    gpu_count: int | None = None,
    count_gpus: bool = True,
    lines: Callable[[int], str] | None = None,
) -> Choice:
    """What to turn on beyond what the flags say; explicit flags and settings always win.

    ``soft_placement`` is the setting already in force (flags, ``--config``, environment):
    auto mode only fills it in when it is None.  ``lines`` names a line of ``main``.
    """
    reasons: list[str] = []
    using: list[str] = []
    want_tf1 = not tf1 and bool(reading.tf1)
    # TF1 graph code that uses Keras at all needs Keras 2: Keras 3 cannot run in a v1 graph.
    # On Keras 2 itself (TensorFlow <= 2.15) the same switch brings the old module paths and lr=.
    # (Package metadata is read only when Keras is in play: most scripts never pay for it.)
    maybe = not legacy_keras and (bool(reading.keras2) or bool(reading.uses_keras))
    keras3 = maybe and _keras_is_3()
    in_graph = (tf1 or want_tf1) and bool(reading.uses_keras) and keras3
    want_keras = not legacy_keras and (bool(reading.keras2) or in_graph)
    if want_tf1:
        reasons.append(f"TF1 graph code ({reading.tf1[0].show(main, lines)})")
        using.append("the v1 API")
    if want_keras:
        if reading.keras2:
            reasons.append(f"Keras 2 API ({reading.keras2[0].show(main, lines)})")
        else:
            reasons.append(
                f"Keras in a v1 graph ({reading.uses_keras[0].show(main, lines)}; Keras 3 cannot run there)"
            )
        using.append("tf_keras" if keras3 else "Keras 2's old names")
    want_soft = False
    # Only v1 graphs fail on a pin to a missing GPU: TF2's eager mode places softly by default.
    graph = tf1 or want_tf1 or bool(reading.graph)
    if soft_placement is None and reading.pins and graph:
        count = gpu_count if gpu_count is not None or not count_gpus else visible_gpu_count()
        if count is not None:
            for index, evidence in reading.pins:
                if (index is not None and index >= count) or (index is None and count == 0):
                    have = "no GPU" if count == 0 else f"{count} GPU{'s' if count > 1 else ''}"
                    reasons.append(
                        f"ops pinned to a GPU this machine lacks ({evidence.show(main, lines)}; {have} here)"
                    )
                    using.append("soft placement")
                    want_soft = True
                    break
    message = None
    if reasons:
        message = (
            f"tfcompat-gpu run: {_join(reasons)}: using {_join(using)} (--no-auto turns this off)"
        )
    return Choice(want_tf1, want_keras, want_soft, message, tuple(_notes(reading, main, lines)))


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def _notes(reading: Reading, main: str, lines: Callable[[int], str] | None) -> Iterator[str]:
    if reading.estimator:
        version = _installed_version(
            "tensorflow", "tensorflow-cpu", "tensorflow-gpu", "tensorflow-intel", "tf-nightly"
        )
        if version is not None and version >= (2, 16):
            shown = ".".join(map(str, version))
            yield (
                "tfcompat-gpu run: warning: this script uses tf.estimator "
                f"({reading.estimator[0].show(main, lines)}), "
                f"which TensorFlow 2.16 removed (this is TensorFlow {shown}): run it on TensorFlow "
                "2.15 with `tfcompat-gpu run --tf1`, or port it to Keras"
            )
    if reading.scipy and importlib.util.find_spec("scipy") is None:
        yield (
            "tfcompat-gpu run: warning: this script needs scipy "
            f"({reading.scipy[0].show(main, lines)}: its image transforms use scipy.ndimage), which "
            "Keras 2 installed and tf_keras does not: pip install scipy (or pip install "
            '"tfcompat-gpu[legacy-keras]")'
        )
    if reading.tutorials:
        yield (
            "tfcompat-gpu run: warning: this script imports tensorflow.examples "
            f"({reading.tutorials[0].show(main, lines)}), which TensorFlow 2 no longer ships: "
            "load MNIST with tf.keras.datasets.mnist.load_data() instead of "
            "input_data.read_data_sets()"
        )
    if reading.tensorboard and importlib.util.find_spec("tensorboard") is None:
        yield (
            "tfcompat-gpu run: warning: this script needs tensorboard "
            f"({reading.tensorboard[0].show(main, lines)}), "
            "which TensorFlow no longer installs: pip install tensorboard "
            '(or pip install "tfcompat-gpu[legacy-keras]")'
        )


def _keras_is_3() -> bool:
    from tfcompat_gpu.dropin._legacy_keras import keras_is_3

    return keras_is_3()
