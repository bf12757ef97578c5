"""A text test that tells, before any parsing, whether a file can hold a finding at all.

Every rule starts from something a file must spell out: a call registered by its qualified
name needs an import of its module (``tensorflow``, ``keras``...) or, for the standard modules
most files import (``os``), the attribute after it (``environ``, ``getenv``); a keyword
callback needs its keyword (``env``); a callback on a syntax node says which words the node
must hold.  The words come from the registrations themselves (:mod:`.dispatch`), so that a new
rule widens the test by itself: calls and keywords are read from their tables, and a node,
reference or end-of-file callback is looked up in :data:`HANDLER_WORDS`.  A callback missing
there turns the test off (every file is parsed) rather than hide a finding, and a test of the
suite fails until the callback's words are written down.

Most files of a mixed repository (PyTorch, data tooling, tests) mention none of these words:
they are read once and never parsed, which is most of what ``check`` saves on such a tree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from tfcompat_gpu.lint import rules as _rules  # noqa: F401  (registers the rule callbacks)
from tfcompat_gpu.lint.dispatch import (
    CALL_HANDLERS,
    END_HANDLERS,
    KEYWORD_HANDLERS,
    NODE_HANDLERS,
    REF_HANDLERS,
)
from tfcompat_gpu.lint.rules import configproto
from tfcompat_gpu.lint.tfcalls import TRACKED_ROOTS

__all__ = [
    "COMMON_ROOTS",
    "HANDLER_WORDS",
    "handler_name",
    "may_trigger",
    "undeclared_handlers",
    "words",
]

COMMON_ROOTS = frozenset({"os", "subprocess"})
"""Modules nearly every file imports: the attribute after them is the word to look for."""

_TF_ROOTS = tuple(sorted(TRACKED_ROOTS - COMMON_ROOTS))
_ENVIRON = ("environ", "getenv", "putenv", "unsetenv")

HANDLER_WORDS: dict[str, tuple[str, ...]] = {
    # Assignments to a ConfigProto field on any object, or to a name bound to a ConfigProto.
    "tfcompat_gpu.lint.rules.configproto._assign": (
        *sorted(configproto._PROCESS_WIDE | set(configproto._NUMERIC)),
        *_TF_ROOTS,
    ),
    # os.environ[...] = ..., its copies, and names bound to environment strings.
    "tfcompat_gpu.lint.rules.env._subscript": _ENVIRON,
    "tfcompat_gpu.lint.rules.env._compare": _ENVIRON,
    "tfcompat_gpu.lint.rules.env._assign": _ENVIRON,
    "tfcompat_gpu.lint.rules.distribute._cuda_visible": _ENVIRON,
    # Imports and references: resolved through an import of a TensorFlow-family module.
    "tfcompat_gpu.lint.rules.legacy._import": _TF_ROOTS,
    # ... or of a helper module star-imported (``from utils import *``), which brings ``tf`` and
    # ``K`` by convention (see the walker).
    "tfcompat_gpu.lint.rules.legacy._ref": (*_TF_ROOTS, "import *"),
    "tfcompat_gpu.lint.rules.multigpu._import": _TF_ROOTS,
    "tfcompat_gpu.lint.rules.multigpu._ref": _TF_ROOTS,
    "tfcompat_gpu.lint.rules.tfconfig._assign": _TF_ROOTS,
    "tfcompat_gpu.lint.rules.tfconfig._other_assign": _TF_ROOTS,
    "tfcompat_gpu.lint.rules.tfconfig._deprecated": _TF_ROOTS,
    # model.compile(distribute=...) on any object.
    "tfcompat_gpu.lint.rules.multigpu._start": (),
    "tfcompat_gpu.lint.rules.multigpu._compile": ("distribute",),
    "tfcompat_gpu.lint.rules.multigpu._assign": ("visible_device_list", "CUDA_VISIBLE_DEVICES"),
    # tf.config names, compat.v1 aliases, Keras sessions and models, tf.device statements,
    # GPUOptions copied into a ConfigProto, Keras 2 / TF1 names: all resolved through an import
    # of a TensorFlow-family module.
    "tfcompat_gpu.lint.rules.apinames._ref": _TF_ROOTS,
    "tfcompat_gpu.lint.rules.compat._assign": _TF_ROOTS,
    "tfcompat_gpu.lint.rules.keras_session._assign": _TF_ROOTS,
    "tfcompat_gpu.lint.rules.keras_session._ref": _TF_ROOTS,
    "tfcompat_gpu.lint.rules.keras_session._device_statement": _TF_ROOTS,
    "tfcompat_gpu.lint.rules.protocopy._assign": _TF_ROOTS,
    "tfcompat_gpu.lint.rules.protocopy._copy_from": _TF_ROOTS,
    "tfcompat_gpu.lint.rules.migration._import": _TF_ROOTS,
    "tfcompat_gpu.lint.rules.migration._import_from": _TF_ROOTS,
    "tfcompat_gpu.lint.rules.migration._tf1_name": _TF_ROOTS,
    # Keras 2 methods on any object (a model): the words its own text test looks for.
    "tfcompat_gpu.lint.rules.migration._method_calls": (
        "_generator",
        "nb_epoch",
        "save_weights",
        "predict_",
    ),
    # End-of-file callbacks judge only what the call callbacks above noted.
    "tfcompat_gpu.lint.rules.keras_session._end": (),
    "tfcompat_gpu.lint.rules.protocopy._end": (),
    "tfcompat_gpu.lint.rules.distribute._strategy_before_config": (),
    "tfcompat_gpu.lint.rules.multigpu._discovery_end": (),
    "tfcompat_gpu.lint.rules.tfconfig._growth_end": (),
    "tfcompat_gpu.lint.rules.env._late_end": (),
}
"""Words one of which a file must hold for a node, reference or end callback to report."""


def handler_name(func: Callable[..., object]) -> str:
    return f"{func.__module__}.{func.__qualname__}"


def _declared() -> Iterable[Callable[..., object]]:
    for handlers in NODE_HANDLERS.values():
        yield from handlers
    yield from REF_HANDLERS
    yield from END_HANDLERS


def undeclared_handlers() -> list[str]:
    """Node, reference and end callbacks whose words :data:`HANDLER_WORDS` does not give."""
    return sorted({handler_name(f) for f in _declared()} - set(HANDLER_WORDS))


def call_word(name: str) -> str:
    """The word any spelling of a call to ``name`` holds: the import of its module, or for
    ``os.environ.get`` & co. the attribute after the module."""
    root, _, rest = name.partition(".")
    if root in COMMON_ROOTS and rest:
        return rest.partition(".")[0]
    return root


def words() -> frozenset[str] | None:
    """Every word that can make a file worth parsing; None when a callback declares none."""
    found: set[str] = {call_word(name) for name in CALL_HANDLERS}
    found.update(KEYWORD_HANDLERS)
    for func in _declared():
        declared = HANDLER_WORDS.get(handler_name(func))
        if declared is None:
            return None
        found.update(declared)
    return frozenset(found)


_NEEDLES: tuple[bytes, ...] | None = None
_OFF = False


def _needles() -> tuple[bytes, ...] | None:
    global _NEEDLES, _OFF
    if _NEEDLES is None and not _OFF:
        found = words()
        if found is None:
            _OFF = True
            return None
        # A word holding another (``environ`` holds ``env``) adds nothing; the shorter words
        # that remain are searched one by one, which CPython's substring search does several
        # times faster than a regular expression of alternatives.
        kept = [w for w in found if not any(o != w and o in w for o in found)]
        _NEEDLES = tuple(w.encode("ascii") for w in sorted(kept))
    return _NEEDLES


def may_trigger(data: bytes) -> bool:
    """False when no rule can report anything in a Python source of these bytes.

    Substrings are enough (``keras`` in ``tf.keras`` and in a comment alike): the test only
    has to be cheap and never wrong in the one direction, and a file it lets through is
    parsed and checked as usual.  Every encoding Python reads source in is ASCII-compatible,
    so the ASCII words are found in the bytes themselves.
    """
    needles = _needles()
    if needles is None:
        return True
    return any(needle in data for needle in needles)
