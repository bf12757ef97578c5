"""Keras 2 ``TensorBoard`` arguments Keras 3 rejects → the call Keras 3 accepts.

Keras 2.2's ``TensorBoard(log_dir, histogram_freq, batch_size, write_graph, write_grads,
write_images, embeddings_freq, embeddings_layer_names, embeddings_metadata, embeddings_data,
update_freq)`` (keras/callbacks.py of Keras 2.2; tf_keras keeps it as
``tf.compat.v1.keras.callbacks.TensorBoard``, tf_keras/src/callbacks_v1.py) became Keras 3's
``TensorBoard(log_dir, histogram_freq, write_graph, write_images, write_steps_per_second,
update_freq, profile_batch, embeddings_freq, embeddings_metadata)``
(keras/src/callbacks/tensorboard.py), which raises ``TypeError`` on the others.  So:

- arguments given by position where Keras 3 reads another one are given by name, as Keras 2.2
  (an integer third argument: ``batch_size``) or Keras 2.0 (a ``True``/``False`` third
  argument: ``write_graph``, as in Keras 3) read them; any other third argument is left with a
  warning;
- ``batch_size=`` goes: it only sized the batches of Keras 2's histogram pass;
- ``write_grads=`` (no gradient histograms in Keras 3), ``embeddings_layer_names=`` and
  ``embeddings_data=`` go too, with a warning unless their value is the one that did nothing
  (``False``, ``None``).
"""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst

__all__ = ["KerasCallbackArgumentsCommand"]

_TENSORBOARD = frozenset({"keras.callbacks.TensorBoard", "tensorflow.keras.callbacks.TensorBoard"})
# the positions of Keras 2.2 (keras/callbacks.py) and Keras 2.0.0-2.0.4
_KERAS22: tuple[str, ...] = (
    "log_dir",
    "histogram_freq",
    "batch_size",
    "write_graph",
    "write_grads",
    "write_images",
    "embeddings_freq",
    "embeddings_layer_names",
    "embeddings_metadata",
    "embeddings_data",
    "update_freq",
)
_KERAS20: tuple[str, ...] = (
    "log_dir",
    "histogram_freq",
    "write_graph",
    "write_images",
    "embeddings_freq",
    "embeddings_layer_names",
    "embeddings_metadata",
)
# dropped, and the value with which the argument did nothing in Keras 2 (None: any value)
_DROPPED: dict[str, str | None] = {
    "batch_size": None,
    "write_grads": "False",
    "embeddings_layer_names": "None",
    "embeddings_data": "None",
}
_WHY = {
    "write_grads": "Keras 3 writes no gradient histograms",
    "embeddings_layer_names": "Keras 3 logs every Embedding layer",
    "embeddings_data": "Keras 3 logs every Embedding layer",
}

_TEXT = re.compile(r"\bTensorBoard\b")


def _keyword(arg: cst.Arg, name: str) -> cst.Arg:
    return arg.with_changes(
        keyword=cst.Name(name),
        equal=cst.AssignEqual(
            whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
        ),
    )


class KerasCallbackArgumentsCommand(MigrationCommand):
    DESCRIPTION = "Keras 2 TensorBoard arguments (batch_size, write_grads, ...) to Keras 3's."
    PRECHECK = Precheck.text(_TEXT, "TensorBoard")
    UPGRADE = True

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not self.names_of(original_node.func) & _TENSORBOARD:
            return updated_node
        args = list(updated_node.args)
        if any(a.star for a in args):
            return updated_node
        positional = [a for a in args if a.keyword is None]
        layout = _KERAS22
        if len(positional) > 2:
            third = positional[2].value
            if isinstance(third, cst.Name) and third.value in ("True", "False"):
                layout = _KERAS20
            elif not isinstance(third, cst.Integer) or len(positional) > len(layout):
                self.warn_at(
                    original_node,
                    "TensorBoard(...) left unchanged: its third argument is batch_size in Keras "
                    "2.2 and write_graph in Keras 3; give the arguments after histogram_freq by "
                    "name [TensorBoard arguments by position]",
                )
                return updated_node
        # Keras 2.0's third and fourth positions are Keras 3's too
        first_named = 4 if layout is _KERAS20 else 2
        named: list[cst.Arg] = []
        for index, arg in enumerate(args):
            if arg.keyword is None and index >= first_named:
                arg = _keyword(arg, layout[index])
            named.append(arg)
        kept: list[cst.Arg] = []
        said: list[str] = []
        for arg in named:
            keyword = arg.keyword.value if arg.keyword is not None else None
            if keyword not in _DROPPED:
                kept.append(arg)
                continue
            harmless = _DROPPED[keyword]
            value = self.code_of(arg.value)
            if harmless is not None and value != harmless:
                said.append(f"{keyword}={value} ({_WHY[keyword]})")
        if len(kept) == len(args) and named == args:
            return updated_node
        if kept and args:
            kept[-1] = kept[-1].with_changes(comma=args[-1].comma)
        if said:
            self.warn_at(
                original_node,
                f"TensorBoard(...): dropped {', '.join(said)}; Keras 3's TensorBoard has no "
                "such argument [TensorBoard argument dropped]",
            )
        return updated_node.with_changes(args=kept)
