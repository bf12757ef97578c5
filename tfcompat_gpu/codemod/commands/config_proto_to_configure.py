"""Replace a ``ConfigProto``/``GPUOptions`` handed to a session by one process-wide configuration.

TF2 keeps GPU options per process, so a config built for ``tf.Session(config=...)`` or Keras'
``set_session(...)`` becomes ``tfcompat_gpu.configure(...)`` (or, with ``--target tf2``, the
plain ``tf.config`` calls wherever they are exact), and the session, where the code still uses
one, ``tfcompat_gpu.session()``.  A config the command cannot follow completely is left as it is
and reported: a half-translated config would silently change what the program asks for.

Following each config is ``codemod/_proto_analysis.py``, the code that replaces it
``codemod/_proto_rewrite.py``, the imports it leaves unused ``codemod/_imports.py``; this
module runs them over the module (``visit_Module``) and makes the changes in the walk.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, TypeVar, cast

from tfcompat_gpu.codemod import _emit_facade
from tfcompat_gpu.codemod._base import Precheck
from tfcompat_gpu.codemod._dataflow import CannotFollow, Dataflow
from tfcompat_gpu.codemod._imports import import_reads, need_import, unused_aliases, without_aliases
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import (
    CONFIG_PROTO,
    GET_SESSION,
    INTERACTIVE_SESSION,
    RUN_CONFIG,
    SESSION,
    SET_SESSION,
    TENSORFLOW_BACKEND,
    config_keyword,
    tf_root_alias,
)
from tfcompat_gpu.codemod._proto_analysis import RECEIVED
from tfcompat_gpu.codemod._proto_config import Config
from tfcompat_gpu.codemod._proto_rewrite import Changes, ProtoRewrite

__all__ = ["ConfigProtoToConfigureCommand"]

if TYPE_CHECKING:
    _N = TypeVar("_N", bound=cst.CSTNode)

_CONFIG_PROTO = re.compile(
    r"\b(?:ConfigProto|GPUOptions|Session|InteractiveSession|set_session|get_session|RunConfig"
    r"|MonitoredTrainingSession|SingularMonitoredSession|ChiefSessionCreator|WorkerSessionCreator)\b"
)
_PROTO_WORDS = ("ConfigProto", "GPUOptions", "Session", "set_session", "get_session", "RunConfig")


class ConfigProtoToConfigureCommand(ProtoRewrite):
    DESCRIPTION = "Replace ConfigProto/GPUOptions passed to sessions or set_session by tfcompat_gpu.configure()."
    PRECHECK = Precheck.text(_CONFIG_PROTO, *_PROTO_WORDS)

    def visit_Module(self, node: cst.Module) -> None:
        self._changes = Changes()
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
        for call in calls:
            # RunConfig().replace(session_config=...), run_config.replace(...): a RunConfig too
            func = call.func
            if isinstance(func, cst.Attribute) and func.attr.value == "replace":
                made = self._flow.value_of(func.value)
                if isinstance(made, cst.Call) and kinds.get(made, set()) & RUN_CONFIG:
                    kinds[call] = kinds[call] | RUN_CONFIG
        self._kinds = kinds
        configs: list[Config] = []
        failed: list[tuple[cst.Call, CannotFollow]] = []
        for call in calls:
            if CONFIG_PROTO in kinds[call]:
                try:
                    configs.append(self._follow(call))
                except CannotFollow as stopped:
                    failed.append((call, stopped))
        configs = self._without_failed_alternatives(configs, failed)
        for call, reason in failed:
            if reason.construct != RECEIVED:
                self._warn_once(call, reason.warning("ConfigProto"))
        configs = self._without_conflicts(configs)
        self._needs_facade = False
        changed: set[cst.Call] = set()
        for group in self._alternatives(configs):
            # the configs of one if's arms are migrated all together or not at all: the
            # session after the if stops receiving any of them
            saved = self._save()
            current = group[0]
            try:
                for current in group:
                    self._change_config(current)
                changed.update(config.proto for config in group)
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
        self._remove_shared_options(configs, changed)
        if self._needs_facade:
            need_import(self.context, _emit_facade.IMPORT)
        followed = {sink for config in configs for sink in config.sinks}
        imported = {
            call
            for call in calls
            if config_keyword(kinds[call])
            and call not in followed
            and self._change_imported_factory(call)
        }
        self._change_session_factories(node, calls)
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

    def _reported_elsewhere(self, set_session: cst.Call) -> bool:
        """``set_session`` of a session whose ConfigProto already has its own warning."""
        if len(set_session.args) != 1:
            return False
        session = self._flow.value_of(set_session.args[0].value)
        if not isinstance(session, cst.Call):
            return False
        config = self._config_arg(session)
        # only when that config was warned about: a migrated one leaves set_session to say why
        return config is not None and self._is_proto(config) and session not in self._changes.calls

    def _change_session_factories(self, module: cst.Module, calls: list[cst.Call]) -> None:
        """``set_session(get_session())``, where ``get_session()`` returns a migrated session.

        The function now configures the process before it returns its session: calling it
        does everything ``set_session`` did, so the call stays and ``set_session`` goes.
        """
        functions: dict[str, list[cst.FunctionDef]] = {}

        class _Functions(cst.CSTVisitor):
            def visit_FunctionDef(self, function: cst.FunctionDef) -> None:
                functions.setdefault(function.name.value, []).append(function)

        module.visit(_Functions())
        for call in calls:
            if (
                not self._kinds[call] & SET_SESSION
                or call in self._handled_set_session
                or len(call.args) != 1
                or call in self._changes.calls
            ):
                continue
            made = call.args[0].value
            if (
                isinstance(made, cst.Call)
                and not made.args
                and isinstance(made.func, cst.Name)
                and len(functions.get(made.func.value, [])) == 1
                and self._returns_new_session(functions[made.func.value][0])
            ):
                self._changes.calls[call] = made
                self._handled_set_session.add(call)

    def _returns_new_session(self, function: cst.FunctionDef) -> bool:
        """Whether every ``return`` of ``function`` gives a session this migration rewrote."""
        returns: list[cst.Return] = []

        class _Returns(cst.CSTVisitor):
            def visit_Return(self, node: cst.Return) -> None:
                returns.append(node)

            def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
                return node is function  # not the returns of a nested function

            def visit_Lambda(self, node: cst.Lambda) -> bool:
                return False

        function.visit(_Returns())
        for statement in returns:
            value = statement.value
            session = self._flow.value_of(value) if value is not None else None
            if not (
                isinstance(session, cst.Call)
                and self._kinds.get(session, set()) & {SESSION, INTERACTIVE_SESSION}
                and session in self._changes.calls
            ):
                return False
        return bool(returns)

    def _remove_shared_options(self, configs: list[Config], changed: set[cst.Call]) -> None:
        """Remove each GPUOptions line several configs copied, once all of them are migrated."""
        users: dict[cst.SimpleStatementLine, int] = {}
        for config in configs:
            if config.shared_options is not None and config.proto in changed:
                users[config.shared_options] = users.get(config.shared_options, 0) + 1
        for line, count in users.items():
            name = self._flow.assigned_name(line.body[0].value)  # type: ignore[attr-defined]
            copies = len(self._flow.uses(name[0])) if name is not None else -1
            if count == copies and line not in self._changes.insert:
                self._changes.remove.add(line)

    def _alternatives(self, configs: list[Config]) -> list[list[Config]]:
        """The configs, those built in the arms of one ``if`` in one group."""
        groups: dict[int, list[Config]] = {}
        order: list[list[Config]] = []
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
        self, configs: list[Config], failed: list[tuple[cst.Call, CannotFollow]]
    ) -> list[Config]:
        """Drop the configs built in an ``if``'s arm beside one that cannot be followed."""
        stuck: set[int] = set()
        for call, _ in failed:
            assigned = self._flow.assigned_name(call)
            branch = self._flow.branch_of(assigned[1]) if assigned is not None else None
            if branch is not None:
                stuck.add(id(branch[0]))
        kept: list[Config] = []
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

    def _without_conflicts(self, configs: list[Config]) -> list[Config]:
        """Configs that ask for different settings in one file cannot become one process config."""
        # configs built in the arms of one if are alternatives: one of them runs
        groups: dict[int, set[tuple[tuple[str, str], ...]]] = {}
        alone: set[tuple[tuple[str, str], ...]] = set()
        for config in configs:
            # an inline config (``return tf.Session(config=tf.ConfigProto(...))``) sits in the
            # arm of its statement
            branch = self._flow.branch_of(
                config.creation or self._flow.enclosing_statement(config.proto)
            )
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

    def _settings_code(self, config: Config) -> tuple[tuple[str, str], ...]:
        code = self.module.code_for_node
        conditional = [
            (f"if {self.module.code_for_node(self._outer_test(config, line))}: {k}", code(v))
            for line, settings in config.conditional.items()
            for k, v in settings.items()
        ]
        return tuple(sorted((k, code(v)) for k, v in config.settings.items())) + tuple(conditional)

    def _outer_test(self, config: Config, line: cst.SimpleStatementLine) -> cst.CSTNode:
        outer = config.outer[line]
        return outer.test if isinstance(outer, cst.If) else outer

    def _drop_stale_imports(self, module: cst.Module) -> None:
        """Drop the import aliases only the migrated code used (:func:`~._imports.unused_aliases`)."""
        changes = self._changes
        changes.drop_aliases.update(
            unused_aliases(self, module, changes.remove | changes.replace_anchor, changes.calls)
        )

    @classmethod
    def tracks_reads(cls, statement: str) -> bool:
        # a kept import of keras.backend.tensorflow_backend is reported with the lines that
        # still use it (_warn_kept_backend_imports)
        return "tensorflow_backend" in statement

    def leave_Import(
        self, original_node: cst.Import, updated_node: cst.Import
    ) -> cst.BaseSmallStatement | cst.RemovalSentinel:
        drop = self._changes.drop_aliases.get(original_node)
        return updated_node if drop is None else without_aliases(updated_node, drop)

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.RemovalSentinel:
        drop = self._changes.drop_aliases.get(original_node)
        return updated_node if drop is None else without_aliases(updated_node, drop)

    def _warn_kept_backend_imports(self, module: cst.Module) -> None:
        """Say why an import of ``keras.backend.tensorflow_backend`` survives the migration."""
        changes = self._changes
        gone = changes.remove | changes.replace_anchor
        for statement, lines in import_reads(self, module, TENSORFLOW_BACKEND, gone, changes.calls):
            self._warn_once(
                statement,
                f"{TENSORFLOW_BACKEND} does not exist with Keras >= 2.4; the import "
                f"stays because line {', '.join(map(str, lines))} still uses it "
                "[tensorflow_backend still used]",
            )

    def declared_changes(self) -> Iterable[cst.CSTNode]:
        changes = self._changes
        return itertools.chain(
            changes.remove,
            changes.insert,
            changes.replace_anchor,
            changes.calls,
            changes.args,
            changes.comments,
            changes.drop_aliases,
        )

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        changes = self._changes
        if original_node not in changes.args:
            return changes.calls.get(original_node, updated_node)
        # a RunConfig or monitored session: its config argument replaced or dropped
        keyword = config_keyword(self._kinds[original_node])
        args = list(updated_node.args)
        index = next(i for i, a in enumerate(args) if a.keyword and a.keyword.value == keyword)
        code = changes.args[original_node]
        if code is not None:
            args[index] = args[index].with_changes(value=cst.parse_expression(code))
        elif index == len(args) - 1 and index > 0:
            last = args[index]
            args[index - 1] = args[index - 1].with_changes(
                comma=last.comma, whitespace_after_arg=last.whitespace_after_arg
            )
            del args[index]
        else:
            del args[index]
        return updated_node.with_changes(args=args)

    def on_leave(
        self, original_node: _N, updated_node: _N
    ) -> _N | cst.RemovalSentinel | cst.FlattenSentinel[_N]:
        result = super().on_leave(original_node, updated_node)
        if not isinstance(original_node, cst.BaseStatement) or not isinstance(
            result, (cst.SimpleStatementLine, cst.BaseCompoundStatement)
        ):
            return result
        changes = self._changes
        if original_node in changes.remove:
            return cst.RemoveFromParent()
        if original_node not in changes.insert:
            return result
        new = list(changes.insert[original_node])
        comments = changes.comments.get(original_node, [])
        if original_node in changes.replace_anchor:
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
