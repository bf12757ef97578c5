"""Following a ``ConfigProto``: what builds it, what it asks for, and who receives it.

The first half of ``commands/config_proto_to_configure.py``: :class:`ProtoAnalysis` reads a
config from its ``ConfigProto(...)`` call, through the statements that change it, to the
sessions (or ``set_session``) that receive it, into a :class:`Config`; or says with
:class:`~._dataflow.CannotFollow` why it cannot.  :mod:`._proto_rewrite` decides the new code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Union

from tfcompat_gpu.codemod._base import MigrationCommand
from tfcompat_gpu.codemod._dataflow import CannotFollow, Dataflow
from tfcompat_gpu.codemod._libcst import cst, meta
from tfcompat_gpu.codemod._names import (
    CONFIG_PROTO,
    GPU_OPTIONS,
    INTERACTIVE_SESSION,
    SESSION,
    SET_SESSION,
    config_keyword,
    dotted,
)
from tfcompat_gpu.codemod._proto_conditions import condition_of
from tfcompat_gpu.codemod._proto_config import Config
from tfcompat_gpu.codemod._proto_fields import DEFAULT, Successor, classify

__all__ = ["RECEIVED", "SESSIONS", "ProtoAnalysis"]

if TYPE_CHECKING:
    # (line, ConfigProto path, value, the line under an ``if`` that sets it or None)
    Found = tuple[int, str, cst.BaseExpression, Union[cst.SimpleStatementLine, None]]

SESSIONS = frozenset({SESSION, INTERACTIVE_SESSION})
# a config handed to tfcompat_gpu.session(), which takes a ConfigProto: already migrated code
# (a field with no successor kept on it), nothing to report
RECEIVED = "received by tfcompat_gpu.session()"


class ProtoAnalysis(MigrationCommand):
    """The analysis of :class:`~.commands.config_proto_to_configure.ConfigProtoToConfigureCommand`.

    The command's ``visit_Module`` sets the state below, then follows each ``ConfigProto``.
    """

    _flow: Dataflow
    _kinds: dict[cst.Call, set[str]]
    """The calls of the module, each with the canonical names it may call."""
    _warned: set[cst.CSTNode]
    _handled_set_session: set[cst.Call]
    _factories: set[cst.FunctionDef]
    """Functions that return a ConfigProto: a session given their result has its warning."""

    def _is_proto(self, node: cst.BaseExpression) -> bool:
        value = self._flow.value_of(node)
        if not isinstance(value, cst.Call):
            return False
        if isinstance(value.func, cst.Name) and value.func.value in {
            f.name.value for f in self._factories
        }:
            return True
        return CONFIG_PROTO in self._kinds.get(value, set())

    def _warn_once(self, node: cst.CSTNode, message: str) -> None:
        if node not in self._warned:
            self._warned.add(node)
            self.warn_at(node, message)

    @staticmethod
    def _is_none(node: cst.BaseExpression | None) -> bool:
        return isinstance(node, cst.Name) and node.value == "None"

    def _config_arg(self, call: cst.Call) -> cst.BaseExpression | None:
        """A session's config; also a ``RunConfig``'s or a monitored session's, by keyword."""
        names = self._kinds.get(call, set())
        keyword = config_keyword(names)
        for index, arg in enumerate(call.args):
            if arg.keyword is not None and arg.keyword.value == keyword:
                return arg.value
            if arg.keyword is None and arg.star == "" and index == 2 and names & SESSIONS:
                return arg.value
        return None

    def _session_of_arg(self, node: cst.CSTNode) -> cst.Call | None:
        """The session (or RunConfig) call that takes ``node`` as its config, if any."""
        arg = self.parent(node)
        call = self.parent(arg) if isinstance(arg, cst.Arg) else None
        if not isinstance(call, cst.Call) or not config_keyword(self._kinds.get(call, set())):
            return None
        return call if self._config_arg(call) is node else None

    def _follow(self, proto: cst.Call) -> Config:
        config = Config(proto=proto)
        found: list[Found] = []
        gpu_options = self._read_kwargs(proto, "", found, config)
        sink = self._session_of_arg(proto)
        if sink is not None:
            config.sinks.append(sink)
        else:
            assigned = self._flow.assigned_name(proto)
            returned = self._flow.return_line(proto)
            if assigned is None and returned is not None:
                config.building.append(returned)
                self._follow_factory(returned, config)
            elif assigned is None:
                raise CannotFollow(
                    "it is not assigned to a name or passed to a session, so the settings "
                    "cannot be traced to where they take effect",
                    self._use_construct(proto, "not assigned to a name"),
                )
            else:
                target, line = assigned
                if self._flow.declared_outside(target):
                    raise CannotFollow(
                        f"{target.value} is declared global or nonlocal, so code elsewhere "
                        "may read it",
                        "global config",
                    )
                config.building.append(line)
                config.creation = line
                self._read_uses(target, "", found, config)
        if gpu_options is not None:
            config.gpu_options_variable = True
            self._follow_gpu_options(gpu_options, proto, found, config)
        self._collect_settings(found, config)
        return config

    def _read_kwargs(
        self,
        call: cst.Call,
        prefix: str,
        found: list[Found],
        config: Config,
    ) -> cst.Name | None:
        """Record the keyword settings of ``call``; return a GPUOptions variable to follow."""
        variable: cst.Name | None = None
        line = self.line_of(call)
        for arg in call.args:
            if arg.star:
                raise CannotFollow(
                    f"it is built from {arg.star}arguments, whose keys are unknown",
                    f"{arg.star}arguments",
                )
            if arg.keyword is None:
                raise CannotFollow("it is built from positional arguments", "positional arguments")
            key = arg.keyword.value
            if not prefix and key == "gpu_options":
                value = arg.value
                if isinstance(value, cst.Call) and GPU_OPTIONS in self._kinds.get(value, set()):
                    self._read_kwargs(value, "gpu_options.", found, config)
                elif isinstance(value, cst.Name):
                    variable = value
                else:
                    raise CannotFollow(
                        "its gpu_options is not a GPUOptions the migration can read",
                        "computed gpu_options",
                    )
                continue
            found.append((line, prefix + key, arg.value, None))
        return variable

    def _read_uses(
        self,
        target: cst.Name,
        prefix: str,
        found: list[Found],
        config: Config,
        gpu_options_use: cst.CSTNode | None = None,
    ) -> None:
        """Classify every use of a config (or GPUOptions) variable; anything else escapes."""
        block = self.parent(config.building[-1])
        for node in self._flow.uses(target):
            if node is gpu_options_use:
                continue
            if not prefix and self._session_of_arg(node) is not None:
                sink = self._session_of_arg(node)
                assert sink is not None
                config.sinks.append(sink)
                continue
            returned = self._flow.return_line(node) if not prefix else None
            if returned is not None and self.parent(returned) is block:
                config.building.append(returned)
                self._follow_factory(returned, config)
                continue
            path, line, value = self._mutation(node)
            if line is None or value is None:
                raise CannotFollow(
                    f"{target.value} is used on line {self.line_of(node)} in a way the "
                    "migration cannot follow (it escapes or is changed conditionally)",
                    self._use_construct(node, "other use"),
                )
            if gpu_options_use is not None and self.line_of(line) > self.line_of(gpu_options_use):
                raise CannotFollow(  # protobuf copied it: the program never had this setting
                    f"{target.value}.{path} is changed on line {self.line_of(line)}, after the "
                    f"ConfigProto copied {target.value}; set it before (lint rule TFG029)",
                    "changed after the ConfigProto copied it",
                )
            if self.parent(line) is not block:
                config.outer[line] = condition_of(self, line, block, target)
                found.append((self.line_of(line), prefix + path, value, line))
                continue
            config.building.append(line)
            found.append((self.line_of(line), prefix + path, value, None))
            if not prefix:
                config.mutations[(self.line_of(line), path)] = line

    def _follow_factory(self, returned: cst.SimpleStatementLine, config: Config) -> None:
        """A config returned by a function: every call of it must be a session's config.

        The function then returns a ``tfcompat_gpu.GPUConfig`` and each session gets it as
        ``tfcompat_gpu.session(make_config())``: the first session sets the process-wide
        options, as with TF1.
        """
        block = self.parent(returned)
        function = self.parent(block) if isinstance(block, cst.IndentedBlock) else None
        if not isinstance(function, cst.FunctionDef):
            raise CannotFollow(
                "it is returned from somewhere else than a function body",
                "return outside a function",
            )
        self._factories.add(function)
        if config.factory is not None:
            raise CannotFollow(
                f"{function.name.value}() returns it more than once", "factory returning twice"
            )
        returns: list[cst.Return] = []

        class _Returns(cst.CSTVisitor):
            def visit_Return(self, node: cst.Return) -> None:
                returns.append(node)

            def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
                return node is function

            def visit_Lambda(self, node: cst.Lambda) -> bool:
                return False

        function.visit(_Returns())
        if len(returns) != 1 or function.asynchronous is not None or function.decorators:
            raise CannotFollow(
                f"{function.name.value}() is not a plain function with one return, so what "
                "its callers get is unknown",
                "factory not a plain function",
            )
        scope = self.scope_of(function)
        assignments = list(scope.assignments[function.name.value]) if scope is not None else []
        if (
            len(assignments) != 1
            or not isinstance(assignments[0], meta.Assignment)
            or assignments[0].node is not function
        ):
            raise CannotFollow(
                f"{function.name.value} is bound more than once", "factory bound twice"
            )
        calls = [access.node for access in assignments[0].references]
        for name in calls:
            call = self.parent(name)
            sinks = self._factory_sinks(call)
            if (
                not isinstance(call, cst.Call)
                or call.func is not name
                or not sinks
                or any(INTERACTIVE_SESSION in self._kinds.get(sink, set()) for sink in sinks)
            ):
                raise CannotFollow(
                    f"{function.name.value}() is used on line {self.line_of(name)} otherwise "
                    "than as the config of a session or a RunConfig",
                    "factory "
                    + self._use_construct(
                        call if isinstance(call, cst.Call) else name, "other use"
                    ),
                )
            config.sinks.extend(sinks)
        if not calls and self.target != "facade":
            raise CannotFollow(
                f"{function.name.value}() is not called in this file, so what its callers do "
                "with the config is unknown, and TF2 has no config object to return",
                "factory called from other modules",
            )
        config.factory = function
        # callers in other modules may hand the config to any TF1 API (a RunConfig, a
        # MonitoredTrainingSession): the function goes on returning a ConfigProto
        config.returns_proto = not calls

    def _factory_sinks(self, call: cst.CSTNode | None) -> list[cst.Call]:
        """The sessions a factory's call configures: the one it is the config of, or those
        the name it is bound to is only ever the config of (``conf = make(); Session(config=
        conf)``)."""
        if not isinstance(call, cst.Call):
            return []
        sink = self._session_of_arg(call)
        if sink is not None:
            return [sink]
        assigned = self._flow.assigned_name(call)
        try:
            uses = self._flow.uses(assigned[0]) if assigned is not None else []
        except CannotFollow:
            return []
        sinks = [self._session_of_arg(use) for use in uses]
        return [s for s in sinks if s is not None] if None not in sinks else []

    def _use_construct(self, node: cst.CSTNode, otherwise: str) -> str:
        """What a config escapes to, for the warning's reason: ``passed to Server()``."""
        while isinstance(self.parent(node), cst.Attribute):
            node = self.parent(node)  # type: ignore[assignment]
        if isinstance(self.parent(node), cst.AssignTarget):
            return "kept on an attribute"
        assign = self.parent(node)
        if isinstance(assign, cst.Assign) and isinstance(assign.targets[0].target, cst.Attribute):
            return "kept on an attribute"
        arg = self.parent(node)
        call = self.parent(arg) if isinstance(arg, cst.Arg) else None
        if isinstance(call, cst.Call):
            if any(q.name == "tfcompat_gpu.session" for q in self.qualified_names(call.func)):
                return RECEIVED
            name = dotted(call.func)
            if name is not None:
                return f"passed to {name.split('.')[-1]}()"
        return otherwise

    def _mutation(
        self, node: cst.CSTNode
    ) -> tuple[str, cst.SimpleStatementLine | None, cst.BaseExpression | None]:
        """``NAME.a.b = v`` or ``NAME.device_count["CPU"] = v``: (path, line, value)."""
        parts: list[str] = []
        top: cst.CSTNode = node
        parent = self.parent(top)
        while isinstance(parent, cst.Attribute) and parent.value is top:
            parts.append(parent.attr.value)
            top, parent = parent, self.parent(parent)
        path = ".".join(parts)
        value_key: cst.BaseExpression | None = None
        if (
            isinstance(parent, cst.Subscript)
            and parent.value is top
            and path == "device_count"
            and len(parent.slice) == 1
            and isinstance(parent.slice[0].slice, cst.Index)
        ):
            value_key = parent.slice[0].slice.value
            top, parent = parent, self.parent(parent)
        if not parts or not isinstance(parent, cst.AssignTarget):
            return path, None, None
        assign = self.parent(parent)
        if not isinstance(assign, cst.Assign) or len(assign.targets) != 1:
            return path, None, None
        line = self._flow.statement_of(assign)
        if value_key is not None:
            key = self.code_of(value_key)
            value: cst.BaseExpression = cst.parse_expression(
                f"{{{key}: {self.code_of(assign.value)}}}"
            )
            return "device_count[]", line, value
        return path, line, assign.value

    def _follow_gpu_options(
        self,
        name: cst.Name,
        proto: cst.Call,
        found: list[Found],
        config: Config,
    ) -> None:
        target = self._flow.definition(name)
        if target is None:
            raise CannotFollow(
                f"{name.value} is assigned where the migration cannot follow it",
                "untraced GPUOptions",
            )
        value = self._flow.assigned_value(target)
        if (
            not isinstance(target, cst.Name)
            or not isinstance(value, cst.Call)
            or GPU_OPTIONS not in self._kinds.get(value, set())
        ):
            raise CannotFollow(
                f"{name.value} is not a GPUOptions built where it can be read",
                "untraced GPUOptions",
            )
        assigned = self._flow.assigned_name(value)
        assert assigned is not None
        line = assigned[1]
        uses = [node for node in self._flow.uses(target) if node is not name]
        if uses and all(self._copied_by_other_config(node) for node in uses):
            self._share_gpu_options(name, line, config)
            self._read_kwargs(value, "gpu_options.", found, config)  # protobuf copies them
            return
        if config.building and self.parent(line) is not self.parent(config.building[0]):
            raise CannotFollow(
                f"{name.value} is built in another block than the config",
                "GPUOptions in another block",
            )
        self._read_kwargs(value, "gpu_options.", found, config)
        config.building.insert(0, line)
        self._read_uses(target, "gpu_options.", found, config, gpu_options_use=name)

    def _copied_by_other_config(self, node: cst.CSTNode) -> bool:
        """``node`` is the ``gpu_options=`` of a ConfigProto, which copies it."""
        arg = self.parent(node)
        call = self.parent(arg) if isinstance(arg, cst.Arg) else None
        return (
            isinstance(call, cst.Call)
            and isinstance(arg, cst.Arg)
            and arg.keyword is not None
            and arg.keyword.value == "gpu_options"
            and CONFIG_PROTO in self._kinds.get(call, set())
        )

    def _share_gpu_options(
        self, name: cst.Name, line: cst.SimpleStatementLine, config: Config
    ) -> None:
        """A GPUOptions only ever copied by ConfigProtos (``tf.Session(config=tf.ConfigProto(
        gpu_options=gpu_options))`` in each arm of an ``if``): its line goes once every config
        copying it is migrated."""
        if "#" in self.module.code_for_node(line):  # a comment (or a "#" in a string)
            raise CannotFollow(
                f"{name.value} is shared by several configs and carries a comment",
                "shared GPUOptions with a comment",
            )
        holder = self.parent(line)
        current: cst.CSTNode | None = self._flow.enclosing_statement(config.proto)
        while current is not None and current is not holder:
            current = self.parent(current)
        if current is None or self.line_of(config.proto) < self.line_of(line):
            raise CannotFollow(
                f"{name.value} is built in another block than the config",
                "GPUOptions in another block",
            )
        config.shared_options = line

    def _check_keepable(self, config: Config) -> None:
        """Whether fields with no successor can stay on a smaller ConfigProto.

        They can when every consumer is a ``tf.Session`` that goes on receiving the config (as
        ``tfcompat_gpu.session(config)``, which applies the GPU part process-wide and hands the
        rest to the session): Keras' ``set_session`` has no session in Keras 3 to give it to,
        and a factory's or a GPUOptions variable's lines are not the config's own.
        """
        why = config.kept[0][1]
        if (
            self.target != "facade"
            or config.factory is not None
            or config.creation is None
            or config.gpu_options_variable
            or not config.sinks
        ):
            raise why
        for sink in config.sinks:
            if (
                SESSION not in self._kinds.get(sink, set())
                or self._set_session_of(sink, record=False) is not None
            ):
                raise why

    def _collect_settings(self, found: list[Found], config: Config) -> None:
        counts: list[str] = []
        # the options table loads with the first config followed, not with the pre-checks
        from tfcompat_gpu.settings.options import option_for_proto_path

        for _, path, value, under in sorted(found, key=lambda item: item[0]):
            if path == "device_count[]":
                if under is not None:
                    raise CannotFollow(
                        f"device_count is changed conditionally on line {self.line_of(under)}",
                        "conditional device_count",
                    )
                counts.append(self.code_of(value)[1:-1])
                continue
            option = option_for_proto_path(path)
            key: str
            if option is None or option.kind.proto == "enum":  # enums: classify reads them
                try:
                    outcome = classify(path, value)
                except CannotFollow as why:
                    kept = config.mutations.get((_, path)) if under is None else None
                    if kept is None or why.construct != path:
                        raise
                    config.kept.append((kept, why))
                    continue
                if outcome is DEFAULT:
                    continue  # TensorFlow's default: the setting changes nothing
                assert isinstance(outcome, Successor)
                key, value = outcome.key, cst.parse_expression(outcome.value)
            else:
                key = option.name
            if key == "device_count" and not isinstance(value, cst.Dict) and counts:
                raise CannotFollow(
                    "device_count is built from a value the migration cannot read",
                    "computed device_count",
                )
            if under is None:
                config.settings[key] = value
            else:
                config.conditional.setdefault(under, {})[key] = value
        if counts:
            base = config.settings.get("device_count")
            items = [self.code_of(e) for e in base.elements] if isinstance(base, cst.Dict) else []
            config.settings["device_count"] = cst.parse_expression(
                "{" + ", ".join([*items, *counts]) + "}"
            )
        for line in config.outer:
            config.conditional.setdefault(line, {})
        if config.kept:
            self._check_keepable(config)
        if config.conditional and config.factory is not None:
            raise CannotFollow(
                f"{config.factory.name.value}() changes it under a condition, and a returned "
                "GPUConfig cannot say that",
                "conditional setting in a factory",
            )

    def _set_session_of(
        self, node: cst.CSTNode, *, record: bool = True
    ) -> cst.SimpleStatementLine | None:
        """The ``set_session(node)`` statement ``node`` is the only argument of, if any."""
        arg = self.parent(node)
        call = self.parent(arg) if isinstance(arg, cst.Arg) else None
        if (
            not isinstance(call, cst.Call)
            or len(call.args) != 1
            or not self._kinds.get(call, set()) & SET_SESSION
        ):
            return None
        expr = self.parent(call)
        line = self._flow.statement_of(expr) if isinstance(expr, cst.Expr) else None
        if line is not None and record:
            self._handled_set_session.add(call)
        return line

    def _set_session_uses(
        self, target: cst.Name
    ) -> tuple[list[cst.SimpleStatementLine], bool] | None:
        """(``set_session(sess)`` statements, whether ``sess`` has other uses)."""
        try:
            uses = self._flow.uses(target)
        except CannotFollow:
            return None
        statements_: list[cst.SimpleStatementLine] = []
        other = False
        for node in uses:
            line = self._set_session_of(node)
            if line is None:
                other = True
            else:
                statements_.append(line)
        return statements_, other
