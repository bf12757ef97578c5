"""Keras 2 module paths Keras 3 removed → the public modules that hold the same names.

``from keras.layers.core import Dense`` fails on Keras 3, whose only layer module is
``keras.layers`` (keras/api/layers/__init__.py); likewise ``keras.utils.np_utils``,
``keras.engine.*``.  A name moves only when Keras 3 exports it from the new module; one it does
not (Keras 1's ``Merge``, ``keras.legacy``, ``keras.wrappers.scikit_learn``) is left alone with
a warning that says what to use.  Keras 2's ``Tokenizer`` and ``ImageDataGenerator``, which
Keras 3's own ``keras.preprocessing`` dropped, are imported from TensorFlow's ``tf.keras``, which
exports Keras 3's legacy copies of them (``tensorflow.keras.preprocessing.text``).  The cuDNN
layers (``CuDNNLSTM``, ``CuDNNGRU``) become ``LSTM`` / ``GRU`` wherever Keras 2 or TensorFlow 1's
``tf.keras`` served them: ``keras.layers``, ``tf.keras.layers``, ``tf.compat.v1.keras.layers``
(whose import by name, ``from tensorflow.compat.v1.keras.layers import CuDNNLSTM``, becomes one
of ``tensorflow.keras.layers``: TensorFlow 2.16+ has no such module to import from), and a star
import of a layers module.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._imports import need_import, without_aliases
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import dotted
from tfcompat_gpu.codemod._triage import text_search
from tfcompat_gpu.tfapi.keras1_names import KERAS1_REGULARIZERS
from tfcompat_gpu.tfapi.keras_names import (
    KERAS2_RENAMED,
    KERAS3_IMAGE,
    KERAS3_SEQUENCE,
    KERAS_LAYERS,
    KERAS_LOSSES,
    KERAS_MODELS,
    KERAS_MOVED_MODULES,
    KERAS_UTILS,
    TF_KERAS_PREPROCESSING,
)
from tfcompat_gpu.tfapi.keras_star_names import KERAS2_STAR_ALIASES
from tfcompat_gpu.tfapi.multigpu_names import MULTI_GPU_MODEL as _MULTI_GPU_MODEL

__all__ = ["KerasModulePathsCommand"]

# Keras 2's renamed names, and Keras 1's regularizer functions (``activity_l2`` -> ``l2``)
_RENAMED = {
    **KERAS2_RENAMED,
    **{f"keras.regularizers.{old}": new for old, new in KERAS1_REGULARIZERS.items()},
}

_EXPORTS: dict[str, frozenset[str]] = {
    "keras.layers": KERAS_LAYERS,
    "keras.losses": KERAS_LOSSES,
    "keras.models": KERAS_MODELS,
    "keras.utils": KERAS_UTILS,
}
# Keras 2 names with no Keras 3 successor, and what to do instead
_GONE: dict[str, str] = {
    "keras.layers.Merge": "Keras 1's Merge layer has no successor; use keras.layers.Concatenate, "
    "Add, Multiply, Average, Maximum or Dot [Merge removed]",
    "keras.layers.merge": "Keras 1's merge() has no successor; use keras.layers.concatenate, add, "
    "multiply, average, maximum or dot [merge() removed]",
    "keras.legacy": "keras.legacy (Keras 2 argument-conversion decorators) has no successor; "
    "remove its uses [keras.legacy removed]",
    "keras.wrappers.scikit_learn": "the scikit-learn wrappers were removed in TensorFlow 2.13 "
    "and Keras 3; use scikeras (pip install scikeras; from scikeras.wrappers import "
    "KerasClassifier: build_fn= is model=, the build function's own arguments are given as "
    "model__name=..., a classifier's predict() gives shape (n,) where it gave (n, 1)) or Keras "
    "3's keras.wrappers.SKLearnClassifier / SKLearnRegressor (model=build_fn, which must take "
    "X= and y= keywords, its other arguments in model_kwargs={...}, epochs= and batch_size= in fit_kwargs={...}) "
    "[scikit-learn wrappers removed]",
    "keras.preprocessing.text": "Keras 3 has no keras.preprocessing.text (Tokenizer, one_hot, "
    "text_to_word_sequence); import them from tensorflow.keras.preprocessing.text (Keras 3's "
    "legacy copies), use keras.layers.TextVectorization, or run the script as it is with "
    "tfcompat-gpu run (tf_keras) [keras.preprocessing.text removed]",
    "keras.applications.imagenet_utils._obtain_input_shape": "a private Keras 2 helper of the "
    "ImageNet model files that Keras 3 does not publish; give the model the input shape it "
    "takes (input_shape, or the default such as (224, 224, 3)) yourself, or run the script as "
    "it is with tfcompat-gpu run (tf_keras) [_obtain_input_shape removed]",
    "keras.preprocessing.image.ImageDataGenerator": "Keras 3 has no ImageDataGenerator; import "
    "it from tensorflow.keras.preprocessing.image (Keras 3's legacy copy), or use "
    "keras.utils.image_dataset_from_directory with augmentation layers [ImageDataGenerator removed]",
}


# TensorFlow's spellings of the Keras layers module: Keras 3 behind ``tf.keras``; the v1 one is
# reached as an attribute only
_TF_KERAS_LAYERS = {
    "tensorflow.keras.layers": "tensorflow.keras.layers",
    "tensorflow.compat.v1.keras.layers": "tensorflow.keras.layers",
}
_TF_KERAS_ROOTS = ("tensorflow.keras.", "tensorflow.compat.v1.keras.")


def _as_keras(full: str) -> str:
    """``keras.layers.CuDNNLSTM`` for ``tensorflow.compat.v1.keras.layers.CuDNNLSTM``."""
    for root in _TF_KERAS_ROOTS:
        if full.startswith(root):
            return "keras." + full[len(root) :]
    return full


def _home(module: str, name: str) -> str | None:
    """The Keras 3 module that exports ``name`` of the removed ``module``."""
    first = KERAS_MOVED_MODULES[module]
    for candidate in (first, "keras.layers", "keras.models", "keras.utils"):
        if name in _EXPORTS[candidate] or f"{candidate}.{name}" in _RENAMED:
            return candidate
    return None


def _renamed(module: str, alias: cst.ImportAlias) -> cst.ImportAlias:
    """``mse`` of ``keras.losses`` -> ``mean_squared_error as mse`` (see ``KERAS2_RENAMED``)."""
    name = str(dotted(alias.name))
    new = _RENAMED.get(f"{module}.{name}")
    if new is None:
        return alias
    bound = alias.asname or cst.AsName(name=cst.Name(name))
    return alias.with_changes(name=cst.Name(new), asname=bound)


def _module_import(alias: cst.ImportAlias, full: str) -> cst.ImportFrom:
    """``np_utils`` of ``keras.utils`` -> ``from keras import utils as np_utils``."""
    parent, _, last = KERAS_MOVED_MODULES[full].rpartition(".")
    bound = alias.asname or cst.AsName(name=cst.Name(str(dotted(alias.name))))
    return cst.ImportFrom(
        module=cst.parse_expression(parent),  # type: ignore[arg-type]
        names=[cst.ImportAlias(name=cst.Name(last), asname=bound)],
    )


# names a Keras 2 module imported or defined that its Keras 3 namesake does not export -> their
# Keras 3 module: what Keras 2.0-2.3's keras/models.py imported (``from keras.models import
# Input``), and the custom objects MobileNet files of Keras 2.0-2.1 are loaded with
# (``from keras.applications.mobilenet import relu6, DepthwiseConv2D``; 2.2 moved the layer to
# keras.layers and dropped relu6, which keras.activations has in Keras 3)
_ELSEWHERE: dict[str, dict[str, str]] = {
    "keras.models": {
        "Input": "keras.layers",
        "InputLayer": "keras.layers",
        "Layer": "keras.layers",
    },
    "keras.applications.mobilenet": {
        "relu6": "keras.activations",
        "DepthwiseConv2D": "keras.layers",
    },
}


def _gone(full: str) -> str | None:
    for name, why in _GONE.items():
        if full == name or full.startswith(name + "."):
            return why
    return None


# what Keras 3's own keras.preprocessing modules keep
_KERAS3_KEEPS = {
    "keras.preprocessing.text": frozenset[str](),
    "keras.preprocessing.image": KERAS3_IMAGE,
    "keras.preprocessing.sequence": KERAS3_SEQUENCE,
}


def _tf_keras_preprocessing(
    module: str, names: Sequence[cst.ImportAlias], reads: Callable[[str], set[str]]
) -> str | None:
    """``tensorflow.keras.preprocessing.text`` for ``from keras.preprocessing.text import
    Tokenizer``: with Keras 3 installed, TensorFlow's ``tf.keras`` still exports Keras 2's
    preprocessing names (Keras 3's legacy copies of them), which Keras 3's own
    ``keras.preprocessing`` dropped.  ``from keras.preprocessing import text`` likewise, and
    ``from keras.preprocessing import image`` where the file reads a dropped name through the
    module (``image.ImageDataGenerator``; ``reads`` gives the attributes read through a name).  None where Keras 3 has every name, or tf.keras
    lacks one."""
    spelled = [str(dotted(alias.name)) for alias in names]
    if module == "keras.preprocessing":
        wanted = {f"{module}.{name}" for name in spelled}
        if not wanted <= set(TF_KERAS_PREPROCESSING):
            return None
        if "keras.preprocessing.text" in wanted:  # Keras 3 keeps none of its names
            return "tensorflow.keras.preprocessing"
        for alias in names:
            full = f"{module}.{dotted(alias.name)}"
            bound = alias.evaluated_alias or str(dotted(alias.name))
            if reads(bound) - _KERAS3_KEEPS[full]:
                return "tensorflow.keras.preprocessing"
        return None
    exported = TF_KERAS_PREPROCESSING.get(module)
    if exported is None or not set(spelled) <= exported or set(spelled) <= _KERAS3_KEEPS[module]:
        return None
    return "tensorflow." + module


# the last part of each removed module (``recurrent`` in ``from keras.layers import recurrent``)
_MODULE_NAMES = "|".join(sorted({m.rpartition(".")[2] for m in KERAS_MOVED_MODULES}))
_KERAS_MODULE_TEXT = re.compile(
    r"\bkeras\.(?:layers\.\w+\s+import|utils\.\w+_utils|engine|legacy|wrappers|objectives)"
    r"|\bkeras\.utils\s+import\b|\bimport\s+.*\b(?:np_utils|Merge|objectives)\b"
    rf"|\bkeras(?:\.layers|\.utils)?\s+import\s+(?:\([^)]*|[^\n]*)\b(?:{_MODULE_NAMES})\b"
    rf"|\bkeras\.(?:layers\.|utils\.)?(?:{_MODULE_NAMES})\.\w"
    r"|ImageDataGenerator|CuDNN(?:LSTM|GRU)|\bkeras\.preprocessing\b|\b_obtain_input_shape\b"
    r"|\bkeras_(?:applications|preprocessing)\b"
    r"|\bkeras\.models\s+import\s+(?:\([^)]*|[^\n]*)\b(?:Input|InputLayer|Layer)\b"
    r"|\bkeras\.applications\.mobilenet\s+import\s+(?:\([^)]*|[^\n]*)\b(?:relu6|DepthwiseConv2D)\b"
    r"|\b(?:mse|MSE|mae|MAE|mape|MAPE|msle|MSLE|kld|KLD|logcosh|kullback_leibler_divergence)\b"
    r"|\b(?:activity_l1|activity_l2|activity_l1l2|l1l2)\b"
    r"|\bkeras\.backend(?:\.tensorflow_backend)?\s+import\s+(?:\([^)]*|[^\n]*)\btf\b"
)
# Keras 2.0-2.2's backend modules, whose ``tf`` was TensorFlow 1 itself (tensorflow_backend.py
# imported it, and keras/backend/__init__.py re-exported that module's names)
_BACKEND_MODULES = frozenset({"keras.backend", "keras.backend.tensorflow_backend"})


_COMPANIONS = {
    "keras_applications": "keras.applications",
    "keras_preprocessing": "keras.preprocessing",
}
"""Keras 2.2-2.3's companion packages (installed with it, gone with Keras 3) -> the Keras
modules that re-exported them."""
_PREPROCESSING_PACKAGE = frozenset(
    {"keras_preprocessing", *(f"keras_preprocessing.{m}" for m in ("image", "sequence", "text"))}
)
"""``import`` spellings of keras_preprocessing whose modules tf.keras exports."""


def _relevant(text: str) -> bool:
    return _KERAS_MODULE_TEXT.search(text) is not None


class KerasModulePathsCommand(MigrationCommand):
    DESCRIPTION = "Keras 2 module paths Keras 3 removed to the public modules of the names."
    PRECHECK = Precheck(text_search(_KERAS_MODULE_TEXT, "keras", "ImageDataGenerator"), _relevant)
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        self._extra: dict[int, Sequence[cst.ImportFrom | cst.Import]] = {}

    def _layers_star(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.ImportFrom:
        """``from keras.layers.core import *`` → ``from keras.layers import *`` (whose layers
        include the submodule's), with ``import numpy as np`` / ``import keras.backend as K``
        where the file reads ``np`` / ``K`` without binding them: the Keras 2 module bound both
        (``KERAS2_STAR_ALIASES``)."""
        scope = self.scope_of(original_node)
        text = self.source_text()
        for alias, module in sorted(KERAS2_STAR_ALIASES.items()):
            if scope is not None and alias in scope:
                continue
            if re.search(rf"(?<![\w.]){alias}\s*\.", text):
                need_import(self.context, module, alias)
        return updated_node.with_changes(module=cst.parse_expression("keras.layers"))

    def _tf_keras_wrappers(self, node: cst.ImportFrom, module: str) -> None:
        """``from tensorflow.keras.wrappers.scikit_learn import KerasClassifier``: gone as
        Keras 2's own module is (TensorFlow 2.13 removed it)."""
        if isinstance(node.names, cst.ImportStar):
            spelled = [module]
        else:
            spelled = [f"{module}.{dotted(alias.name)}" for alias in node.names]
        for full in spelled:
            reason = _gone(full[len("tensorflow.") :])
            if reason is not None:
                self.warn_at(node, f"{full} left unchanged: {reason}")

    def _multi_gpu_import(
        self, module: str, original: cst.ImportFrom, node: cst.ImportFrom
    ) -> cst.ImportFrom | cst.RemovalSentinel | None:
        """``from keras.utils import multi_gpu_model`` (or ``training_utils``,
        ``multi_gpu_utils``, ``tensorflow.keras.utils``): where the file uses the name, the
        multi-GPU command rewrites its calls and removes the import (or says why not), so it
        is left to it; an import nothing uses is dropped, since no Keras 3 module has the name.
        None: not such an import."""
        if f"{module}.multi_gpu_model" not in _MULTI_GPU_MODEL or isinstance(
            node.names, cst.ImportStar
        ):
            return None
        drop: set[int] = set()
        for index, alias in enumerate(node.names):
            if str(dotted(alias.name)) != "multi_gpu_model":
                continue
            bound = alias.evaluated_alias or "multi_gpu_model"
            if self._read(original, bound):
                return node
            drop.add(index)
        if not drop:
            return None
        result = without_aliases(node, drop)
        return result if not isinstance(result, cst.Import) else node

    def _attributes_read(self, statement: cst.ImportFrom, name: str) -> set[str]:
        """The attributes the file reads through ``name``, which ``statement`` binds."""
        scope = self.scope_of(statement)
        if scope is None:
            return set()
        found = set()
        for assignment in scope.assignments[name]:
            for reference in assignment.references:
                parent = self.parent(reference.node)
                if isinstance(parent, cst.Attribute) and parent.value is reference.node:
                    found.add(parent.attr.value)
        return found

    def _read(self, statement: cst.ImportFrom, name: str) -> bool:
        """Whether the file reads ``name``, which ``statement`` binds (when in doubt: yes)."""
        scope = self.scope_of(statement)
        if scope is None:
            return len(re.findall(rf"\b{re.escape(name)}\b", self.source_text())) > 1
        return any(assignment.references for assignment in scope.assignments[name])

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.ImportFrom | cst.Import | cst.RemovalSentinel:
        if original_node.module is None or original_node.relative:
            return updated_node
        module = dotted(original_node.module)
        if module is not None and self.keras_major() >= 3:
            multi_gpu = self._multi_gpu_import(module, original_node, updated_node)
            if multi_gpu is not None:
                return multi_gpu
        if module is not None and module.startswith("tensorflow.keras.wrappers"):
            self._tf_keras_wrappers(original_node, module)
        root = None if module is None else module.partition(".")[0]
        if module is not None and root in _COMPANIONS:
            # Keras 2.2-2.3's companion packages, which keras re-exported as its own modules
            module = _COMPANIONS[root] + module[len(root) :]
            names = updated_node.names
            spelled = [] if isinstance(names, cst.ImportStar) else names
            if not any(_gone(f"{module}.{dotted(alias.name)}") for alias in spelled):
                updated_node = updated_node.with_changes(module=cst.parse_expression(module))
        if module in _TF_KERAS_LAYERS and not isinstance(updated_node.names, cst.ImportStar):
            return self._tf_keras_layers(module, updated_node, updated_node.names)
        if module is None or not (module == "keras" or module.startswith("keras.")):
            return updated_node
        # the names as the other commands left them (``Conv2DTranspose as Deconvolution2D``)
        names = updated_node.names
        if isinstance(names, cst.ImportStar):
            if module.startswith("keras.layers.") and module in KERAS_MOVED_MODULES:
                return self._layers_star(original_node, updated_node)
            if module in KERAS_MOVED_MODULES:
                self.warn_at(
                    original_node,
                    f"from {module} import * left unchanged: Keras 3 has no {module}; import "
                    f"the names you use from {KERAS_MOVED_MODULES[module]} [star import]",
                )
            return updated_node
        if module in _BACKEND_MODULES and any(str(dotted(a.name)) == "tf" for a in names):
            return self._backend_tf(updated_node, names)
        legacy = _tf_keras_preprocessing(
            module, names, lambda name: self._attributes_read(original_node, name)
        )
        if legacy is not None:
            return updated_node.with_changes(module=cst.parse_expression(legacy))
        if module in KERAS_MOVED_MODULES:
            homes: set[str] = set()
            for alias in names:
                name = str(dotted(alias.name))
                home = _home(module, name)
                if home is None:
                    why = _gone(f"keras.layers.{name}") or (
                        f"Keras 3 has no {module}.{name} in any public module [name without Keras 3 home]"
                    )
                    self.warn_at(
                        original_node, f"from {module} import {name} left unchanged: {why}"
                    )
                    return updated_node
                homes.add(home)
            if len(homes) == 1:
                home = next(iter(homes))
                names = [_renamed(home, alias) for alias in names]
                updated_node = updated_node.with_changes(names=names)
            if len(homes) != 1:
                self.warn_at(
                    original_node,
                    f"from {module} import ... left unchanged: its names are now in "
                    f"{' and '.join(sorted(homes))}; split the import [names now in several modules]",
                )
                return updated_node
            return updated_node.with_changes(module=cst.parse_expression(homes.pop()))
        elsewhere = _ELSEWHERE.get(module)
        if elsewhere and any(str(dotted(alias.name)) in elsewhere for alias in names):
            return self._elsewhere(updated_node, names, elsewhere)
        if module in ("keras.layers", "keras.losses", "keras.regularizers") and any(
            f"{module}.{dotted(alias.name)}" in _RENAMED for alias in names
        ):
            return updated_node.with_changes(names=[_renamed(module, a) for a in names])
        # ``from keras.utils import np_utils``: the module's names live in keras.utils itself
        modules = [
            (alias, f"{module}.{dotted(alias.name)}")
            for alias in names
            if f"{module}.{dotted(alias.name)}" in KERAS_MOVED_MODULES
        ]
        gone = [(a, _gone(f"{module}.{dotted(a.name)}")) for a in names]
        for alias, reason in gone:
            if reason is not None:
                self.warn_at(
                    original_node, f"{module}.{dotted(alias.name)} left unchanged: {reason}"
                )
        if not modules or any(reason is not None for _, reason in gone):
            return updated_node
        # each module becomes an import of its home under the same name; the other names
        # stay (``from keras.layers import Dense, recurrent`` -> ``from keras.layers import
        # Dense`` and ``from keras import layers as recurrent``)
        moved = [_module_import(alias, full) for alias, full in modules]
        kept = [alias for alias in names if all(alias is not m for m, _ in modules)]
        if not kept:
            first, *extra = moved
        else:
            kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            first, extra = updated_node.with_changes(names=kept), moved
        if extra:
            self._extra[id(first)] = extra
        return first

    def _tf_keras_layers(
        self, module: str, node: cst.ImportFrom, names: Sequence[cst.ImportAlias]
    ) -> cst.ImportFrom:
        """``from tensorflow.compat.v1.keras.layers import CuDNNLSTM`` -> ``from
        tensorflow.keras.layers import LSTM as CuDNNLSTM``."""
        spelled = [str(dotted(alias.name)) for alias in names]
        if not any(f"keras.layers.{name}" in _RENAMED for name in spelled):
            return node
        node = node.with_changes(names=[_renamed("keras.layers", alias) for alias in names])
        if all(name in KERAS_LAYERS or f"keras.layers.{name}" in _RENAMED for name in spelled):
            node = node.with_changes(module=cst.parse_expression(_TF_KERAS_LAYERS[module]))
        return node

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        # ``CuDNNLSTM`` bound by ``from keras.layers import *`` (Keras 2 and TF 1.x's tf.keras
        # exported it); a name the file binds itself is its own
        if original_node.value not in ("CuDNNLSTM", "CuDNNGRU") or not isinstance(
            self.parent(original_node), (cst.Call, cst.Arg)
        ):
            return updated_node
        scope = self.scope_of(original_node)
        if scope is None or original_node.value in scope:
            return updated_node
        for full in self.names_of(original_node):
            new = _RENAMED.get(_as_keras(full))
            if new is not None and full.rpartition(".")[0].endswith("layers"):
                return updated_node.with_changes(value=new)
        return updated_node

    def _backend_tf(
        self, node: cst.ImportFrom, names: Sequence[cst.ImportAlias]
    ) -> cst.ImportFrom | cst.Import:
        """``from keras.backend import tf as ktf`` -> ``import tensorflow.compat.v1 as ktf``:
        the TensorFlow 1 module Keras 2.0-2.2's backend held (``ktf.image.resize_images``
        inside a ``Lambda``), which TensorFlow 2 serves as ``tf.compat.v1``; Keras 3's backend
        has no ``tf``.  The other names stay in their import."""
        kept = [alias for alias in names if str(dotted(alias.name)) != "tf"]
        imports = [
            cst.Import(
                names=[
                    cst.ImportAlias(
                        name=cst.parse_expression("tensorflow.compat.v1"),  # type: ignore[arg-type]
                        asname=alias.asname or cst.AsName(name=cst.Name("tf")),
                    )
                ]
            )
            for alias in names
            if str(dotted(alias.name)) == "tf"
        ]
        first: cst.ImportFrom | cst.Import
        if not kept:
            first, *extra = imports
        else:
            kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            first, extra = node.with_changes(names=kept), list(imports)
        if extra:
            self._extra[id(first)] = extra
        return first

    def _elsewhere(
        self, node: cst.ImportFrom, names: Sequence[cst.ImportAlias], homes: dict[str, str]
    ) -> cst.ImportFrom:
        """``from keras.models import Input, Model`` -> ``from keras.models import Model`` and
        ``from keras.layers import Input``: the names a Keras 2 module imported from elsewhere
        (:data:`_ELSEWHERE`) go to the Keras 3 module that exports them."""
        moved: dict[str, list[cst.ImportAlias]] = {}
        kept: list[cst.ImportAlias] = []
        for alias in names:
            home = homes.get(str(dotted(alias.name)))
            if home is None:
                kept.append(alias)
            else:
                moved.setdefault(home, []).append(
                    alias.with_changes(comma=cst.MaybeSentinel.DEFAULT)
                )
        imports = [
            cst.ImportFrom(
                module=cst.parse_expression(home),  # type: ignore[arg-type]
                names=[
                    a.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
                    if i < len(aliases) - 1
                    else a
                    for i, a in enumerate(aliases)
                ],
            )
            for home, aliases in moved.items()
        ]
        if not kept:
            first, *extra = imports
        else:
            kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            first, extra = node.with_changes(names=kept), imports
        if extra:
            self._extra[id(first)] = extra
        return first

    def leave_Import(
        self, original_node: cst.Import, updated_node: cst.Import
    ) -> cst.Import | cst.ImportFrom:
        """``import keras_preprocessing`` (``keras_preprocessing.image.ImageDataGenerator(...)``
        in the TensorFlow course notebooks) → ``from tensorflow.keras import preprocessing as
        keras_preprocessing``: tf.keras exports the package's three modules (``image``,
        ``sequence``, ``text``) with its names (Keras 3's legacy copies), which Keras 3's own
        ``keras.preprocessing`` dropped.  One module per statement; ``import a, b`` is left."""
        if self.keras_major() < 3 or len(updated_node.names) != 1:
            return updated_node
        alias = updated_node.names[0]
        spelled = str(dotted(alias.name))
        if spelled not in _PREPROCESSING_PACKAGE:
            return updated_node
        home = "tensorflow.keras." + _COMPANIONS["keras_preprocessing"][len("keras.") :]
        home += spelled[len("keras_preprocessing") :]
        if alias.asname is not None:  # import keras_preprocessing.image as kimage
            return updated_node.with_changes(
                names=[alias.with_changes(name=cst.parse_expression(home))]
            )
        # ``import keras_preprocessing.image`` binds ``keras_preprocessing``, with its modules
        package, _, last = home.rpartition(".")
        if spelled != "keras_preprocessing":
            package, last = "tensorflow.keras", "preprocessing"
        return cst.ImportFrom(
            module=cst.parse_expression(package),  # type: ignore[arg-type]
            names=[
                cst.ImportAlias(
                    name=cst.Name(last), asname=cst.AsName(name=cst.Name("keras_preprocessing"))
                )
            ],
        )

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.FlattenSentinel[cst.SimpleStatementLine]:
        extra = [e for small in updated_node.body for e in self._extra.pop(id(small), ())]
        if not extra:
            return updated_node
        if len(updated_node.body) != 1:  # ``import os; from keras.layers import core, Dense``
            body = [*updated_node.body, *extra]
            body = [b.with_changes(semicolon=cst.MaybeSentinel.DEFAULT) for b in body]
            return updated_node.with_changes(body=body)
        lines = [cst.SimpleStatementLine(body=[e]) for e in extra]
        return cst.FlattenSentinel([updated_node, *lines])

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        # ``keras.losses.mse``, ``losses.mse`` (after ``from keras import losses``)
        for full in self.names_of(original_node):
            if full.startswith("keras.objectives."):  # the module becomes keras.losses
                full = "keras.losses." + full[len("keras.objectives.") :]
            new = _RENAMED.get(_as_keras(full))
            if new is not None:
                return updated_node.with_changes(attr=cst.Name(new))
        # ``keras.utils.np_utils.to_categorical`` (after ``import keras``)
        if not isinstance(updated_node.value, cst.Attribute):
            return updated_node
        spelled = dotted(updated_node.value)
        if spelled is None:
            return updated_node
        for full in self.names_of(original_node):
            module, _, name = full.rpartition(".")
            # spelled in full only (``import keras``): another spelling is left to the imports
            if module != spelled:
                continue
            if module in _KERAS3_KEEPS and self.keras_major() >= 3:
                # ``keras.preprocessing.image.ImageDataGenerator``: tf.keras's legacy copy
                if name not in _KERAS3_KEEPS[module] and name in TF_KERAS_PREPROCESSING[module]:
                    need_import(self.context, "tensorflow")
                    return updated_node.with_changes(
                        value=cst.parse_expression("tensorflow." + module)
                    )
                continue
            if module not in KERAS_MOVED_MODULES:
                continue
            home = _home(module, name)
            if home is not None:
                return updated_node.with_changes(value=cst.parse_expression(home))
        return updated_node
