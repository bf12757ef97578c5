"""Keras 2 optimizer arguments → Keras 3: ``lr=`` → ``learning_rate=``, ``decay=`` → its schedule.

Keras 3 rejects ``lr`` ("Argument(s) not recognized", ``BaseOptimizer.__init__`` in
keras/src/optimizers/base_optimizer.py) and drops ``decay`` with only a warning, so training
would run at a constant rate.  Keras 2 applied ``lr / (1 + decay * iterations)`` (``get_updates``
of keras/optimizers.py in Keras 2.2); ``InverseTimeDecay(lr, decay_steps=1, decay_rate=decay)``
computes exactly that (``InverseTimeDecay.__call__`` in
keras/src/optimizers/schedules/learning_rate_schedule.py, ``staircase=False``).  An integer
``lr=1`` becomes ``learning_rate=1.0``: Keras 3 refuses a rate that is not a float
(``BaseOptimizer.__init__``), Keras 2 took any number.  The lowercase
aliases (``keras.optimizers.adam``) Keras 3 lacks become the class names.
"""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._imports import need_import
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import dotted, tf_root_alias, top_level_imports
from tfcompat_gpu.codemod._triage import text_search
from tfcompat_gpu.tfapi.keras_names import OPTIMIZER_ALIASES, OPTIMIZER_CLASSES, OPTIMIZER_MODULES

__all__ = ["KerasOptimizersCommand"]

# the learning rate each Keras 2 optimizer defaulted to, where every Keras since 2.2 agrees
# (Keras 3: keras/src/optimizers/sgd.py, adam.py, rmsprop.py); the others changed default
_SAME_DEFAULT: dict[str, str] = {"SGD": "0.01", "Adam": "0.001", "RMSprop": "0.001"}


def _optimizer(names: set[str]) -> tuple[str, str] | None:
    """(module, class) for the Keras optimizer among ``names``, aliases resolved."""
    for name in names:
        module, _, last = name.rpartition(".")
        if module not in OPTIMIZER_MODULES:
            continue
        last = OPTIMIZER_ALIASES.get(last, last)
        if last in OPTIMIZER_CLASSES:
            return module, last
    return None


def _is_zero(node: cst.BaseExpression) -> bool:
    if isinstance(node, (cst.Integer, cst.Float)):
        try:
            return float(node.value.replace("_", "")) == 0.0
        except ValueError:
            return False
    return False


_OPTIMIZER_ARGS = re.compile(r"\b(?:lr|decay)\s*=|\boptimizers\b|\bget_updates\b")
_wanted = text_search(_OPTIMIZER_ARGS, "lr", "decay", "optimizers", "get_updates")
# Code that changes the learning rate while training: Keras 3 refuses to for an optimizer
# given a schedule (BaseOptimizer.learning_rate's setter, keras/src/optimizers/base_optimizer.py)
_RATE_CHANGES = re.compile(
    r"ReduceLROnPlateau|LearningRateScheduler|\bset_value\s*\(|\.lr\s*=[^=]"
    r"|\.learning_rate\s*=[^=]|\.learning_rate\.assign\b"
)


def _relevant(text: str) -> bool:
    return _wanted(text) or _RATE_CHANGES.search(text) is not None


class KerasOptimizersCommand(MigrationCommand):
    DESCRIPTION = "Keras 2 optimizer arguments (lr, decay) and aliases to their Keras 3 form."
    PRECHECK = Precheck(_wanted, _relevant)
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        self._keras: str | None = None
        for _, small in top_level_imports(node):
            if isinstance(small, cst.Import):
                for alias in small.names:
                    if dotted(alias.name) == "keras" and alias.asname is None:
                        self._keras = "keras."
        self._tf = tf_root_alias(node)
        changes = _RATE_CHANGES.search(self.source_text())
        self._rate_changed = None if changes is None else changes.group(0).rstrip("(= ")

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        # a Keras 2 optimizer of one's own: Keras 3 never calls get_updates (its training step
        # calls apply_gradients -> update_step, keras/src/optimizers/base_optimizer.py), so the
        # class would train with its base's rule, or not at all
        if not any(
            isinstance(item, cst.FunctionDef) and item.name.value == "get_updates"
            for item in node.body.body
        ):
            return
        for base in node.bases:
            names = self.names_of(base.value)
            if any(
                name.rpartition(".")[0] in OPTIMIZER_MODULES
                and name.rpartition(".")[2] in OPTIMIZER_CLASSES | {"Optimizer"}
                for name in names
            ):
                self.warn_at(
                    node,
                    f"class {node.name.value} left unchanged: Keras 3 optimizers never call "
                    "get_updates; port it to build(variables) and "
                    "update_step(gradient, variable, learning_rate) [optimizer subclass]",
                )
                self.silence(node)  # one warning for the class, none for its backend calls
                return

    def _schedules(self, module: str, func: cst.BaseExpression) -> str:
        """How the file can spell ``<optimizers module>.schedules.``."""
        spelled = dotted(func)
        if spelled is not None and "." in spelled:
            return spelled.rpartition(".")[0] + ".schedules."
        if module == "keras.optimizers":
            if self._keras is None:
                need_import(self.context, "keras")
                self._keras = "keras."
            return self._keras + "optimizers.schedules."
        if self._tf is None:
            need_import(self.context, "tensorflow", asname="tf")
            self._tf = "tf."
        return self._tf + "keras.optimizers.schedules."

    def leave_ImportAlias(
        self, original_node: cst.ImportAlias, updated_node: cst.ImportAlias
    ) -> cst.ImportAlias:
        # ``from keras.optimizers import adam`` → ``... import Adam as adam``: every use stays
        parent = self.parent(original_node)
        if not isinstance(parent, cst.ImportFrom) or parent.module is None:
            return updated_node
        if dotted(parent.module) not in OPTIMIZER_MODULES:
            return updated_node
        name = dotted(original_node.name)
        new = OPTIMIZER_ALIASES.get(name or "")
        if new is None:
            return updated_node
        bound = original_node.asname or cst.AsName(name=cst.Name(str(name)))
        return updated_node.with_changes(name=cst.Name(new), asname=bound)

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        # ``keras.optimizers.adam`` → ``keras.optimizers.Adam``
        new = OPTIMIZER_ALIASES.get(original_node.attr.value)
        if new is None or _optimizer(self.names_of(original_node)) is None:
            return updated_node
        return updated_node.with_changes(attr=cst.Name(new))

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        args = list(updated_node.args)
        keywords = {a.keyword.value: i for i, a in enumerate(args) if a.keyword is not None}
        if "lr" not in keywords and "decay" not in keywords:
            return updated_node
        found = _optimizer(self.names_of(original_node.func))
        if found is None:
            return updated_node
        module, cls = found
        if any(a.star for a in args):
            self.warn_at(
                original_node,
                f"{cls}(...) left unchanged: with *args or **kwargs the lr/decay arguments "
                "cannot be checked; Keras 3 takes learning_rate= and has no decay= [starred call]",
            )
            return updated_node
        if "lr" in keywords and "learning_rate" in keywords:
            self.warn_at(
                original_node,
                f"{cls}(...) left unchanged: both lr= and learning_rate= [duplicate argument]",
            )
            return updated_node
        if "lr" in keywords:
            at = keywords["lr"]
            args[at] = args[at].with_changes(keyword=cst.Name("learning_rate"))
            keywords["learning_rate"] = keywords.pop("lr")
            given = args[at].value
            if isinstance(given, cst.Integer):  # SGD(lr=1): Keras 3 takes a float only
                args[at] = args[at].with_changes(value=cst.Float(f"{given.value}.0"))
        if "decay" not in keywords:
            return updated_node.with_changes(args=args)
        decay_at = keywords["decay"]
        decay = args[decay_at].value
        positional = [a for a in args if a.keyword is None]
        if _is_zero(decay):  # no decay: Keras 2 and 3 compute the same without it
            return updated_node.with_changes(args=self._without(args, decay_at))
        if self._rate_changed is not None:
            self.warn_at(
                original_node,
                f"{cls}(decay=...) left as written: the file also changes the learning rate "
                f"({self._rate_changed}), which Keras 3 refuses for an optimizer given a "
                "schedule, and Keras 3 ignores decay= with a warning; drop decay= or make the "
                "decay part of that code [decay beside a changed learning rate]",
            )
            return updated_node.with_changes(args=args)
        if "learning_rate" in keywords:
            rate_at: int | None = keywords["learning_rate"]
            rate = self.module.code_for_node(args[keywords["learning_rate"]].value)
        elif positional:
            rate_at = args.index(positional[0])
            rate = self.module.code_for_node(positional[0].value)
        elif cls in _SAME_DEFAULT:
            rate_at, rate = None, _SAME_DEFAULT[cls]
        else:
            self.warn_at(
                original_node,
                f"{cls}(decay=...) left unchanged: its default learning rate differs between "
                "Keras versions; give learning_rate= and run migrate again [decay without learning rate]",
            )
            return updated_node
        schedule = cst.parse_expression(
            f"{self._schedules(module, original_node.func)}InverseTimeDecay("
            f"{rate}, decay_steps=1, decay_rate={self.module.code_for_node(decay)})"
        )
        if rate_at is None:
            args[decay_at] = args[decay_at].with_changes(
                keyword=cst.Name("learning_rate"), value=schedule
            )
            return updated_node.with_changes(args=args)
        args[rate_at] = args[rate_at].with_changes(value=schedule)
        return updated_node.with_changes(args=self._without(args, decay_at))

    @staticmethod
    def _without(args: list[cst.Arg], at: int) -> list[cst.Arg]:
        kept = args[:at] + args[at + 1 :]
        if kept and at == len(args) - 1:  # the last argument's comma (or its absence) stays
            kept[-1] = kept[-1].with_changes(comma=args[at].comma)
        return kept
