"""Per-file state the rules share during one walk, and how a rule reports a finding."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from tfcompat_gpu.lint.flow import Flow, dotted_name
from tfcompat_gpu.lint.guards import ATTR, FALLBACK, TF1, guarded
from tfcompat_gpu.lint.registry import RULES_BY_CODE, Severity
from tfcompat_gpu.lint.tfcalls import CONFIG_FIELDS, TRACKED_ROOTS, display, for_target
from tfcompat_gpu.tfapi.names import keras2_tf

__all__ = [
    "EVENTS_KEPT",
    "Event",
    "FileContext",
    "Loop",
    "RawFinding",
    "Scope",
    "call_keywords",
    "expr_key",
]

_WATCHED = TRACKED_ROOTS | CONFIG_FIELDS
_KERAS_BACKEND = "keras.backend."


@dataclass(frozen=True)
class RawFinding:
    code: str
    line: int
    col: int
    """0-based, as in the AST."""
    message: str
    fix: str
    severity: Severity


@dataclass(frozen=True)
class Event:
    line: int
    label: str
    col: int = 0


@dataclass(frozen=True)
class Loop:
    targets: frozenset[str]
    iter_key: str | None


EVENTS_KEPT = 4
"""Events kept per scope: the first one may sit in a branch that excludes a later statement."""


class Scope:
    __slots__ = ("gpu_init", "started")

    def __init__(self) -> None:
        self.gpu_init: list[Event] = []
        self.started: list[Event] = []

    def note(self, event: Event, started: bool) -> None:
        if started and len(self.started) < EVENTS_KEPT:
            self.started.append(event)
        if len(self.gpu_init) < EVENTS_KEPT:
            self.gpu_init.append(event)


class FileContext:
    """Per-file state shared by the rules during one walk."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.findings: list[RawFinding] = []
        self.aliases: dict[str, str] = {}
        """Each import alias and the qualified name its latest binding gave it."""
        self.alternatives: dict[str, tuple[str, ...]] = {}
        """Aliases bound differently in the arms of an ``if`` / ``try`` (``from keras import
        backend as K`` in one, ``from tensorflow.python.keras import backend as K`` in the
        other): the qualified names of the other bindings the name may still hold, TensorFlow 1
        arms left out (see :meth:`bind`)."""
        self._bindings: dict[str, list[tuple[ast.stmt, str, bool]]] = {}
        self.flagged_aliases: set[str] = set()
        """Aliases whose import was already reported; their uses are not reported again."""
        self.loops: list[Loop] = []
        self.scopes: list[Scope] = [Scope()]
        self.eager_disabled = False
        self.state: dict[str, Any] = {}
        """Scratch space of the rules, keyed by rule module."""
        self.target: tuple[int, int] | None = None
        """The TensorFlow (major, minor) the project runs on; None: the latest."""
        self.tree: ast.AST | None = None
        self.source: str | None = None
        self._flow: Flow | None = None
        self.spelt: ast.expr | None = None
        """The function of the call being handed to the call callbacks (a name or an
        attribute chain), whose text messages show (see :meth:`shown`)."""
        self.watched: set[str] = set(_WATCHED)
        """Words whose presence makes a statement worth walking (see ``walk``)."""
        self._watch_changed = True
        self.tf2_raisers: frozenset[str] | None = None
        """The module's functions that raise on TensorFlow 2 (:func:`.guards.raisers_on_tf2`),
        found when a function first calls one; None until then."""
        self.tf1_helpers: frozenset[ast.stmt] | None = None
        """The module's private functions only TensorFlow 1 calls (:func:`.guards.tf1_helpers`),
        found at the first private function; None until then."""
        self.guards = [0, 0, 0, 0]
        """How many guards of each kind (:mod:`.guards`) enclose the statement being walked: a
        ``try`` catching ImportError, one catching AttributeError, a TensorFlow 1 version arm,
        an older release's fallback import."""

    def bind(self, name: str, qual: str, node: ast.stmt) -> None:
        """Bind the alias ``name`` to ``qual`` at the import ``node``.

        The latest binding is the alias (:attr:`aliases`); an earlier one that this import may
        not replace (it sits in another arm of an ``if``, or this one in the ``except`` of a
        ``try``) stays one of its :attr:`alternatives`, unless the guards make it TensorFlow 1
        code: a version test's TensorFlow 1 arm, an ``AttributeError`` probe, an older release's
        fallback import.
        """
        old = self.aliases.get(name)
        self.aliases[name] = qual
        guards = self.guards
        tf1 = bool(guards[TF1] or guards[ATTR] or guards[FALLBACK])
        sites = self._bindings.get(name)
        if old is None or sites is None:
            self._bindings[name] = [(node, qual, tf1)]
            return
        flow = self.flow
        live = [site for site in sites if flow.maybe_skipped(site[0], node)]
        live.append((node, qual, tf1))
        self._bindings[name] = live
        others = tuple(dict.fromkeys(q for _, q, old_tf1 in live if not old_tf1 and q != qual))
        if others:
            self.alternatives[name] = others
        else:
            self.alternatives.pop(name, None)

    def watch(self, name: str) -> None:
        """Walk every later statement that mentions ``name`` (a name a rule now tracks)."""
        if name not in self.watched:
            self.watched.add(name)
            self._watch_changed = True

    def star_import(self, node: ast.ImportFrom) -> None:
        """``from utils import *`` of a module not tracked: a file that reads ``tf`` / ``K`` /
        ``keras`` without binding them anywhere (an assignment, a parameter, a loop target, a
        function, an import) reaches TensorFlow and Keras through that import, so they are
        bound as the Keras 2 courses' helper modules bind them; an import of the file's own
        that comes later wins."""
        source = self.source
        wanted = [
            (name, qual)
            for name, qual in _CONVENTIONS
            if name not in self.aliases and (source is None or name + "." in source)
        ]
        if not wanted:
            return
        bound = _bound_names(self.tree) if self.tree is not None else set()
        for name, qual in wanted:
            if name not in bound:
                self.bind(name, qual, node)
                self.watch(name)

    def report(
        self,
        code: str,
        node: ast.AST,
        fix: str,
        severity: Severity | None = None,
        **fields: object,
    ) -> None:
        guards = self.guards
        if (guards[0] or guards[1] or guards[2]) and guarded(guards, code, node):
            return  # a name TensorFlow 2 lacks, where the code expects it may be missing
        rule = RULES_BY_CODE[code]
        message = rule.message.format(**fields)
        if self.target is not None:
            message, fix = for_target(message, self.target), for_target(fix, self.target)
        self.findings.append(
            RawFinding(
                code,
                getattr(node, "lineno", 1),
                getattr(node, "col_offset", 0),
                message,
                fix,
                severity or rule.severity,
            )
        )

    def resolve(self, node: ast.AST) -> str | None:
        """Qualified name of a ``Name`` / attribute chain through the import aliases."""
        parts: list[str] = []
        while node.__class__ is ast.Attribute:
            parts.append(node.attr)
            node = node.value
        if node.__class__ is not ast.Name:
            return None
        base = self.aliases.get(node.id)
        if base is None:
            return None
        if parts:
            parts.reverse()
            name = base + "." + ".".join(parts)
            # K.tf.Session: Keras 2's backend handed out the tensorflow module
            return keras2_tf(name) if name.startswith(_KERAS_BACKEND) else name
        return base

    def shown(self, name: str) -> str:
        """How a message names the call ``name`` being handled: as the file spells it
        (``tf.compat.v1.Session``, ``K.set_session``), else as :func:`display` writes it."""
        spelt = self.spelt
        if spelt is None:
            return display(name)
        return dotted_name(spelt) or display(name)

    @property
    def flow(self) -> Flow:
        """Which statements of this file can run together (built on first use)."""
        if self._flow is None:
            tree = self.tree if isinstance(self.tree, ast.Module) else ast.Module([], [])
            self._flow = Flow(tree, self.source)
        return self._flow

    def gpu_init_event(self, node: ast.AST) -> Event | None:
        """The first GPU enumeration before ``node`` on a path that also runs ``node``."""
        return self._event_before(node, True)

    def started_event(self, node: ast.AST) -> Event | None:
        """The first runtime start before ``node`` on a path that also runs ``node``."""
        return self._event_before(node, False)

    def _event_before(self, node: ast.AST, gpu_init: bool) -> Event | None:
        innermost = self.scopes[-1]
        for scope in reversed(self.scopes):
            for event in scope.gpu_init if gpu_init else scope.started:
                where = (event.line, event.col)
                if self.flow.after(where, node) and (
                    # An enclosing scope's event counts only in the same process (a worker
                    # function handed to Horovod or Spark starts a runtime of its own).
                    scope is innermost or self.flow.same_process(where, node)
                ):
                    return event
        return None


_CONVENTIONS = (("tf", "tensorflow"), ("K", "keras.backend"), ("keras", "keras"))
"""What a star-imported helper module gives a script by convention."""
_CONVENTION_NAMES = frozenset(name for name, _ in _CONVENTIONS)


def _bound_names(tree: ast.AST) -> set[str]:
    """The conventional names ``tree`` binds itself anywhere."""
    found: set[str] = set()
    names = _CONVENTION_NAMES
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            name = node.id if node.ctx.__class__ is not ast.Load else ""
        elif isinstance(node, ast.arg):
            name = node.arg
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = node.name
        elif isinstance(node, ast.alias):
            name = node.asname or node.name.partition(".")[0]
        else:
            continue
        if name in names:
            found.add(name)
    return found


def expr_key(node: ast.AST, loops: list[Loop] | None = None) -> str | None:
    """A comparable spelling of a device expression: ``gpus[0]``, ``gpus[*]`` for a loop variable."""
    cls = node.__class__
    if cls is ast.Name:
        name: str = node.id  # type: ignore[attr-defined]
        if loops:
            for loop in reversed(loops):
                if name in loop.targets and loop.iter_key is not None:
                    return loop.iter_key + "[*]"
        return name
    if cls is ast.Subscript:
        base = _base_key(node.value)  # type: ignore[attr-defined]
        index = node.slice  # type: ignore[attr-defined]
        if base is None:
            return None
        if index.__class__ is ast.Constant:
            return f"{base}[{index.value!r}]"
        if loops and index.__class__ is ast.Name:
            for loop in reversed(loops):
                if index.id in loop.targets:
                    return base + "[*]"
        return None
    return None


def _base_key(node: ast.AST) -> str | None:
    if node.__class__ is ast.Name:
        return node.id
    if node.__class__ is ast.Call and node.func.__class__ is ast.Attribute:
        # tf.config.list_physical_devices('GPU')[0]: name the list by the call.
        return "<" + node.func.attr + ">"
    return None


_SPREADABLE = (ast.Dict, ast.Call)


def _spread(keywords: list[ast.keyword]) -> list[ast.keyword]:
    """``f(**{"a": 1}, **dict(b=2))`` read as ``f(a=1, b=2)``, so every keyword rule sees them.

    Only literal str keys are spread; anything else stays a ``**`` argument."""
    result: list[ast.keyword] = []
    for kw in keywords:
        value = kw.value
        if kw.arg is None and isinstance(value, ast.Dict):
            names = [k.value if isinstance(k, ast.Constant) else None for k in value.keys]
            if all(isinstance(name, str) for name in names):
                for key, name, item in zip(value.keys, names, value.values):
                    result.append(ast.copy_location(ast.keyword(name, item), key))  # type: ignore[arg-type]
                continue
        elif (
            kw.arg is None
            and isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id == "dict"
            and not value.args
        ):
            result.extend(value.keywords)
            continue
        result.append(kw)
    return result


def call_keywords(node: ast.Call) -> list[ast.keyword]:
    """The keywords of ``node``, with literal ``**{...}`` / ``**dict(...)`` spread in place."""
    for kw in node.keywords:
        if kw.arg is None and kw.value.__class__ in _SPREADABLE:
            node.keywords = _spread(node.keywords)
            break
    return node.keywords
