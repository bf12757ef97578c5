"""Weight file names Keras 3 rejects → names it accepts, each change announced.

Keras 3's ``Model.save_weights`` raises unless the name ends in ``.weights.h5``
(``save_weights`` in keras/src/saving/saving_api.py); ``ModelCheckpoint`` raises unless it ends
in ``.weights.h5`` with ``save_weights_only=True``, else in ``.keras`` or ``.h5``
(``ModelCheckpoint.__init__`` in keras/src/callbacks/model_checkpoint.py).  A literal name is
given the ending (``w.h5`` → ``w.weights.h5``; a checkpoint ``m.hdf5`` → ``m.h5``, the same
HDF5 format), and a ``load_weights`` of a name the file saves is renamed with it; ``load_weights``
of any other ``.h5`` stays, since Keras 3 still reads legacy HDF5 weights.  The file on disk
changes name, which a warning says.  A name built from pieces whose last piece is a literal
(``log_dir + 'w.h5'``, ``os.path.join(d, 'w.h5')``, ``'w{}.h5'.format(n)``, ``f'{d}/w.h5'``)
gets the ending on that piece, and a ``load_weights`` of the same expression follows it.  A
name held in a variable the file binds once, to such a name (``filepath =
'weights-{epoch:02d}-{val_acc:.2f}.hdf5'`` before ``ModelCheckpoint(filepath, ...)``, ``WEIGHTS
= 'model.h5'`` before ``save_weights(WEIGHTS)``), is renamed where it is bound, so every use
follows; a weights file's ending wins when the variable names both kinds.  Any other name is
left with a warning.

Standalone Keras 2 wrote a whole model as HDF5 whatever its name (``model.save('classifier')``,
keras/engine/saving.py), which Keras 3 refuses ("Invalid filepath extension for saving"); in a
file that imports ``keras`` (not ``tf.keras``, whose TF 2 releases wrote a SavedModel there),
a literal name without ``.keras`` or ``.h5`` given to the ``save`` of a model the file builds
(``model = Sequential()``, ``Model(...)``, ``load_model(...)``) gets ``.h5`` (``.hdf5``
becomes it), and a ``load_model`` of the same literal follows it; so does a
``ModelCheckpoint`` name of another ending (``.../model4.model`` → ``.../model4.model.h5``).

``ModelCheckpoint(period=N)`` (Keras 2's callback saved when ``N`` epochs had ended since its
last save, counting across ``fit`` calls: keras/callbacks.py ``epochs_since_last_save``) has no
Keras 3 argument: ``save_freq`` counts batches.  ``period=1``, every epoch, is Keras 3's default
and goes; any other value makes the call one of ``_PeriodicCheckpoint``, a subclass of Keras 3's
``ModelCheckpoint`` defined once below the file's imports, which counts epochs as Keras 2 did
and lets Keras 3's own ``on_epoch_end`` save (and compare, with ``save_best_only``) on every
``N``-th.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._imports import need_import
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import below_imports, dotted

__all__ = ["PERIODIC", "KerasWeightFilesCommand"]

PERIODIC = "_PeriodicCheckpoint"
_PERIODIC_CODE = f'''

class {PERIODIC}(keras.callbacks.ModelCheckpoint):
    """Keras 2's ModelCheckpoint(period=N) on Keras 3: saves on every N-th epoch's end."""

    def __init__(self, *args, period=1, **kwargs):
        super().__init__(*args, **kwargs)
        self.period = period
        self.epochs_since_last_save = 0

    def on_epoch_end(self, epoch, logs=None):
        self.epochs_since_last_save += 1
        if self.epochs_since_last_save >= self.period:
            self.epochs_since_last_save = 0
            super().on_epoch_end(epoch, logs)
'''

_LOAD_MODEL = frozenset({"keras.models.load_model", "keras.saving.load_model"})
_CHECKPOINTS = frozenset(
    {"keras.callbacks.ModelCheckpoint", "tensorflow.keras.callbacks.ModelCheckpoint"}
)


def _literal(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString) and not node.prefix.strip("rR"):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


_JOINS = frozenset({"os.path.join", "path.join", "osp.join"})


def _ending(node: cst.BaseExpression) -> tuple[str, Callable[[str], cst.BaseExpression]] | None:
    """The text that ends a file name built from pieces, and how to rebuild the name with
    another ending: ``'w.h5'``, ``log_dir + 'w.h5'``, ``os.path.join(d, 'w.h5')``,
    ``'w{}.h5'.format(n)``, ``f'{d}/w.h5'``."""
    if isinstance(node, cst.SimpleString):
        text = _literal(node)
        return None if text is None else (text, lambda new: _string(node, new))
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        inner = _ending(node.right)
        if inner is not None:
            text, rebuild = inner
            return text, lambda new: node.with_changes(right=rebuild(new))
        return None
    if isinstance(node, cst.FormattedString) and node.parts:
        last = node.parts[-1]
        if isinstance(last, cst.FormattedStringText) and "\\" not in last.value:
            parts = list(node.parts)
            return last.value, lambda new: node.with_changes(
                parts=[*parts[:-1], last.with_changes(value=new)]
            )
        return None
    if not isinstance(node, cst.Call) or any(a.star or a.keyword for a in node.args):
        return None
    func = node.func
    if isinstance(func, cst.Attribute) and func.attr.value == "format":
        inner = _ending(func.value)
        if inner is not None and isinstance(func.value, cst.SimpleString):
            text, rebuild = inner
            return text, lambda new: node.with_changes(func=func.with_changes(value=rebuild(new)))
        return None
    if dotted(func) in _JOINS and node.args:
        inner = _ending(node.args[-1].value)
        if inner is not None:
            text, rebuild = inner
            args = list(node.args)
            return text, lambda new: node.with_changes(
                args=[*args[:-1], args[-1].with_changes(value=rebuild(new))]
            )
    return None


def _weights_name(name: str) -> str:
    for ending in (".hdf5", ".h5"):
        if name.endswith(ending):
            return name[: -len(ending)] + ".weights.h5"
    return name + ".weights.h5"


def _string(node: cst.SimpleString, value: str) -> cst.SimpleString:
    quote = node.quote
    return node.with_changes(value=f"{node.prefix}{quote}{value}{quote}")


_Key = tuple["cst.FunctionDef | None", str]
"""A variable: the function whose local it is (None: the module's), and its name."""

_WEIGHT_FILES = re.compile(r"save_weights|ModelCheckpoint|load_weights|\.save\s*\(")
_STANDALONE = re.compile(r"^\s*(?:import\s+keras\b|from\s+keras[.\s])", re.M)
_TF_KERAS = re.compile(r"\btensorflow\.keras\b|\bfrom\s+tensorflow\s+import\s+keras\b")
_MODEL_CALLS = ("Sequential", "Model", "load_model")
_FILE_LITERAL = re.compile(r"\.\w+[\"']")


def _wanted(text: str, tree: object = None) -> bool:
    return (
        "_weights" in text or "ModelCheckpoint" in text or ".save" in text
    ) and _WEIGHT_FILES.search(text) is not None


def _relevant(text: str) -> bool:
    # the calls, and the module-level statements that may bind the name they are given
    # (any ending: standalone Keras files get .h5 on a model file name of another)
    return _wanted(text) or _FILE_LITERAL.search(text) is not None or "load_model" in text


def _bindings(command: KerasWeightFilesCommand, module: cst.Module) -> _Collected:
    """What the module binds and hands to the weight-file calls (LibCST is loaded by now)."""

    class _Bindings(cst.CSTVisitor):
        """Every name the module binds (how many times, and the value of a plain ``name = value``),
        and the names given to ``save_weights`` / ``ModelCheckpoint`` as the file name."""

        def __init__(self, command: KerasWeightFilesCommand) -> None:
            self.command = command
            self.count: dict[_Key, int] = {}
            self.value: dict[_Key, cst.BaseExpression] = {}
            self.files: dict[_Key, bool] = {}
            """Variable -> whether a weights file (True wins over a model file)."""
            self.reads: dict[cst.Name, _Key] = {}
            """A name given as the file name -> the variable it reads."""
            self.scopes: list[cst.FunctionDef] = []
            self.given: list[tuple[cst.Name, tuple[cst.FunctionDef, ...], bool]] = []

        def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
            self.scopes.append(node)

        def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
            self.scopes.pop()

        def _bind(self, target: cst.CSTNode, value: cst.BaseExpression | None = None) -> None:
            if isinstance(target, cst.Name):
                key = (self.scopes[-1] if self.scopes else None, target.value)
                self.count[key] = self.count.get(key, 0) + 1
                if value is not None:
                    self.value[key] = value
            elif isinstance(target, (cst.Tuple, cst.List)):
                for element in target.elements:
                    self._bind(element.value)
            elif isinstance(target, cst.StarredElement):
                self._bind(target.value)

        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                self._bind(target.target, node.value if len(node.targets) == 1 else None)

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            self._bind(node.target)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            self._bind(node.target)

        def visit_For(self, node: cst.For) -> None:
            self._bind(node.target)

        def visit_AsName(self, node: cst.AsName) -> None:
            self._bind(node.name)

        def visit_Param(self, node: cst.Param) -> None:
            self._bind(node.name)

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            self._bind(node.target)

        def visit_Call(self, node: cst.Call) -> None:
            found = self.command._file_arg(node)
            if found is not None and isinstance(found[0].value, cst.Name):
                self.given.append((found[0].value, tuple(self.scopes), found[1]))

        def settle(self) -> None:
            """Each name given as a file name read where Python reads it: in the innermost
            function that binds it, else at module level (a variable of the same name in
            another function is another variable)."""
            for node, scopes, weights in self.given:
                for scope in (*reversed(scopes), None):
                    key = (scope, node.value)
                    if key in self.count:
                        self.reads[node] = key
                        self.files[key] = self.files.get(key, False) or weights
                        break

    collected = _Bindings(command)
    module.visit(collected)
    collected.settle()
    return _Collected(collected.count, collected.value, collected.files, collected.reads)


class _Collected:
    __slots__ = ("count", "files", "reads", "value")

    def __init__(
        self,
        count: dict[_Key, int],
        value: dict[_Key, cst.BaseExpression],
        files: dict[_Key, bool],
        reads: dict[cst.Name, _Key],
    ) -> None:
        self.count = count
        self.value = value
        self.files = files
        self.reads = reads


class KerasWeightFilesCommand(MigrationCommand):
    DESCRIPTION = "Weight file names to the endings Keras 3 requires, announced."
    PRECHECK = Precheck(_wanted, _relevant)
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        self._periodic = False
        self._renamed: dict[str, str] = {}
        self._renamed_code: dict[str, cst.BaseExpression] = {}
        bindings = _bindings(self, node)
        # variables bound once to a name this command can give an ending: renamed where bound
        self._reads = bindings.reads
        self._scopes: list[cst.FunctionDef] = []
        self._variables = {
            name: weights
            for name, weights in bindings.files.items()
            if bindings.count.get(name) == 1
            and name in bindings.value
            and _ending(bindings.value[name]) is not None
        }

    def _file_arg(self, call: cst.Call) -> tuple[cst.Arg, bool] | None:
        """The file name argument of a ``save_weights`` / ``ModelCheckpoint`` call, and whether
        it names a weights file; None for other calls and a ``save_weights_only`` not literal."""
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value == "save_weights":
            arg = self._first(call, "filepath")
            return None if arg is None else (arg, True)
        if not self.names_of(func) & _CHECKPOINTS:
            return None
        weights = False
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == "save_weights_only":
                if not (isinstance(arg.value, cst.Name) and arg.value.value in ("True", "False")):
                    return None
                weights = arg.value.value == "True"
        first = self._first(call, "filepath")
        return None if first is None else (first, weights)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._scopes.append(node)

    def leave_FunctionDef(
        self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef
    ) -> cst.FunctionDef:
        self._scopes.pop()
        return updated_node

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> cst.Assign:
        target = updated_node.targets[0].target if len(updated_node.targets) == 1 else None
        if not isinstance(target, cst.Name):
            return updated_node
        key = (self._scopes[-1] if self._scopes else None, target.value)
        if key not in self._variables:
            return updated_node
        weights = self._variables[key]
        value = self._renamed_value(original_node, updated_node.value, weights, target.value)
        return updated_node if value is None else updated_node.with_changes(value=value)

    def _first(self, call: cst.Call, keyword: str) -> cst.Arg | None:
        for index, arg in enumerate(call.args):
            if (arg.keyword is None and index == 0 and not arg.star) or (
                arg.keyword is not None and arg.keyword.value == keyword
            ):
                return arg
        return None

    def _standalone(self) -> bool:
        """Whether the file imports standalone Keras and not ``tf.keras``."""
        text = self.source_text()
        return _STANDALONE.search(text) is not None and _TF_KERAS.search(text) is None

    def _keras2_model(self, receiver: cst.BaseExpression) -> bool:
        """Whether ``receiver`` is a name the file binds to a Keras model it builds, in a file
        of standalone Keras (which saved HDF5 whatever the name)."""
        text = self.source_text()
        if not isinstance(receiver, cst.Name) or not self._standalone():
            return False
        calls = "|".join(_MODEL_CALLS)
        built = re.compile(
            rf"^\s*{re.escape(receiver.value)}\s*=\s*(?:[\w.]+\.)?(?:{calls})\s*\(", re.M
        )
        return built.search(text) is not None

    def _model_file(self, original: cst.Call, updated: cst.Call, *, loading: bool) -> cst.Call:
        """``model.save('classifier')`` -> ``model.save('classifier.h5')``; ``load_model`` of
        a literal this file renamed follows."""
        arg = self._first(updated, "filepath")
        if arg is None or not isinstance(arg.value, cst.SimpleString):
            return updated
        name = _literal(arg.value)
        if name is None:
            return updated
        if loading and name in self._renamed:
            new = self._renamed[name]
        elif loading:
            return updated
        elif name.endswith(".hdf5"):
            new = name[: -len(".hdf5")] + ".h5"
        elif not name.endswith((".keras", ".h5")):
            new = name + ".h5"  # ('model', 'model.model'): HDF5 all the same
        else:
            return updated
        if not loading:
            self._renamed[name] = new
            self.warn_at(
                original,
                f"save: the file is now named {new!r} (was {name!r}), the HDF5 file Keras 2 "
                "wrote, as Keras 3 requires; update what reads it [file renamed]",
            )
        value = _string(arg.value, new)
        return updated.with_changes(
            args=[arg.with_changes(value=value) if a is arg else a for a in updated.args]
        )

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        method = func.attr.value if isinstance(func, cst.Attribute) else None
        if (
            method == "save"
            and isinstance(func, cst.Attribute)
            and self.keras_major() >= 3
            and self._keras2_model(func.value)
        ):
            return self._model_file(original_node, updated_node, loading=False)
        if self._renamed and self.names_of(original_node.func) & _LOAD_MODEL:
            return self._model_file(original_node, updated_node, loading=True)
        if method == "save_weights":
            return self._rename(original_node, updated_node, "filepath", weights=True)
        if method == "load_weights":
            arg = self._first(updated_node, "filepath")
            if arg is None:
                return updated_node
            name = _literal(arg.value)
            if name is not None and name in self._renamed:
                assert isinstance(arg.value, cst.SimpleString)
                value: cst.BaseExpression = _string(arg.value, self._renamed[name])
            elif name is None and self.code_of(arg.value) in self._renamed_code:
                # the same expression a save_weights of this file renamed
                value = self._renamed_code[self.code_of(arg.value)]
            else:
                return updated_node
            new = arg.with_changes(value=value)
            return updated_node.with_changes(
                args=[new if a is arg else a for a in updated_node.args]
            )
        if not self.names_of(original_node.func) & _CHECKPOINTS:
            return updated_node
        updated_node = self._period(original_node, updated_node)
        weights = False
        for arg in updated_node.args:
            if arg.keyword is not None and arg.keyword.value == "save_weights_only":
                if isinstance(arg.value, cst.Name) and arg.value.value in ("True", "False"):
                    weights = arg.value.value == "True"
                else:
                    self.warn_at(
                        original_node,
                        "ModelCheckpoint(...) left unchanged: save_weights_only is not a literal "
                        "True/False; Keras 3 needs a name ending in .weights.h5 when it is true "
                        "and in .keras or .h5 otherwise [save_weights_only not a literal]",
                    )
                    return updated_node
        return self._rename(original_node, updated_node, "filepath", weights=weights)

    def _period(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        """``ModelCheckpoint(period=N)``: ``period=1`` goes (Keras 3's default), any other
        value makes the call one of :data:`PERIODIC`, which keeps Keras 2's count."""
        args = list(updated.args)
        for index, arg in enumerate(args):
            if arg.keyword is None or arg.keyword.value != "period":
                continue
            if isinstance(arg.value, cst.Integer) and arg.value.evaluated_value == 1:
                if index == len(args) - 1 and index > 0:
                    args[index - 1] = args[index - 1].with_changes(comma=arg.comma)
                del args[index]
                return updated.with_changes(args=args)
            self._periodic = True
            need_import(self.context, "keras")
            return updated.with_changes(func=cst.Name(PERIODIC))
        return updated

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if not self._periodic or any(
            isinstance(statement, cst.ClassDef) and statement.name.value == PERIODIC
            for statement in updated_node.body
        ):
            return updated_node
        return below_imports(updated_node, _PERIODIC_CODE)

    def _renamed_value(
        self, original: cst.CSTNode, node: cst.BaseExpression, weights: bool, variable: str
    ) -> cst.BaseExpression | None:
        """The file name ``variable`` is bound to, with the ending Keras 3 needs (announced)."""
        ending = _ending(node)
        assert ending is not None  # (checked when the variable was chosen)
        name, rebuild = ending
        if weights:
            if name.endswith(".weights.h5"):
                return None
            new = _weights_name(name)
        elif name.endswith((".keras", ".h5")):
            return None
        elif name.endswith(".hdf5"):
            new = name[: -len(".hdf5")] + ".h5"
        elif self._standalone():
            new = name + ".h5"  # standalone Keras 2 saved HDF5 whatever the name
        else:
            return None  # the call's own warning names it
        value = rebuild(new)
        if isinstance(node, cst.SimpleString):
            self._renamed[name] = new
        self.warn_at(
            original,
            f"{variable}: the file is now named {self.code_of(value)} (was "
            f"{self.code_of(node)}), as Keras 3 requires for "
            f"{'weights' if weights else 'a model'}; update what reads it [file renamed]",
        )
        return value

    def _rename(
        self, original: cst.Call, updated: cst.Call, keyword: str, *, weights: bool
    ) -> cst.Call:
        arg = self._first(updated, keyword)
        given = self._first(original, keyword)
        if arg is None or given is None:
            return updated
        variable = self._reads.get(given.value) if isinstance(given.value, cst.Name) else None
        if variable in self._variables and (self._variables[variable] or not weights):
            return updated  # renamed where the variable is bound
        ending = _ending(arg.value)
        name = None if ending is None else ending[0]
        literal = isinstance(arg.value, cst.SimpleString)
        func = updated.func
        what = (
            "save_weights"
            if isinstance(func, cst.Attribute) and func.attr.value == "save_weights"
            else "ModelCheckpoint"
        )
        if ending is None or name is None:
            self.warn_at(
                original,
                f"{what}(...) left unchanged: the file name is not a literal; Keras 3 needs it "
                + ("to end in .weights.h5" if weights else "to end in .keras or .h5")
                + " [file name not a literal]",
            )
            return updated
        if weights:
            if name.endswith(".weights.h5"):
                return updated
            new = _weights_name(name)
        elif name.endswith((".keras", ".h5")):
            return updated
        elif name.endswith(".hdf5"):
            new = name[: -len(".hdf5")] + ".h5"
        elif self._standalone() and what == "ModelCheckpoint":
            new = name + ".h5"  # standalone Keras 2 saved HDF5 whatever the name
        else:
            self.warn_at(
                original,
                f"{what}({name!r}) left unchanged: Keras 3 saves a model only to a name "
                "ending in .keras (its format) or .h5 (legacy HDF5); choose one [file extension]",
            )
            return updated
        value = ending[1](new)
        if literal:
            self._renamed[name] = new
            shown = f"{new!r} (was {name!r})"
        else:
            self._renamed_code[self.code_of(arg.value)] = value
            shown = f"{self.code_of(value)} (was {self.code_of(arg.value)})"
        self.warn_at(
            original,
            f"{what}: the file is now named {shown}, as Keras 3 requires; update what reads it "
            "[file renamed]",
        )
        new_arg = arg.with_changes(value=value)
        return updated.with_changes(args=[new_arg if a is arg else a for a in updated.args])
