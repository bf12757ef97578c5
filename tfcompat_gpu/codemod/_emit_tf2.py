"""The code ``--target tf2`` writes: plain ``tf.config`` calls, only where they are exact.

A setting without an exact TF2 call raises :class:`CannotFollow`, and the config is then left
as it is: a half-translated config would silently change what the program asks for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from tfcompat_gpu.codemod._dataflow import CannotFollow
from tfcompat_gpu.codemod._emit import free_name, growth_loop_code
from tfcompat_gpu.codemod._libcst import cst
from tfcompat_gpu.codemod._proto_fields import GRAPH_OPTIONS, is_graph_option, optimizer_code

__all__ = ["BUILDERS", "GRAPH_OPTIONS", "NO_TF2_CALL", "device_counts", "tf2_code", "visible_ids"]


def device_counts(value: cst.BaseExpression | None) -> dict[str, int]:
    """``{"CPU": n, "GPU": n}`` of a literal ``device_count`` value."""
    if value is None:
        return {}
    counts: dict[str, int] = {}
    if isinstance(value, cst.Dict):
        for element in value.elements:
            if (
                isinstance(element, cst.DictElement)
                and isinstance(element.key, cst.SimpleString)
                and element.key.evaluated_value in ("CPU", "GPU")
                and isinstance(element.value, cst.Integer)
            ):
                counts[str(element.key.evaluated_value)] = int(element.value.value)
            else:
                break
        else:
            return counts
    raise CannotFollow(
        "device_count is not a literal {'CPU': n, 'GPU': n}, so its TF2 calls are unknown",
        "computed device_count",
    )


def visible_ids(value: cst.BaseExpression | None) -> tuple[int, ...] | None:
    """The GPU ids of a literal ``visible_device_list`` in ascending order.

    Read by the one parser of device lists (:func:`tfcompat_gpu.settings.kinds.parse_device_list`).
    """
    if value is None:
        return None
    text = value.evaluated_value if isinstance(value, cst.SimpleString) else None
    # the settings' tables load with the first config a command follows, not with the
    # pre-checks every file is given to
    from tfcompat_gpu.settings.kinds import parse_device_list

    ids, problem = parse_device_list(text) if isinstance(text, str) else ((), None)
    if problem is not None or not ids or list(ids) != sorted(set(ids)):
        raise CannotFollow(
            "visible_device_list is not a literal list of GPU ids in ascending order; "
            "eager TensorFlow cannot reorder GPUs, so there is no exact TF2 call",
            "computed visible_device_list",
        )
    return ids


@dataclass
class _Emit:
    tf: str
    value: str
    taken: set[str]
    counts: dict[str, int]
    visible: tuple[int, ...] | None


def _growth(e: _Emit) -> str:
    var = free_name(e.taken, "gpu", "physical_gpu", "_gpu")
    e.taken.add(var)
    return growth_loop_code(e.tf, e.value, var)


def _threads(kind: str) -> Callable[[_Emit], str]:
    return lambda e: f"{e.tf}config.threading.set_{kind}_op_parallelism_threads({e.value})\n"


def _visible(e: _Emit) -> str:
    # TF1 ignored the list on a machine without GPUs; indexing an empty list would not
    gpus = free_name(e.taken, "gpus", "physical_gpus", "_gpus")
    e.taken.add(gpus)
    return (
        f'{gpus} = {e.tf}config.list_physical_devices("GPU")\n'
        f"if {gpus}:\n"
        f'    {e.tf}config.set_visible_devices([{gpus}[i] for i in {e.visible!r}], "GPU")\n'
    )


def _device_count(e: _Emit) -> str:
    tf, code = e.tf, ""
    if "CPU" in e.counts:
        code += (
            f"{tf}config.set_logical_device_configuration(\n"
            f'    {tf}config.list_physical_devices("CPU")[0],\n'
            f"    [{tf}config.LogicalDeviceConfiguration()] * {e.counts['CPU']},\n"
            ")\n"
        )
    if "GPU" in e.counts:
        code += (
            f"{tf}config.set_visible_devices("
            f'{tf}config.list_physical_devices("GPU")[:{e.counts["GPU"]}], "GPU")\n'
        )
    return code


# One entry per row of the options table (a test checks it): the code for an option, why the
# target leaves a config that sets it, or (GRAPH_OPTIONS) a key of the tf.config.optimizer calls.
BUILDERS: dict[str, Callable[[_Emit], str]] = {
    "allow_growth": _growth,
    "allow_soft_placement": lambda e: f"{e.tf}config.set_soft_device_placement({e.value})\n",
    "log_device_placement": lambda e: f"{e.tf}debugging.set_log_device_placement({e.value})\n",
    "intra_op_parallelism_threads": _threads("intra"),
    "inter_op_parallelism_threads": _threads("inter"),
    "visible_device_list": _visible,
    "device_count": _device_count,
}
NO_TF2_CALL: dict[str, str] = {
    "per_process_gpu_memory_fraction": (
        "per_process_gpu_memory_fraction has no TF2 call (tf.config only takes an "
        "absolute memory_limit in MB); use tfcompat_gpu.configure() (the default target)"
    ),
    "memory_limit_mb": "memory_limit_mb (virtual devices) is not read by the migration",
}


def tf2_code(
    settings: Mapping[str, cst.BaseExpression],
    code_for: Callable[[cst.CSTNode], str],
    tf_prefix: Callable[[], str],
    taken: set[str],
) -> str:
    """The statements for ``settings`` (option name -> value), in their order.

    The graph options (``jit``, ``auto_mixed_precision`` and the ``optimizer.*`` rewrites)
    become one ``tf.config.optimizer`` call each kind, after the GPU settings.

    ``tf_prefix()`` is what stands for ``tensorflow.`` (it may add the import); ``taken``
    holds the names in use, and gets the loop variables this code introduces.
    """
    for key in settings:
        if key in NO_TF2_CALL:
            raise CannotFollow(NO_TF2_CALL[key], f"{key} without TF2 call")
    counts = device_counts(settings.get("device_count"))
    visible = visible_ids(settings.get("visible_device_list"))
    if counts.get("GPU") is not None and visible is not None:
        raise CannotFollow(
            "device_count['GPU'] and visible_device_list together",
            "device_count with visible_device_list",
        )
    if "allow_growth" in settings and counts.get("CPU", 1) > 1:
        raise CannotFollow(
            "TensorFlow drops memory growth when logical CPUs are configured; "
            "tfcompat_gpu.configure() handles that case",
            "allow_growth with logical CPUs",
        )
    unknown = [key for key in settings if key not in BUILDERS and not is_graph_option(key)]
    if unknown:
        raise CannotFollow(f"{unknown[0]} has no exact TF2 call", f"{unknown[0]} without TF2 call")
    tf = tf_prefix()
    return "".join(
        BUILDERS[key](_Emit(tf, code_for(node), taken, counts, visible))
        for key, node in settings.items()
        if key in BUILDERS
    ) + optimizer_code(tf, {k: code_for(v) for k, v in settings.items() if is_graph_option(k)})
