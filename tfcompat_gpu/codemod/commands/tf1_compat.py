"""TF1 graph code → ``import tensorflow.compat.v1 as tf`` and ``tf.disable_v2_behavior()``.

TensorFlow's documented first step for TF1 code (the "Migrate to TF2" guide, and
tensorflow/python/compat/v2_compat.py ``disable_v2_behavior``): every ``tf.X`` name of the file
then resolves to the TF1 API, in graph mode.  Done when, after the other commands ran (the GPU
configuration has become ``configure()`` by then), the file still uses a name that only
``tf.compat.v1`` has (tensorflow/_api/v2/compat/v1 against tensorflow/_api/v2), or runs a
session it kept (``sess.run(...)`` on ``tfcompat_gpu.session()``).  A file that
uses only TF1 names that run eagerly (``tf.logging``, ``tf.app``, ``tf.flags``,
``tf.set_random_seed``, ``tf.reset_default_graph``) gets the import without
``disable_v2_behavior()``, and so does one
that calls ``tf.enable_eager_execution()`` (TF 1.x eager code: ``tf.train.*Optimizer`` and the
rest of its TF1 names run eagerly under ``tf.compat.v1``).  A file that also
uses Keras is left alone with a warning: Keras 3 does not run in TF1 graph mode, and a file
that a module beside it imports and uses Keras in (``from STN import transformer`` in
``Model.py``, whose layers call it) gets the import without ``disable_v2_behavior()`` and a
warning naming the importers (``_siblings.keras_importers``); but where
its only TF1 names are ops that compute the same eagerly (``EAGER_OPS``: the
``tf.image.resize_images`` of a ``Lambda``), each is read from ``tf.compat.v1`` where it is
written, function-local imports included.  ``tf.contrib``
(removed in TensorFlow 2.0) and ``tf.estimator`` (removed in 2.16) get a warning per name, but
for ``tf.contrib.layers.xavier_initializer()`` (and ``xavier_initializer_conv2d``), the Glorot
initializer TF1 scripts give ``tf.get_variable``: it becomes ``tf.glorot_uniform_initializer()``,
which draws from the same distribution (tensorflow/contrib/layers/python/layers/initializers.py:
``variance_scaling_initializer(factor=1.0, mode='FAN_AVG', uniform=True)``, a limit of
``sqrt(6 / (fan_in + fan_out))``; tensorflow/python/ops/init_ops.py ``glorot_uniform_initializer``).
``uniform=False`` (a truncated normal of another spread) keeps the warning.  So do
``tf.contrib.layers.l2_regularizer(scale)`` / ``l1_regularizer(scale)``, the regularizers TF1
scripts hand to ``get_variable`` and to the layers: with a float literal for ``scale`` they
become the function TF 1.15 returned (tensorflow/contrib/layers/python/layers/regularizers.py),
``lambda weights: scale * tf.nn.l2_loss(weights)`` (``scale * tf.reduce_sum(tf.abs(weights))``),
and ``lambda _: None`` for ``0.0``.  Any other ``scale`` (a name, whose value TF1 checked: an
integer or a negative number raised ``ValueError``) or a ``scope`` keeps the warning.
``tf.contrib.framework.get_global_step`` (``get_or_create_global_step``, ``create_global_step``,
``assert_global_step``), ``tf.train``'s functions re-exported, becomes ``tf.train.get_global_step``.
"""

from __future__ import annotations

import ast
import re

from tfcompat_gpu.codemod import _emit_facade
from tfcompat_gpu.codemod._astwalk import named_bindings, walk
from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst, visit_with
from tfcompat_gpu.codemod._names import dotted
from tfcompat_gpu.codemod._siblings import keras_importers
from tfcompat_gpu.codemod._tf1_contrib import (
    FRAMEWORK_TRAIN,
    REGULARIZERS,
    XAVIER,
    XAVIER_KEYWORDS,
    contrib_root,
    equal,
    framework_train,
    regularizer,
    regularizer_scale,
    xavier_root,
)
from tfcompat_gpu.codemod._triage import text_search
from tfcompat_gpu.codemod.commands.contrib_layers import CONTRIB_LAYERS_DONE
from tfcompat_gpu.codemod.commands.contrib_rnn import TF_KERAS_WARNED
from tfcompat_gpu.codemod.commands.tf1_legacy_keras import VARIABLE
from tfcompat_gpu.codemod.commands.tf_private_imports import contrib_successor
from tfcompat_gpu.tfapi.names import canonical
from tfcompat_gpu.tfapi.tf1_module_names import TF1_ONLY_IN
from tfcompat_gpu.tfapi.tf1_names import TF1_ONLY, TF_KERAS_MODULES

__all__ = ["EAGER_OPS", "EAGER_SAFE", "Tf1CompatCommand"]

# TF1-only names that work under eager execution: they need the compat import, not graph mode
EAGER_SAFE = frozenset(
    {
        "app",
        "flags",
        "logging",
        "gfile",
        "set_random_seed",
        # clears the default graph, which eager code and Keras 3 never build in (Keras 2 users
        # called it before each model so that TensorBoard showed one)
        "reset_default_graph",
        "VERSION",
        "GIT_VERSION",
        "ConfigProto",
        "GPUOptions",
        "GraphOptions",
        "OptimizerOptions",
        "RunOptions",
        "enable_eager_execution",
        # tf.compat.v1.image's own functions (resize_images, resize_bilinear, ...) are ops
        # (tensorflow/python/ops/image_ops_impl.py): they run eagerly, in a Keras Lambda too
        "image",
    }
)
# TF1-only ops that compute the same under eager execution and inside a Keras layer: beside
# Keras (which graph mode would stop), each is read from ``tf.compat.v1`` where it is written
# (the resize in a behavioral-cloning model's ``Lambda``)
EAGER_OPS = frozenset(
    {
        "image.resize_images",
        "image.resize_bilinear",
        "image.resize_nearest_neighbor",
        "image.resize_bicubic",
        "image.resize_area",
        "image.resize_image_with_crop_or_pad",
        "to_float",
        "to_int32",
        "to_int64",
    }
)
_DISABLED = ("disable_v2_behavior", "disable_eager_execution")
_ENABLED = ("enable_eager_execution", "enable_v2_behavior")
# TF1 modules that TensorFlow >= 2.16 serves from tf_keras: on Keras 3 their names raise
# "... is not available with Keras 3" (tensorflow/python/util/lazy_loader.py)
_NEED_TF_KERAS = frozenset("tensorflow." + module for module in TF_KERAS_MODULES)
# tf.contrib.distribute, tf.contrib.rnn and tf.contrib.eager: rewritten (or warned about) by
# contrib_distribute, contrib_rnn and contrib_eager
_CONTRIB_OK = ("distribute", "rnn", "eager")
_TF1_WORDS = (
    "|".join(sorted(TF1_ONLY))
    + "|contrib|estimator|"
    + "|".join(
        f"{module}\\s*\\.\\s*(?:{'|'.join(sorted(names))})" for module, names in TF1_ONLY_IN.items()
    )
)
_TF1 = re.compile(r"\.\s*(?:" + _TF1_WORDS + r")\b")
# a statement that names keras decides whether the file uses Keras (leave_Module): LibCST
# must see it
_TF1_STATEMENT = re.compile(r"\.\s*(?:" + _TF1_WORDS + r")\b|\bimport\s+tensorflow\b|\bkeras\b")
_CONTRIB_IMPORT = re.compile(r"^\s*(?:from|import)\s+tensorflow\s*\.\s*contrib\b", re.M)
_STAR_IMPORT = re.compile(r"^from\s+[\w.]+\s+import\s*\*", re.M)  # module level only
# the name a star-imported helper module gives tensorflow by convention (as the lint reads it:
# lint/context.py ``_CONVENTIONS``)
_STAR_TF = "tf"
_TF_ALIAS = re.compile(r"^\s*import\s+tensorflow(?:\.compat\.v1)?(?:\s+as\s+(\w+))?", re.M)


def _tf1_wanted(text: str, tree: ast.Module | None = None) -> bool:
    """A TF1-only name (``.placeholder``) read from a name tensorflow is imported as, or from
    the ``tf`` a module-level star import gives a file that imports no tensorflow."""
    if "tensorflow" not in text and "*" not in text:
        return False
    aliases = {found.group(1) or "tensorflow" for found in _TF_ALIAS.finditer(text)}
    if not aliases:
        if _STAR_IMPORT.search(text) is None:
            return False
        aliases = {_STAR_TF}
    before = re.compile(
        r"(?<![\w.])(?:"
        + "|".join(map(re.escape, aliases))
        + r")\s*\.\s*(?:compat\s*\.\s*v1\s*\.\s*)?$"
    )
    for found in _TF1.finditer(text):
        start = found.start()
        if before.search(text, max(0, start - 80), start + 1) is not None:
            return True
    # ``from tensorflow.contrib import slim``: TF1 code, whose calls other commands may make
    # ``tf.compat.v1`` names the file reads through its ``tf`` (a second run would see them)
    return _CONTRIB_IMPORT.search(text) is not None


class _Uses:
    """The ``alias.a.b`` chains of a module, outermost only (walked with ``visit_with``)."""

    def __init__(self, aliases: set[str]) -> None:
        self.aliases = aliases
        self.found: list[tuple[cst.Attribute, list[str]]] = []
        self.plain = False  # a TF1 name spelled without compat.v1
        self.keras = False
        self.disabled = False
        self.eager = False  # tf.enable_eager_execution(): TF1 eager code, not graph code

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        name = dotted(node)
        if name is None:
            return True
        parts = name.split(".")
        if parts[0] in self.aliases:
            rest = parts[1:]
            if rest[:2] == ["compat", "v1"]:
                rest = rest[2:]
            elif _tf1_only(rest):
                self.plain = True
            if rest and rest[0] == "keras":
                self.keras = True
            if rest and rest[0] in _DISABLED:
                self.disabled = True
            if rest and rest[0] in _ENABLED:
                self.eager = True
            self.found.append((node, rest))
        elif parts[0] == "keras":
            self.keras = True
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        module = dotted(node.module) if node.module is not None else None
        if module is not None and (
            module == "keras" or module.startswith(("keras.", "tensorflow.keras"))
        ):
            self.keras = True
        elif module in ("tensorflow", "tensorflow.compat.v1") and not isinstance(
            node.names, cst.ImportStar
        ):
            # ``from tensorflow import keras``
            self.keras = self.keras or any(dotted(n.name) == "keras" for n in node.names)
        return False

    def visit_Import(self, node: cst.Import) -> bool:
        for alias in node.names:
            name = dotted(alias.name) or ""
            if name == "keras" or name.startswith(("keras.", "tensorflow.keras")):
                self.keras = True
        return False


class _SessionRuns:
    """Whether a session the GPU migration kept (``tfcompat_gpu.session()``) runs a graph.

    ``sess = tf.Session(config=config)`` / ``sess.run(c)`` leaves no TF1-only name once the
    session is ``tfcompat_gpu.session()``, yet ``c`` must still be a graph tensor: run eagerly,
    the session finds its graph empty.  Asked only where the file spelt its session the TF1 way.
    """

    def __init__(self) -> None:
        self.sessions: set[str] = set()
        self.runs = False

    def visit_Assign(self, node: cst.Assign) -> bool:
        if _makes_session(node.value):
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    self.sessions.add(target.target.value)
        return True

    def visit_WithItem(self, node: cst.WithItem) -> bool:
        if (
            _makes_session(node.item)
            and node.asname is not None
            and isinstance(node.asname.name, cst.Name)
        ):
            self.sessions.add(node.asname.name.value)
        return True

    def visit_Call(self, node: cst.Call) -> bool:
        func = node.func
        if (
            isinstance(func, cst.Attribute)
            and func.attr.value == "run"
            and isinstance(func.value, cst.Name)
            and func.value.value in self.sessions
        ):
            self.runs = True
        return True


def _makes_session(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Call) and dotted(node.func) == f"{_emit_facade.IMPORT}.session"


def _beside_keras(line: int, graph: list[str]) -> str:
    return (
        f"{line}: TF1 graph code ({', '.join('tf.' + g for g in graph[:3])}) left "
        "unchanged: the file also uses Keras, and Keras 3 does not run in graph mode "
        "(tf.compat.v1.disable_v2_behavior()); rewrite the graph code eagerly, or run "
        "it on tf_keras with TF_USE_LEGACY_KERAS=1 [graph code beside Keras]"
    )


def _tf1_only(rest: list[str]) -> bool:
    if not rest:
        return False
    if rest[0] in TF1_ONLY:
        return True
    inner = TF1_ONLY_IN.get(rest[0])
    return inner is not None and len(rest) > 1 and rest[1] in inner


def _tf_imports(module: cst.Module) -> list[tuple[int, cst.Import, str, str]]:
    """(index in body, import, module name, bound name) of module-level tensorflow imports."""
    found: list[tuple[int, cst.Import, str, str]] = []
    for index, statement in enumerate(module.body):
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if not isinstance(small, cst.Import):
                continue
            for alias in small.names:
                name = dotted(alias.name)
                if name in ("tensorflow", "tensorflow.compat.v1"):
                    bound = alias.evaluated_alias or name
                    found.append((index, small, name, bound))
    return found


class Tf1CompatCommand(MigrationCommand):
    DESCRIPTION = "TF1 graph code to tensorflow.compat.v1 with v2 behaviour disabled."
    PRECHECK = Precheck(_tf1_wanted, text_search(_TF1_STATEMENT))
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        imports = _tf_imports(updated_node)
        if not imports:
            return self._star_imported_tf(original_node, updated_node)
        aliases = {bound for _, _, _, bound in imports if "." not in bound}
        uses = _Uses(aliases)
        visit_with(updated_node, uses)
        tf1 = [rest for _, rest in uses.found if _tf1_only(rest)]
        runs = _SessionRuns()
        if self._tf1_session:
            visit_with(updated_node, runs)
        if not tf1 and not runs.runs:
            return updated_node
        graph = sorted({".".join(rest[:2]) for rest in tf1 if rest[0] not in EAGER_SAFE})
        if uses.eager and not uses.disabled:
            graph = []  # the file asks for eager execution: its TF1 names run eagerly
        if runs.runs and not graph:
            graph = ["Session.run"]
        # compat: every TF1 name already reads through tensorflow.compat.v1
        compat = not uses.plain or {name for _, _, name, _ in imports} == {"tensorflow.compat.v1"}
        prefix = (
            "" if {name for _, _, name, _ in imports} == {"tensorflow.compat.v1"} else "compat.v1."
        )
        if compat and (not graph or uses.disabled):
            return updated_node
        try:
            line = self.line_of(original_node.body[imports[0][0]])
        except (IndexError, KeyError):
            line = 1
        if graph and uses.keras and not uses.disabled and set(graph) <= EAGER_OPS:
            return _compat_reads(updated_node, uses)
        if graph and uses.keras:
            self.warn(_beside_keras(line, graph))
            return updated_node
        if len({bound for _, _, _, bound in imports}) != 1:
            self.warn(
                f"{line}: TF1 names left unchanged: tensorflow is imported more than once "
                "[tensorflow imported twice]"
            )
            return updated_node
        body = list(updated_node.body)
        index, _, _, bound = imports[0]
        # every module-level ``import tensorflow as tf``: a script that imports it twice
        # (copied blocks) reads the last one
        for at, each, _, _ in [] if compat else imports:
            statement = body[at]
            assert isinstance(statement, cst.SimpleStatementLine)
            new_small = each.with_changes(
                names=[
                    alias.with_changes(
                        name=cst.parse_expression("tensorflow.compat.v1"),
                        asname=alias.asname or cst.AsName(name=cst.Name("tensorflow")),
                    )
                    if dotted(alias.name) == "tensorflow"
                    else alias
                    for alias in each.names
                ]
            )
            body[at] = statement.with_changes(
                body=[new_small if s is each else s for s in statement.body]
            )
        importers = keras_importers(self.context.filename) if graph and not uses.disabled else []
        if importers:
            # its functions run inside Keras layers and losses, which Keras 3 runs eagerly and
            # in tf.function: graph mode would break them, the compat names serve them
            self.warn(
                f"{line}: tf.compat.v1.disable_v2_behavior() not added: {', '.join(importers)} "
                f"import{'s' if len(importers) == 1 else ''} this module and use"
                f"{'s' if len(importers) == 1 else ''} Keras, which Keras 3 does not run in "
                f"graph mode; its TF1 names ({', '.join(graph)}) now read from tf.compat.v1 "
                "and run eagerly; check those that need a graph [imported by Keras code]"
            )
        elif graph and not uses.disabled:
            end = index + 1
            while end < len(body) and _is_import(body[end]):
                end += 1
            call = cst.parse_statement(
                f"{bound}.{prefix if compat else ''}disable_v2_behavior()\n",
                config=updated_node.config_for_parsing,
            )
            if isinstance(call, cst.SimpleStatementLine):
                call = call.with_changes(leading_lines=[cst.EmptyLine()])
            body.insert(end, call)
        return updated_node.with_changes(body=body)

    def _star_imported_tf(self, original: cst.Module, module: cst.Module) -> cst.Module:
        """``from layers import *`` then ``tf.placeholder``: the file reads the ``tf`` a helper
        module of the project binds, which holds ``tensorflow`` (or, once that module is
        migrated, its ``compat.v1``, until another star-imported module binds the real one).
        The file gets its own ``import tensorflow.compat.v1 as tf`` after its last module-level
        star import, where it no longer depends on which helper was imported last."""
        stars = _star_imports(module)
        if not stars or _STAR_TF in _bound_anywhere(self.source_text()):
            return module
        uses = _Uses({_STAR_TF})
        visit_with(module, uses)
        tf1 = [rest for _, rest in uses.found if _tf1_only(rest)]
        if not tf1:
            return module
        graph = sorted({".".join(rest[:2]) for rest in tf1 if rest[0] not in EAGER_SAFE})
        if uses.eager and not uses.disabled:
            graph = []
        try:
            line = self.line_of(original.body[_star_imports(original)[-1]])
        except (IndexError, KeyError):
            line = 1
        if graph and uses.keras:
            self.warn(_beside_keras(line, graph))
            return module
        code = f"import tensorflow.compat.v1 as {_STAR_TF}\n"
        if graph and not uses.disabled:
            code += f"\n{_STAR_TF}.disable_v2_behavior()\n"
        added = cst.parse_module(code, config=module.config_for_parsing).body
        body = list(module.body)
        body[stars[-1] + 1 : stars[-1] + 1] = added
        return module.with_changes(body=body)

    def visit_Module(self, node: cst.Module) -> None:
        self._warned: set[str] = set()
        self._xavier: set[cst.CSTNode] = set()  # tf.contrib.layers nodes of rewritten calls
        self._regularizers: dict[cst.Call, str] = {}  # regularizer call -> its loss's code
        self._moved: set[cst.Attribute] = set()  # tf.contrib.framework.<tf.train function>
        # a session spelt the TF1 way (tf.Session, not tf.compat.v1.Session, which TF2 code
        # asks for itself): what it runs is graph code
        text = self.source_text()
        aliases = {found.group(1) or "tensorflow" for found in _TF_ALIAS.finditer(text)}
        self._tf1_session = bool(aliases) and (
            re.search(
                r"(?<![\w.])(?:"
                + "|".join(map(re.escape, aliases))
                + r")\s*\.\s*(?:Interactive)?Session\b",
                text,
            )
            is not None
        )

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if framework_train(node) is not None and self.names_of(node) & FRAMEWORK_TRAIN:
            self._xavier.add(node.value)  # tf.contrib.framework: no warning, the name moves
            self._moved.add(node)
        return True

    def visit_Call(self, node: cst.Call) -> bool:
        if xavier_root(node) is not None and self.names_of(node.func) & XAVIER:
            assert isinstance(node.func, cst.Attribute)
            self._xavier.add(node.func.value)  # no warning for the module: the call is done
        names = self.names_of(node.func) & REGULARIZERS.keys()
        if names and regularizer_scale(node) is not None and contrib_root(node) is not None:
            assert isinstance(node.func, cst.Attribute)
            self._xavier.add(node.func.value)
            self._regularizers[node] = REGULARIZERS[min(names)]
        return True

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = original_node.func
        if not isinstance(func, cst.Attribute) or func.value not in self._xavier:
            return updated_node
        loss = self._regularizers.get(original_node)
        if loss is not None:
            return regularizer(updated_node, loss)
        root = xavier_root(updated_node)
        if root is None:
            return updated_node
        args = [
            arg.with_changes(keyword=cst.Name(XAVIER_KEYWORDS[index]), equal=equal())
            if arg.keyword is None
            else arg
            for index, arg in enumerate(updated_node.args)
            if (arg.keyword.value if arg.keyword else XAVIER_KEYWORDS[index]) != "uniform"
        ]
        if args:
            args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated_node.with_changes(
            func=cst.Attribute(value=root, attr=cst.Name("glorot_uniform_initializer")),
            args=args,
        )

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        if original_node in self._moved:
            return framework_train(updated_node) or updated_node
        if original_node in self._xavier or original_node in self.context.scratch.get(
            CONTRIB_LAYERS_DONE, ()
        ):
            return updated_node
        for name in map(canonical, self.names_of(original_node)):  # tf.compat.v1 of compat.v1
            parts = name.split(".")
            if parts[0] != "tensorflow" or name in self._warned:
                continue
            if name in _NEED_TF_KERAS:
                if VARIABLE in self.source_text():
                    continue  # the file asks for tf_keras itself (tf1_legacy_keras)
                if name == "tensorflow.nn.rnn_cell":
                    if self.context.scratch.get(TF_KERAS_WARNED):
                        continue  # contrib_rnn said it of the cells it wrote
                    self.context.scratch[TF_KERAS_WARNED] = True
                message = (
                    "on TensorFlow >= 2.16 it comes from tf_keras (Keras 2): pip install "
                    "tf_keras and run with TF_USE_LEGACY_KERAS=1, or rewrite it with keras.layers "
                    "[served by tf_keras only]"
                )
            elif len(parts) != 3:
                continue
            elif parts[1] == "estimator":
                message = (
                    "tf.estimator was removed in TensorFlow 2.16; rewrite the model with "
                    "Keras (model.fit) or pin tensorflow<2.16 [tf.estimator removed]"
                )
            elif parts[1] == "contrib" and parts[2] not in _CONTRIB_OK:
                home = contrib_successor(parts[2])
                message = f"tf.contrib was removed in TensorFlow 2.0: {home} [tf.contrib removed]"
            else:
                continue
            self._warned.add(name)
            self.warn_at(
                original_node, f"tf.{name[len('tensorflow.') :]} left unchanged: {message}"
            )
        return updated_node


def _compat_reads(module: cst.Module, uses: _Uses) -> cst.Module:
    """``module`` with each plain read of an ``EAGER_OPS`` name (``tf.image.resize_images``)
    made ``tf.compat.v1.image.resize_images``."""
    targets = {
        id(node): node
        for node, rest in uses.found
        if ".".join(rest) in EAGER_OPS and ".compat.v1." not in (dotted(node) or "")
    }

    class _Reads(cst.CSTTransformer):
        def leave_Attribute(
            self, original_node: cst.Attribute, updated_node: cst.Attribute
        ) -> cst.Attribute:
            if targets.get(id(original_node)) is not original_node:
                return updated_node
            name = dotted(original_node)
            assert name is not None
            alias, _, rest = name.partition(".")
            new = cst.parse_expression(f"{alias}.compat.v1.{rest}")
            assert isinstance(new, cst.Attribute)
            return new

    return module.visit(_Reads())


def _star_imports(module: cst.Module) -> list[int]:
    """The indexes of the module-level ``from m import *`` statements."""
    return [
        index
        for index, statement in enumerate(module.body)
        if isinstance(statement, cst.SimpleStatementLine)
        and any(
            isinstance(small, cst.ImportFrom) and isinstance(small.names, cst.ImportStar)
            for small in statement.body
        )
    ]


def _bound_anywhere(text: str) -> set[str]:
    """The names the file binds itself, in any scope (every binding form)."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return {_STAR_TF}  # unreadable as Python 3: as if bound, nothing is added
    found: set[str] = set()
    for node in walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            found.add(node.id)
        elif isinstance(node, ast.arg):
            found.add(node.arg)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            found.update(node.names)
        else:
            found.update(named_bindings(node))
    return found


def _is_import(statement: cst.BaseStatement) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and all(
        isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body
    )
