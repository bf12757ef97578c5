"""``fit_generator`` / ``evaluate_generator`` / ``predict_generator`` → ``fit`` / ``evaluate`` / ``predict``.

Keras 3 models have only the three plain methods (keras/src/trainers/trainer.py), which take a
Python generator as ``x``.  Arguments are made keywords by the Keras 2 signatures
(``Model.fit_generator`` of keras/engine/training.py in Keras 2.2); the Keras 1 names
(``nb_epoch``, ``nb_worker``, ``pickle_safe``) are translated; the queue arguments Keras 3 moved
to ``keras.utils.PyDataset`` (``workers``, ``use_multiprocessing``, ``max_queue_size``) are
dropped with a warning: the generator then runs in the training thread.  Arguments counted in
samples (``samples_per_epoch``, ``nb_val_samples``) have no translation without the batch size:
such a call is left alone with a warning.  The methods are matched by name on any object:
``x.fit_generator(...)`` on an object of the user's own class is renamed too, which a warning
cannot tell apart, so a class that defines ``fit_generator`` keeps its calls, and so does
``fit(nb_epoch=...)`` on an object of a helper module's class (``vgg = Vgg16()`` after ``from
vgg16 import Vgg16``), whose ``fit()`` is its own, with a warning.

A count of steps computed by a true division (``steps_per_epoch=train.samples / batch_size``,
or a name the file binds only to such divisions) is a float, which Keras 2's generator loops
(``while steps_done < steps_per_epoch``) ran as its ceiling and Keras 3 rejects ("'float'
object cannot be interpreted as an integer"): it becomes ``math.ceil(...)`` of it.
"""

from __future__ import annotations

import ast
import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._imports import need_import
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import opens_module
from tfcompat_gpu.tfapi.keras_names import GENERATOR_METHODS

__all__ = ["SAMPLES_CODE", "SAMPLES_HELPER", "KerasGeneratorMethodsCommand"]

# Keras 2.2 signatures, in order (keras/engine/training.py)
_POSITIONS: dict[str, tuple[str, ...]] = {
    "fit_generator": (
        "generator",
        "steps_per_epoch",
        "epochs",
        "verbose",
        "callbacks",
        "validation_data",
        "validation_steps",
        "class_weight",
        "max_queue_size",
        "workers",
        "use_multiprocessing",
        "shuffle",
        "initial_epoch",
    ),
    "evaluate_generator": (
        "generator",
        "steps",
        "max_queue_size",
        "workers",
        "use_multiprocessing",
        "verbose",
    ),
    "predict_generator": (
        "generator",
        "steps",
        "max_queue_size",
        "workers",
        "use_multiprocessing",
        "verbose",
    ),
}
_RENAMED = {"generator": "x", "nb_epoch": "epochs", "nb_worker": "workers", "pickle_safe": None}
_QUEUE = frozenset({"workers", "use_multiprocessing", "max_queue_size", "nb_worker", "pickle_safe"})
_SAMPLES = frozenset({"samples_per_epoch", "nb_val_samples", "val_samples"})
_STEPS = frozenset({"steps_per_epoch", "validation_steps", "steps"})
# each Keras 1 count of samples: the argument holding the data it counts, its Keras 2 name
_SAMPLES_OF = {
    "samples_per_epoch": ("generator", "steps_per_epoch"),
    "nb_val_samples": ("validation_data", "validation_steps"),
    "val_samples": ("generator", "steps"),
}
SAMPLES_HELPER = "_keras1_samples"
SAMPLES_CODE = f'''

def {SAMPLES_HELPER}(data, samples):
    """Keras 1's samples_per_epoch= / nb_val_samples= / val_samples= on Keras 3: batches drawn
    from the generator `data` until `samples` samples are seen, each pass."""
    import numpy
    import tensorflow

    if not hasattr(data, "__next__"):
        return data  # arrays: Keras 1 counted samples only of a generator
    pending = [next(data)]

    def spec(value):
        value = numpy.asarray(value)
        return tensorflow.TensorSpec((None,) + value.shape[1:], value.dtype)

    def tuples(batch):  # (x, y) as a list too, as Keras 1 took it
        return tuple(map(tuples, batch)) if isinstance(batch, (list, tuple)) else batch

    def epoch():
        seen = 0
        while seen < samples:
            try:
                batch = tuples(pending.pop() if pending else next(data))
            except StopIteration:
                return
            seen += len(tensorflow.nest.flatten(batch)[0])
            yield batch

    signature = tensorflow.nest.map_structure(spec, tuples(pending[0]))
    return tensorflow.data.Dataset.from_generator(epoch, output_signature=signature)
'''
_DEFINES = re.compile(
    r"def\s+(fit_generator|evaluate_generator|predict_generator|predict_proba|predict_classes)\b"
)


# ``from vgg16 import Vgg16`` / ``vgg = Vgg16()``: an object of a helper module's class (a module
# neither Keras nor TensorFlow, a capitalised name), whose fit() is the class's own (the Keras 1
# courses' ``Vgg16.fit(self, batches, val_batches, nb_epoch=1)``).
_FROM_IMPORT = re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+\(?([^\n)#]*)", re.M)
_MADE = re.compile(r"^[ \t]*(\w+)[ \t]*=[ \t]*([\w.]+)[ \t]*\(", re.M)
_NOT_HELPERS = frozenset({"keras", "tensorflow", "tf_keras", "sklearn"})
_GENERATOR_METHODS = re.compile(
    r"_generator\s*\(|\bnb_epoch\b|\.predict_(?:proba|classes)\b"
    r"|\.compile\s*\((?:[^()]|\([^()]*\))*,(?:[^()]|\([^()]*\))*,"  # three arguments or more
)


class KerasGeneratorMethodsCommand(MigrationCommand):
    DESCRIPTION = "Model.fit_generator and its kin to fit / evaluate / predict (Keras 3)."
    PRECHECK = Precheck.text(_GENERATOR_METHODS, "_generator", "nb_epoch", "predict_", "compile")
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        # a class of the file that defines the method: its calls are its own business
        self._own = set(_DEFINES.findall(self.source_text()))
        self._helper_objects = _helper_objects(self.source_text())
        self._samples_used = False
        self._divided: frozenset[str] | None = None

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if not self._samples_used or f"def {SAMPLES_HELPER}(" in self.source_text():
            return updated_node
        body = list(updated_node.body)
        at = 0
        while at < len(body) and opens_module(body[at]):
            at += 1
        helper = cst.parse_module(SAMPLES_CODE).body[0]
        blank = [cst.EmptyLine(), cst.EmptyLine()]
        body.insert(at, helper.with_changes(leading_lines=blank if at else []))
        if at + 1 < len(body):  # two blank lines after the function too
            after = body[at + 1]
            lines = list(after.leading_lines)
            empty = next((i for i, line in enumerate(lines) if line.comment), len(lines))
            body[at + 1] = after.with_changes(leading_lines=blank[: max(0, 2 - empty)] + lines)
        return updated_node.with_changes(body=body)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if not isinstance(func, cst.Attribute):
            return updated_node
        method = func.attr.value
        if method == "fit":
            if isinstance(func.value, cst.Name) and func.value.value in self._helper_objects:
                if any(
                    a.keyword is not None and a.keyword.value == "nb_epoch"
                    for a in updated_node.args
                ):
                    self.warn_at(
                        original_node,
                        f"{func.value.value}.fit(nb_epoch=...) left unchanged: "
                        f"{func.value.value} is an object of a helper module's class, whose "
                        "fit() takes nb_epoch= itself; rename it there, with the Keras model "
                        "calls inside [helper class fit]",
                    )
                return updated_node
            return self._keras1_fit(updated_node)
        if method == "compile":
            return self._compile(original_node, updated_node)
        if method == "predict_proba":
            return self._predict_proba(updated_node)
        if method == "predict_classes" and "predict_classes" not in self._own:
            return self._predict_classes(original_node, updated_node)
        new = GENERATOR_METHODS.get(method)
        if new is None or method in self._own:
            return updated_node
        args = list(updated_node.args)
        if any(a.star for a in args):
            self.warn_at(
                original_node,
                f"{method}(...) left unchanged: with *args or **kwargs its arguments cannot be "
                f"checked; Keras 3 has only {new}(), which takes no workers/queue arguments "
                "[starred call]",
            )
            return updated_node
        order = _POSITIONS[method]
        positional = [a for a in args if a.keyword is None]
        if len(positional) > len(order):
            self.warn_at(
                original_node,
                f"{method}(...) left unchanged: too many arguments [too many positional arguments]",
            )
            return updated_node
        named: list[tuple[str, cst.Arg]] = []
        for index, arg in enumerate(args):
            name = order[index] if arg.keyword is None else arg.keyword.value
            named.append((name, arg))
        if any(name in _SAMPLES for name, _ in named):
            counted = self._counted_in_samples(original_node, method, named)
            if counted is None:
                return updated_node
            named = counted
        final = [_RENAMED.get(name, name) for name, _ in named if name not in _QUEUE]
        final = [name for name in final if name is not None]
        if len(final) != len(set(final)):
            self.warn_at(
                original_node,
                f"{method}(...) left unchanged: an argument is given twice under its Keras 1 "
                "and Keras 2 names (nb_epoch= and epochs=); keep one [duplicate argument]",
            )
            return updated_node
        kept: list[cst.Arg] = []
        dropped: list[str] = []
        for index, (name, arg) in enumerate(named):
            if name in _QUEUE:
                dropped.append(f"{name}={self.module.code_for_node(arg.value)}")
                continue
            keyword = _RENAMED.get(name, name)
            if keyword is None:
                continue
            if keyword in _STEPS and self._a_quotient(arg.value):
                arg = arg.with_changes(
                    value=cst.Call(
                        func=cst.parse_expression("math.ceil"), args=[cst.Arg(arg.value)]
                    )
                )
                need_import(self.context, "math")
            if index == 0 and arg.keyword is None:  # the generator stays the first argument
                kept.append(arg)
            else:
                kept.append(
                    arg.with_changes(
                        keyword=cst.Name(keyword),
                        equal=cst.AssignEqual(
                            whitespace_before=cst.SimpleWhitespace(""),
                            whitespace_after=cst.SimpleWhitespace(""),
                        )
                        if arg.keyword is None
                        else arg.equal,
                    )
                )
        if kept:
            kept[-1] = kept[-1].with_changes(comma=args[-1].comma)
        if dropped:
            self.warn_at(
                original_node,
                f"{method}(...) → {new}(...): dropped {', '.join(dropped)}; Keras 3's {new}() "
                "reads a generator in the training thread (for parallel loading wrap it in a "
                "keras.utils.PyDataset with workers=/use_multiprocessing=) [queue arguments dropped]",
            )
        return updated_node.with_changes(func=func.with_changes(attr=cst.Name(new)), args=kept)

    def _a_quotient(self, node: cst.BaseExpression) -> bool:
        """A true division, or a name the file binds only to true divisions."""
        if isinstance(node, cst.BinaryOperation):
            return isinstance(node.operator, cst.Divide)
        if not isinstance(node, cst.Name):
            return False
        if self._divided is None:
            self._divided = _divided_names(self.source_text())
        return node.value in self._divided

    def _counted_in_samples(
        self, original: cst.Call, method: str, named: list[tuple[str, cst.Arg]]
    ) -> list[tuple[str, cst.Arg]] | None:
        """``named`` with each Keras 1 count of samples moved into its data, or None (warned).

        ``fit_generator(gen, samples_per_epoch=N, validation_data=val, nb_val_samples=M)``
        becomes ``fit(_keras1_samples(gen, N), validation_data=_keras1_samples(val, M))``:
        Keras 1.2 drew batches until it had seen that many samples, which no number of steps
        says without the batch size; the helper's dataset draws them so each pass.
        """
        given = {name for name, _ in named}
        out = list(named)
        for count, (data, steps) in _SAMPLES_OF.items():
            if count not in given:
                continue
            if steps in given:
                self.warn_at(
                    original,
                    f"{method}(...) left unchanged: {count}= (Keras 1, in samples) and {steps}= "
                    f"(Keras 2, in batches) are both given; keep one [{count}]",
                )
                return None
            index = next(i for i, (name, _) in enumerate(out) if name == count)
            value = out[index][1].value
            if index:  # the argument before takes its comma, and so the line layout
                before, arg = out[index - 1]
                out[index - 1] = (before, arg.with_changes(comma=out[index][1].comma))
            del out[index]
            at = next((i for i, (name, _) in enumerate(out) if name == data), None)
            if at is None or isinstance(out[at][1].value, (cst.Tuple, cst.List)):
                continue  # no validation generator: Keras 1 read nb_val_samples= only with one
            name, arg = out[at]
            wrapped = cst.Call(
                func=cst.Name(SAMPLES_HELPER),
                args=[
                    cst.Arg(
                        arg.value,
                        comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")),
                    ),
                    cst.Arg(value),
                ],
            )
            out[at] = (name, arg.with_changes(value=wrapped))
            self._samples_used = True
        return out

    def _compile(self, original: cst.Call, node: cst.Call) -> cst.Call:
        # Keras 2's compile(optimizer, loss, metrics, loss_weights) (keras/engine/training.py);
        # Keras 3's third parameter is loss_weights (keras/src/trainers/trainer.py), so
        # model.compile('adam', 'categorical_crossentropy', ['accuracy']) named its metrics
        # loss weights: the arguments after the loss become keywords
        func = node.func
        assert isinstance(func, cst.Attribute)
        positional = [a for a in node.args if a.keyword is None and not a.star]
        if len(positional) < 3 or any(a.star for a in node.args):
            return node
        if self.names_of(original.func.value if isinstance(original.func, cst.Attribute) else func):
            return node  # a module's compile (re.compile), not a model's
        if len(positional) > 4:
            self.warn_at(
                original,
                "compile(...) left unchanged: Keras 2's fifth positional argument "
                "(sample_weight_mode) has no Keras 3 counterpart; name the arguments "
                "[compile positional arguments]",
            )
            return node
        args = list(node.args)
        for index, name in ((2, "metrics"), (3, "loss_weights")):
            if index < len(positional):
                at = args.index(positional[index])
                args[at] = args[at].with_changes(keyword=cst.Name(name), equal=_equal())
        return node.with_changes(args=args)

    @staticmethod
    def _keras1_fit(node: cst.Call) -> cst.Call:
        # Keras 1's fit(nb_epoch=) is Keras 2's and 3's epochs= (Keras 2.2 still translated it
        # in keras/legacy/interfaces.py; Keras 3 raises TypeError)
        names = {a.keyword.value for a in node.args if a.keyword is not None}
        if "nb_epoch" not in names or "epochs" in names:
            return node
        return node.with_changes(
            args=[
                a.with_changes(keyword=cst.Name("epochs"))
                if a.keyword is not None and a.keyword.value == "nb_epoch"
                else a
                for a in node.args
            ]
        )

    def _predict_classes(self, original: cst.Call, node: cst.Call) -> cst.BaseExpression:
        # Keras 2's Sequential.predict_classes(x, batch_size, verbose=0) (keras/engine/
        # sequential.py, Keras 2.2): predict(), then argmax over the last axis when it has more
        # than one column, else the 0.5 threshold; written as one expression that decides the
        # same way on the predictions
        if any(a.star for a in node.args):
            self.warn_at(
                original,
                "predict_classes(...) left unchanged: with *args or **kwargs its arguments "
                "cannot be checked; Keras 3 removed it: write np.argmax(model.predict(x), "
                'axis=-1) for a softmax output, or (model.predict(x) > 0.5).astype("int32") for '
                "a sigmoid output [predict_classes with *args]",
            )
            return node
        func = node.func
        assert isinstance(func, cst.Attribute)
        predict = self._predict_proba(
            node.with_changes(func=func.with_changes(attr=cst.Name("predict_proba")))
        )
        code = self.module.code_for_node(predict)
        return cst.parse_expression(
            "(lambda proba: proba.argmax(axis=-1) if proba.shape[-1] > 1 "
            f'else (proba > 0.5).astype("int32"))({code})'
        )

    def _predict_proba(self, node: cst.Call) -> cst.Call:
        # Keras 2's Sequential.predict_proba(x, batch_size, verbose=0) returned predict()'s
        # result (keras/engine/sequential.py, Keras 2.2); verbose=0 keeps its silence, where
        # Keras 3's predict() defaults to a progress bar
        if "predict_proba" in self._own or any(a.star for a in node.args):
            return node
        func = node.func
        assert isinstance(func, cst.Attribute)
        args = list(node.args)
        given = {a.keyword.value for a in args if a.keyword is not None}
        if "verbose" not in given and len(args) < 3:
            if args:
                args[-1] = args[-1].with_changes(
                    comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
                )
            args.append(
                cst.Arg(
                    keyword=cst.Name("verbose"),
                    value=cst.Integer("0"),
                    equal=cst.AssignEqual(
                        whitespace_before=cst.SimpleWhitespace(""),
                        whitespace_after=cst.SimpleWhitespace(""),
                    ),
                )
            )
        return node.with_changes(func=func.with_changes(attr=cst.Name("predict")), args=args)


def _helper_objects(text: str) -> frozenset[str]:
    """Names bound only to objects of classes a helper module of the project gives."""
    helpers: set[str] = set()
    for module, names in _FROM_IMPORT.findall(text):
        if module.lstrip(".") and module.partition(".")[0] in _NOT_HELPERS:
            continue
        for item in names.split(","):
            name, _, alias = item.strip().partition(" as ")
            bound = (alias or name).strip()
            if bound[:1].isupper() and not bound.isupper():
                helpers.add(bound)
    if not helpers:
        return frozenset()
    made: dict[str, set[bool]] = {}
    for target, cls in _MADE.findall(text):
        made.setdefault(target, set()).add(cls in helpers)
    return frozenset(name for name, kinds in made.items() if kinds == {True})


def _divided_names(source: str) -> frozenset[str]:
    """Names every binding of which in the file is a true division (``steps = n / batch``)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return frozenset()
    kinds: dict[str, set[bool]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            kinds.setdefault(node.id, set())
        if isinstance(node, ast.Assign):
            quotient = isinstance(node.value, ast.BinOp) and isinstance(node.value.op, ast.Div)
            for target in node.targets:
                if isinstance(target, ast.Name):
                    kinds.setdefault(target.id, set()).add(quotient)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            kinds.setdefault(node.target.id, set()).add(False)
    for node in ast.walk(tree):  # bound otherwise: a parameter, a loop, an import
        if isinstance(node, ast.arg):
            kinds.setdefault(node.arg, set()).add(False)
        elif isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.target, ast.Name):
            kinds[node.target.id] = kinds.get(node.target.id, set()) | {False}
    return frozenset(name for name, found in kinds.items() if found == {True})


def _equal() -> cst.AssignEqual:
    return cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
    )
