"""Keras 1 layer arguments that Keras 2.0-2.2 still translated → their Keras 2 / Keras 3 names.

Keras 2 read ``Dense(output_dim=10, init='uniform')`` and ``Convolution2D(32, 3, 3,
border_mode='same')`` with a warning (keras/legacy/interfaces.py, Keras 2.2.4); Keras 3 rejects
the keywords ("Unrecognized keyword arguments") and reads ``Conv2D(32, 3, 3)`` as
``kernel_size=3, strides=3``.  Each keyword is renamed as Keras 2 renamed it
(:mod:`tfcompat_gpu.tfapi.keras1_names`), with the values that changed spelling
(``dim_ordering='th'`` → ``data_format='channels_first'``, ``consume_less='gpu'`` →
``implementation=2``), and the kernel sizes Keras 1 took one at a time become one tuple.
``tf.keras`` never had Keras 1's positional kernel sizes (its third argument is ``strides``): a
call resolved there has its keywords renamed only.  A call whose meaning is not certain (a
value Keras 2 would have rejected, both the Keras 1 and the Keras 2 name of an argument, a
kernel size whose reading depends on the Keras version) is left alone with a warning.
"""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import dotted
from tfcompat_gpu.tfapi.keras1_names import (
    CHANNELS,
    CONSUME_LESS,
    DROPPED,
    KERAS1_CLASSES,
    KERAS1_KEYWORDS,
    KERNEL_DIMS,
    LAYER_CLASSES,
)

__all__ = ["Keras1LayerArgumentsCommand"]

_MODEL_MODULES = frozenset(
    {"keras", "keras.models", "keras.engine", "keras.engine.training", "tensorflow.keras"}
    | {"tensorflow.keras.models", "tf_keras", "tf_keras.models"}
)
_INPUT_MODULES = frozenset(
    {"keras", "keras.layers", "keras.engine", "keras.engine.topology", "tensorflow.keras"}
    | {"keras.engine.input_layer", "tensorflow.keras.layers", "tf_keras", "tf_keras.layers"}
)
_LAYER_MODULES = (
    "keras.layers",
    "keras.legacy.layers",
    "tensorflow.keras.layers",
    "tf_keras.layers",
)
_RECURRENT = frozenset({"LSTM", "GRU", "SimpleRNN", "ConvLSTM2D"})
# Keras 2 passed these keywords, as they were, to the layer; a call holding one of them and
# Keras 1 kernel sizes raised "For safety reasons, this is disallowed" (conv2d_args_preprocessor)
_SAFETY = ("padding", "strides", "data_format")
# keywords the command handles beside the tables, per Keras 2 class
_SPECIAL: dict[str, tuple[str, ...]] = {
    **DROPPED,
    "BatchNormalization": ("mode",),
    "SeparableConv2D": ("init",),
    "Conv1D": ("input_dim", "input_length"),
    **{name: ("forget_bias_init", "input_dim", "input_length") for name in _RECURRENT},
    "ConvLSTM2D": ("forget_bias_init",),
}

_ALL_KEYWORDS = sorted(
    {key for table in KERAS1_KEYWORDS.values() for key in table}
    | {key for keys in KERNEL_DIMS.values() for key in keys}
    | {key for keys in _SPECIAL.values() for key in keys}
    | {"atrous_rate"}
)
_KERAS1_TEXT = re.compile(
    r"\b(?:" + "|".join(_ALL_KEYWORDS) + r")\s*=(?!=)"
    r"|\b(?:Conv|Convolution|SeparableConv|SeparableConvolution|Deconv|Deconvolution)[23]D\b"
    r"|\bAtrousConvolution[12]D\b"
)


def _layer(names: set[str]) -> tuple[str, bool] | None:
    """(the name a call spells, whether standalone Keras) for a layer of the tables."""
    for name in sorted(names):
        module, _, last = name.rpartition(".")
        if last not in LAYER_CLASSES:
            continue
        if last == "Model":
            known = module in _MODEL_MODULES
        elif last == "Input":
            known = module in _INPUT_MODULES
        else:
            known = module in _LAYER_MODULES or module.startswith(
                ("keras.layers.", "tensorflow.keras.layers.")
            )
        if known:
            return last, module == "keras" or module.startswith("keras.")
    return None


def _int_like(node: cst.BaseExpression) -> bool:
    """A kernel size Keras 2 may have read as an int: a literal int or a plain name of one."""
    if isinstance(node, cst.Integer):
        return True
    if isinstance(node, (cst.Name, cst.Attribute, cst.Subscript)):
        return not (isinstance(node, cst.Name) and node.value in ("None", "True", "False"))
    if isinstance(node, cst.BinaryOperation):
        return _int_like(node.left) and _int_like(node.right)
    if isinstance(node, cst.Call):
        return dotted(node.func) == "int"
    return False


def _string(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _quoted(like: cst.SimpleString, text: str) -> cst.SimpleString:
    quote = like.value[-1] if like.value[-1] in "'\"" and not like.prefix else '"'
    return cst.SimpleString(f"{quote}{text}{quote}")


def _tuple(values: list[cst.BaseExpression]) -> cst.Tuple:
    comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    elements = [cst.Element(value=v, comma=comma) for v in values[:-1]]
    return cst.Tuple(elements=[*elements, cst.Element(value=values[-1])])


def _keyword(arg: cst.Arg, name: str, value: cst.BaseExpression | None = None) -> cst.Arg:
    equal = arg.equal
    if arg.keyword is None:
        equal = cst.AssignEqual(
            whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
        )
    return arg.with_changes(keyword=cst.Name(name), equal=equal, value=value or arg.value)


class _LeftAlone(Exception):
    """The call is left as it is; the message says why."""


class Keras1LayerArgumentsCommand(MigrationCommand):
    DESCRIPTION = (
        "Keras 1 layer arguments Keras 2 still translated (init=, border_mode=, "
        "Conv2D(32, 3, 3), ...) to their Keras 2 / Keras 3 form."
    )
    PRECHECK = Precheck.text(_KERAS1_TEXT, "=", "onv")
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def leave_ImportAlias(
        self, original_node: cst.ImportAlias, updated_node: cst.ImportAlias
    ) -> cst.ImportAlias:
        # ``from keras.layers import Deconvolution2D`` → ``... import Conv2DTranspose as
        # Deconvolution2D``: Keras 3 has no such name, and every use stays
        parent = self.parent(original_node)
        if not isinstance(parent, cst.ImportFrom) or parent.module is None or parent.relative:
            return updated_node
        module = dotted(parent.module) or ""
        if module not in ("keras.layers", "keras.legacy.layers") and not module.startswith(
            "keras.layers."
        ):
            return updated_node
        name = dotted(original_node.name) or ""
        new = LAYER_CLASSES.get(name, (name, name))[1]
        if new == name:
            return updated_node
        bound = original_node.asname or cst.AsName(name=cst.Name(name))
        return updated_node.with_changes(name=cst.Name(new), asname=bound)

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        # ``keras.layers.AtrousConvolution2D`` → ``keras.layers.Conv2D``
        name = original_node.attr.value
        if name not in LAYER_CLASSES or LAYER_CLASSES[name][1] == name:
            return updated_node
        found = _layer(self.names_of(original_node))
        if found is None or not found[1]:
            return updated_node
        return updated_node.with_changes(attr=cst.Name(LAYER_CLASSES[name][1]))

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        found = _layer(self.names_of(original_node.func))
        if found is None:
            return updated_node
        spelled, standalone = found
        try:
            args, dropped = self._rewrite(spelled, standalone, list(updated_node.args))
        except _LeftAlone as why:
            self.warn_at(original_node, f"{spelled}(...) left unchanged: {why}")
            return updated_node
        if args is None:
            return updated_node
        for what in dropped:
            self.warn_at(original_node, f"{spelled}(...): dropped {what}")
        return updated_node.with_changes(args=args)

    def _rewrite(
        self, spelled: str, standalone: bool, args: list[cst.Arg]
    ) -> tuple[list[cst.Arg] | None, list[str]]:
        """The call's new arguments (None: nothing to change) and what was dropped."""
        cls = LAYER_CLASSES[spelled][0]
        table = dict(KERAS1_KEYWORDS[cls])
        if spelled.startswith("AtrousConvolution"):
            table["atrous_rate"] = "dilation_rate"
        dims = KERNEL_DIMS.get(cls, ())
        special = _SPECIAL.get(cls, ())
        given = {a.keyword.value: i for i, a in enumerate(args) if a.keyword is not None}
        old = [k for k in given if k in table or k in dims or k in special]
        keras1 = bool(old) or spelled in KERAS1_CLASSES
        positional = [i for i, a in enumerate(args) if a.keyword is None and not a.star]
        sizes = positional[1:] if dims else []
        if not old and (len(sizes) < 2 or not standalone):
            return None, []
        if any(a.star for a in args):
            raise _LeftAlone(
                "with *args or **kwargs its Keras 1 arguments cannot be checked [starred call]"
            )
        # argument index -> what stands in its place (nothing: removed)
        new: dict[int, list[cst.Arg]] = {}
        dropped: list[str] = []
        if dims:
            dropped += self._kernel(args, given, dims, sizes, standalone, keras1, new)
        for key, at in given.items():
            arg = args[at]
            if at in new:
                continue
            if key == "init" and cls == "SeparableConv2D":
                new[at] = self._separable_init(arg)
            elif key in table:
                new[at] = [self._renamed(arg, key, table[key])]
            elif key == "output_shape" and cls == "Conv2DTranspose":
                new[at] = []
                dropped.append(
                    f"output_shape={self.module.code_for_node(arg.value)}: Keras 2 ignored it "
                    "too (the output shape follows from strides and padding) [Keras 1 argument]"
                )
            elif key == "dropout" and cls == "Embedding":
                new[at] = []
                dropped.append(
                    f"dropout={self.module.code_for_node(arg.value)}: Keras 2 ignored it too; "
                    "for its Keras 1 effect add keras.layers.SpatialDropout1D after the "
                    "Embedding [Keras 1 argument]"
                )
            elif key == "mode" and cls == "BatchNormalization":
                if not (isinstance(arg.value, cst.Integer) and arg.value.evaluated_value == 0):
                    raise _LeftAlone(
                        "Keras 2 had only BatchNormalization mode=0 (its default); modes 1 "
                        "and 2 have no successor [BatchNormalization mode]"
                    )
                new[at] = []
                dropped.append("mode=0: the only mode Keras 2 kept [Keras 1 argument]")
            elif key == "forget_bias_init":
                if _string(arg.value) == "one":
                    new[at] = [_keyword(arg, "unit_forget_bias", cst.Name("True"))]
                else:
                    new[at] = []
                    dropped.append(
                        f"forget_bias_init={self.module.code_for_node(arg.value)}: Keras 2 "
                        "ignored it too [Keras 1 argument]"
                    )
            elif key == "input_dim" and standalone and "input_dim" in special:
                # Keras 2 read it as input_shape=(input_length, input_dim); Keras 3 as (dim,)
                length_at = given.get("input_length")
                length = cst.Name("None") if length_at is None else args[length_at].value
                new[at] = [_keyword(arg, "input_shape", _tuple([length, arg.value]))]
                if length_at is not None:
                    new[length_at] = []
        if not new:
            return None, []
        final = [
            a.keyword.value
            for i, arg in enumerate(args)
            for a in new.get(i, [arg])
            if a.keyword is not None
        ]
        if len(final) != len(set(final)):
            twice = sorted({k for k in final if final.count(k) > 1})
            raise _LeftAlone(
                f"{twice[0]}= is given twice, under its Keras 1 and its Keras 2 name; keep one "
                "[duplicate argument]"
            )
        return self._apply(args, new), dropped

    def _kernel(
        self,
        args: list[cst.Arg],
        given: dict[str, int],
        dims: tuple[str, ...],
        sizes: list[int],
        standalone: bool,
        keras1: bool,
        new: dict[int, list[cst.Arg]],
    ) -> list[str]:
        """Keras 1's kernel sizes, one per argument, as one ``kernel_size`` tuple.

        Returns what was dropped.
        """
        dropped: list[str] = []
        named = [d for d in dims if d in given]
        if named:
            if named != list(dims[len(dims) - len(named) :]) or len(sizes) + len(named) != len(
                dims
            ):
                raise _LeftAlone(
                    f"its kernel sizes ({', '.join(named)}) do not add up to {len(dims)}; "
                    "give kernel_size=(...) [Keras 1 kernel size]"
                )
        else:
            # tf.keras never read sizes one at a time: its third argument is strides
            if len(sizes) < 2 or not standalone:
                return dropped
            if any(k in given for k in _SAFETY):
                if keras1:
                    raise _LeftAlone(
                        "Keras 2 rejected kernel sizes given one at a time beside padding=, "
                        "strides= or data_format= (its third argument may be strides); give "
                        "kernel_size=(...) [Keras 1 kernel size]"
                    )
                return (
                    dropped  # Keras 2.2 could not run it: later Keras' meaning, which is Keras 3's
                )
            if len(sizes) == len(dims) + 1 and isinstance(args[sizes[-1]].value, cst.Tuple):
                # Deconvolution2D(nb_filter, nb_row, nb_col, output_shape): Keras 2 dropped it
                if "output_shape" in given:
                    raise _LeftAlone("output_shape is given twice [duplicate argument]")
                new[sizes[-1]] = []
                dropped.append(
                    f"the output shape {self.module.code_for_node(args[sizes[-1]].value)}: "
                    "Keras 2 ignored it too (the output shape follows from strides and "
                    "padding) [Keras 1 argument]"
                )
                sizes = sizes[:-1]
            if len(sizes) != len(dims):
                raise _LeftAlone(
                    f"{len(sizes) + 1} positional arguments, which Keras 2 rejected; give "
                    "kernel_size=(...) and strides= by name [Keras 1 kernel size]"
                )
            if not keras1:
                spelled = ", ".join(self.module.code_for_node(args[i].value) for i in sizes)
                raise _LeftAlone(
                    f"Keras 2.0-2.2 read {spelled} as kernel_size=({spelled}), later Keras "
                    "and Keras 3 read the third argument as strides; write kernel_size=(...) "
                    "or strides= [Keras 1 kernel size]"
                )
        values = [args[i].value for i in sizes] + [args[given[d]].value for d in named]
        if not all(_int_like(v) for v in values):
            raise _LeftAlone(
                "a kernel size is not an int, which Keras 2 rejected [Keras 1 kernel size]"
            )
        kernel = _tuple(values)
        if sizes:
            first = args[sizes[0]]
            new[sizes[0]] = [first.with_changes(value=kernel, comma=args[sizes[-1]].comma)]
            for i in sizes[1:]:
                new[i] = []
            for d in named:
                new[given[d]] = []
        else:
            new[given[named[0]]] = [_keyword(args[given[named[0]]], "kernel_size", kernel)]
            for d in named[1:]:
                new[given[d]] = []
        return dropped

    @staticmethod
    def _separable_init(arg: cst.Arg) -> list[cst.Arg]:
        # Keras 2 gave init to both initializers (separable_conv2d_args_preprocessor)
        if not isinstance(arg.value, (cst.SimpleString, cst.Name, cst.Attribute)):
            raise _LeftAlone(
                "init= sets two initializers, and its value is not a plain name to repeat; "
                "give depthwise_initializer= and pointwise_initializer= [Keras 1 argument]"
            )
        depthwise = _keyword(arg, "depthwise_initializer").with_changes(
            comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        )
        return [depthwise, _keyword(arg, "pointwise_initializer")]

    @staticmethod
    def _renamed(arg: cst.Arg, key: str, name: str) -> cst.Arg:
        value = arg.value
        text = _string(value)
        if key == "dim_ordering":
            if text not in CHANNELS or not isinstance(value, cst.SimpleString):
                raise _LeftAlone(
                    "dim_ordering= is not 'tf', 'th' or 'default', so its data_format= cannot "
                    "be told; write data_format='channels_last' or 'channels_first' "
                    "[dim_ordering value]"
                )
            channels = CHANNELS[text]
            new_value: cst.BaseExpression = (
                cst.Name("None") if channels is None else _quoted(value, channels)
            )
            return _keyword(arg, name, new_value)
        if key == "consume_less":
            if text not in CONSUME_LESS:
                raise _LeftAlone(
                    "consume_less= is not 'cpu', 'mem' or 'gpu'; write implementation=1 or 2 "
                    "[consume_less value]"
                )
            return _keyword(arg, name, cst.Integer(str(CONSUME_LESS[text])))
        if key == "border_mode" and text is not None and text not in ("valid", "same"):
            raise _LeftAlone(
                f"border_mode={text!r} has no Keras 2 padding (Keras 2 rejected it); pad with "
                "a ZeroPadding layer and use padding='valid' [border_mode value]"
            )
        return _keyword(arg, name)

    @staticmethod
    def _apply(args: list[cst.Arg], new: dict[int, list[cst.Arg]]) -> list[cst.Arg]:
        kept: list[cst.Arg] = []
        for i, arg in enumerate(args):
            kept.extend(new.get(i, [arg]))
        if kept and (len(args) - 1) in new:
            # the last argument's comma (or its absence) stays last
            kept[-1] = kept[-1].with_changes(comma=args[-1].comma)
        return kept
