"""One module per rewrite; :data:`COMMANDS` is the order ``migrate`` runs them in.

All commands run in one walk over one parsed tree (``codemod/_engine.py``); at every node the
rename runs first, and code a command moves elsewhere is taken with the renames applied
(``MigrationCommand.code_of``), so that a second run is a no-op.  A new command is a module
here, a line below, and its pre-check in ``codemod/_triage.py`` (``PRECHECKS``), named by the
command's ``PRECHECK``.
"""

from __future__ import annotations

from tfcompat_gpu.codemod.commands.build_in_strategy_scope import BuildInStrategyScopeCommand
from tfcompat_gpu.codemod.commands.config_function_assignments import (
    ConfigFunctionAssignmentsCommand,
)
from tfcompat_gpu.codemod.commands.config_proto_to_configure import ConfigProtoToConfigureCommand
from tfcompat_gpu.codemod.commands.contrib_distribute import ContribDistributeCommand
from tfcompat_gpu.codemod.commands.gpu_discovery import GpuDiscoveryCommand
from tfcompat_gpu.codemod.commands.keras_backend_values import KerasBackendValuesCommand
from tfcompat_gpu.codemod.commands.keras_generator_methods import KerasGeneratorMethodsCommand
from tfcompat_gpu.codemod.commands.keras_module_paths import KerasModulePathsCommand
from tfcompat_gpu.codemod.commands.keras_optimizers import KerasOptimizersCommand
from tfcompat_gpu.codemod.commands.keras_weight_files import KerasWeightFilesCommand
from tfcompat_gpu.codemod.commands.rename_deprecated_config import RenameDeprecatedConfigCommand
from tfcompat_gpu.codemod.commands.tf1_compat import Tf1CompatCommand
from tfcompat_gpu.codemod.commands.tf_private_imports import TfPrivateImportsCommand

__all__ = [
    "COMMANDS",
    "BuildInStrategyScopeCommand",
    "ConfigFunctionAssignmentsCommand",
    "ConfigProtoToConfigureCommand",
    "ContribDistributeCommand",
    "GpuDiscoveryCommand",
    "KerasBackendValuesCommand",
    "KerasGeneratorMethodsCommand",
    "KerasModulePathsCommand",
    "KerasOptimizersCommand",
    "KerasWeightFilesCommand",
    "RenameDeprecatedConfigCommand",
    "Tf1CompatCommand",
    "TfPrivateImportsCommand",
]

COMMANDS = (
    RenameDeprecatedConfigCommand,
    ContribDistributeCommand,
    ConfigFunctionAssignmentsCommand,
    ConfigProtoToConfigureCommand,
    GpuDiscoveryCommand,
    BuildInStrategyScopeCommand,
    KerasOptimizersCommand,
    KerasGeneratorMethodsCommand,
    KerasModulePathsCommand,
    KerasWeightFilesCommand,
    KerasBackendValuesCommand,
    TfPrivateImportsCommand,
    # last: it decides on the module the others left
    Tf1CompatCommand,
)
