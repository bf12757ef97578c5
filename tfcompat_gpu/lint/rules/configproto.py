"""ConfigProto / GPUOptions values and sessions: TFG005 conflicting sessions, TFG008 environment
strings in numeric fields, TFG010 memory fraction range, TFG011 malformed visible_device_list,
TFG017 ids beyond CUDA_VISIBLE_DEVICES."""

from __future__ import annotations

import ast

from tfcompat_gpu.lint.context import FileContext, call_keywords
from tfcompat_gpu.lint.dispatch import on_call, on_node
from tfcompat_gpu.lint.flow import Partners
from tfcompat_gpu.lint.rules.env import converted, is_env_value
from tfcompat_gpu.lint.tfcalls import CONFIG_FIELDS, SESSIONS, canonical
from tfcompat_gpu.lint.values import fraction_problem, parse_visible_device_list
from tfcompat_gpu.settings.options import OPTIONS, same_value, show_value

__all__: list[str] = []

_UNKNOWN = object()
_CONFIG = "tensorflow.ConfigProto"
_GPU_OPTIONS = "tensorflow.GPUOptions"

# The process-wide fields of the option table by their ConfigProto field name (TensorFlow
# creates them once per process), plus the allocator type, which the table does not model.
_OPTION_OF_FIELD = {
    option.proto_path.rpartition(".")[2]: option
    for option in OPTIONS
    if option.process_wide and option.name != "memory_limit_mb"
}
_PROCESS_WIDE = CONFIG_FIELDS
# Fields whose value must be a number: an environment string there is a bug (TFG008).
_CONVERSIONS = {"count": ("an int", "int"), "fraction": ("a float", "float")}
_NUMERIC = {
    field: _CONVERSIONS[option.kind.name]
    for field, option in _OPTION_OF_FIELD.items()
    if option.kind.name in _CONVERSIONS
}


class _Spec:
    """What a ConfigProto / GPUOptions expression asks for, as far as literals tell."""

    __slots__ = ("fields", "gpu")

    def __init__(self) -> None:
        self.fields: dict[str, object] = {}
        self.gpu: _Spec | None = None

    def flat(self) -> dict[str, object]:
        values = dict(self.fields)
        if self.gpu is not None:
            values.update(self.gpu.fields)
        return values


def _literal(node: ast.AST) -> object:
    if node.__class__ is ast.Constant:
        return node.value
    if (
        node.__class__ is ast.UnaryOp
        and node.op.__class__ is ast.USub
        and node.operand.__class__ is ast.Constant
        and isinstance(node.operand.value, (int, float))
    ):
        return -node.operand.value
    return _UNKNOWN


def _bindings(ctx: FileContext) -> dict[str, _Spec]:
    result: dict[str, _Spec] = ctx.state.setdefault("config_names", {})
    return result


def _spec_of(ctx: FileContext, node: ast.AST | None) -> _Spec | None:
    if node is None:
        return None
    if node.__class__ is ast.Name:
        names: dict[str, _Spec] | None = ctx.state.get("config_names")
        return names.get(node.id) if names else None
    if node.__class__ is not ast.Call:
        return None
    qual = ctx.resolve(node.func)
    if qual is None:
        return None
    name = canonical(qual)
    if name not in (_CONFIG, _GPU_OPTIONS):
        return None
    spec = _Spec()
    for keyword in call_keywords(node):
        if keyword.arg == "gpu_options":
            # Protobuf copies a message passed to a constructor: later edits stay separate.
            inner = _spec_of(ctx, keyword.value)
            if inner is not None:
                spec.gpu = _Spec()
                spec.gpu.fields = dict(inner.fields)
        elif keyword.arg in _PROCESS_WIDE:
            spec.fields[keyword.arg] = _literal(keyword.value)
    return spec


def _check_value(ctx: FileContext, field: str, value: ast.expr) -> None:
    if field in _NUMERIC and is_env_value(ctx, value):
        expected, convert = _NUMERIC[field]
        ctx.report(
            "TFG008",
            value,
            f"{field}={convert}(...)",
            what=field,
            expected=expected,
            converted=converted(convert),
        )
        return
    literal = _literal(value)
    if field == "per_process_gpu_memory_fraction":
        if isinstance(literal, (int, float)) and not isinstance(literal, bool):
            out_of_range = fraction_problem(literal)
            if out_of_range is not None:
                reason, severity = out_of_range
                ctx.report(
                    "TFG010",
                    value,
                    f"{field}=0.5",
                    severity,
                    value=literal,
                    reason=reason,
                )
    elif field == "visible_device_list" and literal is not _UNKNOWN:
        if not isinstance(literal, str):
            kind = type(literal).__name__
            ctx.report(
                "TFG011",
                value,
                f"visible_device_list={str(literal)!r}",
                value=literal,
                reason=f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}, not a str",
            )
            return
        ids, problem = parse_visible_device_list(literal)
        if problem is not None:
            ctx.report("TFG011", value, "visible_device_list='0,1'", value=literal, reason=problem)
            return
        visible = ctx.state.get("cuda_visible")
        if visible is None:
            return
        count, cuda, where = visible
        beyond = next((gpu_id for gpu_id in ids if gpu_id >= count), None)
        if beyond is not None and ctx.flow.together(where, value):
            ctx.report(
                "TFG017",
                value,
                "visible_device_list='0'",
                value=literal,
                gpu_id=beyond,
                count=count,
                source=f"CUDA_VISIBLE_DEVICES={cuda!r} in this module",
            )


@on_call(_CONFIG, _GPU_OPTIONS)
def _config_call(ctx: FileContext, node: ast.Call, name: str) -> None:
    for keyword in node.keywords:
        if keyword.arg is not None:
            _check_value(ctx, keyword.arg, keyword.value)


@on_node(ast.Assign)
def _assign(ctx: FileContext, node: ast.Assign) -> None:
    for target in node.targets:
        if target.__class__ is ast.Name:
            spec = _spec_of(ctx, node.value)
            if spec is not None:
                _bindings(ctx)[target.id] = spec
                ctx.watch(target.id)
            elif "config_names" in ctx.state:
                ctx.state["config_names"].pop(target.id, None)
        elif target.__class__ is ast.Attribute:
            field = target.attr
            if field in _PROCESS_WIDE or field in _NUMERIC:
                _check_value(ctx, field, node.value)
                _update_binding(ctx, target, field, _literal(node.value))


def _update_binding(ctx: FileContext, target: ast.AST, field: str, value: object) -> None:
    # config.gpu_options.allow_growth = True  /  gpu_options.visible_device_list = "1"
    owner = target.value  # type: ignore[attr-defined]
    through_gpu = owner.__class__ is ast.Attribute and owner.attr == "gpu_options"
    if through_gpu:
        owner = owner.value
    if owner.__class__ is not ast.Name:
        return
    spec = _bindings(ctx).get(owner.id)
    if spec is None:
        return
    if through_gpu:
        if spec.gpu is None:
            spec.gpu = _Spec()
        spec = spec.gpu
    spec.fields[field] = value


@on_call(*SESSIONS)
def _session(ctx: FileContext, node: ast.Call, name: str) -> None:
    config: ast.expr | None = None
    for keyword in node.keywords:
        if keyword.arg == "config":
            config = keyword.value
    if config is None and len(node.args) >= 3 and name == "tensorflow.Session":
        config = node.args[2]
    spec = _spec_of(ctx, config)
    if spec is None:
        return
    values = spec.flat()
    sessions: list[tuple[ast.Call, dict[str, object]]] = ctx.state.setdefault("sessions", [])
    partners: Partners = ctx.state.setdefault("session_partners", Partners(ctx.flow))
    # Sessions with equal settings differ from this one alike: each kind is compared once,
    # and only sessions sharing a frame are asked about, so thousands of sessions stay linear.
    kinds: dict[str, dict[str, object]] = ctx.state.setdefault("session_kinds", {})
    if any(_diffs(values, first) for first in kinds.values()):
        # The first session the program can run together with this one fixed the process-wide
        # settings; a field this session leaves unset asks for nothing.
        first_index = next(partners.of(node), None)
        if first_index is not None:
            first_node, first = sessions[first_index]
            diffs = _diffs(values, first)
            if diffs:
                ctx.report(
                    "TFG005",
                    node,
                    "create one ConfigProto and pass it to every session",
                    fields=", ".join(diffs),
                    first=f"line {first_node.lineno}",
                )
    kinds.setdefault(repr(sorted(values.items(), key=lambda item: item[0])), values)
    sessions.append((node, values))
    partners.add(node)


def _diffs(values: dict[str, object], first: dict[str, object]) -> list[str]:
    """The process-wide fields this session sets to other values than the first one has."""
    diffs = []
    for field, mine in values.items():
        if field not in _PROCESS_WIDE or (field not in first and mine is _UNKNOWN):
            continue
        theirs = first.get(field)
        if mine is _UNKNOWN or theirs is _UNKNOWN or _same(field, mine, theirs):
            continue
        diffs.append(f"{field}={_show(field, mine)} (first: {_show(field, theirs)})")
    return diffs


def _unset_if_zero(value: object) -> object:
    # A proto field holding its zero value (0, 0.0, "", False) is unset to TensorFlow.
    return None if isinstance(value, (int, float, str)) and not value else value


def _same(field: str, a: object, b: object) -> bool:
    a, b = _unset_if_zero(a), _unset_if_zero(b)
    if isinstance(a, str) and isinstance(b, str):
        return a.replace(" ", "") == b.replace(" ", "")
    option = _OPTION_OF_FIELD.get(field)
    return a == b if option is None else same_value(option.name, a, b)


def _show(field: str, value: object) -> str:
    option = _OPTION_OF_FIELD.get(field)
    value = _unset_if_zero(value)
    if option is None:
        return repr(value) if value is not None else "'' (TensorFlow's default)"
    return show_value(option.name, value)
