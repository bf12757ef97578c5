"""The new code for the configs :mod:`._proto_analysis` followed, and what it replaces.

The second half of ``commands/config_proto_to_configure.py``: :class:`ProtoRewrite` turns each
:class:`~._proto_analysis.Config` into :class:`Changes` (statements removed, code inserted at
an anchor statement, calls replaced, comments kept), written as ``tfcompat_gpu.configure()``
(``_emit_facade.py``) or as TF2's own calls (``_emit_tf2.py``); the command makes the changes
in the engine's walk.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tfcompat_gpu.codemod import _emit_facade
from tfcompat_gpu.codemod._base import GPU_PINS
from tfcompat_gpu.codemod._dataflow import CannotFollow
from tfcompat_gpu.codemod._emit import parsed_statements
from tfcompat_gpu.codemod._emit_tf2 import tf2_code
from tfcompat_gpu.codemod._imports import need_import
from tfcompat_gpu.codemod._libcst import cst, meta
from tfcompat_gpu.codemod._names import (
    INTERACTIVE_SESSION,
    RUN_CONFIG,
    SESSION,
    SET_SESSION,
    prefix_for,
)
from tfcompat_gpu.codemod._proto_analysis import SESSIONS, ProtoAnalysis
from tfcompat_gpu.codemod._proto_config import Config
from tfcompat_gpu.codemod._proto_fields import OPTIMIZER_PREFIX, is_graph_option, optimizer_code

__all__ = ["Changes", "ProtoRewrite"]

_SESSION_PARAMS = ("target", "graph", "config")


def _comments_in(node: cst.CSTNode) -> list[cst.Comment]:
    found: list[cst.Comment] = []

    class _Collect(cst.CSTVisitor):
        def visit_Comment(self, comment: cst.Comment) -> None:
            found.append(comment)

    node.visit(_Collect())
    return found


def _leading_lines(statement: cst.BaseStatement) -> list[cst.EmptyLine]:
    if isinstance(statement, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
        return list(statement.leading_lines)
    return []


@dataclass
class Changes:
    """What the command changes in the module (its ``declared_changes()``)."""

    remove: set[cst.BaseStatement] = field(default_factory=set)
    insert: dict[cst.BaseStatement, list[cst.BaseStatement]] = field(default_factory=dict)
    replace_anchor: set[cst.BaseStatement] = field(default_factory=set)
    calls: dict[cst.Call, cst.BaseExpression] = field(default_factory=dict)
    # a RunConfig's or monitored session's config argument: its new code, or None to drop it
    args: dict[cst.Call, str | None] = field(default_factory=dict)
    comments: dict[cst.BaseStatement, list[cst.EmptyLine]] = field(default_factory=dict)
    # import aliases (by position) only the migrated code used
    drop_aliases: dict[cst.Import | cst.ImportFrom, set[int]] = field(default_factory=dict)


class ProtoRewrite(ProtoAnalysis):
    """The new code of :class:`~.commands.config_proto_to_configure.ConfigProtoToConfigureCommand`."""

    _changes: Changes
    _migrated: bool
    """Whether a config of the module is migrated."""
    _needs_facade: bool
    _tf: str | None
    """How the module spells ``tensorflow.`` (None: it does not import it)."""
    _taken: set[str]

    def _save(self) -> tuple[Changes, bool, bool, set[cst.Call]]:
        changes = self._changes
        copy = Changes(
            remove=set(changes.remove),
            insert=dict(changes.insert),
            replace_anchor=set(changes.replace_anchor),
            calls=dict(changes.calls),
            args=dict(changes.args),
            comments=dict(changes.comments),
            drop_aliases={k: set(v) for k, v in changes.drop_aliases.items()},
        )
        return copy, self._migrated, self._needs_facade, set(self._handled_set_session)

    def _restore(self, saved: tuple[Changes, bool, bool, set[cst.Call]]) -> None:
        self._changes, self._migrated, self._needs_facade, self._handled_set_session = saved

    def _change_config(self, config: Config) -> None:
        kept = {line for line, _ in config.kept}
        config.building = [line for line in config.building if line not in kept]
        if config.building:
            block = self.parent(config.building[0])
            config.anchor = max(config.building, key=self.line_of)
            last = self.line_of(config.anchor)
            for sink in config.sinks if config.factory is None else ():
                if self.line_of(sink) <= last:
                    raise CannotFollow(
                        f"a session on line {self.line_of(sink)} uses it before it is complete",
                        "set after the session",
                    )
        else:
            anchor = self._flow.enclosing_statement(config.sinks[0])
            block = self.parent(anchor)
            config.anchor = anchor
            config.anchor_replaced = False
        if not isinstance(block, (cst.Module, cst.IndentedBlock)):
            raise CannotFollow(
                "it is built where no statement can be inserted", "built inside an expression"
            )
        config.block = block
        if any(self._kinds.get(sink, set()) & RUN_CONFIG for sink in config.sinks) and any(
            is_graph_option(key)
            for settings in (config.settings, *config.conditional.values())
            for key in settings
        ):
            raise CannotFollow(
                "it sets graph options, which an Estimator's sessions take from their "
                "RunConfig(session_config=...) only, and a process config does not hold",
                "graph options for an Estimator",
            )
        conditional = self._conditional_code(config)
        new = self._configure_statements(config, config.settings, config.anchor)
        remove: set[cst.BaseStatement] = set(config.building)
        calls: dict[cst.Call, cst.BaseExpression] = {}
        for sink in config.sinks:
            self._change_sink(sink, remove, calls, config.factory is not None or bool(kept))
        anchor = config.anchor
        if kept:
            new = self._keep_fields(config, remove, new)
        if anchor in remove:
            config.anchor_replaced = True
            remove.discard(anchor)
        changes = self._changes
        if anchor in changes.insert or anchor in changes.remove or remove & set(changes.insert):
            raise CannotFollow("it shares its statements with another config", "shared statements")
        if set(conditional) & (set(changes.insert) | changes.remove):
            raise CannotFollow("it shares its statements with another config", "shared statements")
        changes.remove |= remove
        changes.insert[anchor] = new
        for line, code in conditional.items():
            changes.insert[line] = code
            changes.replace_anchor.add(line)
            changes.comments[line] = self._comments([line], [])
        if config.anchor_replaced:
            changes.replace_anchor.add(anchor)
        changes.calls.update(calls)
        gone = sorted(remove | ({anchor} if config.anchor_replaced else set()), key=self.line_of)
        changes.comments[anchor] = self._comments(
            gone, [sink for sink in calls if sink in config.sinks]
        )
        self._migrated = True
        if self.target == "facade" and (
            new
            or any(conditional.values())
            or any(SESSION in self._kinds.get(c, set()) for c in calls)
        ):
            self._needs_facade = True

    def _conditional_code(self, config: Config) -> dict[cst.BaseStatement, list[cst.BaseStatement]]:
        """The ``configure()`` code that replaces each setting made under an ``if``.

        ``configure()`` merges successive calls, so the settings made under a condition become
        calls under the same condition, in the same order, provided every session comes after
        the ``if`` (the setting was made before the session read the config) and a field set
        both ways keeps its order (the unconditional call runs first).
        """
        code: dict[cst.BaseStatement, list[cst.BaseStatement]] = {}
        if not config.conditional:
            return code
        assert config.anchor is not None
        last = self.line_of(config.anchor) if config.building else 0
        plain = set(config.settings)
        for line, settings in config.conditional.items():
            outer = config.outer[line]
            for sink in config.sinks:
                if self.line_of(sink) <= self.line_of(outer) or self._within(sink, outer):
                    raise CannotFollow(
                        f"a session on line {self.line_of(sink)} reads it before the change on "
                        f"line {self.line_of(line)}",
                        "set after the session",
                    )
            if plain & set(settings) and last > self.line_of(outer):
                raise CannotFollow(
                    f"{sorted(plain & set(settings))[0]} is set under a condition on line "
                    f"{self.line_of(line)} and again after it",
                    "set again after a condition",
                )
            code[line] = self._configure_statements(config, settings, line)
        if self.target != "facade":
            # the conditions may all hold: the calls must be exact together too
            merged = {**config.settings}
            for settings in config.conditional.values():
                merged.update(settings)
            tf2_code(merged, self.code_of, self._tf_prefix, set(self._taken))
        return code

    def _keep_fields(
        self, config: Config, remove: set[cst.BaseStatement], new: list[cst.BaseStatement]
    ) -> list[cst.BaseStatement]:
        """The config is built anew without settings (``tf.compat.v1.ConfigProto()``) where it
        was created, its kept lines stay, and the sessions receive it."""
        creation = config.creation
        assert creation is not None
        target = creation.body[0]
        assert isinstance(target, cst.Assign)
        name = self.code_of(target.targets[0].target)
        empty = parsed_statements(f"{name} = {self._tf_prefix()}compat.v1.ConfigProto()\n")
        for line, why in config.kept:
            self._warn_once(
                line,
                f"{why.construct} has no TF2 successor; it stays on a ConfigProto the session "
                f"still receives, the rest is migrated [{why.construct}]",
            )
        if creation is config.anchor:
            return empty + new
        remove.discard(creation)
        changes = self._changes
        if creation in changes.insert:
            raise CannotFollow("it shares its statements with another config", "shared statements")
        changes.insert[creation] = empty
        changes.replace_anchor.add(creation)
        changes.comments[creation] = _leading_lines(creation)
        return new

    def _within(self, node: cst.CSTNode, outer: cst.CSTNode) -> bool:
        current: cst.CSTNode | None = node
        while current is not None and current is not outer:
            current = self.parent(current)
        return current is outer

    def _comments(
        self, gone: Sequence[cst.BaseStatement], replaced: Sequence[cst.Call]
    ) -> list[cst.EmptyLine]:
        """Comments of the removed statements and replaced calls, kept above the new code.

        That includes comments inside a multi-line ``ConfigProto(...)`` call: they explain
        the settings, which the new code carries.
        """
        lines: list[cst.EmptyLine] = []
        for index, statement in enumerate(gone):
            lead = _leading_lines(statement)
            lines += lead if index == 0 else [line for line in lead if line.comment is not None]
            if isinstance(statement, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
                statement = statement.with_changes(leading_lines=[])
            lines += [cst.EmptyLine(comment=comment) for comment in _comments_in(statement)]
        for call in replaced:
            lines += [cst.EmptyLine(comment=comment) for comment in _comments_in(call)]
        return lines

    def _change_sink(
        self,
        sink: cst.Call,
        remove: set[cst.BaseStatement],
        calls: dict[cst.Call, cst.BaseExpression],
        factory: bool = False,
    ) -> None:
        interactive = INTERACTIVE_SESSION in self._kinds.get(sink, set())
        if factory:
            self._hand_on_config(sink, calls)
            return
        if not self._kinds.get(sink, set()) & SESSIONS:
            self._change_estimator_sink(sink)
            return
        if not interactive:
            set_session = self._set_session_of(sink)
            if set_session is not None:
                remove.add(set_session)
                return
            wrapper = self._set_session_call(sink)
            if wrapper is not None:
                # `return K.set_session(tf.Session(config=config))`: set_session returns None
                calls[wrapper] = cst.Name("None")
                return
            assigned = self._flow.assigned_name(sink)
            # a global/nonlocal session is read by other functions: it stays, built anew
            if assigned is not None and not self._flow.declared_outside(assigned[0]):
                target, line = assigned
                uses = self._set_session_uses(target)
                if uses is not None:
                    remove |= set(uses[0])
                    if not uses[1]:
                        remove.add(line)
                        return
        calls[sink] = self._new_session(sink, interactive)

    def _set_session_call(self, node: cst.CSTNode) -> cst.Call | None:
        """The ``set_session(node)`` call ``node`` is the only argument of, in any expression."""
        arg = self.parent(node)
        call = self.parent(arg) if isinstance(arg, cst.Arg) else None
        if (
            isinstance(call, cst.Call)
            and len(call.args) == 1
            and self._kinds.get(call, set()) & SET_SESSION
        ):
            self._handled_set_session.add(call)
            return call
        return None

    def _hand_on_config(self, sink: cst.Call, calls: dict[cst.Call, cst.BaseExpression]) -> None:
        """A session given a config that a function returns: the config is handed on as it is.

        ``tfcompat_gpu.session()`` and ``tfcompat_gpu.configure()`` take a ``GPUConfig`` or a
        ``ConfigProto``, so this holds whatever the function returns; under Keras'
        ``set_session(tf.Session(config=f()))`` the process is configured with it.
        """
        if not self._kinds.get(sink, set()) & SESSIONS:
            # a RunConfig or monitored session: its session gets the process config, which
            # the function's config configured
            config = self._config_arg(sink)
            assert config is not None
            given = _emit_facade.configure_given_code(self.code_of(config))
            self._changes.args[sink] = f"{given}.to_config_proto()"
            self._needs_facade = True
            return
        interactive = INTERACTIVE_SESSION in self._kinds.get(sink, set())
        line = None if interactive else self._set_session_of(sink)
        if line is None:
            if not interactive and self._configure_at_session_line(sink):
                return
            calls[sink] = self._new_session(sink, interactive, keep_config=True)
            return
        statement = line.body[0]
        assert isinstance(statement, cst.Expr)
        assert isinstance(statement.value, cst.Call)
        config = self._config_arg(sink)
        assert config is not None
        calls[statement.value] = cst.parse_expression(
            _emit_facade.configure_given_code(self.code_of(config))
        )

    def _configure_at_session_line(self, sink: cst.Call) -> bool:
        """``sess = tf.Session(config=conf)`` whose every use is ``set_session(sess)``: the
        line configures the process with ``conf``, the ``set_session`` lines go."""
        assigned = self._flow.assigned_name(sink)
        if assigned is None or self._flow.declared_outside(assigned[0]):
            return False
        uses = self._set_session_uses(assigned[0])
        if uses is None or not uses[0] or uses[1]:
            return False
        config = self._config_arg(sink)
        assert config is not None
        line = assigned[1]
        code = _emit_facade.configure_given_code(self.code_of(config))
        self._changes.insert[line] = parsed_statements(code + "\n")
        self._changes.replace_anchor.add(line)
        self._changes.remove.update(uses[0])
        self._needs_facade = True
        return True

    def _change_imported_factory(self, sink: cst.Call) -> bool:
        """``tf.Session(config=utils.get_config())``, the function imported from a local module.

        The call site does not depend on what the function returns (see
        :meth:`_hand_on_config`), so it migrates without following the function.
        """
        config = self._config_arg(sink)
        if (
            self.target != "facade"
            or not isinstance(config, cst.Call)
            or INTERACTIVE_SESSION in self._kinds.get(sink, set())
        ):
            return False
        names = self.qualified_names(config.func)
        if not names or any(
            q.source is not meta.QualifiedNameSource.IMPORT
            or q.name.split(".")[0] in ("tensorflow", "keras", "tf_keras", "tfcompat_gpu")
            for q in names
        ):
            return False
        calls: dict[cst.Call, cst.BaseExpression] = {}
        if sink in self._changes.args:
            return False
        self._hand_on_config(sink, calls)
        if set(calls) & set(self._changes.calls):
            return False
        self._changes.calls.update(calls)
        self._migrated = True
        need_import(self.context, _emit_facade.IMPORT)
        return True

    def _change_estimator_sink(self, sink: cst.Call) -> None:
        """A monitored session stops passing the config; a ``RunConfig`` passes the process's.

        A monitored session given no config builds its sessions with the process config
        (``tf.compat.v1.Session(config=None)``), as ``tfcompat_gpu.session()`` does.  An
        Estimator always gives its sessions an explicit config (its own default without
        ``session_config``), so its ``RunConfig`` gets the process config as a ConfigProto.
        """
        if not self._kinds.get(sink, set()) & RUN_CONFIG:
            self._changes.args[sink] = None
            return
        if self.target != "facade":
            raise CannotFollow(
                "an Estimator's sessions take their config from RunConfig(session_config=...), "
                "not from tf.config: use the default target, which hands it the process config",
                "RunConfig with --target tf2",
            )
        self._changes.args[sink] = "tfcompat_gpu.current_config().to_config_proto()"
        self._needs_facade = True

    def _tf_prefix(self) -> str:
        if self._tf is None:
            need_import(self.context, "tensorflow")
            self._tf = "tensorflow."
        return self._tf

    def _new_session(
        self, sink: cst.Call, interactive: bool, keep_config: bool = False
    ) -> cst.BaseExpression:
        args: list[str] = []
        for index, arg in enumerate(sink.args):
            key = arg.keyword.value if arg.keyword is not None else _SESSION_PARAMS[index]
            if key != "config":
                args.append(f"{key}={self.code_of(arg.value)}")
            elif keep_config:
                # session(config, graph, target): the config goes first
                args.insert(0, self.code_of(arg.value))
        if self.target == "facade" and not interactive:
            if (
                not keep_config
                and self.context.scratch.get(GPU_PINS)
                and "allow_soft_placement" not in self.source_text()
            ):
                # ops pinned to GPUs, and the config says nothing of placement: soft, as a
                # session given no config gets it (commands/session_soft_placement.py)
                args.insert(0, _emit_facade.SOFT_PLACEMENT)
            return cst.parse_expression(_emit_facade.session_code(args))
        name = INTERACTIVE_SESSION if interactive else SESSION
        raw = {q.name for q in self.qualified_names(sink.func)}
        func = self.module.code_for_node(sink.func)
        prefix = prefix_for(sink.func, name)
        if f"tensorflow.{name.split('.', 1)[1]}" in raw and prefix is not None:
            # tf.Session is gone from TF2's root namespace; compat.v1 keeps it
            func = f"{prefix or self._tf_prefix()}compat.v1.{name.split('.', 1)[1]}"
        return cst.parse_expression(f"{func}({', '.join(args)})")

    def _configure_statements(
        self,
        config: Config,
        settings_nodes: dict[str, cst.BaseExpression],
        anchor: cst.BaseStatement,
    ) -> list[cst.BaseStatement]:
        settings = {k: self.code_of(v) for k, v in settings_nodes.items()}
        indent = " " * self.column_of(anchor)
        if config.factory is not None:
            if self.target != "facade":
                raise CannotFollow(
                    f"{config.factory.name.value}() returns it, and TF2 has no config object to "
                    "return (its GPU options are process-wide): use the default target, which "
                    "returns a tfcompat_gpu.GPUConfig",
                    "factory with --target tf2",
                )
            if any(k.startswith(OPTIMIZER_PREFIX) for k in settings):
                raise CannotFollow(
                    f"{config.factory.name.value}() returns it with graph options, which a "
                    "GPUConfig does not hold",
                    "graph options in a factory",
                )
            return parsed_statements(
                _emit_facade.factory_return_code(settings, indent, proto=config.returns_proto)
            )
        if not settings:
            return []
        if self.target == "facade":
            facade = {k: v for k, v in settings.items() if not k.startswith(OPTIMIZER_PREFIX)}
            optimizer = {k: v for k, v in settings.items() if k.startswith(OPTIMIZER_PREFIX)}
            code = _emit_facade.configure_code(facade, indent) if facade else ""
            if optimizer:
                # The rewrites no option holds (jit and auto_mixed_precision are options): TF2's
                # own calls set them on the context, whose config every later session and
                # tf.function reads (tensorflow/python/eager/context.py, Context.config)
                code += optimizer_code(self._tf_prefix(), optimizer)
            return parsed_statements(code)
        return parsed_statements(
            tf2_code(settings_nodes, self.code_of, self._tf_prefix, self._taken)
        )
