"""TF 1.x keywords TF 2 dropped → the TF 2 keyword of the same meaning.

``tf.nn.softmax(x, dim=1)``, ``tf.reduce_sum(x, keep_dims=True)``, ``tf.argmax(x, dimension=1)``:
TensorFlow 1 deprecated these keywords for ``axis`` / ``keepdims`` (and took both), TensorFlow 2
kept the functions and removed the old keywords, so the call stops with "got an unexpected
keyword argument".  Custom Keras layers (capsule networks' routing, attention softmaxes) call
them through ``import tensorflow as tf`` in files ``tf1_compat`` leaves on TF 2, so the keyword
itself is renamed; the new name means the same on TF 1.5+ too.  The table is
``tfapi.tf1_names.TF1_KEYWORDS``, which ``run``'s auto mode reads as TF1 code.  A call that
gives both the old and the new keyword is left alone.
"""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._triage import text_search
from tfcompat_gpu.tfapi.names import canonical
from tfcompat_gpu.tfapi.tf1_names import TF1_KEYWORDS

__all__ = ["Tf1KeywordArgumentsCommand"]

_OLD = sorted({old for renames in TF1_KEYWORDS.values() for old in renames})
_KEYWORD = re.compile(r"\b(?:" + "|".join(_OLD) + r")\s*=")
_wanted = text_search(_KEYWORD, *_OLD)


def _relevant(text: str) -> bool:
    return _KEYWORD.search(text) is not None


def _renames(names: set[str]) -> dict[str, str] | None:
    for name in sorted(names):
        if not name.startswith("tensorflow."):
            continue
        found = TF1_KEYWORDS.get(canonical(name)[len("tensorflow.") :])
        if found is not None:
            return found
    return None


class Tf1KeywordArgumentsCommand(MigrationCommand):
    DESCRIPTION = (
        "TF 1.x keywords TF 2 removed (tf.nn.softmax(dim=), tf.reduce_sum(keep_dims=), "
        "tf.argmax(dimension=)) to axis= / keepdims=."
    )
    PRECHECK = Precheck(_wanted, _relevant)
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        given = {arg.keyword.value for arg in updated_node.args if arg.keyword is not None}
        renames = _renames(self.names_of(original_node.func)) if given else None
        if renames is None or not given & renames.keys():
            return updated_node
        args = []
        for arg in updated_node.args:
            new = renames.get(arg.keyword.value) if arg.keyword is not None else None
            if new is not None and new not in given:
                arg = arg.with_changes(keyword=cst.Name(new))
            args.append(arg)
        return updated_node.with_changes(args=args)
