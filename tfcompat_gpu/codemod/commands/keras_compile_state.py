"""What Keras 2 fixed at ``compile()`` and Keras 3 reads when training: the ``trainable`` flags
of the models a model holds, and the variables its optimizer updates.

Keras 2 trained a model with the ``trainable`` flags its layers had when it was compiled
(tf.keras wraps ``fit`` and ``train_on_batch`` in ``RespectCompiledTrainableState``,
tf_keras/src/engine/training_utils.py; Keras 2.2 collected the trainable weights in
``compile``).  The GAN scripts rely on it: they compile the discriminator, set
``discriminator.trainable = False``, then compile the combined model, and train both.  Keras 3
reads the flags when a model's train function is first traced (``train_step``,
keras/src/backend/tensorflow/trainer.py; ``compile``'s docstring in
keras/src/trainers/trainer.py says to compile again after a change), so the discriminator
trains nothing ("The model does not have any trainable weights").  Where the flags set by
``X.trainable = True/False`` and the ``compile()`` calls of a class (``self.`` names) or of a
function are all plain statements of one body, each ``train_on_batch`` / ``fit`` call of a
model compiled there gets the flags its model was compiled with set just before it: what
Keras 2 did (a layer inside such a model that sets its own flag is set again by Keras 3's
``trainable`` setter, which reaches every layer inside).

One optimizer given to several ``compile()`` calls: Keras 2 made each model's slots in
``get_updates``; a Keras 3 optimizer is built for the first model's variables and refuses any
other ("Unknown variable ... This optimizer can only be called for the variables it was
originally built with", ``BaseOptimizer._check_variables_are_known``,
keras/src/optimizers/base_optimizer.py).  The second and later ``compile()`` calls get a copy
(``type(opt).from_config(opt.get_config())``), as Keras 2 had separate slots; only the step
count, shared in Keras 2, is each model's own.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from tfcompat_gpu.codemod._astwalk import dotted as _ast_dotted
from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import dotted

__all__ = ["KerasCompileStateCommand"]

_COMPILE = re.compile(r"\.compile\s*\(")
_STATE = re.compile(r"\.trainable\s*=[^=]|\boptimizer\s*=")
_TRAIN = frozenset({"train_on_batch", "fit", "fit_generator"})
_COMPILE_KEYWORDS = frozenset({"optimizer", "loss", "metrics", "loss_weights"})


def _wanted(text: str, tree: object = None) -> bool:
    return "keras" in text and _COMPILE.search(text) is not None and _STATE.search(text) is not None


def _relevant(text: str) -> bool:
    return (
        _COMPILE.search(text) is not None
        or ".trainable" in text
        or any(f".{name}" in text for name in _TRAIN)
    )


@dataclass
class _Unit:
    """The compile() calls, flag assignments and training calls of a class or a function."""

    flags: list[tuple[int, str, bool, int]] = field(default_factory=list)  # line, key, value, body
    compiles: list[tuple[int, str, str | None, int]] = field(default_factory=list)
    # statement line, model, (body, index in it) of the statement
    trains: list[tuple[int, str, tuple[int, int]]] = field(default_factory=list)


class _Reader(ast.NodeVisitor):
    """Sorts what matters into units: ``self.x`` belongs to the class, other names to the
    innermost function (or the module)."""

    def __init__(self) -> None:
        self.units: dict[int, _Unit] = {}
        self._classes: list[ast.ClassDef] = []
        self._scopes: list[ast.AST] = []
        self._statement: ast.stmt | None = None
        self._body: dict[int, int] = {}  # statement id -> id of the body list holding it
        self._index: dict[int, int] = {}  # statement id -> its index in that list
        self._lists: list[dict[str, ast.expr | None]] = []  # per scope: name -> its one value
        # compile() line -> the outputs its flat metrics= list is for (a count, or loss keys)
        self.metrics: dict[int, int | list[str]] = {}
        self.class_weights: set[int] = set()  # lines of training calls given one per output

    def _unit(self, key: str) -> _Unit | None:
        if key.startswith("self."):
            owner: ast.AST | None = self._classes[-1] if self._classes else None
        else:
            owner = self._scopes[-1] if self._scopes else None
        return None if owner is None else self.units.setdefault(id(owner), _Unit())

    def visit_Module(self, node: ast.Module) -> None:
        self._scopes.append(node)
        self._lists.append(_single_values(node))
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._classes.append(node)
        self.generic_visit(node)
        self._classes.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._scopes.append(node)
        self._lists.append(_single_values(node))
        self.generic_visit(node)
        self._scopes.pop()
        self._lists.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def generic_visit(self, node: ast.AST) -> None:
        for _field, value in ast.iter_fields(node):
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                for index, statement in enumerate(value):
                    self._body[id(statement)] = id(value)
                    self._index[id(statement)] = index
        super().generic_visit(node)

    def visit_stmt(self, node: ast.stmt) -> None:
        outer, self._statement = self._statement, node
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if (
                isinstance(target, ast.Attribute)
                and target.attr == "trainable"
                and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, bool)
            ):
                key = _ast_dotted(target.value)
                unit = None if key is None else self._unit(key)
                if unit is not None and key is not None:
                    unit.flags.append((node.lineno, key, node.value.value, self._body[id(node)]))
        self.generic_visit(node)
        self._statement = outer

    def visit(self, node: ast.AST) -> None:
        if isinstance(node, ast.stmt) and not isinstance(
            node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
        ):
            self.visit_stmt(node)
        else:
            super().visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        key = _ast_dotted(func.value) if isinstance(func, ast.Attribute) else None
        statement = self._statement
        if key is not None and statement is not None and isinstance(func, ast.Attribute):
            unit = self._unit(key)
            if unit is not None and func.attr == "compile" and self._compile_call(node):
                optimizer = next(
                    (k.value for k in node.keywords if k.arg == "optimizer"),
                    node.args[0] if node.args else None,
                )
                body = (
                    self._body.get(id(statement), -1) if statement_is_call(statement, node) else -1
                )
                unit.compiles.append(
                    (node.lineno, key, None if optimizer is None else _ast_dotted(optimizer), body)
                )
                self._flat_metrics(node)
            elif unit is not None and func.attr in _TRAIN:
                where = (self._body[id(statement)], self._index[id(statement)])
                unit.trains.append((statement.lineno, key, where))
                self._per_output_class_weight(node)
        self.generic_visit(node)

    def _flat_metrics(self, node: ast.Call) -> None:
        """Note a flat ``metrics=[...]`` given with one loss for each of several outputs."""
        keywords = {k.arg: k.value for k in node.keywords if k.arg is not None}
        metrics, loss = keywords.get("metrics"), keywords.get("loss")
        if not isinstance(metrics, (ast.List, ast.Tuple)) or not metrics.elts:
            return
        if any(isinstance(e, (ast.List, ast.Tuple, ast.Dict, ast.Starred)) for e in metrics.elts):
            return
        if isinstance(loss, ast.Name) and self._lists:
            loss = self._lists[-1].get(loss.id)
        if isinstance(loss, (ast.List, ast.Tuple)) and len(loss.elts) > 1:
            if not any(isinstance(e, ast.Starred) for e in loss.elts):
                self.metrics[node.lineno] = len(loss.elts)
        elif isinstance(loss, ast.Dict) and len(loss.keys) > 1:
            keys = [
                k.value
                for k in loss.keys
                if isinstance(k, ast.Constant) and isinstance(k.value, str)
            ]
            if len(keys) == len(loss.keys):
                self.metrics[node.lineno] = keys

    def _per_output_class_weight(self, node: ast.Call) -> None:
        weights = next((k.value for k in node.keywords if k.arg == "class_weight"), None)
        if isinstance(weights, ast.Name) and self._lists:
            weights = self._lists[-1].get(weights.id)
        if isinstance(weights, (ast.List, ast.Tuple)):
            self.class_weights.add(node.lineno)

    @staticmethod
    def _compile_call(node: ast.Call) -> bool:
        return any(k.arg in _COMPILE_KEYWORDS for k in node.keywords)


def _single_values(scope: ast.AST) -> dict[str, ast.expr | None]:
    """The names a function (or the module) assigns once, outside nested functions and classes,
    with their value (None for a name assigned more than once)."""
    found: dict[str, ast.expr | None] = {}
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = node.value if target.id not in found else None
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name):
            found[node.target.id] = None
        todo.extend(ast.iter_child_nodes(node))
    return found


def statement_is_call(statement: ast.stmt, call: ast.Call) -> bool:
    """Whether ``statement`` is the call itself, or an assignment of it (run where it stands)."""
    return isinstance(statement, (ast.Expr, ast.Assign)) and statement.value is call


def _plan(unit: _Unit) -> tuple[dict[int, list[tuple[str, bool]]], set[int]]:
    """(statement line -> the flags to set before it, lines of statements that train models
    compiled with different flags: left with a warning)."""
    inserts: dict[int, list[tuple[str, bool]]] = {}
    if not unit.flags or not unit.compiles:
        return inserts, set()
    bodies = {body for *_, body in unit.flags} | {body for *_, body in unit.compiles}
    models = [model for _, model, _, _ in unit.compiles]
    if len(bodies) != 1 or -1 in bodies or len(set(models)) != len(models):
        return inserts, set()  # flags set in loops or branches, or a model compiled twice
    keys = sorted({key for _, key, _, _ in unit.flags})
    events = sorted([(line, 0, key, value) for line, key, value, _ in unit.flags])
    snapshots: dict[str, dict[str, bool]] = {}
    state = dict.fromkeys(keys, True)
    compiles = iter(sorted((line, model) for line, model, _, _ in unit.compiles))
    pending = next(compiles, None)
    for line, _, key, value in events:
        while pending is not None and pending[0] < line:
            snapshots[pending[1]] = dict(state)
            pending = next(compiles, None)
        state[key] = value
    while pending is not None:
        snapshots[pending[1]] = dict(state)
        pending = next(compiles, None)
    varying = [k for k in keys if any(s[k] != state[k] for s in snapshots.values())]
    if not varying:
        return inserts, set()
    conflicts: set[int] = set()
    # the flags set just before a statement: a statement next to one that trains with the
    # same flags needs them set again only if something between may change them (nothing)
    before: tuple[tuple[int, int], list[tuple[str, bool]]] | None = None
    for line, model, where in sorted(unit.trains):
        if model not in snapshots:
            continue
        wanted = [(key, snapshots[model][key]) for key in varying]
        if line in inserts and inserts[line] != wanted:
            conflicts.add(line)
        elif before is not None and before == ((where[0], where[1] - 1), wanted):
            pass
        else:
            inserts[line] = wanted
        before = (where, wanted)
    for line in conflicts:
        del inserts[line]
    return inserts, conflicts


def _shared_optimizers(unit: _Unit) -> set[int]:
    """Lines of the compile() calls given an optimizer an earlier call of the unit was given."""
    seen: set[str] = set()
    copies: set[int] = set()
    for line, _, optimizer, _ in sorted(unit.compiles):
        if optimizer is None:
            continue
        if optimizer in seen:
            copies.add(line)
        seen.add(optimizer)
    return copies


class KerasCompileStateCommand(MigrationCommand):
    DESCRIPTION = (
        "Keras 2 models trained with the trainable flags of their compile() (GAN "
        "discriminators), and one optimizer compiled into several models, to Keras 3."
    )
    PRECHECK = Precheck(_wanted, _relevant)
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        self._inserts: dict[int, list[tuple[str, bool]]] = {}
        self._copies: set[int] = set()
        self._conflicts: set[int] = set()
        self._metrics: dict[int, int | list[str]] = {}
        self._class_weights: set[int] = set()
        try:
            tree = ast.parse(self.source_text())
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return
        reader = _Reader()
        reader.visit(tree)
        self._metrics = reader.metrics
        self._class_weights = reader.class_weights
        for unit in reader.units.values():
            inserts, conflicts = _plan(unit)
            self._inserts.update(inserts)
            self._conflicts |= conflicts
            self._copies |= _shared_optimizers(unit)

    def on_leave(self, original_node, updated_node):  # type: ignore[no-untyped-def]
        result = super().on_leave(original_node, updated_node)
        if not isinstance(original_node, cst.BaseStatement) or result is not updated_node:
            return result
        if not (self._inserts or self._conflicts):
            return result
        line = self.line_of(original_node)
        if line in self._conflicts:
            self._conflicts.discard(line)
            self.warn_at(
                original_node,
                "statement left unchanged: it trains models compiled with different trainable "
                "flags; Keras 3 trains each with the flags set when it is first trained, Keras 2 "
                "with those of its compile(): set them before each call [trainable after compile]",
            )
            return result
        flags = self._inserts.pop(line, None)
        if not flags:
            return result
        lines = [cst.parse_statement(f"{key}.trainable = {value}") for key, value in flags]
        return cst.FlattenSentinel([*lines, updated_node])

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = original_node.func
        if (
            self._class_weights
            and isinstance(func, cst.Attribute)
            and func.attr.value in _TRAIN
            and self.line_of(original_node) in self._class_weights
        ):
            self.warn_at(
                original_node,
                f"{func.attr.value}(class_weight=[...]) left unchanged: Keras 3 takes "
                "class_weight only for a model with one output; give each output's weights "
                "as sample_weight=[...] (one array per output, the weight of each sample's "
                "class) [class_weight per output]",
            )
        if not (
            isinstance(func, cst.Attribute)
            and func.attr.value == "compile"
            and (self._copies or self._metrics)
        ):
            return updated_node
        line = self.line_of(original_node)
        if line in self._metrics:
            updated_node = self._per_output(updated_node, self._metrics[line])
        if line not in self._copies:
            return updated_node
        args = list(updated_node.args)
        for at, arg in enumerate(args):
            keyword = arg.keyword.value if arg.keyword is not None else None
            if keyword == "optimizer" or (keyword is None and at == 0 and not arg.star):
                name = dotted(arg.value)
                if name is None:
                    return updated_node
                copy = cst.parse_expression(f"type({name}).from_config({name}.get_config())")
                args[at] = arg.with_changes(value=copy)
                return updated_node.with_changes(args=args)
        return updated_node

    @staticmethod
    def _per_output(node: cst.Call, outputs: int | list[str]) -> cst.Call:
        """``metrics=['accuracy']`` for a model with two losses → ``[['accuracy'], ['accuracy']]``
        (or a dict by the loss dict's keys): Keras 2 gave a flat list to every output, Keras 3
        takes it for one output only ("tuple arity mismatch ... Invalid `metrics`",
        ``CompileMetrics._build_metrics_set``, keras/src/trainers/compile_utils.py)."""
        args = list(node.args)
        for at, arg in enumerate(args):
            if arg.keyword is None or arg.keyword.value != "metrics":
                continue
            value = arg.value
            if not isinstance(value, (cst.List, cst.Tuple)):
                return node
            flat = cst.List(
                elements=[e.with_changes(comma=cst.MaybeSentinel.DEFAULT) for e in value.elements]
            )
            if isinstance(outputs, int):
                new: cst.BaseExpression = cst.List(
                    elements=[cst.Element(value=flat) for _ in range(outputs)]
                )
            else:
                new = cst.Dict(
                    elements=[
                        cst.DictElement(key=cst.SimpleString(repr(key)), value=flat)
                        for key in outputs
                    ]
                )
            args[at] = arg.with_changes(value=new)
            return node.with_changes(args=args)
        return node
