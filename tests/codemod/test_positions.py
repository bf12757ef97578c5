"""The migration's position provider gives every node LibCST's ``PositionProvider`` numbers."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("libcst")

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from tfcompat_gpu.codemod._positions import SpanProvider

ROOT = Path(__file__).resolve().parents[2]
SNIPPETS = {
    "empty": "",
    "crlf": "import tensorflow as tf\r\nconfig = tf.ConfigProto()\r\n",
    "bare-cr": "x = 1\ry = 2\r",
    "tabs": "if True:\n\tx = (1,\n\t     2)\n",
    "non-ascii": 'gerät = "é ✓"  # Kommentar\nprint(gerät)\n',
    "f-string": "x = 1\nprint(f'{x!r:>{x}} and {x + 1}')\n",
    "decorated": "@a.b(1)\n@c\ndef f(*, x=1, **k) -> int:\n    return x\n",
    "semicolons": "a = 1; b = 2;  c = 3\n",
    "continuation": "x = 1 + \\\n    2\n",
    "parenthesized": "y = ((a).b)(c)[d]\n",
    "comments": "# head\n\n\ndef f():  # why\n    # body\n    pass  # end\n# tail",
    "no-final-newline": "import os\nprint(os.sep)",
    "async": "async def f():\n    async with a as b:\n        await b\n",
    "walrus-lambda": "if (n := len(x)) > 1:\n    f = lambda y, *z: (y, z)\n",
}


def _files() -> list[Path]:
    found = sorted((ROOT / "legacy_examples").rglob("*.py"))
    found += sorted((ROOT / "tests" / "codemod").rglob("*.py"))
    return found + sorted((ROOT / "tfcompat_gpu" / "codemod").rglob("*.py"))


def _same(code: str) -> int:
    wrapper = MetadataWrapper(cst.parse_module(code), unsafe_skip_copy=True)
    expected = wrapper.resolve(PositionProvider)
    spans = wrapper.resolve(SpanProvider)
    assert set(spans) == set(expected)
    for node, where in expected.items():
        start, end = where.start, where.end
        assert spans[node] == (start.line, start.column, end.line, end.column), node
    return len(expected)


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_same_numbers_as_libcst_on_odd_code(name: str) -> None:
    _same(SNIPPETS[name])


def test_same_numbers_as_libcst_on_the_projects_code() -> None:
    files = _files()
    assert len(files) > 40
    nodes = sum(_same(path.read_text(encoding="utf-8")) for path in files)
    assert nodes > 10_000
