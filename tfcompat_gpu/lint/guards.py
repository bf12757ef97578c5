"""Code that runs only where a name exists: guarded imports, probes and version branches.

Libraries that support TensorFlow 1 and 2 at once keep the TensorFlow 1 spelling where it
cannot run on TensorFlow 2::

    try:
        from tensorflow.contrib import slim          # TensorFlow 1
    except ImportError:
        import tf_slim as slim                       # TensorFlow 2

    try:
        list_gpus = tf.config.experimental.list_physical_devices    # TensorFlow >= 1.14
    except AttributeError:
        ...

    if get_tf_version_tuple() <= (1, 12):
        regularizer = tf.contrib.layers.l2_regularizer

A ``try`` that imports only names TensorFlow 2 still has makes its ``except ImportError`` arm an
older release's fallback (:func:`fallback_handlers`): the imports there are guarded too.

A TensorFlow 2 arm that leaves the block (``if is_tf2: return ...``, ``raise``, ``continue``,
``break``, ``sys.exit()``) makes the statements after the ``if`` TensorFlow 1 code as well, and so
does a first statement calling a function of the module that raises on TensorFlow 2
(``def err_if_tf2(): if is_tf2: raise ImportError(...)``, then ``err_if_tf2()`` at the top of
each function that imports from ``tensorflow.contrib``).

Graph code behind ``if tf.executing_eagerly():`` (true on TensorFlow 2) counts as the TensorFlow 1
arm, so does the TensorFlow 1 side of a conditional expression (``tf.global_variables() if not
is_tf2 else tf.compat.v1.global_variables()``) and the body of a private helper that only such
arms call (:func:`tf1_helpers`).  Both arms of an ``if hasattr(tf, "ConfigProto"):`` probe
(:func:`probes`), and what follows one whose body leaves the block, are guarded like a ``try``
catching AttributeError.

The walk (:mod:`.walker`) asks :func:`try_guards` of each ``try`` and :func:`tf1_arm` of each
``if``, and counts how many such guards enclose the statement it is in
(:attr:`FileContext.guards <tfcompat_gpu.lint.context.FileContext.guards>`); reporting a name
that is missing on TensorFlow 2 (:data:`MAYBE_ABSENT`) is skipped inside them.  A ``try``
catching everything (``except:``, ``except Exception``) guards its imports, not its other
statements: a training loop wrapped in ``except Exception`` still has its ``tf.Session`` reported.
"""

from __future__ import annotations

import ast
import re

from tfcompat_gpu.lint.registry import RULES
from tfcompat_gpu.tfapi.keras_names import KERAS_MOVED_MODULES

__all__ = [
    "ATTR",
    "FALLBACK",
    "IMPORT",
    "MAYBE_ABSENT",
    "TF1",
    "fallback_handlers",
    "guarded",
    "leaves",
    "leaves_on_tf2",
    "probes",
    "raisers_on_tf2",
    "tf1_arm",
    "tf1_helpers",
    "try_guards",
]

IMPORT, ATTR, TF1, FALLBACK = range(4)
"""Guard kinds: imports in a ``try`` that catches ImportError; names in a ``try`` that catches
AttributeError; anything in the TensorFlow 1 arm of a version test; the ``except ImportError``
arm of a ``try`` importing only names TensorFlow 2 has (:func:`fallback_handlers`, counted with
IMPORT as well: an import binding there is an older release's, never TensorFlow 2's)."""

MAYBE_ABSENT = frozenset(rule.code for rule in RULES if rule.absent_name)
"""Rules about a name TensorFlow 2 / Keras 3 lacks (or deprecates), which a guard excuses."""

_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})
_ATTR_ERRORS = frozenset({"AttributeError"})


def _caught(handler: ast.ExceptHandler) -> list[str]:
    kind = handler.type
    if kind is None:
        return ["BaseException"]
    items = kind.elts if isinstance(kind, ast.Tuple) else [kind]
    names = []
    for item in items:
        if isinstance(item, ast.Name):
            names.append(item.id)
        elif isinstance(item, ast.Attribute):
            names.append(item.attr)  # builtins.ImportError
    return names


def try_guards(node: ast.Try) -> tuple[int, ...]:
    """The guard kinds a ``try`` gives its body."""
    found: set[int] = set()
    for handler in node.handlers:
        for name in _caught(handler):
            if name in _IMPORT_ERRORS:
                found.add(IMPORT)
            if name in _ATTR_ERRORS:
                found.add(ATTR)
    return tuple(sorted(found))


_ROOTS = frozenset({"tensorflow", "keras"})
_GONE = ("contrib", "tensorflow_backend", "examples.tutorials")


def _present(node: ast.stmt) -> bool | None:
    """Whether an import in a ``try`` body names a module TensorFlow 2 / Keras 3 still has
    (None: not a TensorFlow or Keras import)."""
    if isinstance(node, ast.Import):
        modules = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
        modules = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
    else:
        return None
    if modules[0].partition(".")[0] not in _ROOTS:
        return None
    return not any(
        module in KERAS_MOVED_MODULES or any(word in module for word in _GONE) for module in modules
    )


def fallback_handlers(node: ast.Try) -> bool:
    """Whether the handlers of ``node`` are the fallback for an older TensorFlow: its body
    only imports (and renames) names TensorFlow 2 still has, so its ``except ImportError`` arm
    runs only where an older release lacks them::

        try:
            from tensorflow.python.ops.rnn import static_rnn      # TensorFlow >= 1.2
        except ImportError:
            from tensorflow.contrib.rnn import static_rnn         # TensorFlow 1.1

    >>> fallback_handlers(ast.parse("try:\\n import tensorflow.python.ops.rnn as r\\n"
    ...     "except ImportError:\\n import tensorflow.contrib.rnn as r").body[0])
    True
    >>> fallback_handlers(ast.parse("try:\\n import tensorflow.contrib.slim as s\\n"
    ...     "except ImportError:\\n import tf_slim as s").body[0])
    False
    """
    found = False
    for stmt in node.body:
        present = _present(stmt)
        if present is False:
            return False
        if present is None:
            if not (
                isinstance(stmt, ast.Assign) and isinstance(stmt.value, (ast.Name, ast.Attribute))
            ):
                return False
        else:
            found = True
    return found


def guarded(guards: list[int], code: str, node: ast.AST) -> bool:
    """Whether a finding ``code`` at ``node`` is excused by the guards around it."""
    if code not in MAYBE_ABSENT:
        return False
    if guards[TF1]:
        return True
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return guards[IMPORT] > 0
    return guards[ATTR] > 0


# -- version tests ---------------------------------------------------------------------------

# A TensorFlow version: tf.__version__, tf.version.VERSION, get_tf_version_tuple(), TF_version,
# tensorflow_version...; a flag saying TensorFlow 2 (is_tf2, TF2, tf2.enabled(), _IS_TF_2).
_VERSION = re.compile(r"(?i)^_*(?:tf|tensorflow)_?(?:version|ver)|^_*(?:get_)?tf_version")
_TF2_FLAG = re.compile(r"(?i)^_*(?:is_|use_|using_)?(?:tf|tensorflow)_?v?2(?:_enabled)?$")
_TF1_FLAG = re.compile(r"(?i)^_*(?:is_|use_|using_)?(?:tf|tensorflow)_?v?1x?$")
# tf.executing_eagerly(), context.executing_eagerly(), a helper _executing_eagerly(): true on
# TensorFlow 2 (outside a tf.function); graph code runs where it is false.
_EAGER = frozenset(
    {"executing_eagerly", "_executing_eagerly", "executing_eagerly_outside_functions"}
)


def _names(node: ast.AST) -> list[str]:
    """The names and dotted attribute chains in ``node`` (``tf.__version__``, ``is_tf2``)."""
    found = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            found.append(sub.id)
        elif isinstance(sub, ast.Attribute):
            base = sub.value
            found.append(f"{base.id}.{sub.attr}" if isinstance(base, ast.Name) else sub.attr)
    return found


def _is_version(node: ast.AST) -> bool:
    for name in _names(node):
        if _VERSION.search(name.replace(".", "_")) or name.endswith(
            ("tf.__version__", "tensorflow.__version__", "version.VERSION", "tf.VERSION")
        ):
            return True
    return False


def _number(node: ast.AST) -> tuple[int, ...] | None:
    """``(1, 12)``, ``2``, ``2.0``, ``"1.15"``, ``LooseVersion("2.0")`` as a version tuple."""
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
        node = node.args[0]  # LooseVersion("2.0"), version.parse("2"), Version("2.4")
    if isinstance(node, ast.Tuple):
        parts = [e.value for e in node.elts if isinstance(e, ast.Constant)]
        if len(parts) == len(node.elts) and all(type(p) is int for p in parts):
            return tuple(parts)  # type: ignore[arg-type]
        return None
    if not isinstance(node, ast.Constant) or isinstance(node.value, bool):
        return None
    value = node.value
    if isinstance(value, int):
        return (value,)
    if isinstance(value, (float, str)):
        match = re.match(r"(\d+)(?:\.(\d+))?", str(value))
        if match:
            return tuple(int(g) for g in match.groups() if g is not None)
    return None


_SWAP = {ast.Lt: ast.Gt, ast.LtE: ast.GtE, ast.Gt: ast.Lt, ast.GtE: ast.LtE}
_TWO = (2,)


def _compare_arm(node: ast.Compare) -> int:
    """1: true only on TensorFlow 1; 2: true only on TensorFlow 2 or later; 0: cannot tell."""
    if len(node.ops) != 1:
        return 0
    left, right, op = node.left, node.comparators[0], type(node.ops[0])
    if not _is_version(left):
        if not _is_version(right):
            return 0
        left, right, op = right, left, _SWAP.get(op, op)
    number = _number(right)
    if number is None:
        return 0
    # A subscript ([0]) or a split major compares the major alone.
    if isinstance(left, ast.Subscript) or (
        isinstance(left, ast.Call) and _names(left)[:1] == ["int"]
    ):
        number = number[:1]
    padded = number + (0,) * (2 - len(number))
    if op is ast.Lt:
        return 1 if padded <= (2, 0) else 0
    if op is ast.LtE:
        return 1 if padded < (2, 0) else 0
    if op is ast.GtE:
        return 2 if padded >= (2, 0) else 0
    if op is ast.Gt:
        return 2 if number[0] >= 2 else 0
    if op in (ast.Eq, ast.NotEq):
        side = 1 if number[0] == 1 else 2 if number[0] >= 2 else 0
        return side if op is ast.Eq or not side else 3 - side
    return 0


def _arm(test: ast.AST) -> int:
    cls = test.__class__
    if cls is ast.UnaryOp and isinstance(test.op, ast.Not):  # type: ignore[attr-defined]
        inner = _arm(test.operand)  # type: ignore[attr-defined]
        return 3 - inner if inner else 0
    if cls is ast.Compare:
        return _compare_arm(test)  # type: ignore[arg-type]
    if cls is ast.BoolOp:
        arms = [_arm(value) for value in test.values]  # type: ignore[attr-defined]
        if isinstance(test.op, ast.And):  # type: ignore[attr-defined]
            # a and b: true only where each part is; one known part decides.
            known = {a for a in arms if a}
            return known.pop() if len(known) == 1 else 0
        # a or b: true only on TensorFlow 1 where each part is; always true on TensorFlow 2
        # where one part is (``ps_device == "gpu" or tf_version >= (2, 0)``: the else arm is
        # TensorFlow 1 code).
        if all(a == 1 for a in arms):
            return 1
        return 2 if 2 in arms and 1 not in arms else 0
    if cls is ast.Call:
        func = test.func  # type: ignore[attr-defined]
        if isinstance(func, ast.Attribute) and func.attr == "startswith" and test.args:  # type: ignore[attr-defined]
            if _is_version(func.value):
                number = _number(test.args[0])  # type: ignore[attr-defined]
                if number is not None:
                    return 1 if number[0] == 1 else 2 if number[0] >= 2 else 0
            return 0
        if isinstance(func, ast.Attribute) and func.attr == "enabled":
            names = _names(func.value)
            return 2 if names and names[0] == "tf2" else 0  # tensorflow.python.tf2.enabled()
        if test.args:  # type: ignore[attr-defined]
            return 0
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return 2 if name in _EAGER else _arm(func)
    if cls is ast.Name or cls is ast.Attribute:
        name = test.id if cls is ast.Name else test.attr  # type: ignore[attr-defined]
        if _TF2_FLAG.match(name):
            return 2
        if _TF1_FLAG.match(name):
            return 1
    return 0


def tf1_arm(test: ast.AST) -> int:
    """Which arm of ``if test:`` runs only on TensorFlow 1: 1 the body, 2 the ``else``, 0 neither
    (or not known).

    >>> tf1_arm(ast.parse("get_tf_version_tuple() <= (1, 12)").body[0].value)
    1
    >>> tf1_arm(ast.parse("not is_tf2").body[0].value)
    1
    >>> tf1_arm(ast.parse("tf.__version__.startswith('2')").body[0].value)
    2
    >>> tf1_arm(ast.parse("tf.executing_eagerly()").body[0].value)
    2
    """
    arm = _arm(test)
    return 1 if arm == 1 else 2 if arm == 2 else 0


def probes(test: ast.AST, aliases: dict[str, str]) -> bool:
    """Whether ``test`` asks ``hasattr`` (or ``getattr`` with a false default) of a TensorFlow /
    Keras module: ``if hasattr(tf, "ConfigProto")`` runs its body only where the name exists, and its ``else`` only where it
    does not, so each arm is written for the TensorFlow that has (or lacks) the name.

    >>> probes(ast.parse("hasattr(tf.random, 'set_seed')").body[0].value, {"tf": "tensorflow"})
    True
    >>> probes(ast.parse("hasattr(args, 'gpu')").body[0].value, {"tf": "tensorflow"})
    False
    >>> probes(ast.parse("getattr(tf, 'set_random_seed', None)").body[0].value, {"tf": "tensorflow"})
    True
    """
    for sub in ast.walk(test):
        if (
            isinstance(sub, ast.Call)
            and isinstance(sub.func, ast.Name)
            and (
                (sub.func.id == "hasattr" and len(sub.args) == 2)
                # getattr(tf, "set_random_seed", None): false where the name is missing
                or (
                    sub.func.id == "getattr"
                    and len(sub.args) == 3
                    and isinstance(sub.args[2], ast.Constant)
                    and not sub.args[2].value
                )
            )
        ):
            root = sub.args[0]
            while root.__class__ is ast.Attribute:
                root = root.value
            if root.__class__ is ast.Name and root.id in aliases:
                return True
    return False


# -- early exits -----------------------------------------------------------------------------

_EXITS = (ast.Return, ast.Raise, ast.Continue, ast.Break)
_EXIT_CALLS = frozenset({"exit", "quit", "sys.exit", "os._exit"})


def leaves(body: list[ast.stmt]) -> bool:
    """Whether a block always leaves: it ends in ``return``, ``raise``, ``continue``,
    ``break`` or an exit call (``sys.exit()``)."""
    if not body:
        return False
    last = body[-1]
    if isinstance(last, _EXITS):
        return True
    if isinstance(last, ast.Expr) and isinstance(last.value, ast.Call):
        func = last.value.func
        name = (
            func.id
            if isinstance(func, ast.Name)
            else f"{func.value.id}.{func.attr}"
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            else ""
        )
        return name in _EXIT_CALLS
    return False


def leaves_on_tf2(node: ast.If, arm: int) -> bool:
    """Whether the TensorFlow 2 arm of ``node`` (``arm`` as :func:`tf1_arm` gave it) always
    leaves the block, so that what follows the ``if`` runs only on TensorFlow 1."""
    return leaves(node.orelse if arm == 1 else node.body)


def _raises_on_tf2(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for stmt in func.body:
        if isinstance(stmt, ast.If):
            arm = tf1_arm(stmt.test)
            if arm:
                tf2 = stmt.orelse if arm == 1 else stmt.body
                if any(isinstance(sub, ast.Raise) for part in tf2 for sub in ast.walk(part)):
                    return True
    return False


def raisers_on_tf2(tree: ast.AST) -> frozenset[str]:
    """The module-level functions of ``tree`` that raise on TensorFlow 2: a statement of
    their body is an ``if`` whose TensorFlow 2 arm raises (``if is_tf2: raise ImportError``).

    >>> raisers_on_tf2(ast.parse("def need_tf1():\\n    if is_tf2:\\n        raise ImportError"))
    frozenset({'need_tf1'})
    """
    body = tree.body if isinstance(tree, ast.Module) else []
    return frozenset(
        stmt.name
        for stmt in body
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and _raises_on_tf2(stmt)
    )


# A word a version test needs: tf.__version__, VERSION, is_tf2, TF1, tf_version(), tf.executing_eagerly().
_VERSION_WORD = re.compile(
    r"__version__|VERSION|executing_eagerly|(?i:tf|tensorflow)_?(?:v?[12]|ver)"
)


def tf1_helpers(tree: ast.AST, source: str | None = None) -> frozenset[ast.stmt]:
    """The module's private functions (``def _pin_gpu_tf1(): ...``) named only in the TensorFlow
    1 arms of version tests (``_pin_gpu_tf2() if is_tf2 else _pin_gpu_tf1()``): their bodies are
    TensorFlow 1 code.  A public function may be called from other modules, so only names
    starting with ``_`` count.

    >>> tree = ast.parse("def _old(): pass\\nconfig = _new() if is_tf2 else _old()")
    >>> [f.name for f in tf1_helpers(tree)]
    ['_old']
    """
    body = tree.body if isinstance(tree, ast.Module) else []
    helpers = {
        stmt.name: stmt
        for stmt in body
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name[:1] == "_"
    }
    if not helpers or (source is not None and _VERSION_WORD.search(source) is None):
        return frozenset()
    inside: set[str] = set()
    outside: set[str] = set()
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, tf1 = stack.pop()
        cls = node.__class__
        if cls is ast.Name:
            if node.id in helpers:  # type: ignore[attr-defined]
                (inside if tf1 else outside).add(node.id)  # type: ignore[attr-defined]
            continue
        if cls is ast.If or cls is ast.IfExp:
            arm = tf1_arm(node.test)  # type: ignore[attr-defined]
            if arm:
                then, other = node.body, node.orelse  # type: ignore[attr-defined]
                stack.append((node.test, tf1))  # type: ignore[attr-defined]
                for part in then if isinstance(then, list) else [then]:
                    stack.append((part, tf1 or arm == 1))
                for part in other if isinstance(other, list) else [other]:
                    stack.append((part, tf1 or arm == 2))
                continue
        stack.extend((child, tf1) for child in ast.iter_child_nodes(node))
    return frozenset(helpers[name] for name in inside - outside)
