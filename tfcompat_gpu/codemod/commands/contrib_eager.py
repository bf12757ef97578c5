"""``tf.contrib.eager`` (``tfe``) names → the TensorFlow 2 names that replaced them.

Eager code of TF 1.7-1.15 binds ``tfe`` three ways, ``import tensorflow.contrib.eager as tfe``,
``from tensorflow.contrib.eager.python import tfe`` and ``tfe = tf.contrib.eager``, then reads
``tfe.Variable``, ``tfe.Iterator(dataset)``, ``tfe.GradientTape``, ``tfe.Checkpoint``,
``tfe.metrics.Mean()``, ``tfe.implicit_gradients(loss_fn)``, ...  TensorFlow 2 runs eagerly and
kept each under another name (:data:`HOMES`): ``tf.Variable``, ``iter(dataset)`` (whose
iterator still has ``next()``), ``tf.train.Checkpoint``, the Keras metric of the same use.  The
binding goes and each read becomes its new name, written through the file's ``import
tensorflow as tf``.  ``tfe.implicit_gradients`` / ``implicit_value_and_gradients`` have no
public TensorFlow 2 name: they become ``_implicit_gradients`` / ``_implicit_value_and_gradients``,
a function the rewrite defines below the file's imports, computing with ``tf.GradientTape`` what
TF 1.x's did (the value and the ``(gradient, variable)`` pairs of the trainable variables the
function read).  A binding with a read of another name (``tfe.Network``, ``tfe.Saver``) is left,
with a warning; ``tf.contrib.eager.X`` written out is rewritten the same way.
"""

from __future__ import annotations

import ast
import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._imports import without_aliases
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import (
    below_imports,
    dotted,
    prefix_for,
    tf_root_alias,
    top_level_imports,
)
from tfcompat_gpu.codemod.commands.tf_private_imports import contrib_successor, eager_import

__all__ = ["HOMES", "METRICS", "ContribEagerCommand"]

_MODULE = "tensorflow.contrib.eager"
# tfe.<name> -> its TensorFlow 2 name after the file's ``tf.``
HOMES = {
    "Variable": "Variable",
    "GradientTape": "GradientTape",
    "Checkpoint": "train.Checkpoint",
    "defun": "function",
    "function": "function",
    "py_func": "py_function",
    "custom_gradient": "custom_gradient",
    "TensorSpec": "TensorSpec",
    "executing_eagerly": "executing_eagerly",
    "in_eager_mode": "executing_eagerly",
    "enable_eager_execution": "compat.v1.enable_eager_execution",
    "make_template": "compat.v1.make_template",
}
# tfe.metrics.<name> -> the Keras metric of the same use
METRICS = {
    "Mean": "Mean",
    "Accuracy": "Accuracy",
    "BinaryAccuracy": "BinaryAccuracy",
    "CategoricalAccuracy": "CategoricalAccuracy",
    "SparseAccuracy": "SparseCategoricalAccuracy",
}
_HELPERS = {
    "implicit_gradients": "_implicit_gradients",
    "implicit_value_and_gradients": "_implicit_value_and_gradients",
}
_HELPER_CODE = '''

def _implicit_value_and_gradients(f):
    """implicit_value_and_gradients of TF 1.x's eager API: f's value and the
    (gradient, variable) pairs of the trainable variables it read."""

    def value_and_gradients(*args, **kwargs):
        with {tf}GradientTape() as tape:
            value = f(*args, **kwargs)
        variables = tape.watched_variables()
        if not variables:
            raise ValueError(
                "No trainable variables were accessed while the function was being computed."
            )
        return value, list(zip(tape.gradient(value, variables), variables))

    return value_and_gradients


def _implicit_gradients(f):
    """implicit_gradients of TF 1.x's eager API: the (gradient, variable) pairs."""
    value_and_gradients = _implicit_value_and_gradients(f)
    return lambda *args, **kwargs: value_and_gradients(*args, **kwargs)[1]
'''
_TEXT = re.compile(r"\bcontrib\b[\s\S]*?\beager\b")
_READS = re.compile(
    r"contrib|eager|tfe|metrics|" + "|".join(sorted({*HOMES, *METRICS, *_HELPERS, "Iterator"}))
)


def _wanted(text: str, tree: ast.Module | None = None) -> bool:
    return "contrib" in text and _TEXT.search(text) is not None


def _relevant(statement: str) -> bool:
    return _READS.search(statement) is not None


def _home(member: str, prefix: str) -> str | None:
    """The new code of ``tfe.<member>`` (``metrics.Mean`` for a metric) after ``prefix``."""
    compat = prefix.endswith("compat.v1.")
    if member == "Iterator":
        return "iter"
    if member in _HELPERS:
        return _HELPERS[member]
    if member in HOMES:
        home = HOMES[member]
        return prefix + (home.removeprefix("compat.v1.") if compat else home)
    kind, _, name = member.partition(".")
    if kind == "metrics" and name in METRICS:
        return f"{prefix}keras.metrics.{METRICS[name]}"
    return None


class ContribEagerCommand(MigrationCommand):
    DESCRIPTION = (
        "tf.contrib.eager (tfe) names to the TensorFlow 2 names that replaced them "
        "(tfe.Variable to tf.Variable, tfe.Iterator(ds) to iter(ds), tfe.implicit_gradients "
        "to a GradientTape function)."
    )
    PRECHECK = Precheck(_wanted, _relevant)
    UPGRADE = True

    def visit_Module(self, node: cst.Module) -> None:
        self._replace: dict[cst.CSTNode, str] = {}
        self._drop: set[cst.CSTNode] = set()
        self._planned: set[cst.CSTNode] = set()  # bindings dropped or warned about
        self._warned: set[str] = set()
        self._helpers = False
        self._root = tf_root_alias(node)
        for _, small in top_level_imports(node):
            if eager_import(small):
                self._plan(small, small)
        # ... and one in a block or a function (``import tensorflow.contrib.eager as tfe`` under
        # ``if __name__ == '__main__':``), whose reads are in its own scope
        for found in self.context.parents():
            if (
                isinstance(found, (cst.Import, cst.ImportFrom))
                and found not in self._planned
                and eager_import(found)
            ):
                self._plan(found, found)
        for statement in node.body:
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            for line in statement.body:
                if (
                    isinstance(line, cst.Assign)
                    and len(line.targets) == 1
                    and isinstance(line.targets[0].target, cst.Name)
                    and _MODULE in self.names_of(line.value)
                    and dotted(line.value) is not None
                ):
                    self._plan(line, line.targets[0].target)

    def declared_changes(self) -> list[cst.CSTNode]:
        return [*self._replace, *self._drop]

    def _bound(self, node: cst.CSTNode) -> str | None:
        if isinstance(node, cst.Name):
            return node.value
        assert isinstance(node, (cst.Import, cst.ImportFrom))
        assert not isinstance(node.names, cst.ImportStar)
        alias = (
            node.names[0]
            if isinstance(node, cst.ImportFrom)
            else next(a for a in node.names if dotted(a.name) == _MODULE)
        )
        return alias.evaluated_alias or alias.evaluated_name

    def _plan(self, binding: cst.CSTNode, target: cst.CSTNode) -> None:
        """Each read of what ``binding`` binds, with its new code; left (and said) if one has
        no home or the file has no ``tensorflow`` name to write it through."""
        self._planned.add(binding)
        bound = self._bound(target)
        scope = self.scope_of(binding)
        if bound is None or scope is None:
            return
        replace: dict[cst.CSTNode, str] = {}
        missing: list[str] = []
        for assignment in scope.assignments[bound]:
            for access in assignment.references:
                read = access.node
                attribute = self.parent(read)
                if not isinstance(attribute, cst.Attribute) or attribute.value is not read:
                    missing.append(bound)
                    continue
                member, node = attribute.attr.value, attribute
                outer = self.parent(attribute)
                if member == "metrics" and isinstance(outer, cst.Attribute):
                    member, node = f"metrics.{outer.attr.value}", outer
                code = None if self._root is None else _home(member, self._root)
                if code is None:
                    missing.append(f"{bound}.{member}")
                else:
                    replace[node] = code
        if missing or self._root is None:
            why = (
                f"{', '.join(sorted(set(missing)))} has no TF2 name"
                if missing
                else "the file has no module-level `import tensorflow as tf` to write the new "
                "names through"
            )
            self.warn_at(
                binding,
                f"tf.contrib.eager ({bound}) left unchanged: TensorFlow 2.0 removed "
                f"tensorflow.contrib; {why}: {contrib_successor('eager')} [tf.contrib removed]",
            )
            return
        self._replace.update(replace)
        self._drop.add(binding)

    def leave_Import(
        self, original_node: cst.Import, updated_node: cst.Import
    ) -> cst.Import | cst.RemovalSentinel:
        if original_node not in self._drop:
            return updated_node
        drop = {i for i, a in enumerate(original_node.names) if dotted(a.name) == _MODULE}
        result = without_aliases(updated_node, drop)
        assert not isinstance(result, cst.ImportFrom)
        return result

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.ImportFrom | cst.RemovalSentinel:
        return cst.RemoveFromParent() if original_node in self._drop else updated_node

    def leave_Assign(
        self, original_node: cst.Assign, updated_node: cst.Assign
    ) -> cst.Assign | cst.RemovalSentinel:
        return cst.RemoveFromParent() if original_node in self._drop else updated_node

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        code = self._replace.get(original_node)
        if code is None:
            code = self._written_out(original_node)
        if code is None:
            return updated_node
        if code in _HELPERS.values():
            self._helpers = True
        new = cst.parse_expression(code)
        return new.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)

    def _written_out(self, node: cst.Attribute) -> str | None:
        """The new code of ``tf.contrib.eager.X`` spelled out, else None (said once if it has
        no TF2 name)."""
        parent = self.parent(node)
        if isinstance(parent, cst.Attribute) and parent.value is node:
            return None  # the outermost name decides
        for name in self.names_of(node):
            if name == _MODULE and self.parent(node) not in self._planned:
                self._left_whole(node)
            if not name.startswith(_MODULE + "."):
                continue
            member = name[len(_MODULE) + 1 :]
            prefix = prefix_for(node, name)
            if prefix is None:
                return None  # a read of a binding: planned (or warned) with it
            code = _home(member, prefix)
            if code is None and member not in self._warned:
                self._warned.add(member)
                self.warn_at(
                    node,
                    f"tf.contrib.eager.{member} left unchanged: it has no TF2 name (tf.contrib "
                    f"was removed in TensorFlow 2.0): {contrib_successor('eager')} "
                    "[tf.contrib removed]",
                )
            return code
        return None

    def _left_whole(self, node: cst.Attribute) -> None:
        """``tf.contrib.eager`` read as a whole where no binding of it was planned (bound in a
        function, handed on): said once."""
        if "" in self._warned or prefix_for(node, _MODULE) is None:
            return
        self._warned.add("")
        self.warn_at(
            node,
            "tf.contrib.eager left unchanged: tf.contrib was removed in TensorFlow 2.0: "
            f"{contrib_successor('eager')} [tf.contrib removed]",
        )

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if not self._helpers or self._root is None:
            return updated_node
        return below_imports(updated_node, _HELPER_CODE.format(tf=self._root))
