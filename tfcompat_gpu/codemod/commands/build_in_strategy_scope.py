"""``multi_gpu_model`` and ``compile(distribute=...)`` → the model built inside ``strategy.scope()``.

A strategy replicates only variables created inside its scope.  Where the whole construction of
the model is visible in the same block (the statement assigning it and the contiguous statements
before it that build what it uses: ``inputs = Input(...)``, ``x = Dense(...)(inputs)``), those
statements, everything up to the ``compile``, and the ``compile`` itself move into
``with strategy.scope():``::

    parallel_model = multi_gpu_model(model, gpus=2)      strategy = tf.distribute.MirroredStrategy(
                                                             ["/gpu:0", "/gpu:1"])
                                                         with strategy.scope():
                                                             model = ...
                                                             parallel_model = model
                                                             parallel_model.compile(...)

The fallback Keras 2's documentation showed is taken as the plain call: a ``try:`` whose body is
``parallel_model = multi_gpu_model(model, ...)`` (and prints), and whose handlers only fall back
(``parallel_model = model``, ``pass``, prints), since the strategy itself falls back to the
devices present.  The try's prints follow the scope.

A GPU count or list read from a name (``gpus=FLAGS.num_gpus``, ``gpus=args.gpus``) is read as
``multi_gpu_model`` read it (a list or tuple of ids, else a count), where nothing among the
statements that move into the scope sets that name.  Otherwise (the model comes from elsewhere,
the GPU list is computed there) the code is left alone with a ``path:line`` warning naming the
fix.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from tfcompat_gpu.codemod._base import MigrationCommand, Precheck
from tfcompat_gpu.codemod._imports import need_import, schedule_removal_by_node
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._names import dotted, tf_root_alias
from tfcompat_gpu.tfapi.multigpu_names import MULTI_GPU_MODEL

__all__ = ["BuildInStrategyScopeCommand"]

_DEVICE = "tensorflow.device"
_FIX = "build and compile the model inside `with tf.distribute.MirroredStrategy().scope():`"


def _names_in(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()

    class _Collect(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.add(name.value)

    node.visit(_Collect())
    return found


def _assigned(statement: cst.CSTNode) -> set[str]:
    """Names a simple ``a = ...`` statement line assigns (empty for anything else)."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return set()
    small = statement.body[0]
    if isinstance(small, cst.Assign):
        return {t.target.value for t in small.targets if isinstance(t.target, cst.Name)}
    if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
        return {small.target.value}
    return set()


def _single_call(statement: cst.CSTNode) -> tuple[str | None, cst.Call] | None:
    """``(target, call)`` for ``target = call(...)`` or ``call(...)`` statement lines."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return None
    small = statement.body[0]
    if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
        return None, small.value
    if (
        isinstance(small, cst.Assign)
        and len(small.targets) == 1
        and isinstance(small.targets[0].target, cst.Name)
        and isinstance(small.value, cst.Call)
    ):
        return small.targets[0].target.value, small.value
    return None


def _compile_of(statement: cst.CSTNode, model: str) -> cst.Call | None:
    found = _single_call(statement)
    if found is None or found[0] is not None:
        return None
    func = found[1].func
    if (
        isinstance(func, cst.Attribute)
        and func.attr.value == "compile"
        and isinstance(func.value, cst.Name)
        and func.value.value == model
    ):
        return found[1]
    return None


def _prints(statement: cst.CSTNode) -> bool:
    """A statement line of calls only (``print(...)``, ``logger.info(...)``)."""
    return isinstance(statement, cst.SimpleStatementLine) and all(
        isinstance(small, cst.Expr) and isinstance(small.value, cst.Call)
        for small in statement.body
    )


def _falls_back(statement: cst.CSTNode, allowed: set[tuple[str, str]]) -> bool:
    """``pass`` or ``parallel = model``."""
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    for small in statement.body:
        if isinstance(small, cst.Pass):
            continue
        if not (
            isinstance(small, cst.Assign)
            and len(small.targets) == 1
            and isinstance(small.targets[0].target, cst.Name)
            and isinstance(small.value, cst.Name)
            and (small.targets[0].target.value, small.value.value) in allowed
        ):
            return False
    return True


def _arg(call: cst.Call, index: int, name: str) -> cst.Arg | None:
    for position, arg in enumerate(call.args):
        if arg.keyword is not None:
            if arg.keyword.value == name:
                return arg
        elif position == index:
            return arg
    return None


def _aligned(original: Sequence[cst.CSTNode], updated: Sequence[cst.CSTNode]) -> list[int | None]:
    """Where each original statement of a block stands among the updated ones.

    Another command may have removed or added statements of the same block in this walk (a
    session's configuration turned into one ``configure()`` call), so the two lists need not
    line up; statements are matched by their code, a changed one taken as its own successor
    where as many stand in its place.  ``None`` for one that is gone or cannot be told apart."""
    if len(original) == len(updated):
        return list(range(len(original)))
    module = cst.Module(body=[])
    keys = [module.code_for_node(s) for s in original]
    news = [module.code_for_node(s) for s in updated]
    where: list[int | None] = [None] * len(original)
    matcher = difflib.SequenceMatcher(None, keys, news, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            for k in range(i2 - i1):
                where[i1 + k] = j1 + k
    return where


_STRATEGY = re.compile(r"multi_gpu_model|\bdistribute\s*=")


class BuildInStrategyScopeCommand(MigrationCommand):
    DESCRIPTION = (
        "Build models given to multi_gpu_model or compile(distribute=...) inside strategy.scope()."
    )
    PRECHECK = Precheck.text(_STRATEGY, "multi_gpu_model", "distribute")

    def declared_changes(self) -> tuple[()]:
        return ()  # every change is made in a statement PRECHECK finds relevant

    def visit_Module(self, node: cst.Module) -> None:
        self._module = node
        self._tf = tf_root_alias(node)
        self._names = set(re.findall(r"\b\w+\b", self.source_text()))
        self._fallbacks: set[int] = set()
        self._calls: list[cst.Call] = []  # every multi_gpu_model(...) call
        self._handled: set[int] = set()  # those rewritten or warned about

    def visit_Call(self, node: cst.Call) -> None:
        if self._is(node.func, MULTI_GPU_MODEL):
            self._calls.append(node)

    def visit_Try(self, node: cst.Try) -> None:
        if self._fallback(node) is not None:
            self._fallbacks.add(id(node.body))  # rewritten with the block holding the try

    def _fallback(self, node: cst.CSTNode) -> tuple[str, cst.Call] | None:
        """``(parallel, call)`` of a ``try: parallel = multi_gpu_model(model, ...)`` whose
        handlers only fall back to the model (see the module's text); else None."""
        if not isinstance(node, cst.Try) or node.orelse or node.finalbody or not node.handlers:
            return None
        first, *rest = node.body.body
        found = _single_call(first)
        if found is None or not self._is(found[1].func, MULTI_GPU_MODEL):
            return None
        parallel, call = found
        if parallel is None:
            return None
        model = _arg(call, 0, "model")
        if model is None or not isinstance(model.value, cst.Name):
            return None
        allowed = {(parallel, model.value.value)}
        if not all(_prints(s) for s in rest):
            return None
        for handler in node.handlers:
            for statement in handler.body.body:
                if not (_prints(statement) or _falls_back(statement, allowed)):
                    return None
        return parallel, call

    def _is(self, node: cst.CSTNode, names: frozenset[str] | set[str]) -> bool:
        return bool(self.names_of(node) & names)

    # -- finding the construction ---------------------------------------------------------

    def _builds(self, statement: cst.CSTNode, model: str) -> bool:
        """``model = ...``, or ``with tf.device(...): model = ...``."""
        if model in _assigned(statement):
            return True
        if isinstance(statement, cst.With) and self._device_with(statement):
            body = statement.body.body
            return bool(body) and any(model in _assigned(s) for s in body)
        return False

    def _device_with(self, statement: cst.With) -> bool:
        return (
            len(statement.items) == 1
            and isinstance(statement.items[0].item, cst.Call)
            and (self._is(statement.items[0].item.func, {_DEVICE}))
        )

    def _construction(self, body: Sequence[cst.CSTNode], end: int, model: str) -> int | None:
        """Index of the first statement that builds ``model`` (before ``end``), or None."""
        builder = next((j for j in range(end - 1, -1, -1) if self._builds(body[j], model)), None)
        if builder is None:
            return None
        needed = _names_in(body[builder])
        start = builder
        for k in range(builder - 1, -1, -1):
            assigned = _assigned(body[k])
            if not assigned or not assigned & needed:
                break
            needed |= _names_in(body[k])
            start = k
        return start

    # -- rewriting a block ----------------------------------------------------------------

    def _rewrite(
        self, original: Sequence[cst.CSTNode], updated: Sequence[cst.BaseStatement]
    ) -> list[cst.BaseStatement] | None:
        for index, statement in enumerate(original):
            fallback = self._fallback(statement)
            if fallback is not None:
                return self._multi_gpu_try(original, updated, index, *fallback)
            found = _single_call(statement)
            if found is None:
                continue
            target, call = found
            if target is not None and self._is(call.func, MULTI_GPU_MODEL):
                return self._multi_gpu(original, updated, index, target, call)
            if (
                target is None
                and isinstance(call.func, cst.Attribute)
                and call.func.attr.value == "compile"
                and _arg(call, -1, "distribute")
            ):
                return self._compile(original, updated, index, call)
        return None

    def _multi_gpu(
        self,
        original: Sequence[cst.CSTNode],
        updated: Sequence[cst.BaseStatement],
        index: int,
        parallel: str,
        call: cst.Call,
    ) -> list[cst.BaseStatement] | None:
        self._handled.add(id(call))
        model_arg = _arg(call, 0, "model")
        model = (
            model_arg.value.value if model_arg and isinstance(model_arg.value, cst.Name) else None
        )
        start = self._construction(original, index, model) if model else None
        devices = self._devices(call)
        late = start is not None and self._set_between(call, original, start, index)
        name = next((n for n in ("strategy", "mirrored_strategy") if n not in self._names), None)
        if model is None or start is None or devices is None or late or name is None:
            why, tag = (
                ("the GPU list is not a literal", "GPU list not a literal")
                if devices is None
                else (
                    "the GPU count is set among the statements that build the model",
                    "GPU count set late",
                )
                if late
                else ("the model is built elsewhere", "model built elsewhere")
                if model is None or start is None
                else ("the names strategy and mirrored_strategy are taken", "strategy names taken")
            )
            self.warn_at(original[index], f"multi_gpu_model left unchanged ({why}): {_FIX} [{tag}]")
            return None
        end = probe = index + 1
        # up to the compile, over the calls between (model.summary(), prints): the optimizer's
        # variables are made there, in the scope
        while probe < len(original) and (
            _compile_of(original[probe], parallel) or _prints(original[probe])
        ):
            probe += 1
            if _compile_of(original[probe - 1], parallel):
                end = probe
        span = self._span(original, updated, start, end)
        if span is None:
            return None
        offset = span - start
        start, index, end = start + offset, index + offset, end + offset
        schedule_removal_by_node(self.context, call)
        inner = list(updated[start:index])
        if parallel != model:
            inner.append(cst.parse_statement(f"{parallel} = {model}\n"))
        inner.extend(updated[index + 1 : end])
        prefix = self._prefix()
        strategy = cst.parse_statement(
            f"{name} = {prefix}distribute.MirroredStrategy({devices.format(tf=prefix)})\n"
        )
        first = updated[start]
        if isinstance(strategy, cst.SimpleStatementLine):
            strategy = strategy.with_changes(leading_lines=getattr(first, "leading_lines", ()))
        return [*updated[:start], strategy, self._scope(name, inner), *updated[end:]]

    def _multi_gpu_try(
        self,
        original: Sequence[cst.CSTNode],
        updated: Sequence[cst.BaseStatement],
        index: int,
        parallel: str,
        call: cst.Call,
    ) -> list[cst.BaseStatement] | None:
        """The fallback ``try:`` rewritten as its ``multi_gpu_model`` line; its prints follow."""
        at = _aligned(original, updated)[index]
        tried = updated[at] if at is not None else None
        if not isinstance(tried, cst.Try):
            self._left(original[index])
            return None
        first, *prints = tried.body.body
        plain = list(updated)
        plain[at] = first  # type: ignore[assignment,index]
        flat = list(original)
        flat[index] = original[index].body.body[0]  # type: ignore[attr-defined]
        body = self._multi_gpu(flat, plain, index, parallel, call)
        if body is None:
            return None
        scope = next(
            i
            for i, s in enumerate(body)
            if isinstance(s, cst.With) and all(s is not u for u in plain)
        )
        return [*body[: scope + 1], *prints, *body[scope + 1 :]]

    def _compile(
        self,
        original: Sequence[cst.CSTNode],
        updated: Sequence[cst.BaseStatement],
        index: int,
        call: cst.Call,
    ) -> list[cst.BaseStatement] | None:
        func = call.func
        assert isinstance(func, cst.Attribute)
        distribute = _arg(call, -1, "distribute")
        assert distribute is not None
        model = func.value.value if isinstance(func.value, cst.Name) else None
        strategy = distribute.value.value if isinstance(distribute.value, cst.Name) else None
        start = self._construction(original, index, model) if model else None
        if model is None or strategy is None or start is None:
            self.warn_at(
                original[index],
                "compile(distribute=...) left unchanged (the model or the strategy is built "
                f"elsewhere): {_FIX.replace('tf.distribute.MirroredStrategy()', 'strategy')} "
                "[model built elsewhere]",
            )
            return None
        builder = next(k for k in range(index - 1, -1, -1) if self._builds(original[k], model))
        span = self._span(original, updated, start, index + 1)
        if span is None:
            return None
        offset = span - start
        moved: list[cst.BaseStatement] = []
        inner: list[cst.BaseStatement] = []
        scoped: set[str] = {model}
        for k in range(start, index):
            assigned = _assigned(original[k])
            uses = _names_in(original[k])
            if strategy in assigned:
                if uses & scoped:
                    self.warn_at(
                        original[index],
                        f"compile(distribute=...) left unchanged ({strategy} is built from the "
                        f"model's parts): {_FIX} [strategy built from the model]",
                    )
                    return None
                moved.append(updated[k + offset])
            elif k > builder and assigned and not (uses - assigned) & scoped:
                # unrelated to the model (its data): stays outside
                moved.append(updated[k + offset])
            else:
                scoped |= assigned
                inner.append(updated[k + offset])
        start, index = start + offset, index + offset
        compiled = updated[index]
        assert isinstance(compiled, cst.SimpleStatementLine)
        expr = compiled.body[0]
        assert isinstance(expr, cst.Expr)
        assert isinstance(expr.value, cst.Call)
        args = [a for a in expr.value.args if not (a.keyword and a.keyword.value == "distribute")]
        if args:
            args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        inner.append(
            compiled.with_changes(
                body=[expr.with_changes(value=expr.value.with_changes(args=args))]
            )
        )
        return [*updated[:start], *moved, self._scope(strategy, inner), *updated[index + 1 :]]

    # -- pieces ---------------------------------------------------------------------------

    def _span(
        self,
        original: Sequence[cst.CSTNode],
        updated: Sequence[cst.BaseStatement],
        start: int,
        end: int,
    ) -> int | None:
        """Where the original statements ``start:end`` begin among the updated ones, when they
        stand there in one run; else None, with a warning on the first of them."""
        where = _aligned(original, updated)
        first = where[start]
        if first is None or where[start:end] != list(range(first, first + end - start)):
            self._left(original[start])
            return None
        return first

    def _left(self, statement: cst.CSTNode) -> None:
        self.warn_at(
            statement,
            "multi_gpu_model left unchanged (the statements that build the model were "
            f"rewritten in another way as well): {_FIX} [model built elsewhere]",
        )

    def _devices(self, call: cst.Call) -> str | None:
        gpus = _arg(call, 1, "gpus")
        if gpus is None or (isinstance(gpus.value, cst.Name) and gpus.value.value == "None"):
            return ""
        if isinstance(gpus.value, cst.Integer):
            # the GPUs asked for, cut to those present (none: TensorFlow's default, the CPU),
            # as multi_gpu_model under tfcompat-gpu run does
            listed = ", ".join(f'"/gpu:{i}"' for i in range(int(gpus.value.value)))
            present = 'len({tf}config.list_physical_devices("GPU"))'
            return f"[{listed}][:{present}] or None"
        if isinstance(gpus.value, (cst.List, cst.Tuple)) and all(
            isinstance(e.value, cst.Integer) for e in gpus.value.elements
        ):
            ids = [int(e.value.value) for e in gpus.value.elements]  # type: ignore[attr-defined]
            return "[" + ", ".join(f'"/gpu:{i}"' for i in ids) + "]"
        given = dotted(gpus.value)
        if given is not None:
            # a count or a list of ids read from a flag (gpus=FLAGS.num_gpus): multi_gpu_model's
            # own reading of either, cut to the GPUs present as above
            read = f"({given} if isinstance({given}, (list, tuple)) else range({given}))"
            present = 'len({tf}config.list_physical_devices("GPU"))'
            return f'["/gpu:%d" % i for i in {read}][:{present}] or None'
        return None

    def _set_between(
        self, call: cst.Call, original: Sequence[cst.CSTNode], start: int, index: int
    ) -> bool:
        """Whether the statements that move into the scope, after the strategy that reads the
        name ``gpus=`` gives, may set it (``n = len(gpus())`` between them)."""
        gpus = _arg(call, 1, "gpus")
        given = dotted(gpus.value) if gpus is not None else None
        if given is None:
            return False
        root = given.partition(".")[0]
        for statement in original[start:index]:
            if not isinstance(statement, cst.SimpleStatementLine):
                if root in _names_in(statement):
                    return True  # a block: whatever it binds
                continue
            for small in statement.body:
                targets: list[cst.BaseExpression] = []
                if isinstance(small, cst.Assign):
                    targets = [t.target for t in small.targets]
                elif isinstance(small, (cst.AugAssign, cst.AnnAssign)):
                    targets = [small.target]
                if any(root in _names_in(t) for t in targets):
                    return True
        return False

    def _prefix(self) -> str:
        if self._tf is None:
            need_import(self.context, "tensorflow", asname="tf")
            self._tf = "tf."
        return self._tf

    @staticmethod
    def _scope(strategy: str, body: list[cst.BaseStatement]) -> cst.With:
        flat: list[cst.BaseStatement] = []
        for statement in body:
            if isinstance(statement, cst.With) and _is_cpu_device(statement):
                # the template's device: the strategy places the variables now
                flat.extend(statement.body.body)  # type: ignore[arg-type]
            else:
                flat.append(statement)
        tidy: list[cst.BaseStatement] = []
        for position, statement in enumerate(flat):
            lines = [
                line.with_changes(indent=False) if line.comment is None else line
                for line in getattr(statement, "leading_lines", ())
                if position or line.comment is not None
            ]
            tidy.append(statement.with_changes(leading_lines=lines))
        return cst.With(
            items=[cst.WithItem(item=cst.parse_expression(f"{strategy}.scope()"))],
            body=cst.IndentedBlock(body=tidy),
        )

    # -- visiting -------------------------------------------------------------------------

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        body = self._rewrite(original_node.body, updated_node.body)
        for call in self._calls:
            if id(call) not in self._handled:
                # ``self.model = multi_gpu_model(...)``, ``return multi_gpu_model(...)``: Keras 3
                # has no multi_gpu_model, so the script would fail where it imports it
                self.warn_at(
                    call,
                    "multi_gpu_model left unchanged: Keras 3 has no multi_gpu_model, and only "
                    "`parallel = multi_gpu_model(model, gpus=N)` beside the model's construction "
                    f"is rewritten; {_FIX} [multi_gpu_model call left]",
                )
        return updated_node if body is None else updated_node.with_changes(body=body)

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        if id(original_node) in self._fallbacks:
            return updated_node
        body = self._rewrite(original_node.body, updated_node.body)
        return updated_node if body is None else updated_node.with_changes(body=body)


def _is_cpu_device(statement: cst.With) -> bool:
    """``with tf.device("/cpu:0"):`` (Keras 2's advice for multi_gpu_model's template)."""
    if len(statement.items) != 1 or not isinstance(statement.items[0].item, cst.Call):
        return False
    call = statement.items[0].item
    func = call.func
    name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
    spec = call.args[0].value if call.args else None
    return name == "device" and isinstance(spec, cst.SimpleString) and "cpu" in spec.value.lower()
