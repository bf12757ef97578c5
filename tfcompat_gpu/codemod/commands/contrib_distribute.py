"""``tf.contrib.distribute.X`` → its ``tf.distribute`` successor, TF1 arguments translated."""

from __future__ import annotations

import ast
import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import prefix_for
from tfcompat_gpu.tfapi.multigpu_names import CONTRIB_DISTRIBUTE

__all__ = ["ContribDistributeCommand"]

_CONTRIB = "tensorflow.contrib.distribute."
_NUM_GPUS = ("num_gpus", "num_gpus_per_worker")


def _equal() -> cst.AssignEqual:
    """``=`` with no space around it, as keyword arguments are written."""
    return cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
    )


def _int(node: cst.BaseExpression) -> int | None:
    return int(node.value) if isinstance(node, cst.Integer) else None


def _kw(arg: cst.Arg) -> str | None:
    return arg.keyword.value if arg.keyword is not None else None


_CONTRIB_WORD = re.compile(r"\bcontrib\b")
_DISTRIBUTE_WORD = re.compile(r"\bdistribute\b")


def _contrib_distribute(text: str, tree: ast.Module | None = None) -> bool:
    """``contrib`` and, after it, ``distribute``: the command changes only names spelled
    ``...contrib.distribute.X``, and ``tf.contrib.layers`` or ``slim`` (most TF1 code) is none
    of its business."""
    if "distribute" not in text:
        return False
    found = _CONTRIB_WORD.search(text)
    return found is not None and _DISTRIBUTE_WORD.search(text, found.end()) is not None


class ContribDistributeCommand(MigrationCommand):
    DESCRIPTION = "Replace tf.contrib.distribute names with their tf.distribute successors."
    PRECHECK = Precheck(_contrib_distribute, _contrib_distribute)

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        self._hierarchical: set[cst.Call] = set()

    def _member(self, node: cst.CSTNode) -> str | None:
        for name in self.names_of(node):
            if name.startswith(_CONTRIB):
                return name[len(_CONTRIB) :]
        return None

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        member = self._member(original_node)
        successor = CONTRIB_DISTRIBUTE.get(member or "")
        if successor is None:
            return updated_node
        prefix = prefix_for(original_node, _CONTRIB + str(member))
        if prefix is None:
            return updated_node
        if successor.startswith("compat.v1.") and prefix.endswith("compat.v1."):
            successor = successor[len("compat.v1.") :]
        replacement = cst.parse_expression(prefix + successor)
        return replacement.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not isinstance(original_node.func, cst.Attribute):
            return updated_node
        member = self._member(original_node.func)
        if member not in CONTRIB_DISTRIBUTE or updated_node.func is original_node.func:
            return updated_node
        args = self._arguments(member, original_node)
        if args is None:
            return original_node  # the name too: the drop-in still runs it
        func = updated_node.func
        if original_node in self._hierarchical and isinstance(func, cst.Attribute):
            func = func.with_changes(attr=cst.Name("HierarchicalCopyAllReduce"))
        return updated_node.with_changes(func=func, args=args)

    def _arguments(self, member: str, call: cst.Call) -> list[cst.Arg] | None:
        """The call's arguments for the successor, or None (with a warning) when they do not map."""
        args = list(call.args)
        if member == "MirroredStrategy":
            out: list[cst.Arg] = []
            for arg in args:
                key = _kw(arg)
                if key in _NUM_GPUS:
                    count = _int(arg.value)
                    if count is None:
                        self.warn_at(
                            call,
                            f"tf.contrib.distribute.MirroredStrategy({key}=...) left unchanged: "
                            "the GPU count is not a literal; pass "
                            'devices=["/gpu:0", ...] to tf.distribute.MirroredStrategy [GPU count not a literal]',
                        )
                        return None
                    devices = ", ".join(f'"/gpu:{i}"' for i in range(count)) or '"/cpu:0"'
                    out.append(
                        cst.Arg(
                            cst.parse_expression(f"[{devices}]"),
                            keyword=cst.Name("devices"),
                            equal=arg.equal,
                        )
                    )
                elif key == "cross_tower_ops":
                    out.append(arg.with_changes(keyword=cst.Name("cross_device_ops")))
                elif key == "auto_shard_dataset":
                    continue  # TF2 shards datasets itself
                else:
                    out.append(arg)
            if out:
                out[-1] = out[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            return out
        if member in ("CollectiveAllReduceStrategy", "ParameterServerStrategy"):
            if any(_kw(a) == "num_gpus_per_worker" or _kw(a) is None for a in args):
                self.warn_at(
                    call,
                    f"tf.contrib.distribute.{member}: num_gpus_per_worker dropped; TF2 uses every "
                    "GPU the worker sees (restrict them with CUDA_VISIBLE_DEVICES) "
                    "[num_gpus_per_worker dropped]",
                )
            if member == "ParameterServerStrategy":
                return []
            return self._collective(args, call)
        if member == "AllReduceCrossDeviceOps":
            return self._all_reduce(args, call)
        return args

    def _collective(self, args: list[cst.Arg], call: cst.Call) -> list[cst.Arg] | None:
        kept = [a for a in args if _kw(a) not in ("num_gpus_per_worker", None)]
        if any(_kw(a) == "communication" for a in kept):
            self.warn_at(
                call,
                "tf.contrib.distribute.CollectiveAllReduceStrategy(communication=...) left "
                "unchanged: TF2 takes communication_options=tf.distribute.experimental."
                "CommunicationOptions(implementation=...) [communication argument]",
            )
            return None
        return kept

    def _all_reduce(self, args: list[cst.Arg], call: cst.Call) -> list[cst.Arg] | None:
        algorithm = "nccl"
        kept: list[cst.Arg] = []
        for index, arg in enumerate(args):
            key = _kw(arg) or ("all_reduce_alg", "num_packs", "")[min(index, 2)]
            if key == "all_reduce_alg" and isinstance(arg.value, cst.SimpleString):
                value = arg.value.evaluated_value
                algorithm = value if isinstance(value, str) else ""
            elif key == "num_packs":
                kept.append(
                    arg.with_changes(
                        keyword=cst.Name("num_packs"),
                        equal=_equal() if arg.keyword is None else arg.equal,
                    )
                )
            else:
                algorithm = ""
        if algorithm not in ("nccl", "hierarchical_copy"):
            self.warn_at(
                call,
                "tf.contrib.distribute.AllReduceCrossDeviceOps left unchanged: use "
                "tf.distribute.NcclAllReduce() or tf.distribute.HierarchicalCopyAllReduce() "
                "[all-reduce algorithm]",
            )
            return None
        if algorithm == "hierarchical_copy":
            self._hierarchical.add(call)
        return kept
