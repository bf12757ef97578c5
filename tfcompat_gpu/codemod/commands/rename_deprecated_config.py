"""Rename deprecated ``tf.config.experimental`` functions to their current names."""

from __future__ import annotations

from typing import ClassVar

import libcst as cst
from libcst.metadata import ProviderT, ScopeProvider

from tfcompat_gpu.codemod._base import MigrationCommand
from tfcompat_gpu.codemod._names import prefix_for
from tfcompat_gpu.codemod._triage import RENAME_PRECHECK
from tfcompat_gpu.tfapi.names import DEPRECATED_NAMES

__all__ = ["RENAMES", "RenameDeprecatedConfigCommand"]

# deprecated canonical name -> current canonical name; the lint reports the same names
RENAMES: dict[str, str] = DEPRECATED_NAMES


class RenameDeprecatedConfigCommand(MigrationCommand):
    DESCRIPTION: str = (
        "Rename deprecated tf.config.experimental device functions to their tf.config names."
    )
    PRECHECK: ClassVar[str | None] = RENAME_PRECHECK
    # names only: a file that needs nothing else is spared the position pass
    METADATA_DEPENDENCIES: ClassVar[tuple[ProviderT, ...]] = (ScopeProvider,)

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        for name in self.names_of(original_node):
            new = RENAMES.get(name)
            if new is None:
                continue
            prefix = prefix_for(original_node, name)
            if prefix is None:
                return updated_node
            replacement = cst.parse_expression(prefix + new.split(".", 1)[1])
            # keep parentheses the code had around the name
            return replacement.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
        return updated_node
