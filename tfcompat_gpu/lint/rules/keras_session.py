"""Keras sessions and device scopes: TFG026 ``clear_session()`` after a configured
``set_session(...)``, TFG027 a session set through one Keras while the models come from the
other, TFG028 ``tf.device(...)`` called as a statement."""

from __future__ import annotations

import ast

from tfcompat_gpu.lint.context import FileContext
from tfcompat_gpu.lint.dispatch import on_call, on_end, on_node, on_ref
from tfcompat_gpu.lint.tfcalls import SESSIONS, canonical, display

__all__: list[str] = []

# Standalone Keras 2 (``keras/backend/tensorflow_backend.py``: ``set_session`` stores the
# session in the module global ``_SESSION``) and tf.keras (``tensorflow/python/keras/
# backend.py``: ``_SESSION.session``) each keep their own session.
_STANDALONE, _TF_KERAS = "keras", "tf.keras"
_SET_SESSION = {
    "keras.backend.set_session": _STANDALONE,
    "keras.backend.tensorflow_backend.set_session": _STANDALONE,
    "tensorflow.keras.backend.set_session": _TF_KERAS,
    "tf_keras.backend.set_session": _TF_KERAS,
}
_CLEAR_SESSION = (
    "keras.backend.clear_session",
    "keras.backend.tensorflow_backend.clear_session",
    "tensorflow.keras.backend.clear_session",
    "tf_keras.backend.clear_session",
)
# Where models are built: layers, models and ready-made applications.
_MODEL_PREFIXES = {
    "keras.layers": _STANDALONE,
    "keras.models": _STANDALONE,
    "keras.Sequential": _STANDALONE,
    "keras.Model": _STANDALONE,
    "keras.applications": _STANDALONE,
    "tensorflow.keras.layers": _TF_KERAS,
    "tensorflow.keras.models": _TF_KERAS,
    "tensorflow.keras.Sequential": _TF_KERAS,
    "tensorflow.keras.Model": _TF_KERAS,
    "tensorflow.keras.applications": _TF_KERAS,
}


def _state(ctx: FileContext) -> dict[str, list[tuple[ast.AST, str, object]]]:
    state = ctx.state.get("keras_session")
    if state is None:
        state = ctx.state["keras_session"] = {"set": [], "clear": [], "models": []}
    return state


def _configured_session(ctx: FileContext, node: ast.AST | None) -> bool:
    """``tf.Session(config=...)``, or a name bound to one in this file."""
    if node is None:
        return False
    if node.__class__ is ast.Name:
        return node.id in ctx.state.get("configured_sessions", ())
    if node.__class__ is not ast.Call:
        return False
    qual = ctx.resolve(node.func)
    if qual is None or canonical(qual) not in SESSIONS:
        return False
    return any(k.arg == "config" for k in node.keywords) or len(node.args) >= 3


_SESSION_NAMES = frozenset(name.rpartition(".")[2] for name in SESSIONS)


@on_node(ast.Assign)
def _assign(ctx: FileContext, node: ast.Assign) -> None:
    value = node.value
    # Cheap tests first: the walk calls this for every assignment.
    if value.__class__ is not ast.Call:
        return
    func = value.func
    last = func.attr if func.__class__ is ast.Attribute else getattr(func, "id", None)
    if last not in _SESSION_NAMES:
        return
    for target in node.targets:
        if target.__class__ is ast.Name and _configured_session(ctx, node.value):
            # Not watched: the set_session(...) that reads the name names Keras anyway.
            ctx.state.setdefault("configured_sessions", set()).add(target.id)


@on_call(*_SET_SESSION)
def _set_session(ctx: FileContext, node: ast.Call, name: str) -> None:
    session = node.args[0] if node.args else None
    for keyword in node.keywords:
        if keyword.arg == "session":
            session = keyword.value
    flavour = _SET_SESSION[name]
    if (ctx.resolve(node.func) or "").startswith("tensorflow.compat.v1."):
        # tf.compat.v1.keras is TensorFlow 2: there `import keras` is that same Keras from 2.6
        # to 2.15, and another one elsewhere; which one the file gets is not known here.
        flavour = ""
    _state(ctx)["set"].append(
        (node, flavour, ctx.scopes[-1] if _configured_session(ctx, session) else None)
    )


@on_call(*_CLEAR_SESSION)
def _clear_session(ctx: FileContext, node: ast.Call, name: str) -> None:
    state = _state(ctx)
    scope, module = ctx.scopes[-1], ctx.scopes[0]
    # The latest set_session(...) this function (or the module before it) ran decides which
    # session the clear throws away; one of unknown config says nothing.
    for set_node, _, set_scope in reversed(state["set"]):
        if set_scope is None:
            if set_node.lineno < node.lineno:  # type: ignore[attr-defined]
                return
            continue
        if (set_scope is scope or set_scope is module) and ctx.flow.after(set_node, node):
            state["clear"].append((node, f"line {set_node.lineno}", scope))  # type: ignore[attr-defined]
            return


@on_ref
def _ref(ctx: FileContext, node: ast.expr, qual: str, root: str) -> None:
    if "keras." not in qual or not qual.startswith(
        ("keras.", "tensorflow.keras.", "tensorflow.compat.v1.keras.")
    ):
        return
    name = canonical(qual)
    for prefix, flavour in _MODEL_PREFIXES.items():
        if name == prefix or name.startswith(prefix + "."):
            models = _state(ctx)["models"]
            if not any(f == flavour for _, f, _ in models):
                models.append((node, flavour, display(name)))
            return


@on_node(ast.Expr)
def _device_statement(ctx: FileContext, node: ast.Expr) -> None:
    call = node.value
    if not isinstance(call, ast.Call):
        return
    func = call.func
    # Cheap tests first: the walk calls this for every expression statement.
    if not (isinstance(func, ast.Attribute) and func.attr == "device") and not (
        isinstance(func, ast.Name) and func.id in ctx.aliases
    ):
        return
    qual = ctx.resolve(func)
    if qual is not None and canonical(qual) == "tensorflow.device":
        spec = ast.unparse(call.args[0]) if call.args else "..."
        ctx.report("TFG028", node, f"with tf.device({spec}):", used=display(qual), spec=spec)


@on_end
def _end(ctx: FileContext) -> None:
    state = ctx.state.get("keras_session")
    if state is None:
        return
    last_set: dict[int, int] = {}  # scope -> the line of its last set_session(...)
    for s_node, _, s_scope in state["set"]:
        last_set[id(s_scope)] = max(last_set.get(id(s_scope), 0), s_node.lineno)
    for node, where, scope in state["clear"]:
        # set_session(...) again after the clear, in the same function, restores the config.
        if last_set.get(id(scope), 0) <= node.lineno:
            ctx.report(
                "TFG026", node, "call set_session(...) again after clear_session()", line=where
            )
    if not state["models"]:
        return
    built = {flavour: (node, used) for node, flavour, used in state["models"]}
    for node, flavour, configured in state["set"]:
        if configured is None or not flavour or flavour in built:
            continue
        other_node, used = next(iter(built.values()))
        setter = (
            "keras.backend.set_session"
            if flavour == _STANDALONE
            else "tf.keras.backend.set_session"
        )
        other = _TF_KERAS if flavour == _STANDALONE else _STANDALONE
        ctx.report(
            "TFG027",
            node,
            f"set the session through the Keras that builds the models ({other})",
            setter=setter,
            used=used,
            line=other_node.lineno,
            flavour=flavour,
            other=other,
        )
