"""One module per rewrite; :data:`COMMANDS` is the order ``migrate`` runs them in.

Renames run first so that the other commands only ever see current names, which is also what
makes a second run a no-op.
"""

from __future__ import annotations

from tfcompat_gpu.codemod.commands.config_function_assignments import (
    ConfigFunctionAssignmentsCommand,
)
from tfcompat_gpu.codemod.commands.config_proto_to_configure import ConfigProtoToConfigureCommand
from tfcompat_gpu.codemod.commands.rename_deprecated_config import RenameDeprecatedConfigCommand

__all__ = [
    "COMMANDS",
    "ConfigFunctionAssignmentsCommand",
    "ConfigProtoToConfigureCommand",
    "RenameDeprecatedConfigCommand",
]

COMMANDS = (
    RenameDeprecatedConfigCommand,
    ConfigFunctionAssignmentsCommand,
    ConfigProtoToConfigureCommand,
)
