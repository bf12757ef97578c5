"""The parser boundary of ``migrate`` and ``check``, over generated hostile programs.

Deep nesting, long ``and``/``or`` chains, huge literals, form feeds and every binding form
of the names a GPU configuration uses, around a legacy configuration: ``migrate`` either
migrates the file or refuses it with one of its documented errors (never a crash of the
process, a hang or another exception), the focused migration is the whole-file one wherever
the whole file can go to LibCST, and ``check`` reports on every file without raising.
"""

from __future__ import annotations

import ast
import sys

import pytest

pytest.importorskip("libcst")
pytest.importorskip("hypothesis")

import libcst
from binding_forms import available
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tfcompat_gpu.codemod._engine import _migrate
from tfcompat_gpu.codemod._limits import TooComplex, check_statements
from tfcompat_gpu.codemod.api import migrate_source
from tfcompat_gpu.codemod.commands import commands_for
from tfcompat_gpu.lint.engine import check_bytes

HEADS = [
    "import tensorflow as tf\n"
    "config = tf.ConfigProto()\n"
    "config.gpu_options.allow_growth = True\n"
    "sess = tf.Session(config=config)\n",
    "import tensorflow as tf\n"
    "from keras import backend as K\n"
    "config = tf.compat.v1.ConfigProto(log_device_placement=True)\n"
    "K.set_session(tf.compat.v1.Session(config=config))\n",
    "import tensorflow as tf\n"
    "gpus = tf.config.experimental.list_physical_devices('GPU')\n"
    "tf.config.experimental.set_memory_growth(gpus[0], True)\n",
]
NAMES = ["config", "sess", "tf", "gpus", "K", "other"]


def _chain(n: int, operator: str) -> str:
    return f" {operator} ".join(["config"] + ["x"] * (n - 1))


@st.composite
def hostile(draw: st.DrawFn) -> str:
    """One hostile statement (or a few lines) that Python may or may not accept."""
    kind = draw(
        st.sampled_from(
            ["chain", "nested", "prefix", "attribute", "literal", "number", "binding", "plain"]
        )
    )
    if kind == "chain":
        n = draw(st.sampled_from([2, 50, 299, 301, 399, 2_000, 8_000, 12_000]))
        return f"ready = {_chain(n, draw(st.sampled_from(['and', 'or'])))}\n"
    if kind == "nested":
        depth = draw(st.sampled_from([5, 60, 150, 199, 201]))
        opening, closing = draw(st.sampled_from([("(", ")"), ("[", "]"), ("f(", ")")]))
        return f"deep = {opening * depth}config{closing * depth}\n"
    if kind == "prefix":
        depth = draw(st.sampled_from([10, 299, 301, 420, 900]))
        return f"deep = {draw(st.sampled_from(['not ', '-', '~', 'lambda: '])) * depth}sess\n"
    if kind == "attribute":
        depth = draw(st.sampled_from([10, 299, 301, 450, 900]))
        return f"deep = config{draw(st.sampled_from(['.a', '[0]', '()'])) * depth}\n"
    if kind == "literal":
        size = draw(st.sampled_from([10, 10_000, 200_000]))
        return f"DATA = {draw(st.sampled_from(['repr', 'list', 'bytes']))}({'x' * size!r})\n"
    if kind == "number":
        return f"BIG = {'9' * draw(st.sampled_from([10, 4_300, 4_301, 10_000]))}\n"
    if kind == "binding":
        _, template = draw(st.sampled_from(available()))
        return template.format(name=draw(st.sampled_from(NAMES)))
    return "print(config)\n"


def _with_form_feeds(code: str, where: list[int]) -> str:
    lines = code.splitlines(True)
    for index in where:
        if lines and index < len(lines) and lines[index].strip():
            line = lines[index]
            indent = len(line) - len(line.lstrip(" "))
            lines[index] = line[:indent] + "\f" + line[indent:]
    return "".join(lines)


@st.composite
def programs(draw: st.DrawFn) -> str:
    parts = [draw(st.sampled_from(HEADS))]
    for _ in range(draw(st.integers(1, 4))):
        statement = draw(hostile())
        if draw(st.booleans()):  # inside a function, one block down
            statement = "def wrapped():\n" + "".join(
                f"    {line}" for line in statement.splitlines(True)
            )
        parts.insert(draw(st.integers(0, len(parts))), statement)
        parts.insert(draw(st.integers(0, len(parts))), "def pad(x):\n    return x\n\n")
    code = "".join(parts)
    where = draw(st.lists(st.integers(0, code.count("\n")), max_size=3))
    return _with_form_feeds(code, where)


# what migrate_source may raise on a file it does not migrate (the CLI's "skipped" reasons)
REFUSALS = (SyntaxError, TooComplex, RecursionError, libcst.ParserSyntaxError)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(programs())
# a capture in a function's `match` named like the module's config (found by this test)
@example(
    "def pad(x):\n    return x\n\ndef wrapped():\n    match 1:\n        case config:\n"
    "            pass\nimport tensorflow as tf\nconfig = tf.ConfigProto()\n"
    "config.gpu_options.allow_growth = True\nsess = tf.Session(config=config)\n"
)
# a function's local named like an import the migration leaves unused (found by this test)
@example(
    "def pad(x):\n    return x\n\nimport tensorflow as tf\nfrom keras import backend as K\n"
    "config = tf.compat.v1.ConfigProto(log_device_placement=True)\n"
    "K.set_session(tf.compat.v1.Session(config=config))\ndef wrapped():\n    K = 1\n"
)
# a capture in a function above the import the migration leaves unused (found by this test)
@example(
    "def wrapped():\n    match 1:\n        case K:\n            pass\n"
    "def pad(x):\n    return x\n\nimport tensorflow as tf\nfrom keras import backend as K\n"
    "config = tf.compat.v1.ConfigProto(log_device_placement=True)\n"
    "K.set_session(tf.compat.v1.Session(config=config))\n"
)
def test_migrate_and_check_take_any_program_at_the_parser_boundary(code: str) -> None:
    assert check_bytes(code.encode("utf-8"), "hostile.py") is not None
    _focused_is_whole(code)


def _focused_is_whole(code: str, upgrade: bool = False) -> str | None:
    """The migrated code, after checking that the focused migration is the whole-file one;
    None when ``migrate`` refuses the file."""
    try:
        fast = migrate_source(code, upgrade=upgrade)
    except REFUSALS:
        return None
    compile(fast.code, "<migrated>", "exec")
    tree = ast.parse(code)
    try:
        check_statements(tree.body)  # the whole file may go to LibCST
    except TooComplex:
        return fast.code
    wanted = commands_for(code, tree, upgrade=upgrade)
    if not wanted:
        assert fast.code == code
        return fast.code
    limit = sys.getrecursionlimit()
    try:
        whole, notes = _migrate(code, wanted, "facade", "", set())
    except RecursionError:
        return fast.code
    finally:
        sys.setrecursionlimit(limit)
    assert (fast.code, fast.warnings) == (whole, notes)
    return fast.code


# A head whose migration drops ``from keras import backend as K`` (set_session was its only
# use), unless the statement put around it uses K: whether it does is decided by statements
# the focus may leave out of LibCST's input.
KERAS_HEAD = HEADS[1]
# ... and one whose config and session stay or go with the other uses of their names
CONFIG_HEAD = HEADS[0]
PAD = "def pad(x):\n    return x\n\n"
# (case, statement, least Python version): each binds, deletes, declares or reads {name}
# in a way whose meaning for the module-level name depends on its scope
SCOPED_USES: list[tuple[str, str, tuple[int, int]]] = [
    ("del-in-function", "def cleanup():\n    del {name}\n", (3, 0)),
    ("global-del", "def cleanup():\n    global {name}\n    del {name}\n", (3, 0)),
    ("del-at-module-level", "del {name}\n", (3, 0)),
    ("global-assign", "def reset():\n    global {name}\n    {name} = None\n", (3, 0)),
    (
        "nonlocal-then-nested-global",
        "def outer():\n    {name} = 1\n    def inner():\n        nonlocal {name}\n"
        "        def deepest():\n            global {name}\n            {name} = 2\n",
        (3, 0),
    ),
    (
        "nonlocal-then-global-in-a-class",
        "def outer():\n    {name} = 1\n    def inner():\n        nonlocal {name}\n"
        "        class Holder:\n            def get(self):\n                global {name}\n"
        "                {name} = 2\n",
        (3, 0),
    ),
    ("import-in-function", "def lazy():\n    import os as {name}\n    return {name}\n", (3, 0)),
    ("class-attribute", "class Holder:\n    {name} = 1\n", (3, 0)),
    (
        "class-attribute-then-method-reads-module-name",
        "class Holder:\n    {name} = 1\n    def get(self):\n        return {name}\n",
        (3, 0),
    ),
    (
        "class-attribute-then-comprehension-reads-module-name",
        "class Holder:\n    {name} = [1]\n    rows = [{name} for _ in range(2)]\n",
        (3, 0),
    ),
    ("augmented-local", "def bump():\n    {name} += 1\n", (3, 0)),
    ("augmented-global", "def bump():\n    global {name}\n    {name} += 1\n", (3, 0)),
    (
        "walrus-in-comprehension-then-read",
        "def pick():\n    print([({name} := y) for y in range(2)])\n    return {name}\n",
        (3, 8),
    ),
    (
        "comprehension-target-then-read",
        "def pick(xs):\n    print([{name} for {name} in xs])\n    return {name}\n",
        (3, 0),
    ),
    (
        "for-target",
        "def loop():\n    for {name} in range(2):\n        pass\n    return {name}\n",
        (3, 0),
    ),
    ("with-as", "def opened():\n    with open('x') as {name}:\n        return {name}\n", (3, 0)),
    (
        "except-as",
        "def guarded():\n    try:\n        pass\n    except OSError as {name}:\n        pass\n",
        (3, 0),
    ),
    ("argument", "def takes({name}=None):\n    return {name}\n", (3, 0)),
    ("lambda-argument", "pick = lambda {name}: {name}\n", (3, 0)),
    (
        "match-capture",
        "def pick():\n    match 1:\n        case {name}:\n            return {name}\n",
        (3, 10),
    ),
    ("match-capture-at-module-level", "match 1:\n    case {name}:\n        pass\n", (3, 10)),
    ("string-annotation", "def typed(x: '{name}.Tensor') -> '{name}':\n    return x\n", (3, 0)),
    ("typing-cast", "from typing import cast\nview = cast('{name}', None)\n", (3, 0)),
    ("exported", "__all__ = ['{name}', 'pad']\n", (3, 0)),
]

USES = [(case, statement) for case, statement, least in SCOPED_USES if sys.version_info >= least]


@pytest.mark.parametrize("where", ["before", "after"])
@pytest.mark.parametrize("name", ["K", "config", "sess"])
@pytest.mark.parametrize(("case", "statement"), USES, ids=[case for case, _ in USES])
def test_focused_migration_sees_every_scope_a_name_is_used_in(
    case: str, statement: str, name: str, where: str
) -> None:
    head = KERAS_HEAD if name == "K" else CONFIG_HEAD
    body = statement.format(name=name)
    code = body + PAD + head if where == "before" else head + PAD + body
    compile(code, case, "exec")
    for upgrade in (False, True):
        _focused_is_whole(code, upgrade)


def test_a_function_deleting_the_backend_name_keeps_its_import() -> None:
    # ``del K`` in a function reads the module's K for LibCST: the import stays
    code = "def cleanup():\n    del K\n" + PAD + KERAS_HEAD
    migrated = _focused_is_whole(code)
    assert migrated is not None
    assert "from keras import backend as K" in migrated
    assert "tfcompat_gpu.configure(log_device_placement=True)" in migrated


def test_a_method_reading_the_module_name_past_a_class_attribute_keeps_the_import() -> None:
    # a class body's names are not seen in its methods: ``K`` there is the import
    code = KERAS_HEAD + PAD + "class Holder:\n    K = 1\n    def get(self):\n        return K\n"
    migrated = _focused_is_whole(code)
    assert migrated is not None
    assert "from keras import backend as K" in migrated


def test_an_exported_name_keeps_its_import_even_when_only_a_comment_says_all() -> None:
    for tail in ("__all__ = ['K']\n", "# no __all__ here\nx = 1\n"):
        code = KERAS_HEAD + PAD + tail
        migrated = _focused_is_whole(code)
        assert migrated is not None
        assert ("from keras import backend as K" in migrated) is tail.startswith("__all__")


@pytest.mark.parametrize(
    "tail",
    ["def describe():\n    return 'a keras model'\n", "# trained with keras\nx = 1\n"],
    ids=["in-a-statement-left-out", "in-a-comment"],
)
def test_a_word_the_commands_look_for_in_the_file_counts_where_libcst_does_not_see_it(
    tail: str,
) -> None:
    # ``.optimizer.lr`` is Keras' (and renamed) only in a file that names keras somewhere
    code = "class Trainer:\n    def step(self):\n        return self.optimizer.lr\n"
    code += PAD * 4 + tail
    migrated = _focused_is_whole(code, upgrade=True)
    assert migrated is not None
    assert "self.optimizer.learning_rate" in migrated
