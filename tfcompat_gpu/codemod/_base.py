"""What every migration command shares: the target, name lookup and warnings with a line."""

from __future__ import annotations

from typing import ClassVar, Literal

import libcst as cst
from libcst.codemod import CodemodContext, VisitorBasedCodemodCommand
from libcst.metadata import (
    ParentNodeProvider,
    PositionProvider,
    ProviderT,
    QualifiedNameProvider,
    ScopeProvider,
)

from tfcompat_gpu.codemod._names import imported_names

__all__ = ["TARGETS", "MigrationCommand", "Target"]

Target = Literal["facade", "tf2"]
TARGETS: tuple[Target, ...] = ("facade", "tf2")


class MigrationCommand(VisitorBasedCodemodCommand):
    """Base of the migration commands.

    Warnings are ``"LINE: message"`` strings in ``context.warnings``; the CLI prefixes the path.
    """

    DESCRIPTION: str = ""
    METADATA_DEPENDENCIES: ClassVar[tuple[ProviderT, ...]] = (
        PositionProvider,
        QualifiedNameProvider,
        ScopeProvider,
        ParentNodeProvider,
    )

    def __init__(self, context: CodemodContext, target: Target = "facade") -> None:
        super().__init__(context)
        if target not in TARGETS:
            raise ValueError(f"Expected target to be one of {TARGETS}. Received: target={target!r}")
        self.target: Target = target

    def line_of(self, node: cst.CSTNode) -> int:
        return self.get_metadata(PositionProvider, node).start.line

    def warn_at(self, node: cst.CSTNode, message: str) -> None:
        self.warn(f"{self.line_of(node)}: {message}")

    def names_of(self, node: cst.CSTNode) -> set[str]:
        return imported_names(self.get_metadata(QualifiedNameProvider, node, set()))

    def parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        parent: cst.CSTNode | None = self.get_metadata(ParentNodeProvider, node, None)
        return parent
