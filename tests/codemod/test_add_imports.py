"""The engine's import adder gives what LibCST's own ``AddImportsVisitor`` gives, walking less."""

from __future__ import annotations

import pytest

pytest.importorskip("libcst")

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor

from tfcompat_gpu.codemod._engine import _AddImports

MODULES = {
    "docstring": '"""Doc."""\nimport os\n\nx = 1\n',
    "strict": "__strict__ = True\nimport os\nx = 1\n",
    "already": '"""Doc."""\nimport tfcompat_gpu\nimport os\nx = 1\n',
    "future": "from __future__ import annotations\nimport os\n",
    "after-code": "import os\nx = 1\nimport tfcompat_gpu\n",
    "nested": "import os\n\ndef f():\n    import tfcompat_gpu\n    return 1\n",
    "two-on-a-line": "import os; import tfcompat_gpu\nx = 1\n",
    "from-imports": "from os import path\nfrom tensorflow import keras\nx = 1\n",
    "no-imports": "def f():\n    pass\n",
    "empty": "",
    "comment-only": "# a comment\n",
}


@pytest.mark.parametrize("module", ["tfcompat_gpu", "tensorflow", "os"])
@pytest.mark.parametrize("name", sorted(MODULES))
def test_same_as_libcst(name: str, module: str) -> None:
    code = MODULES[name]
    outputs = []
    for adder in (AddImportsVisitor, _AddImports):
        context = CodemodContext()
        AddImportsVisitor.add_needed_import(context, module)
        outputs.append(cst.parse_module(code).visit(adder(context)).code)
    assert outputs[0] == outputs[1]
    assert f"import {module}" in outputs[1]
