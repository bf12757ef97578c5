"""Every way a Python program binds a name, as statements binding ``{name}`` (for the focus
tests: a statement left out of LibCST's input must never bind a name the kept code uses)."""

from __future__ import annotations

import sys

# (form, statement template, least Python version)
BINDING_FORMS: list[tuple[str, str, tuple[int, int]]] = [
    ("assign", "{name} = 1\n", (3, 0)),
    ("tuple", "(a, (b, {name})) = 1, (2, 3)\n", (3, 0)),
    ("star", "*{name}, = [1]\n", (3, 0)),
    ("augassign", "{name} += 1\n", (3, 0)),
    ("annassign", "{name}: int = 1\n", (3, 0)),
    ("walrus", "print({name} := 1)\n", (3, 8)),
    ("walrus-in-comprehension", "print([({name} := y) for y in range(2)])\n", (3, 8)),
    ("comprehension", "print([{name} for {name} in range(2)])\n", (3, 0)),
    ("for", "for {name} in range(2):\n    pass\n", (3, 0)),
    ("for-else", "for _ in []:\n    pass\nelse:\n    {name} = 2\n", (3, 0)),
    ("with", "with open('x') as {name}:\n    pass\n", (3, 0)),
    ("with-tuple", "with open('x') as ({name}, b):\n    pass\n", (3, 0)),
    ("import", "import os as {name}\n", (3, 0)),
    ("from-import", "from os import path as {name}\n", (3, 0)),
    ("global", "def g():\n    global {name}\n    {name} = 1\n", (3, 0)),
    (
        "global-nested",
        "class K:\n    def g(self):\n        global {name}\n        {name} = 1\n",
        (3, 0),
    ),
    ("del", "del {name}\n", (3, 0)),
    ("class", "class {name}:\n    pass\n", (3, 0)),
    ("def", "def {name}():\n    pass\n", (3, 0)),
    ("async-def", "async def {name}():\n    pass\n", (3, 5)),
    ("decorated-def", "@staticmethod\ndef {name}():\n    pass\n", (3, 0)),
    ("if-branch", "if __debug__:\n    {name} = 1\n", (3, 0)),
    ("while", "while False:\n    {name} = 1\n", (3, 0)),
    ("except-as", "try:\n    pass\nexcept OSError as {name}:\n    pass\n", (3, 0)),
    ("except-star-as", "try:\n    pass\nexcept* OSError as {name}:\n    pass\n", (3, 11)),
    ("match-capture", "match 1:\n    case {name}:\n        pass\n", (3, 10)),
    ("match-sequence", "match 1:\n    case [{name}, *_]:\n        pass\n", (3, 10)),
    ("match-star", "match 1:\n    case [*{name}]:\n        pass\n", (3, 10)),
    ("match-mapping-rest", "match 1:\n    case {{**{name}}}:\n        pass\n", (3, 10)),
    ("match-as", "match 1:\n    case int() as {name}:\n        pass\n", (3, 10)),
    ("match-class-keyword", "match 1:\n    case complex(real={name}):\n        pass\n", (3, 10)),
    ("match-or", "match 1:\n    case [{name}] | ({name}, _):\n        pass\n", (3, 10)),
    ("type-alias", "type {name} = int\n", (3, 12)),
    ("type-parameter", "def h[{name}](x: {name}) -> {name}:\n    return x\n", (3, 12)),
    ("lambda-default", "h = lambda {name}=1: {name}\n", (3, 0)),
]


def available() -> list[tuple[str, str]]:
    """(form, template) of the forms this Python parses."""
    return [(form, text) for form, text, least in BINDING_FORMS if sys.version_info >= least]
