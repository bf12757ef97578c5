"""The engine's import adder gives what LibCST's own ``AddImportsVisitor`` gives."""

from __future__ import annotations

import pytest

pytest.importorskip("libcst")

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor

from tfcompat_gpu.codemod._imports import add_imports, need_import

MODULES = {
    "docstring": '"""Doc."""\nimport os\n\nx = 1\n',
    "strict": "__strict__ = True\nimport os\nx = 1\n",
    "already": '"""Doc."""\nimport tfcompat_gpu\nimport os\nx = 1\n',
    "already-aliased": "import tensorflow as tf\nimport tfcompat_gpu as tg\nx = 1\n",
    "other-alias": "import tensorflow as tensorflow_v1\nx = 1\n",
    "future": "from __future__ import annotations\nimport os\n",
    "after-code": "import os\nx = 1\nimport tfcompat_gpu\n",
    "nested": "import os\n\ndef f():\n    import tfcompat_gpu\n    return 1\n",
    "two-on-a-line": "import os; import tfcompat_gpu\nx = 1\n",
    "from-imports": "from os import path\nfrom tensorflow import keras\nx = 1\n",
    "comment-after": "import os\n# configure the GPU\nx = 1\n",
    "blank-after": "import os\n\n\nx = 1\n",
    "in-try": "try:\n    import tensorflow as tf\nexcept ImportError:\n    tf = None\n",
    "joined-docstring": '"""Doc." "more"""\nimport os\n',
    "no-imports": "def f():\n    pass\n",
    "crlf": "import os\r\nx = 1\r\n",
    "empty": "",
    "comment-only": "# a comment\n",
}
REQUESTS = {
    "plain": [("tfcompat_gpu", None)],
    "tensorflow": [("tensorflow", None)],
    "aliased": [("tensorflow", "tf")],
    "dotted": [("tensorflow.compat.v1", None)],
    "two": [("tfcompat_gpu", None), ("tensorflow", "tf"), ("os", None), ("os", None)],
}


@pytest.mark.parametrize("request_name", sorted(REQUESTS))
@pytest.mark.parametrize("name", sorted(MODULES))
def test_same_as_libcst(name: str, request_name: str) -> None:
    code = MODULES[name]
    libcst_context, own_context = CodemodContext(), CodemodContext()
    for module, asname in REQUESTS[request_name]:
        AddImportsVisitor.add_needed_import(libcst_context, module, asname=asname)
        need_import(own_context, module, asname)
    expected = cst.parse_module(code).visit(AddImportsVisitor(libcst_context)).code
    assert add_imports(cst.parse_module(code), own_context).code == expected
    for module, asname in REQUESTS[request_name]:
        assert f"import {module}" + (f" as {asname}" if asname else "") in expected


def test_nothing_asked_nothing_changed() -> None:
    module = cst.parse_module("import os\nx = 1\n")
    assert add_imports(module, CodemodContext()) is module
