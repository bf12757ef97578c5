"""The rules, indexed: by code and by name, which are on by default, and which apply to a target.

The rules themselves (code, name, default, severity, message, documentation) are the table in
:mod:`tfcompat_gpu.lint.rule_table`, one module per family.
"""

from __future__ import annotations

from tfcompat_gpu.lint.rule_table import Rule, Severity
from tfcompat_gpu.lint.rule_table.configuration import CONFIGURATION
from tfcompat_gpu.lint.rule_table.migration import MIGRATION
from tfcompat_gpu.lint.rule_table.multigpu import MULTIGPU
from tfcompat_gpu.settings.options import OPTIONS_BY_NAME

__all__ = [
    "RULES",
    "RULES_BY_CODE",
    "RULES_BY_NAME",
    "TF2_CALLS",
    "Rule",
    "Severity",
    "applies",
    "default_codes",
]

RULES: tuple[Rule, ...] = tuple(
    sorted((*CONFIGURATION, *MULTIGPU, *MIGRATION), key=lambda rule: rule.code)
)
"""Every rule, in code order."""


def _tf2(name: str) -> str:
    return OPTIONS_BY_NAME[name].tf2_call


RULES_BY_CODE: dict[str, Rule] = {rule.code: rule for rule in RULES}
RULES_BY_NAME: dict[str, Rule] = {rule.name: rule for rule in RULES}

# Rule TFG001 and TFG014 quote the TF2 calls of the option table.
TF2_CALLS: dict[str, str] = {
    "set_memory_growth": _tf2("allow_growth"),
    "set_soft_device_placement": _tf2("allow_soft_placement"),
    "set_log_device_placement": _tf2("log_device_placement"),
    "set_visible_devices": _tf2("visible_device_list"),
    "set_logical_device_configuration": _tf2("memory_limit_mb"),
    "set_virtual_device_configuration": _tf2("memory_limit_mb"),
    "set_intra_op_parallelism_threads": _tf2("intra_op_parallelism_threads"),
    "set_inter_op_parallelism_threads": _tf2("inter_op_parallelism_threads"),
}


def default_codes() -> frozenset[str]:
    return frozenset(rule.code for rule in RULES if rule.default)


def applies(code: str, target: tuple[int, int] | None) -> bool:
    """Whether rule ``code`` speaks to a project targeting TensorFlow ``target`` (None: latest)."""
    return target is None or RULES_BY_CODE[code].since <= target
