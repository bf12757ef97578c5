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
from typing import TYPE_CHECKING, TypeVar, Union, cast

from tfcompat_gpu.codemod import _emit_facade
from tfcompat_gpu.codemod._base import READ_REPLACERS, MigrationCommand, Precheck
from tfcompat_gpu.codemod._dataflow import CannotFollow, Dataflow, JumpFinder
from tfcompat_gpu.codemod._emit import parsed_statements
from tfcompat_gpu.codemod._emit_tf2 import tf2_code
from tfcompat_gpu.codemod._imports import (
    need_import,
    schedule_removal,
    stale_imports,
    without_aliases,
)
from tfcompat_gpu.codemod._libcst import cst, meta, visit_with
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
from tfcompat_gpu.codemod._proto_fields import (
    DEFAULT,
    OPTIMIZER_PREFIX,
    Successor,
    classify,
    optimizer_code,
)
from tfcompat_gpu.settings.options import option_for_proto_path

__all__ = ["ConfigProtoToConfigureCommand"]

if TYPE_CHECKING:
    from libcst.metadata import Scope

    _Block = Union[cst.Module, cst.IndentedBlock]
    _N = TypeVar("_N", bound=cst.CSTNode)
    # (line, ConfigProto path, value, the line under an ``if`` that sets it or None)
    _Found = tuple[int, str, cst.BaseExpression, Union[cst.SimpleStatementLine, None]]

_SESSION_PARAMS = ("target", "graph", "config")
# a config handed to tfcompat_gpu.session(), which takes a ConfigProto: already migrated code
# (a field with no successor kept on it), nothing to report
_RECEIVED = "received by tfcompat_gpu.session()"


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
    # settings made under an ``if`` of the block: the line setting them -> its settings, and
    # the statement of the block that holds it
    conditional: dict[cst.SimpleStatementLine, dict[str, cst.BaseExpression]] = field(
        default_factory=dict
    )
    outer: dict[cst.SimpleStatementLine, cst.BaseStatement] = field(default_factory=dict)
    # a factory whose callers are in other modules
    returns_proto: bool = False
    # ``name = ConfigProto(...)`` and each top-level ``name.a.b = v`` line, by (line, path)
    creation: cst.SimpleStatementLine | None = None
    mutations: dict[tuple[int, str], cst.SimpleStatementLine] = field(default_factory=dict)
    # fields with no successor, kept on a smaller ConfigProto the sessions still receive
    kept: list[tuple[cst.SimpleStatementLine, CannotFollow]] = field(default_factory=list)
    gpu_options_variable: bool = False


@dataclass
class _Plan:
    remove: set[cst.BaseStatement] = field(default_factory=set)
    insert: dict[cst.BaseStatement, list[cst.BaseStatement]] = field(default_factory=dict)
    replace_anchor: set[cst.BaseStatement] = field(default_factory=set)
    calls: dict[cst.Call, cst.BaseExpression] = field(default_factory=dict)
    comments: dict[cst.BaseStatement, list[cst.EmptyLine]] = field(default_factory=dict)
    # import aliases (by position) only the migrated code used
    drop_aliases: dict[cst.Import | cst.ImportFrom, set[int]] = field(default_factory=dict)


_CONFIG_PROTO = re.compile(
    r"\b(?:ConfigProto|GPUOptions|Session|InteractiveSession|set_session|get_session)\b"
)
_PROTO_WORDS = ("ConfigProto", "GPUOptions", "Session", "set_session", "get_session")


class ConfigProtoToConfigureCommand(MigrationCommand):
    DESCRIPTION = "Replace ConfigProto/GPUOptions passed to sessions or set_session by tfcompat_gpu.configure()."
    PRECHECK = Precheck.text(_CONFIG_PROTO, *_PROTO_WORDS)

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
        failed: list[tuple[cst.Call, CannotFollow]] = []
        for call in calls:
            if CONFIG_PROTO in kinds[call]:
                try:
                    configs.append(self._follow(call))
                except CannotFollow as stopped:
                    failed.append((call, stopped))
        configs = self._without_failed_alternatives(configs, failed)
        for call, reason in failed:
            if reason.construct != _RECEIVED:
                self._warn_once(call, reason.warning("ConfigProto"))
        configs = self._without_conflicts(configs)
        self._needs_facade = False
        for group in self._alternatives(configs):
            # the configs of one if's arms are migrated all together or not at all: the
            # session after the if stops receiving any of them
            saved = self._save()
            current = group[0]
            try:
                for current in group:
                    self._plan_config(current)
            except CannotFollow as why:
                self._restore(saved)
                self._warn_once(current.proto, why.warning("ConfigProto"))
                beside = CannotFollow(
                    f"the config built on line {self.line_of(current.proto)}, in another arm of "
                    "the same if, cannot be migrated, and the session after the if receives "
                    "either",
                    "alternative config left",
                )
                for config in group:
                    self._warn_once(config.proto, beside.warning("ConfigProto"))
        if self._needs_facade:
            need_import(self.context, _emit_facade.IMPORT)
        followed = {sink for config in configs for sink in config.sinks}
        imported = {
            call
            for call in calls
            if kinds[call] & {SESSION, INTERACTIVE_SESSION}
            and call not in followed
            and self._plan_imported_factory(call)
        }
        if self._migrated:
            self._drop_stale_imports(node)
            self._warn_kept_backend_imports(node)
        for call in calls:
            names = kinds[call]
            if names & SET_SESSION and call not in self._handled_set_session:
                if not self._reported_elsewhere(call):
                    self._warn_once(
                        call,
                        "set_session() does not exist with TF2 and Keras 3 and was left "
                        "unchanged: configure the process once with tfcompat_gpu.configure() "
                        "[set_session of an untraced session]",
                    )
            elif names & GET_SESSION:
                self._warn_once(
                    call,
                    "get_session() does not exist with TF2 and Keras 3 and was left unchanged: "
                    "read the settings with tfcompat_gpu.current_config(), or run a v1 graph in "
                    "tfcompat_gpu.session() [get_session]",
                )
            elif names & {SESSION, INTERACTIVE_SESSION} and call not in followed:
                config_arg = self._config_arg(call)
                if (
                    config_arg is not None
                    and not self._is_none(config_arg)
                    and not self._is_proto(config_arg)
                    and call not in imported
                ):
                    self._warn_once(
                        call,
                        "the config passed to this session is built where the migration cannot "
                        "follow it; left unchanged: pass its settings to tfcompat_gpu.configure() "
                        "[untraced config]",
                    )

    def _alternatives(self, configs: list[_Config]) -> list[list[_Config]]:
        """The configs, those built in the arms of one ``if`` in one group."""
        groups: dict[int, list[_Config]] = {}
        order: list[list[_Config]] = []
        for config in configs:
            branch = self._flow.branch_of(config.creation)
            if branch is None:
                order.append([config])
                continue
            if id(branch[0]) not in groups:
                groups[id(branch[0])] = []
                order.append(groups[id(branch[0])])
            groups[id(branch[0])].append(config)
        return order

    def _without_failed_alternatives(
        self, configs: list[_Config], failed: list[tuple[cst.Call, CannotFollow]]
    ) -> list[_Config]:
        """Drop the configs built in an ``if``'s arm beside one that cannot be followed."""
        stuck: set[int] = set()
        for call, _ in failed:
            assigned = self._flow.assigned_name(call)
            branch = self._flow.branch_of(assigned[1]) if assigned is not None else None
            if branch is not None:
                stuck.add(id(branch[0]))
        kept: list[_Config] = []
        for config in configs:
            branch = self._flow.branch_of(config.creation)
            if branch is not None and id(branch[0]) in stuck:
                failed.append(
                    (
                        config.proto,
                        CannotFollow(
                            "the config built in another arm of the same if cannot be "
                            "migrated, and the session after the if receives either",
                            "alternative config left",
                        ),
                    )
                )
            else:
                kept.append(config)
        return kept

    def _save(self) -> tuple[_Plan, bool, bool, set[cst.Call]]:
        plan = self._plan
        copy = _Plan(
            remove=set(plan.remove),
            insert=dict(plan.insert),
            replace_anchor=set(plan.replace_anchor),
            calls=dict(plan.calls),
            comments=dict(plan.comments),
            drop_aliases={k: set(v) for k, v in plan.drop_aliases.items()},
        )
        return copy, self._migrated, self._needs_facade, set(self._handled_set_session)

    def _restore(self, saved: tuple[_Plan, bool, bool, set[cst.Call]]) -> None:
        self._plan, self._migrated, self._needs_facade, self._handled_set_session = saved

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
            scope = self.scope_of(small)
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
            scope = self.scope_of(small)
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
                    f"stays because line {', '.join(map(str, lines))} still uses it "
                    "[tensorflow_backend still used]",
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
        found: list[_Found] = []
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
        found: list[_Found],
        config: _Config,
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
        found: list[_Found],
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
                config.outer[line] = self._condition_of(line, block, target)
                found.append((self.line_of(line), prefix + path, value, line))
                continue
            config.building.append(line)
            found.append((self.line_of(line), prefix + path, value, None))
            if not prefix:
                config.mutations[(self.line_of(line), path)] = line

    def _follow_factory(self, returned: cst.SimpleStatementLine, config: _Config) -> None:
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
            sink = self._session_of_arg(call) if isinstance(call, cst.Call) else None
            if (
                not isinstance(call, cst.Call)
                or call.func is not name
                or sink is None
                or SESSION not in self._kinds.get(sink, set())
            ):
                raise CannotFollow(
                    f"{function.name.value}() is used on line {self.line_of(name)} otherwise "
                    "than as the config of a tf.Session",
                    "factory "
                    + self._use_construct(
                        call if isinstance(call, cst.Call) else name, "other use"
                    ),
                )
            config.sinks.append(sink)
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

    def _use_construct(self, node: cst.CSTNode, otherwise: str) -> str:
        """What a config escapes to, for the warning's reason: ``passed to RunConfig()``."""
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
                return _RECEIVED
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
        found: list[_Found],
        config: _Config,
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
        if config.building and self.parent(line) is not self.parent(config.building[0]):
            raise CannotFollow(
                f"{name.value} is built in another block than the config",
                "GPUOptions in another block",
            )
        self._read_kwargs(value, "gpu_options.", found, config)
        config.building.insert(0, line)
        self._read_uses(target, "gpu_options.", found, config, gpu_options_use=name)

    def _condition_of(
        self, line: cst.SimpleStatementLine, block: cst.CSTNode | None, target: cst.Name
    ) -> cst.BaseStatement:
        """The statement of ``block`` holding ``line``, when only ``if``/``else`` lie between.

        Then a ``configure()`` call in ``line``'s place runs exactly when the setting did, and
        every path through the statement goes on to the code after it, where the session is:
        a loop, ``try``, ``with`` or a jump (``return``, ``break``, ``raise``, ...) in it would
        not prove that, so those keep the config as it is.
        """
        where = f"{target.value} is changed on line {self.line_of(line)}"
        node: cst.CSTNode = line
        while True:
            parent = self.parent(node)
            if parent is None:
                raise CannotFollow(f"{where}, outside the block that builds it", "other scope")
            if parent is block:
                break
            if isinstance(parent, (cst.For, cst.While)):
                raise CannotFollow(f"{where} in a loop", "loop")
            if isinstance(parent, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                raise CannotFollow(f"{where} in a nested function", "nested function")
            if isinstance(parent, (cst.Try, cst.TryStar, cst.ExceptHandler, cst.Finally)):
                raise CannotFollow(f"{where} in a try statement", "try")
            if isinstance(parent, cst.With):
                raise CannotFollow(f"{where} in a with statement", "with")
            if not isinstance(parent, (cst.IndentedBlock, cst.If, cst.Else)):
                raise CannotFollow(
                    f"{where} in a {type(parent).__name__} the migration does not follow",
                    type(parent).__name__,
                )
            node = parent
        assert isinstance(node, cst.BaseStatement)
        tf_calls: list[cst.Call] = []
        command = self

        class _Jumps(JumpFinder):
            # also a yield (the caller may never resume it) and calls that may start the runtime
            def visit_Yield(self, n: cst.Yield) -> None:
                self.jumps.append(n)

            def visit_FunctionDef(self, n: cst.FunctionDef) -> bool:
                return True

            def visit_Call(self, n: cst.Call) -> None:
                names = {q.name for q in command.qualified_names(n.func)}
                if any(name.split(".")[0] in ("tensorflow", "keras", "sys") for name in names):
                    tf_calls.append(n)

        finder = _Jumps()
        visit_with(node, finder)
        jumps = finder.jumps
        if jumps:
            raise CannotFollow(
                f"{where} under an if whose line {self.line_of(jumps[0])} may leave it before "
                "the session",
                "jump out of the if",
            )
        if tf_calls:
            # a call to TensorFlow in the condition may start its runtime, after which the
            # process-wide options can no longer change (in the original they wait for the
            # session)
            raise CannotFollow(
                f"{where} under an if that calls TensorFlow (line {self.line_of(tf_calls[0])}), "
                "which may start its runtime before the setting",
                "TensorFlow call in the if",
            )
        return node

    def _check_keepable(self, config: _Config) -> None:
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

    def _collect_settings(self, found: list[_Found], config: _Config) -> None:
        counts: list[str] = []
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
            if option is None:
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

    def _without_conflicts(self, configs: list[_Config]) -> list[_Config]:
        """Configs that ask for different settings in one file cannot become one process config."""
        # configs built in the arms of one if are alternatives: one of them runs
        groups: dict[int, set[tuple[tuple[str, str], ...]]] = {}
        alone: set[tuple[tuple[str, str], ...]] = set()
        for config in configs:
            branch = self._flow.branch_of(config.creation)
            if branch is None:
                alone.add(self._settings_code(config))
            else:
                groups.setdefault(id(branch[0]), set()).add(self._settings_code(config))
        seen = {frozenset(codes) for codes in groups.values()} | {frozenset({c}) for c in alone}
        if len(seen) <= 1:
            return configs
        lines = ", ".join(str(self.line_of(config.proto)) for config in configs)
        for config in configs:
            self._warn_once(
                config.proto,
                f"ConfigProto left unchanged: the configs on lines {lines} ask for different "
                "settings, but TensorFlow applies GPU options once per process (the first "
                "session wins); settle on one tfcompat_gpu.configure() call "
                "[sessions asking for different settings]",
            )
        return []

    def _settings_code(self, config: _Config) -> tuple[tuple[str, str], ...]:
        code = self.module.code_for_node
        conditional = [
            (f"if {self.module.code_for_node(self._outer_test(config, line))}: {k}", code(v))
            for line, settings in config.conditional.items()
            for k, v in settings.items()
        ]
        return tuple(sorted((k, code(v)) for k, v in config.settings.items())) + tuple(conditional)

    def _outer_test(self, config: _Config, line: cst.SimpleStatementLine) -> cst.CSTNode:
        outer = config.outer[line]
        return outer.test if isinstance(outer, cst.If) else outer

    # ------------------------------------------------------------------ planning

    def _plan_config(self, config: _Config) -> None:
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
        conditional = self._plan_conditional(config)
        new = self._configure_statements(config, config.settings, config.anchor)
        remove: set[cst.BaseStatement] = set(config.building)
        calls: dict[cst.Call, cst.BaseExpression] = {}
        for sink in config.sinks:
            self._plan_sink(sink, remove, calls, config.factory is not None or bool(kept))
        anchor = config.anchor
        if kept:
            new = self._plan_kept(config, remove, new)
        if anchor in remove:
            config.anchor_replaced = True
            remove.discard(anchor)
        plan = self._plan
        if anchor in plan.insert or anchor in plan.remove or remove & set(plan.insert):
            raise CannotFollow("it shares its statements with another config", "shared statements")
        if set(conditional) & (set(plan.insert) | plan.remove):
            raise CannotFollow("it shares its statements with another config", "shared statements")
        plan.remove |= remove
        plan.insert[anchor] = new
        for line, code in conditional.items():
            plan.insert[line] = code
            plan.replace_anchor.add(line)
            plan.comments[line] = self._comments([line], [])
        if config.anchor_replaced:
            plan.replace_anchor.add(anchor)
        plan.calls.update(calls)
        gone = sorted(remove | ({anchor} if config.anchor_replaced else set()), key=self.line_of)
        plan.comments[anchor] = self._comments(
            gone, [sink for sink in calls if sink in config.sinks]
        )
        self._migrated = True
        if self.target == "facade" and (
            new
            or any(conditional.values())
            or any(SESSION in self._kinds.get(c, set()) for c in calls)
        ):
            self._needs_facade = True

    def _plan_conditional(
        self, config: _Config
    ) -> dict[cst.BaseStatement, list[cst.BaseStatement]]:
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

    def _plan_kept(
        self, config: _Config, remove: set[cst.BaseStatement], new: list[cst.BaseStatement]
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
        plan = self._plan
        if creation in plan.insert:
            raise CannotFollow("it shares its statements with another config", "shared statements")
        plan.insert[creation] = empty
        plan.replace_anchor.add(creation)
        plan.comments[creation] = _leading_lines(creation)
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

    def _plan_sink(
        self,
        sink: cst.Call,
        remove: set[cst.BaseStatement],
        calls: dict[cst.Call, cst.BaseExpression],
        factory: bool = False,
    ) -> None:
        interactive = INTERACTIVE_SESSION in self._kinds.get(sink, set())
        if factory:
            self._plan_given_config(sink, calls)
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

    def _plan_given_config(self, sink: cst.Call, calls: dict[cst.Call, cst.BaseExpression]) -> None:
        """A session given a config that a function returns: the config is handed on as it is.

        ``tfcompat_gpu.session()`` and ``tfcompat_gpu.configure()`` take a ``GPUConfig`` or a
        ``ConfigProto``, so this holds whatever the function returns; under Keras'
        ``set_session(tf.Session(config=f()))`` the process is configured with it.
        """
        interactive = INTERACTIVE_SESSION in self._kinds.get(sink, set())
        line = None if interactive else self._set_session_of(sink)
        if line is None:
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

    def _plan_imported_factory(self, sink: cst.Call) -> bool:
        """``tf.Session(config=utils.get_config())``, the function imported from a local module.

        The call site does not depend on what the function returns (see
        :meth:`_plan_given_config`), so it migrates without following the function.
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
            or q.name.split(".")[0] in ("tensorflow", "keras", "tf_keras")
            for q in names
        ):
            return False
        calls: dict[cst.Call, cst.BaseExpression] = {}
        self._plan_given_config(sink, calls)
        if set(calls) & set(self._plan.calls):
            return False
        self._plan.calls.update(calls)
        self._migrated = True
        need_import(self.context, _emit_facade.IMPORT)
        return True

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

    def _configure_statements(
        self,
        config: _Config,
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
                # XLA and grappler rewrites are no GPU options: TF2's own calls set them on
                # the context, whose config every later session and tf.function reads
                # (tensorflow/python/eager/context.py, Context.config)
                code += optimizer_code(self._tf_prefix(), optimizer)
            return parsed_statements(code)
        return parsed_statements(
            tf2_code(settings_nodes, self.code_of, self._tf_prefix, self._taken)
        )

    # ------------------------------------------------------------------ rewriting

    def declared_changes(self) -> Iterable[cst.CSTNode]:
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
