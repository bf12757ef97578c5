"""Keras 2 and TensorFlow 1 API that Keras 3 / TensorFlow 2 reject: TFG036-TFG041.

Each rule finds what one rewrite of ``tfcompat-gpu migrate`` fixes (``codemod/commands/
keras_*.py``, ``tf1_compat.py``), from the same tables (:mod:`tfcompat_gpu.tfapi.keras_names`,
:mod:`~tfcompat_gpu.tfapi.tf1_names`, :mod:`~tfcompat_gpu.tfapi.tf1_module_names`).
"""

from __future__ import annotations

import ast

from tfcompat_gpu.lint.context import FileContext
from tfcompat_gpu.lint.dispatch import on_call, on_end, on_node, on_ref
from tfcompat_gpu.lint.flow import dotted_name
from tfcompat_gpu.lint.rules.legacy import legacy_replacement
from tfcompat_gpu.lint.tfcalls import canonical
from tfcompat_gpu.tfapi.keras_names import (
    GENERATOR_METHODS,
    KERAS_MOVED_MODULES,
    OPTIMIZER_ALIASES,
    OPTIMIZER_CLASSES,
    OPTIMIZER_MODULES,
)
from tfcompat_gpu.tfapi.tf1_module_names import TF1_ONLY_IN
from tfcompat_gpu.tfapi.tf1_names import TF1_ONLY

__all__: list[str] = []

_OPTIMIZERS = [
    f"{module}.{name}"
    for module in OPTIMIZER_MODULES
    for name in (*OPTIMIZER_CLASSES, *OPTIMIZER_ALIASES)
]
_CHECKPOINTS = ("keras.callbacks.ModelCheckpoint", "tensorflow.keras.callbacks.ModelCheckpoint")


@on_call(*_OPTIMIZERS)
def _optimizer(ctx: FileContext, node: ast.Call, name: str) -> None:
    used = name.rpartition(".")[2]
    if used in OPTIMIZER_ALIASES:
        instead = f"{name.rpartition('.')[0]}.{OPTIMIZER_ALIASES[used]}"
        ctx.report(
            "TFG036",
            node,
            f"call {instead}",
            used=f"{name}()",
            problem="has no lowercase optimizer aliases",
            instead=f"{instead}()",
        )
    for keyword in node.keywords:
        if keyword.arg == "lr":
            ctx.report(
                "TFG036",
                keyword.value,
                "learning_rate=",
                used=f"{used}(lr=...)",
                problem='rejects `lr` ("Argument(s) not recognized")',
                instead="learning_rate=",
            )
        elif keyword.arg == "decay" and not _is_zero(keyword.value):
            ctx.report("TFG037", keyword.value, "InverseTimeDecay", used=used)


def _is_zero(node: ast.expr) -> bool:
    """``0`` / ``0.0`` / ``-0.``: no decay, the same training on Keras 2 and 3."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) in (int, float) and node.value == 0


@on_end
def _method_calls(ctx: FileContext) -> None:
    # methods of any object (a model): the walk hands rules only calls of imported names, so
    # the few files that spell one are walked again here
    source = ctx.source
    if source is not None and not any(
        word in source for word in ("_generator", "nb_epoch", "save_weights", "predict_")
    ):
        return
    if not isinstance(ctx.tree, ast.Module):
        return
    calls: list[ast.Call] = []
    estimators = own_weights = False
    functions: list[tuple[int, int]] = []
    classes: list[tuple[int, int, frozenset[str]]] = []
    built: list[tuple[int, str]] = []
    unpickled: set[str] = set()
    wrappers: set[str] = set()  # classes whose fit() is their own: see _wrapped
    made: list[tuple[int, str, str]] = []
    for node in ast.walk(ctx.tree):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute):
                calls.append(node)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            estimators = estimators or _imports_estimators(node)
            own_weights = own_weights or _imports_root(node, _OWN_WEIGHTS_ROOTS)
            wrappers.update(_helper_classes(node))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions.append((node.lineno, node.end_lineno or node.lineno))
        elif isinstance(node, ast.ClassDef):
            own = frozenset(
                s.name for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
            )
            classes.append((node.lineno, node.end_lineno or node.lineno, own))
            if "fit" in own:
                wrappers.add(node.name)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            if isinstance(node.value.func, ast.Name):
                made.extend(
                    (node.lineno, t.id, node.value.func.id)
                    for t in node.targets
                    if isinstance(t, ast.Name)
                )
            if dotted_name(node.value.func) in _UNPICKLERS:
                unpickled.update(_targets(node.targets))
                continue
            qual = ctx.resolve(node.value.func)
            if (
                qual is not None
                and qual.partition(".")[0] in _KERAS_ROOTS
                and not any(w in qual for w in _WRAPPERS)
            ):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        built.append((node.lineno, target.id))
    keras_built = {(_scope(functions, line), name) for line, name in built}
    wrapped = {(_scope(functions, line), name) for line, name, cls in made if cls in wrappers}
    keras_file = any(qual.partition(".")[0] in _KERAS_ROOTS for qual in ctx.aliases.values())
    for call in calls:
        func = call.func
        assert isinstance(func, ast.Attribute)
        receiver = func.value
        if dotted_name(receiver) in unpickled:
            continue  # an unpickled object: a scikit-learn estimator, never a Keras model
        if _own_method(receiver, call, classes):
            continue  # the class's own method
        if (
            func.attr == "fit"
            and isinstance(receiver, ast.Name)
            and (_scope(functions, call.lineno), receiver.id) in wrapped
        ):
            continue  # a helper class's own fit(): Vgg16().fit(batches, val_batches, nb_epoch=1)
        # predict_proba() of a scikit-learn estimator, save_weights() of a TensorLayer model:
        # reported only on a name bound to a TensorFlow / Keras call
        others = (func.attr == "predict_proba" and (estimators or not keras_file)) or (
            func.attr == "save_weights" and own_weights
        )
        if others and not (
            isinstance(receiver, ast.Name)
            and (_scope(functions, call.lineno), receiver.id) in keras_built
        ):
            continue
        _method(ctx, call, func)


def _helper_classes(node: ast.Import | ast.ImportFrom) -> list[str]:
    """Classes a helper module of the project gives (``from vgg16 import Vgg16``: a module
    neither TensorFlow nor Keras, a capitalised name).  The Keras 1 courses wrap a model in
    such a class whose ``fit(batches, val_batches, nb_epoch=1)`` is its own: Keras 1's models
    were never subclassed, so ``fit(nb_epoch=...)`` on one of its objects is left alone."""
    if not isinstance(node, ast.ImportFrom) or not node.module:
        return []
    if not node.level and node.module.partition(".")[0] in _KERAS_ROOTS | _ESTIMATOR_ROOTS:
        return []
    return [
        alias.asname or alias.name
        for alias in node.names
        if alias.name[:1].isupper() and not alias.name.isupper()
    ]


def _own_method(
    receiver: ast.expr, call: ast.Call, classes: list[tuple[int, int, frozenset[str]]]
) -> bool:
    """Whether ``call`` is ``self.method(...)`` inside a class that defines ``method``."""
    if not (isinstance(receiver, ast.Name) and receiver.id in ("self", "cls")):
        return False
    attr = call.func.attr  # type: ignore[attr-defined]
    return any(start <= call.lineno <= end and attr in own for start, end, own in classes)


def _targets(targets: list[ast.expr]) -> list[str]:
    """The names (``clf``, ``self.model``) an assignment binds, tuples unpacked."""
    names: list[str] = []
    for target in targets:
        if isinstance(target, (ast.Tuple, ast.List)):
            names.extend(_targets(target.elts))
        else:
            name = dotted_name(target)
            if name:
                names.append(name)
    return names


def _scope(functions: list[tuple[int, int]], line: int) -> int:
    """The first line of the innermost function around ``line`` (0: the module)."""
    return max((start for start, end in functions if start <= line <= end), default=0)


# Libraries whose models have a predict_proba() of their own: scikit-learn's estimators, the
# gradient-boosting packages, the Keras scikit-learn wrappers (KerasClassifier).  A file that
# imports one, or that imports neither TensorFlow nor Keras, has predict_proba() reported only
# on a name bound to a TensorFlow / Keras call (``model = Sequential()``, ``model =
# keras.models.load_model(...)``).
_KERAS_ROOTS = frozenset({"tensorflow", "keras", "tf_keras"})
_ESTIMATOR_ROOTS = frozenset({"sklearn", "xgboost", "lightgbm", "catboost", "scikeras"})
_NOT_ESTIMATORS = frozenset(
    {"metrics", "preprocessing", "datasets", "utils", "feature_extraction", "decomposition"}
)
_WRAPPERS = ("wrappers.scikit_learn", "scikeras")
# Libraries on TensorFlow 2 whose models have a save_weights() of their own that takes any
# file name (TensorLayer's ``Model.save_weights("model.h5")``, ``format="npz"``): in a file
# that imports one, save_weights() is reported only on a name bound to a TensorFlow / Keras
# call.
_OWN_WEIGHTS_ROOTS = frozenset({"tensorlayer"})
# What an unpickled model is: scikit-learn estimators are pickled, Keras models are saved.
_UNPICKLERS = frozenset(
    {"pickle.load", "pickle.loads", "cPickle.load", "cPickle.loads", "joblib.load", "dill.load"}
)


def _imports_root(node: ast.Import | ast.ImportFrom, roots: frozenset[str]) -> bool:
    if isinstance(node, ast.Import):
        return any(alias.name.partition(".")[0] in roots for alias in node.names)
    return not node.level and (node.module or "").partition(".")[0] in roots


def _imports_estimators(node: ast.Import | ast.ImportFrom) -> bool:
    if isinstance(node, ast.Import):
        modules = [alias.name for alias in node.names]
    else:
        if node.level or not node.module:
            return False
        if any(w in node.module for w in _WRAPPERS):
            return True
        modules = [node.module]
        if node.module == "sklearn.model_selection":
            # only the searches wrap an estimator; train_test_split, KFold do not
            return any(alias.name.endswith("SearchCV") for alias in node.names)
    for module in modules:
        root, _, rest = module.partition(".")
        if root in _ESTIMATOR_ROOTS and rest.partition(".")[0] not in _NOT_ESTIMATORS:
            return True
    return False


def _method(ctx: FileContext, node: ast.Call, func: ast.Attribute) -> None:
    new = GENERATOR_METHODS.get(func.attr)
    if new is not None:
        instead = (
            f"call `{new}()`, which takes the generator as its first argument "
            "(tfcompat-gpu migrate does)"
        )
        ctx.report("TFG038", node, f"call {new}()", used=f"{func.attr}()", instead=instead)
    elif func.attr == "predict_proba":
        instead = (
            "call `predict()`, which returns the same probabilities (tfcompat-gpu migrate does)"
        )
        ctx.report("TFG038", node, "call predict()", used="predict_proba()", instead=instead)
    elif func.attr == "predict_classes":
        instead = (
            "use `np.argmax(model.predict(x), axis=-1)` for a softmax output or "
            '`(model.predict(x) > 0.5).astype("int32")` for a sigmoid one '
            "(tfcompat-gpu migrate writes the expression that picks one as Keras 2 did)"
        )
        ctx.report("TFG038", node, "call predict()", used="predict_classes()", instead=instead)
    elif func.attr == "fit" and any(k.arg == "nb_epoch" for k in node.keywords):
        instead = "write `fit(epochs=...)` (tfcompat-gpu migrate does)"
        ctx.report("TFG038", node, "epochs=", used="fit(nb_epoch=...)", instead=instead)
    elif (
        func.attr == "save_weights"
        and node.args
        and not any(k.arg == "format" for k in node.keywords)  # Keras' has no format=
    ):
        _weights_name(ctx, node.args[0])


def _weights_name(ctx: FileContext, arg: ast.expr) -> None:
    if not isinstance(arg, ast.Constant) or not isinstance(arg.value, str):
        return
    name = arg.value
    if name.endswith(".weights.h5"):
        return
    for ending in (".hdf5", ".h5"):
        if name.endswith(ending):
            instead = name[: -len(ending)] + ".weights.h5"
            break
    else:
        instead = name + ".weights.h5"
    ctx.report("TFG040", arg, instead, name=name, instead=instead)


@on_call(*_CHECKPOINTS)
def _checkpoint(ctx: FileContext, node: ast.Call, name: str) -> None:
    weights_only = any(
        k.arg == "save_weights_only" and isinstance(k.value, ast.Constant) and k.value.value is True
        for k in node.keywords
    )
    if not weights_only:
        return
    path = node.args[0] if node.args else None
    for keyword in node.keywords:
        if keyword.arg == "filepath":
            path = keyword.value
    if path is not None:
        _weights_name(ctx, path)


_SKLEARN_WRAPPERS = ("keras.wrappers.scikit_learn", "tensorflow.keras.wrappers.scikit_learn")
_SKLEARN_INSTEAD = (
    "the scikit-learn wrappers were removed in TensorFlow 2.13: use scikeras (`pip install "
    "scikeras`, `from scikeras.wrappers import KerasClassifier`; `model=` is `build_fn=`'s new "
    "name and the build function's arguments are given as `model__name=`) or Keras 3's "
    "`keras.wrappers.SKLearnClassifier` / `SKLearnRegressor` (`model=` a build function "
    "taking `X` and `y` keywords, `model_kwargs=`, `fit_kwargs=`)"
)


_BY_NAME = {
    # Keras 1's merge(inputs, mode=...), which Keras 2.0 and 2.1 still exported under that name
    "merge": (
        "`merge(inputs, mode=...)` is Keras 1's: call the merge function of the mode from "
        "`{home}` (`concatenate(inputs, axis=...)`, `add`, `multiply`, `average`, `maximum`, "
        "`dot(inputs, axes=...)`; tfcompat-gpu migrate does)"
    ),
}


def _removed(ctx: FileContext, node: ast.stmt, used: str) -> bool:
    """Report ``used`` (a module, or a name of one) if Keras 3 removed it."""
    if used in KERAS_MOVED_MODULES:
        home = KERAS_MOVED_MODULES[used]
        instead = f"import from `{home}` (tfcompat-gpu migrate does)"
        ctx.report("TFG039", node, home, used=used, instead=instead)
        return True
    if used in _SKLEARN_WRAPPERS:
        ctx.report("TFG039", node, "scikeras.wrappers", used=used, instead=_SKLEARN_INSTEAD)
        return True
    return False


@on_node(ast.ImportFrom)
def _import_from(ctx: FileContext, node: ast.ImportFrom) -> None:
    if node.level or not node.module:
        return
    if _removed(ctx, node, node.module):
        return
    for alias in node.names:
        used = f"{node.module}.{alias.name}"
        if alias.name in _BY_NAME and KERAS_MOVED_MODULES.get(used) == node.module:
            # `from keras.layers import merge`: a name its home exported, not only the module
            instead = _BY_NAME[alias.name].format(home=node.module)
            ctx.report("TFG039", node, node.module, used=used, instead=instead)
            continue
        _removed(ctx, node, used)


@on_node(ast.Import)
def _import(ctx: FileContext, node: ast.Import) -> None:
    for alias in node.names:
        _removed(ctx, node, alias.name)


@on_ref
def _tf1_name(ctx: FileContext, node: ast.expr, qual: str, root: str) -> None:
    # spelled through tensorflow itself: tf.compat.v1.X and ``import tensorflow.compat.v1 as
    # tf`` are TensorFlow 2's own spellings of these names
    if not qual.startswith("tensorflow.") or qual.startswith("tensorflow.compat."):
        return
    parts = qual.split(".")[1:]
    inner = TF1_ONLY_IN.get(parts[0])
    if parts[0] in TF1_ONLY:
        used = f"tf.{parts[0]}"
    elif inner is not None and len(parts) > 1 and parts[1] in inner:
        used = f"tf.{parts[0]}.{parts[1]}"
    else:
        return
    if legacy_replacement(canonical(qual)) is not None:
        return  # TFG009 says it
    ctx.report("TFG041", node, "tensorflow.compat.v1", used=used)
