"""GPU discovery that starts the runtime → questions about physical devices, which start nothing.

``K.tensorflow_backend._get_available_gpus()`` becomes a list of ``/device:GPU:i`` names built
from ``tf.config.list_physical_devices("GPU")``; ``tf.test.is_gpu_available()`` a bool of it;
``tf.test.gpu_device_name()`` ``"/device:GPU:0"`` or ``""``.  A ``set_session`` or
``configure()`` that follows then still takes effect.
"""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._imports import need_import, schedule_removal_by_node
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import tf_root_alias
from tfcompat_gpu.tfapi.multigpu_names import DISCOVERY_CALLS

__all__ = ["GpuDiscoveryCommand"]

_GPUS = '{tf}config.list_physical_devices("GPU")'
_REPLACEMENTS: dict[str, str] = {
    "_get_available_gpus": '[gpu.name.replace("physical_device:", "device:") for gpu in '
    + _GPUS
    + "]",
    "is_gpu_available": "bool(" + _GPUS + ")",
    "gpu_device_name": '("/device:GPU:0" if ' + _GPUS + ' else "")',
}


_DISCOVERY = re.compile(r"_get_available_gpus|is_gpu_available|gpu_device_name")


class GpuDiscoveryCommand(MigrationCommand):
    DESCRIPTION = (
        "Ask GPU questions of the physical devices instead of calls that start the runtime."
    )
    PRECHECK = Precheck.text(
        _DISCOVERY, "_get_available_gpus", "is_gpu_available", "gpu_device_name"
    )

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        self._tf = tf_root_alias(node)

    def _prefix(self) -> str:
        if self._tf is None:
            need_import(self.context, "tensorflow", asname="tf")
            self._tf = "tf."
        return self._tf

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        names = self.names_of(original_node.func) & DISCOVERY_CALLS
        if not names:
            return updated_node
        func = next(iter(names)).rpartition(".")[2]
        template = _REPLACEMENTS.get(func)
        if template is None:
            return updated_node
        if original_node.args:
            self.warn_at(
                original_node,
                f"{func}(...) left unchanged: with arguments it has no physical-device "
                'equivalent; use tf.config.list_physical_devices("GPU") and '
                "tf.config.experimental.get_device_details(gpu) [call with arguments]",
            )
            return updated_node
        schedule_removal_by_node(self.context, original_node)
        replacement = cst.parse_expression(template.format(tf=self._prefix()))
        if updated_node.lpar:  # else the template's own parentheses keep its precedence
            replacement = replacement.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
        return replacement
