"""Rename deprecated ``tf.config.experimental`` functions to their current names."""

from __future__ import annotations

import re

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import prefix_for
from tfcompat_gpu.tfapi.names import DEPRECATED_NAMES

__all__ = ["RENAMES", "RenameDeprecatedConfigCommand"]

# deprecated canonical name -> current canonical name; the lint reports the same names
RENAMES: dict[str, str] = DEPRECATED_NAMES


# every deprecated name is spelled through ``config.experimental``
_DEPRECATED = re.compile(r"experimental")


class RenameDeprecatedConfigCommand(MigrationCommand):
    DESCRIPTION = (
        "Rename deprecated tf.config.experimental device functions to their tf.config names."
    )
    PRECHECK = Precheck.text(_DEPRECATED)
    # names only: a file that needs nothing else is spared the position pass
    POSITIONS = False

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

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
