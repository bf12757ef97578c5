"""The migration example in the README is what ``tfcompat-gpu migrate`` writes."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("libcst")

from tests._child import ROOT
from tfcompat_gpu.codemod.api import migrate_source


def test_readme_before_after_is_the_migration() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("<!-- migrate:start -->")[1].split("<!-- migrate:end -->")[0]
    block = re.search(r"```python\n# before\n(.*?)\n# after\n(.*?)```", section, re.S)
    assert block is not None, section
    before, after = block[1].strip("\n") + "\n", block[2]
    assert migrate_source(before).code == after
    for command in (
        "tfcompat-gpu migrate ",
        "--write",
        "--check",
        "--target tf2",
        "docs/migrate.md",
    ):
        assert command in section


def test_migrate_doc_soft_placement_removal_is_the_migration() -> None:
    doc = (ROOT / "docs" / "migrate.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n# before\n(.*?)\n# after\n(.*?)```", doc, re.S)
    soft = [(b, a) for b, a in blocks if "set_soft_device_placement = False" in b]
    assert len(soft) == 1, blocks
    before, after = soft[0]
    header = "import tensorflow as tf\n"
    assert migrate_source(header + before.strip("\n") + "\n").code == header + after


def _doc_blocks(text: str) -> list[tuple[str, str]]:
    return re.findall(r"```python\n# before\n(.*?)\n# after\n(.*?)```", text, re.S)


@pytest.mark.parametrize("where", ["README.md", "docs/migrate.md"])
def test_conditional_horovod_and_xla_amp_examples_are_the_migration(where: str) -> None:
    text = (ROOT / where).read_text(encoding="utf-8")
    blocks = [(b, a) for b, a in _doc_blocks(text) if "hvd.local_rank()" in b or "ON_1" in b]
    assert len(blocks) >= 1, where
    header = "import tensorflow as tf\nimport tfcompat_gpu\n"
    for before, after in blocks:
        migrated = migrate_source(header + before.strip("\n") + "\n")
        assert migrated.warnings == ()
        assert migrated.code == header + after


def test_migrate_doc_lists_every_command_as_the_commands_describe_themselves() -> None:
    from tfcompat_gpu.codemod.commands import commands_table

    doc = (ROOT / "docs" / "migrate.md").read_text(encoding="utf-8")
    listed = doc.split("<!-- commands:start -->\n")[1].split("<!-- commands:end -->")[0]
    assert listed == commands_table(), (
        "docs/migrate.md: replace the table with\n" + commands_table()
    )
