"""``tf.Session()`` in code that pins ops to GPUs → a session that places them softly.

The multi-GPU graph scripts of TensorFlow 1 build one tower per GPU (``with
tf.device('/gpu:%d' % i):``) and run them in a session.  A session without a config does not
place softly: where the machine has fewer GPUs than the towers (none, one), every op pinned to
a missing GPU stops the first ``run()`` with "Cannot assign a device for operation ... was
explicitly assigned to /device:GPU:1".  TensorFlow 2 places softly by default (eager code and
``tf.function``), and so does ``tfcompat-gpu run`` for such a script, so that its towers run
where the devices are; the migrated script does the same::

    with tf.Session() as sess:          with tfcompat_gpu.session(
                                            tfcompat_gpu.GPUConfig(allow_soft_placement=True)
                                        ) as sess:

``allow_soft_placement`` is a per-session field: it changes nothing else of the process, and on
a machine with the GPUs the towers land where they are pinned.  Only where the file pins ops to
a GPU by a literal device (``'/gpu:1'``, ``'/gpu:%d' % i``, ``'/gpu:' + str(i)``), only a
session given no config (one with a config is ``config_proto_to_configure``'s), and only for the
facade target (``tf.config.set_soft_device_placement`` does not reach v1 sessions).
"""

from __future__ import annotations

import re

from tfcompat_gpu.codemod import _emit_facade
from tfcompat_gpu.codemod._base import GPU_PINS, MigrationCommand, Precheck
from tfcompat_gpu.codemod._imports import need_import
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import SESSION, bind_arguments

__all__ = ["SessionSoftPlacementCommand"]

_DEVICE = "tensorflow.device"
# a device call whose argument spells a GPU, and a session
_PIN = re.compile(r"\bdevice\s*\(\s*[rRuUbBfF]{0,2}['\"][^'\"\n]*gpu", re.IGNORECASE)
_SESSION = re.compile(r"\bSession\s*\(")
_PARAMETERS = ("target", "graph", "config")
"""``tf.compat.v1.Session(target='', graph=None, config=None)``."""


def _wanted(text: str, tree: object = None) -> bool:
    return _PIN.search(text) is not None and _SESSION.search(text) is not None


def _relevant(text: str) -> bool:
    return _PIN.search(text) is not None or _SESSION.search(text) is not None


class SessionSoftPlacementCommand(MigrationCommand):
    DESCRIPTION = (
        "Sessions without a config in graph code that pins ops to GPUs (tf.device('/gpu:%d' % i)) "
        "to sessions that place softly, as TF2 does, so the towers run where GPUs are missing."
    )
    PRECHECK = Precheck(_wanted, _relevant)

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        self._pinned = False
        if self.target != "facade":
            return
        pins: list[cst.Call] = []

        class _Devices(cst.CSTVisitor):
            def visit_Call(self, call: cst.Call) -> None:
                func = call.func
                name = func.attr if isinstance(func, cst.Attribute) else func
                if call.args and isinstance(name, cst.Name) and name.value == "device":
                    pins.append(call)

        node.visit(_Devices())
        self._pinned = any(self._pins_gpu(call) for call in pins)
        self.context.scratch[GPU_PINS] = self._pinned

    def _pins_gpu(self, call: cst.Call) -> bool:
        if _DEVICE not in self.names_of(call.func):
            return False
        first = call.args[0]
        if first.keyword is not None or first.star:
            return False
        spec = first.value
        while isinstance(spec, cst.BinaryOperation):  # '/gpu:%d' % i, '/gpu:' + str(i)
            spec = spec.left
        if not isinstance(spec, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)):
            return False
        return "gpu" in self.code_of(spec).lower()

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not self._pinned or SESSION not in self.names_of(original_node.func):
            return updated_node
        if not updated_node.func.deep_equals(original_node.func) or len(updated_node.args) != len(
            original_node.args
        ):
            return updated_node  # rewritten by another command (a session given a config)
        bound = bind_arguments(updated_node, _PARAMETERS)
        if bound is None or "config" in bound:
            return updated_node  # a config: config_proto_to_configure's
        keywords = [(name, arg.value) for name, arg in bound.items()]
        need_import(self.context, "tfcompat_gpu")
        soft = cst.parse_expression(_emit_facade.SOFT_PLACEMENT)
        args = [cst.Arg(value=soft)]
        for name, value in keywords:
            args[-1] = args[-1].with_changes(
                comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
            )
            args.append(
                cst.Arg(
                    keyword=cst.Name(name),
                    value=value,
                    equal=cst.AssignEqual(
                        whitespace_before=cst.SimpleWhitespace(""),
                        whitespace_after=cst.SimpleWhitespace(""),
                    ),
                )
            )
        return cst.Call(
            func=cst.parse_expression("tfcompat_gpu.session"),
            args=args,
            lpar=updated_node.lpar,
            rpar=updated_node.rpar,
        )
