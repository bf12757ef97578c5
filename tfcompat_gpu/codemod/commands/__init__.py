"""One module per rewrite; :data:`COMMANDS` is the order ``migrate`` runs them in.

All commands run in one walk over one parsed tree (``codemod/_engine.py``); at every node the
rename runs first, and code a command moves elsewhere is taken with the renames applied
(``MigrationCommand.code_of``), so that a second run is a no-op.  A new command is a module
here (its ``DESCRIPTION``, its text pre-check ``PRECHECK``, its ``declared_changes()`` and its
rewrite) and a line in :data:`COMMANDS`; the list of rewrites in ``docs/migrate.md`` is
:func:`commands_table`, which a test compares.  Importing this package loads no LibCST.
"""

from __future__ import annotations

import ast

from tfcompat_gpu.codemod._base import MigrationCommand
from tfcompat_gpu.codemod.commands.build_in_strategy_scope import BuildInStrategyScopeCommand
from tfcompat_gpu.codemod.commands.config_function_assignments import (
    ConfigFunctionAssignmentsCommand,
)
from tfcompat_gpu.codemod.commands.config_proto_to_configure import ConfigProtoToConfigureCommand
from tfcompat_gpu.codemod.commands.contrib_distribute import ContribDistributeCommand
from tfcompat_gpu.codemod.commands.contrib_eager import ContribEagerCommand
from tfcompat_gpu.codemod.commands.contrib_layers import ContribLayersCommand
from tfcompat_gpu.codemod.commands.contrib_legacy_seq2seq import ContribLegacySeq2seqCommand
from tfcompat_gpu.codemod.commands.contrib_rnn import ContribRnnCommand
from tfcompat_gpu.codemod.commands.contrib_seq2seq import ContribSeq2seqCommand
from tfcompat_gpu.codemod.commands.gpu_discovery import GpuDiscoveryCommand
from tfcompat_gpu.codemod.commands.keras1_layer_arguments import Keras1LayerArgumentsCommand
from tfcompat_gpu.codemod.commands.keras1_merge_calls import Keras1MergeCallsCommand
from tfcompat_gpu.codemod.commands.keras_accuracy_keys import KerasAccuracyKeysCommand
from tfcompat_gpu.codemod.commands.keras_backend_function import KerasBackendFunctionCommand
from tfcompat_gpu.codemod.commands.keras_backend_ops import KerasBackendOpsCommand
from tfcompat_gpu.codemod.commands.keras_backend_tf import KerasBackendTfCommand
from tfcompat_gpu.codemod.commands.keras_backend_values import KerasBackendValuesCommand
from tfcompat_gpu.codemod.commands.keras_callback_arguments import KerasCallbackArgumentsCommand
from tfcompat_gpu.codemod.commands.keras_compile_state import KerasCompileStateCommand
from tfcompat_gpu.codemod.commands.keras_custom_layers import KerasCustomLayersCommand
from tfcompat_gpu.codemod.commands.keras_dataset_iterators import KerasDatasetIteratorsCommand
from tfcompat_gpu.codemod.commands.keras_generator_batches import KerasGeneratorBatchesCommand
from tfcompat_gpu.codemod.commands.keras_generator_methods import KerasGeneratorMethodsCommand
from tfcompat_gpu.codemod.commands.keras_iterator_next import KerasIteratorNextCommand
from tfcompat_gpu.codemod.commands.keras_layer_sizes import KerasLayerSizesCommand
from tfcompat_gpu.codemod.commands.keras_layer_weights import KerasLayerWeightsCommand
from tfcompat_gpu.codemod.commands.keras_model_add_loss import KerasModelAddLossCommand
from tfcompat_gpu.codemod.commands.keras_module_paths import KerasModulePathsCommand
from tfcompat_gpu.codemod.commands.keras_optimizers import KerasOptimizersCommand
from tfcompat_gpu.codemod.commands.keras_stateful_models import KerasStatefulModelsCommand
from tfcompat_gpu.codemod.commands.keras_tensor_shapes import KerasTensorShapesCommand
from tfcompat_gpu.codemod.commands.keras_tf1_optimizers import KerasTf1OptimizersCommand
from tfcompat_gpu.codemod.commands.keras_weight_files import KerasWeightFilesCommand
from tfcompat_gpu.codemod.commands.numpy_removed_calls import NumpyRemovedCallsCommand
from tfcompat_gpu.codemod.commands.numpy_removed_names import NumpyRemovedNamesCommand
from tfcompat_gpu.codemod.commands.rename_deprecated_config import RenameDeprecatedConfigCommand
from tfcompat_gpu.codemod.commands.scipy_removed_modules import ScipyRemovedModulesCommand
from tfcompat_gpu.codemod.commands.session_soft_placement import SessionSoftPlacementCommand
from tfcompat_gpu.codemod.commands.tf1_compat import Tf1CompatCommand
from tfcompat_gpu.codemod.commands.tf1_keyword_arguments import Tf1KeywordArgumentsCommand
from tfcompat_gpu.codemod.commands.tf1_legacy_keras import Tf1LegacyKerasCommand
from tfcompat_gpu.codemod.commands.tf1_name_imports import Tf1NameImportsCommand
from tfcompat_gpu.codemod.commands.tf_private_imports import TfPrivateImportsCommand

__all__ = [
    "COMMANDS",
    "BuildInStrategyScopeCommand",
    "ConfigFunctionAssignmentsCommand",
    "ConfigProtoToConfigureCommand",
    "ContribDistributeCommand",
    "ContribEagerCommand",
    "ContribLayersCommand",
    "ContribLegacySeq2seqCommand",
    "ContribRnnCommand",
    "ContribSeq2seqCommand",
    "GpuDiscoveryCommand",
    "Keras1LayerArgumentsCommand",
    "Keras1MergeCallsCommand",
    "KerasBackendFunctionCommand",
    "KerasBackendOpsCommand",
    "KerasBackendTfCommand",
    "KerasBackendValuesCommand",
    "KerasCallbackArgumentsCommand",
    "KerasCompileStateCommand",
    "KerasCustomLayersCommand",
    "KerasDatasetIteratorsCommand",
    "KerasGeneratorBatchesCommand",
    "KerasGeneratorMethodsCommand",
    "KerasIteratorNextCommand",
    "KerasLayerSizesCommand",
    "KerasLayerWeightsCommand",
    "KerasModelAddLossCommand",
    "KerasModulePathsCommand",
    "KerasOptimizersCommand",
    "KerasStatefulModelsCommand",
    "KerasTensorShapesCommand",
    "KerasTf1OptimizersCommand",
    "KerasWeightFilesCommand",
    "NumpyRemovedCallsCommand",
    "NumpyRemovedNamesCommand",
    "RenameDeprecatedConfigCommand",
    "ScipyRemovedModulesCommand",
    "SessionSoftPlacementCommand",
    "Tf1CompatCommand",
    "Tf1KeywordArgumentsCommand",
    "Tf1LegacyKerasCommand",
    "Tf1NameImportsCommand",
    "TfPrivateImportsCommand",
    "command_name",
    "commands_for",
    "commands_table",
]

COMMANDS: tuple[type[MigrationCommand], ...] = (
    RenameDeprecatedConfigCommand,
    ContribDistributeCommand,
    ConfigFunctionAssignmentsCommand,
    # before config_proto_to_configure: the sessions it builds read what this one found
    SessionSoftPlacementCommand,
    ConfigProtoToConfigureCommand,
    GpuDiscoveryCommand,
    BuildInStrategyScopeCommand,
    KerasOptimizersCommand,
    KerasTf1OptimizersCommand,
    KerasDatasetIteratorsCommand,
    KerasGeneratorMethodsCommand,
    KerasIteratorNextCommand,
    KerasGeneratorBatchesCommand,
    Keras1LayerArgumentsCommand,
    Keras1MergeCallsCommand,
    KerasModulePathsCommand,
    KerasLayerWeightsCommand,
    KerasLayerSizesCommand,
    KerasStatefulModelsCommand,
    KerasWeightFilesCommand,
    KerasCustomLayersCommand,
    KerasCallbackArgumentsCommand,
    KerasAccuracyKeysCommand,
    KerasBackendValuesCommand,
    KerasBackendFunctionCommand,
    KerasBackendOpsCommand,
    KerasBackendTfCommand,
    KerasTensorShapesCommand,
    KerasModelAddLossCommand,
    # after every command with a statement-level leave: it puts lines before statements
    KerasCompileStateCommand,
    NumpyRemovedNamesCommand,
    NumpyRemovedCallsCommand,
    ScipyRemovedModulesCommand,
    TfPrivateImportsCommand,
    ContribRnnCommand,
    ContribEagerCommand,
    ContribLayersCommand,
    ContribSeq2seqCommand,
    ContribLegacySeq2seqCommand,
    Tf1KeywordArgumentsCommand,
    Tf1NameImportsCommand,
    # last: they decide on the module the others left
    Tf1CompatCommand,
    Tf1LegacyKerasCommand,
)


def commands_for(
    code: str, tree: ast.Module | None = None, *, upgrade: bool = False
) -> tuple[type[MigrationCommand], ...]:
    """The commands whose pre-check finds something in ``code``, in the order they run.

    ``tree``: ``code`` parsed by :mod:`ast`, where the caller has it.  ``upgrade``: with the
    Keras 2 / TF1 API rewrites (``MigrationCommand.UPGRADE``).
    """
    return tuple(
        command
        for command in COMMANDS
        if (upgrade or not command.UPGRADE) and command.wanted(code, tree)
    )


def command_name(command: type[MigrationCommand]) -> str:
    """The name of a command: its module's (``gpu_discovery``)."""
    return command.__module__.rpartition(".")[2]


def commands_table() -> str:
    """The Markdown table of the commands, in their order, as ``docs/migrate.md`` lists them."""
    rows = [
        "| command | what it does | with `--gpu-only` |",
        "|---|---|---|",
    ]
    for command in COMMANDS:
        gpu_only = "no" if command.UPGRADE else "yes"
        rows.append(f"| `{command_name(command)}` | {command.DESCRIPTION} | {gpu_only} |")
    return "\n".join(rows) + "\n"
