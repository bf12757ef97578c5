"""Replace a ``ConfigProto``/``GPUOptions`` handed to a session by one process-wide configuration.

TF2 keeps GPU options per process, so a config built for ``tf.Session(config=...)`` or Keras'
``set_session(...)`` becomes ``tfcompat_gpu.configure(...)`` (or, with ``--target tf2``, the
plain ``tf.config`` calls wherever they are exact), and the session, where the code still uses
one, ``tfcompat_gpu.session()``.  A config the command cannot follow completely is left as it is
and reported: a half-translated config would silently change what the program asks for.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, TypeVar, Union, cast

import libcst as cst
from libcst.metadata import (
    Assignment,
    Scope,
    ScopeProvider,
)

from tfcompat_gpu._options import option_for_proto_path
from tfcompat_gpu.codemod import _emit_facade
from tfcompat_gpu.codemod._base import MigrationCommand
from tfcompat_gpu.codemod._dataflow import CannotFollow, Dataflow
from tfcompat_gpu.codemod._emit import statements
from tfcompat_gpu.codemod._emit_tf2 import tf2_code
from tfcompat_gpu.codemod._imports import (
    need_import,
    schedule_removal,
    stale_imports,
    without_aliases,
)
from tfcompat_gpu.codemod._names import (
    CONFIG_PROTO,
    GET_SESSION,
    GPU_OPTIONS,
    INTERACTIVE_SESSION,
    SESSION,
    SET_SESSION,
    TENSORFLOW_BACKEND,
    dotted,
    prefix_for,
    tf_root_alias,
    top_level_imports,
)
from tfcompat_gpu.codemod._positions import SpanProvider

__all__ = ["ConfigProtoToConfigureCommand"]

READ_REPLACERS = "tfcompat_gpu.read_replacers"
"""``context.scratch`` key: commands of this run (``replaces_read(node)``) that rewrite a read
of an imported name away, so that the import may go."""

_Block = Union[cst.Module, cst.IndentedBlock]
_SESSION_PARAMS = ("target", "graph", "config")
_N = TypeVar("_N", bound=cst.CSTNode)


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
class _Config:
    """One ConfigProto and everything that builds it or consumes it."""

    proto: cst.Call
    settings: dict[str, cst.BaseExpression] = field(default_factory=dict)
    building: list[cst.SimpleStatementLine] = field(default_factory=list)
    sinks: list[cst.Call] = field(default_factory=list)
    anchor: cst.BaseStatement | None = None
    block: _Block | None = None
    # the anchor is a building statement or a removed sink (replaced), not a kept statement
    anchor_replaced: bool = True
    # ``def make_config(): ...; return config`` whose every call configures a session
    factory: cst.FunctionDef | None = None


@dataclass
class _Plan:
    remove: set[cst.BaseStatement] = field(default_factory=set)
    insert: dict[cst.BaseStatement, list[cst.BaseStatement]] = field(default_factory=dict)
    replace_anchor: set[cst.BaseStatement] = field(default_factory=set)
    calls: dict[cst.Call, cst.BaseExpression] = field(default_factory=dict)
    comments: dict[cst.BaseStatement, list[cst.EmptyLine]] = field(default_factory=dict)
    # import aliases (by position) only the migrated code used
    drop_aliases: dict[cst.Import | cst.ImportFrom, set[int]] = field(default_factory=dict)


class ConfigProtoToConfigureCommand(MigrationCommand):
    DESCRIPTION: str = "Replace ConfigProto/GPUOptions passed to sessions or set_session by tfcompat_gpu.configure()."
    PRECHECK: ClassVar[str | None] = "config-proto-to-configure"

    # ------------------------------------------------------------------ analysis

    def visit_Module(self, node: cst.Module) -> None:
        self._plan = _Plan()
        self._flow = Dataflow(self)
        self._warned: set[cst.CSTNode] = set()
        self._handled_set_session: set[cst.Call] = set()
        # functions that return a ConfigProto: a session given their result has its warning
        self._factories: set[cst.FunctionDef] = set()
        self._migrated = False
        self._tf = tf_root_alias(node)
        self._taken = self.taken_names(node)
        calls: list[cst.Call] = []

        class _Calls(cst.CSTVisitor):
            def visit_Call(self, call: cst.Call) -> None:
                calls.append(call)

        node.visit(_Calls())
        kinds = {call: self.names_of(call.func) for call in calls}
        self._kinds = kinds
        configs: list[_Config] = []
        for call in calls:
            if CONFIG_PROTO in kinds[call]:
                try:
                    configs.append(self._follow(call))
                except CannotFollow as why:
                    self._warn_once(call, f"ConfigProto left unchanged: {why}")
        configs = self._without_conflicts(configs)
        for config in configs:
            try:
                self._plan_config(config)
            except CannotFollow as why:
                self._warn_once(config.proto, f"ConfigProto left unchanged: {why}")
        if self._migrated:
            self._drop_stale_imports(node)
            self._warn_kept_backend_imports(node)
        followed = {sink for config in configs for sink in config.sinks}
        for call in calls:
            names = kinds[call]
            if names & SET_SESSION and call not in self._handled_set_session:
                if not self._reported_elsewhere(call):
                    self._warn_once(
                        call,
                        "set_session() does not exist with TF2 and Keras 3 and was left "
                        "unchanged: configure the process once with tfcompat_gpu.configure()",
                    )
            elif names & GET_SESSION:
                self._warn_once(
                    call,
                    "get_session() does not exist with TF2 and Keras 3 and was left unchanged: "
                    "read the settings with tfcompat_gpu.current_config(), or run a v1 graph in "
                    "tfcompat_gpu.session()",
                )
            elif names & {SESSION, INTERACTIVE_SESSION} and call not in followed:
                config_arg = self._config_arg(call)
                if (
                    config_arg is not None
                    and not self._is_none(config_arg)
                    and not self._is_proto(config_arg)
                ):
                    self._warn_once(
                        call,
                        "the config passed to this session is built where the migration cannot "
                        "follow it; left unchanged: pass its settings to tfcompat_gpu.configure()",
                    )

    def _is_proto(self, node: cst.BaseExpression) -> bool:
        value = self._flow.value_of(node)
        if not isinstance(value, cst.Call):
            return False
        if isinstance(value.func, cst.Name) and value.func.value in {
            f.name.value for f in self._factories
        }:
            return True
        return CONFIG_PROTO in self._kinds.get(value, set())

    def _reported_elsewhere(self, set_session: cst.Call) -> bool:
        """``set_session`` of a session whose ConfigProto already has its own warning."""
        if len(set_session.args) != 1:
            return False
        session = self._flow.value_of(set_session.args[0].value)
        if not isinstance(session, cst.Call):
            return False
        config = self._config_arg(session)
        return config is not None and self._is_proto(config)

    def _drop_stale_imports(self, module: cst.Module) -> None:
        """Plan the removal of imports only the migrated code used.

        Decided on this walk's metadata: an alias goes when every read of its name is in a
        statement or call the plan replaces (and the replacement does not spell it again).
        """
        if "__all__" in self.source_text():
            # a name listed in __all__ is used without a read: LibCST's remover knows that
            for small, alias, _ in stale_imports(module):
                schedule_removal(self.context, small, alias)
            return
        for small, alias, bound in stale_imports(module):
            if bound is None or "." in bound:
                schedule_removal(self.context, small, alias)
                continue
            scope = self.get_metadata(ScopeProvider, small, None)
            if scope is None or self._lines_still_using(scope, bound):
                continue
            names = small.names
            assert not isinstance(names, cst.ImportStar)
            index = next(i for i, a in enumerate(names) if a is alias)
            self._plan.drop_aliases.setdefault(small, set()).add(index)

    @classmethod
    def tracks_reads(cls, statement: str) -> bool:
        # a kept import of keras.backend.tensorflow_backend is reported with the lines that
        # still use it (_warn_kept_backend_imports)
        return "tensorflow_backend" in statement

    def leave_Import(
        self, original_node: cst.Import, updated_node: cst.Import
    ) -> cst.BaseSmallStatement | cst.RemovalSentinel:
        drop = self._plan.drop_aliases.get(original_node)
        return updated_node if drop is None else without_aliases(updated_node, drop)

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.RemovalSentinel:
        drop = self._plan.drop_aliases.get(original_node)
        return updated_node if drop is None else without_aliases(updated_node, drop)

    def _warn_kept_backend_imports(self, module: cst.Module) -> None:
        """Say why an import of ``keras.backend.tensorflow_backend`` survives the migration."""
        for statement, small in top_level_imports(module):
            bound: list[cst.CSTNode] = []
            if isinstance(small, cst.Import):
                bound = [
                    a.asname.name
                    for a in small.names
                    if dotted(a.name) == TENSORFLOW_BACKEND and a.asname is not None
                ]
            elif not isinstance(small.names, cst.ImportStar):
                module_name = dotted(small.module) if small.module is not None else None
                bound = [
                    a.asname.name if a.asname is not None else a.name
                    for a in small.names
                    if module_name == TENSORFLOW_BACKEND
                    or f"{module_name}.{a.evaluated_name}" == TENSORFLOW_BACKEND
                ]
            scope = self.get_metadata(ScopeProvider, small, None)
            lines = sorted(
                {
                    line
                    for name in bound
                    if isinstance(name, cst.Name)
                    for line in self._lines_still_using(scope, name.value)
                }
            )
            if lines:
                self._warn_once(
                    statement,
                    f"{TENSORFLOW_BACKEND} does not exist with Keras >= 2.4; the import "
                    f"stays because line {', '.join(map(str, lines))} still uses it",
                )

    def _lines_still_using(self, scope: Scope | None, name: str) -> list[int]:
        """Lines that read the name an import binds, outside what the plan replaces.

        A replaced call counts as gone unless the code replacing it spells the name again.
        """
        if scope is None:
            return []
        gone: set[cst.CSTNode] = set(self._plan.remove | self._plan.replace_anchor)
        spelled = re.compile(rf"(?<![\w.]){re.escape(name)}\b")
        gone.update(
            call
            for call, new in self._plan.calls.items()
            if not spelled.search(cst.Module([]).code_for_node(new))
        )
        # reads another command of this run rewrites away (keras_backend_values: K.get_value)
        replacers = self.context.scratch.get(READ_REPLACERS, ())
        lines: list[int] = []
        for assignment in scope.assignments[name]:
            for access in assignment.references:
                if any(replacer.replaces_read(access.node) for replacer in replacers):
                    continue
                node: cst.CSTNode | None = access.node
                while node is not None and node not in gone:
                    node = self.parent(node)
                if node is None:
                    lines.append(self.line_of(access.node))
        return lines

    def _warn_once(self, node: cst.CSTNode, message: str) -> None:
        if node not in self._warned:
            self._warned.add(node)
            self.warn_at(node, message)

    @staticmethod
    def _is_none(node: cst.BaseExpression | None) -> bool:
        return isinstance(node, cst.Name) and node.value == "None"

    def _config_arg(self, call: cst.Call) -> cst.BaseExpression | None:
        for index, arg in enumerate(call.args):
            if arg.keyword is not None and arg.keyword.value == "config":
                return arg.value
            if arg.keyword is None and arg.star == "" and index == 2:
                return arg.value
        return None

    def _session_of_arg(self, node: cst.CSTNode) -> cst.Call | None:
        """The session call that takes ``node`` as its config, if that is what ``node`` is."""
        arg = self.parent(node)
        call = self.parent(arg) if isinstance(arg, cst.Arg) else None
        if not isinstance(call, cst.Call) or not self._kinds.get(call, set()) & {
            SESSION,
            INTERACTIVE_SESSION,
        }:
            return None
        return call if self._config_arg(call) is node else None

    def _follow(self, proto: cst.Call) -> _Config:
        config = _Config(proto=proto)
        found: list[tuple[int, str, cst.BaseExpression]] = []
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
                    "cannot be traced to where they take effect"
                )
            else:
                target, line = assigned
                if self._flow.declared_outside(target):
                    raise CannotFollow(
                        f"{target.value} is declared global or nonlocal, so code elsewhere "
                        "may read it"
                    )
                config.building.append(line)
                self._read_uses(target, "", found, config)
        if gpu_options is not None:
            self._follow_gpu_options(gpu_options, proto, found, config)
        self._collect_settings(found, config)
        return config

    def _read_kwargs(
        self,
        call: cst.Call,
        prefix: str,
        found: list[tuple[int, str, cst.BaseExpression]],
        config: _Config,
    ) -> cst.Name | None:
        """Record the keyword settings of ``call``; return a GPUOptions variable to follow."""
        variable: cst.Name | None = None
        line = self.line_of(call)
        for arg in call.args:
            if arg.star:
                raise CannotFollow(f"it is built from {arg.star}arguments, whose keys are unknown")
            if arg.keyword is None:
                raise CannotFollow("it is built from positional arguments")
            key = arg.keyword.value
            if not prefix and key == "gpu_options":
                value = arg.value
                if isinstance(value, cst.Call) and GPU_OPTIONS in self._kinds.get(value, set()):
                    self._read_kwargs(value, "gpu_options.", found, config)
                elif isinstance(value, cst.Name):
                    variable = value
                else:
                    raise CannotFollow("its gpu_options is not a GPUOptions the migration can read")
                continue
            found.append((line, prefix + key, arg.value))
        return variable

    def _read_uses(
        self,
        target: cst.Name,
        prefix: str,
        found: list[tuple[int, str, cst.BaseExpression]],
        config: _Config,
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
                    "migration cannot follow (it escapes or is changed conditionally)"
                )
            if self.parent(line) is not block:
                raise CannotFollow(
                    f"{target.value} is changed on line {self.line_of(line)} in another block "
                    "(conditionally or in a loop)"
                )
            config.building.append(line)
            found.append((self.line_of(line), prefix + path, value))

    def _follow_factory(self, returned: cst.SimpleStatementLine, config: _Config) -> None:
        """A config returned by a function: every call of it must be a session's config.

        The function then returns a ``tfcompat_gpu.GPUConfig`` and each session gets it as
        ``tfcompat_gpu.session(make_config())``: the first session sets the process-wide
        options, as with TF1.
        """
        block = self.parent(returned)
        function = self.parent(block) if isinstance(block, cst.IndentedBlock) else None
        if not isinstance(function, cst.FunctionDef):
            raise CannotFollow("it is returned from somewhere else than a function body")
        self._factories.add(function)
        if config.factory is not None:
            raise CannotFollow(f"{function.name.value}() returns it more than once")
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
                "its callers get is unknown"
            )
        scope = self.get_metadata(ScopeProvider, function, None)
        assignments = list(scope.assignments[function.name.value]) if scope is not None else []
        if (
            len(assignments) != 1
            or not isinstance(assignments[0], Assignment)
            or assignments[0].node is not function
        ):
            raise CannotFollow(f"{function.name.value} is bound more than once")
        calls = [access.node for access in assignments[0].references]
        for name in calls:
            call = self.parent(name)
            sink = self._session_of_arg(call) if isinstance(call, cst.Call) else None
            if (
                not isinstance(call, cst.Call)
                or call.func is not name
                or sink is None
                or SESSION not in self._kinds.get(sink, set())
                or self._set_session_of(sink, record=False) is not None
            ):
                raise CannotFollow(
                    f"{function.name.value}() is used on line {self.line_of(name)} otherwise "
                    "than as the config of a tf.Session"
                )
            config.sinks.append(sink)
        if not calls:
            raise CannotFollow(f"{function.name.value}() is never called")
        config.factory = function

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
        found: list[tuple[int, str, cst.BaseExpression]],
        config: _Config,
    ) -> None:
        target = self._flow.definition(name)
        if target is None:
            raise CannotFollow(f"{name.value} is assigned where the migration cannot follow it")
        value = self._flow.assigned_value(target)
        if (
            not isinstance(target, cst.Name)
            or not isinstance(value, cst.Call)
            or GPU_OPTIONS not in self._kinds.get(value, set())
        ):
            raise CannotFollow(f"{name.value} is not a GPUOptions built where it can be read")
        assigned = self._flow.assigned_name(value)
        assert assigned is not None
        line = assigned[1]
        if config.building and self.parent(line) is not self.parent(config.building[0]):
            raise CannotFollow(f"{name.value} is built in another block than the config")
        self._read_kwargs(value, "gpu_options.", found, config)
        config.building.insert(0, line)
        self._read_uses(target, "gpu_options.", found, config, gpu_options_use=name)

    def _collect_settings(
        self, found: list[tuple[int, str, cst.BaseExpression]], config: _Config
    ) -> None:
        counts: list[str] = []
        for _, path, value in sorted(found, key=lambda item: item[0]):
            if path == "device_count[]":
                counts.append(self.code_of(value)[1:-1])
                continue
            option = option_for_proto_path(path)
            if option is None:
                raise CannotFollow(f"{path} has no tfcompat_gpu.configure() equivalent")
            if option.name == "device_count" and not isinstance(value, cst.Dict) and counts:
                raise CannotFollow("device_count is built from a value the migration cannot read")
            config.settings[option.name] = value
        if counts:
            base = config.settings.get("device_count")
            items = [self.code_of(e) for e in base.elements] if isinstance(base, cst.Dict) else []
            config.settings["device_count"] = cst.parse_expression(
                "{" + ", ".join([*items, *counts]) + "}"
            )

    def _without_conflicts(self, configs: list[_Config]) -> list[_Config]:
        """Configs that ask for different settings in one file cannot become one process config."""
        seen = {self._settings_code(config) for config in configs}
        if len(seen) <= 1:
            return configs
        lines = ", ".join(str(self.line_of(config.proto)) for config in configs)
        for config in configs:
            self._warn_once(
                config.proto,
                f"ConfigProto left unchanged: the configs on lines {lines} ask for different "
                "settings, but TensorFlow applies GPU options once per process (the first "
                "session wins); settle on one tfcompat_gpu.configure() call",
            )
        return []

    def _settings_code(self, config: _Config) -> tuple[tuple[str, str], ...]:
        return tuple(sorted((k, self.module.code_for_node(v)) for k, v in config.settings.items()))

    # ------------------------------------------------------------------ planning

    def _plan_config(self, config: _Config) -> None:
        if config.building:
            block = self.parent(config.building[0])
            config.anchor = max(config.building, key=self.line_of)
            last = self.line_of(config.anchor)
            for sink in config.sinks if config.factory is None else ():
                if self.line_of(sink) <= last:
                    raise CannotFollow(
                        f"a session on line {self.line_of(sink)} uses it before it is complete"
                    )
        else:
            anchor = self._flow.enclosing_statement(config.sinks[0])
            block = self.parent(anchor)
            config.anchor = anchor
            config.anchor_replaced = False
        if not isinstance(block, (cst.Module, cst.IndentedBlock)):
            raise CannotFollow("it is built where no statement can be inserted")
        config.block = block
        new = self._configure_statements(config)
        remove: set[cst.BaseStatement] = set(config.building)
        calls: dict[cst.Call, cst.BaseExpression] = {}
        for sink in config.sinks:
            self._plan_sink(sink, remove, calls, config.factory is not None)
        anchor = config.anchor
        if anchor in remove:
            config.anchor_replaced = True
            remove.discard(anchor)
        plan = self._plan
        if anchor in plan.insert or anchor in plan.remove or remove & set(plan.insert):
            raise CannotFollow("it shares its statements with another config")
        plan.remove |= remove
        plan.insert[anchor] = new
        if config.anchor_replaced:
            plan.replace_anchor.add(anchor)
        plan.calls.update(calls)
        gone = sorted(remove | ({anchor} if config.anchor_replaced else set()), key=self.line_of)
        plan.comments[anchor] = self._comments(
            gone, [sink for sink in calls if sink in config.sinks]
        )
        self._migrated = True
        if self.target == "facade" and (
            new or any(SESSION in self._kinds.get(c, set()) for c in calls)
        ):
            need_import(self.context, _emit_facade.IMPORT)

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

    def _plan_sink(
        self,
        sink: cst.Call,
        remove: set[cst.BaseStatement],
        calls: dict[cst.Call, cst.BaseExpression],
        factory: bool = False,
    ) -> None:
        interactive = INTERACTIVE_SESSION in self._kinds.get(sink, set())
        if factory:
            calls[sink] = self._new_session(sink, interactive, keep_config=True)
            return
        if not interactive:
            set_session = self._set_session_of(sink)
            if set_session is not None:
                remove.add(set_session)
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
            return cst.parse_expression(_emit_facade.session_code(args))
        name = INTERACTIVE_SESSION if interactive else SESSION
        raw = {q.name for q in self.qualified_names(sink.func)}
        func = self.module.code_for_node(sink.func)
        prefix = prefix_for(sink.func, name)
        if f"tensorflow.{name.split('.', 1)[1]}" in raw and prefix is not None:
            # tf.Session is gone from TF2's root namespace; compat.v1 keeps it
            func = f"{prefix or self._tf_prefix()}compat.v1.{name.split('.', 1)[1]}"
        return cst.parse_expression(f"{func}({', '.join(args)})")

    # ------------------------------------------------------------------ emitted code

    def _configure_statements(self, config: _Config) -> list[cst.BaseStatement]:
        settings = {k: self.code_of(v) for k, v in config.settings.items()}
        assert config.anchor is not None
        indent = " " * self.get_metadata(SpanProvider, config.anchor)[1]
        if config.factory is not None:
            if self.target != "facade":
                raise CannotFollow(
                    f"{config.factory.name.value}() returns it, and TF2 has no config object to "
                    "return (its GPU options are process-wide): use the default target, which "
                    "returns a tfcompat_gpu.GPUConfig"
                )
            return statements(_emit_facade.factory_return_code(settings, indent))
        if not settings:
            return []
        if self.target == "facade":
            return statements(_emit_facade.configure_code(settings, indent))
        return statements(tf2_code(config.settings, self.code_of, self._tf_prefix, self._taken))

    # ------------------------------------------------------------------ rewriting

    def planned(self) -> Iterable[cst.CSTNode]:
        plan = self._plan
        return itertools.chain(
            plan.remove,
            plan.insert,
            plan.replace_anchor,
            plan.calls,
            plan.comments,
            plan.drop_aliases,
        )

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        return self._plan.calls.get(original_node, updated_node)

    def on_leave(
        self, original_node: _N, updated_node: _N
    ) -> _N | cst.RemovalSentinel | cst.FlattenSentinel[_N]:
        result = super().on_leave(original_node, updated_node)
        if not isinstance(original_node, cst.BaseStatement) or not isinstance(
            result, (cst.SimpleStatementLine, cst.BaseCompoundStatement)
        ):
            return result
        plan = self._plan
        if original_node in plan.remove:
            return cst.RemoveFromParent()
        if original_node not in plan.insert:
            return result
        new = list(plan.insert[original_node])
        comments = plan.comments.get(original_node, [])
        if original_node in plan.replace_anchor:
            if not new:
                return cst.RemoveFromParent()
            new[0] = new[0].with_changes(leading_lines=comments)
            return cast("cst.FlattenSentinel[_N]", cst.FlattenSentinel(new))
        if new:
            lead = [*result.leading_lines, *(line for line in comments if line.comment)]
            new[0] = new[0].with_changes(leading_lines=lead)
            result = result.with_changes(leading_lines=[])
        return cast("cst.FlattenSentinel[_N]", cst.FlattenSentinel([*new, result]))

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        # removing a session's statements must not leave a block without a body
        if not updated_node.body:
            return updated_node.with_changes(body=[cst.SimpleStatementLine([cst.Pass()])])
        return updated_node
