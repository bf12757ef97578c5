"""The code ``--target tf2`` writes: plain ``tf.config`` calls, only where they are exact.

A setting without an exact TF2 call raises :class:`CannotFollow`, and the config is then left
as it is: a half-translated config would silently change what the program asks for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import libcst as cst

from tfcompat_gpu.codemod._dataflow import CannotFollow
from tfcompat_gpu.codemod._emit import free_name, growth_loop_code

__all__ = ["device_counts", "tf2_code", "visible_ids"]


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
        "device_count is not a literal {'CPU': n, 'GPU': n}, so its TF2 calls are unknown"
    )


def visible_ids(value: cst.BaseExpression | None) -> tuple[int, ...] | None:
    """The GPU ids of a literal ``visible_device_list`` in ascending order."""
    if value is None:
        return None
    text = value.evaluated_value if isinstance(value, cst.SimpleString) else None
    try:
        ids = tuple(int(part) for part in str(text).split(",")) if text is not None else ()
    except ValueError:
        ids = ()
    if not ids or list(ids) != sorted(set(ids)):
        raise CannotFollow(
            "visible_device_list is not a literal list of GPU ids in ascending order; "
            "eager TensorFlow cannot reorder GPUs, so there is no exact TF2 call"
        )
    return ids


def tf2_code(
    settings: Mapping[str, cst.BaseExpression],
    code_for: Callable[[cst.CSTNode], str],
    tf_prefix: Callable[[], str],
    taken: set[str],
) -> str:
    """The statements for ``settings`` (option name -> value), in their order.

    ``tf_prefix()`` is what stands for ``tensorflow.`` (it may add the import); ``taken``
    holds the names in use, and gets the loop variables this code introduces.
    """
    if "per_process_gpu_memory_fraction" in settings:
        raise CannotFollow(
            "per_process_gpu_memory_fraction has no TF2 call (tf.config only takes an "
            "absolute memory_limit in MB); use tfcompat_gpu.configure() (the default target)"
        )
    counts = device_counts(settings.get("device_count"))
    visible = visible_ids(settings.get("visible_device_list"))
    if counts.get("GPU") is not None and visible is not None:
        raise CannotFollow("device_count['GPU'] and visible_device_list together")
    if "allow_growth" in settings and counts.get("CPU", 1) > 1:
        raise CannotFollow(
            "TensorFlow drops memory growth when logical CPUs are configured; "
            "tfcompat_gpu.configure() handles that case"
        )
    unknown = [key for key in settings if key not in _KNOWN]
    if unknown:
        raise CannotFollow(f"{unknown[0]} has no exact TF2 call")
    tf = tf_prefix()
    code = ""
    for key, node in settings.items():
        value = code_for(node)
        if key == "allow_growth":
            var = free_name(taken, "gpu", "physical_gpu", "_gpu")
            taken.add(var)
            code += growth_loop_code(tf, value, var)
        elif key == "allow_soft_placement":
            code += f"{tf}config.set_soft_device_placement({value})\n"
        elif key == "log_device_placement":
            code += f"{tf}debugging.set_log_device_placement({value})\n"
        elif key in ("intra_op_parallelism_threads", "inter_op_parallelism_threads"):
            kind = key.split("_", 1)[0]
            code += f"{tf}config.threading.set_{kind}_op_parallelism_threads({value})\n"
        elif key == "visible_device_list":
            # TF1 ignored the list on a machine without GPUs; indexing an empty list would not
            gpus = free_name(taken, "gpus", "physical_gpus", "_gpus")
            taken.add(gpus)
            code += (
                f'{gpus} = {tf}config.list_physical_devices("GPU")\n'
                f"if {gpus}:\n"
                f'    {tf}config.set_visible_devices([{gpus}[i] for i in {visible!r}], "GPU")\n'
            )
        elif key == "device_count":
            if "CPU" in counts:
                code += (
                    f"{tf}config.set_logical_device_configuration(\n"
                    f'    {tf}config.list_physical_devices("CPU")[0],\n'
                    f"    [{tf}config.LogicalDeviceConfiguration()] * {counts['CPU']},\n"
                    ")\n"
                )
            if "GPU" in counts:
                code += (
                    f"{tf}config.set_visible_devices("
                    f'{tf}config.list_physical_devices("GPU")[:{counts["GPU"]}], "GPU")\n'
                )
    return code


_KNOWN = frozenset(
    {
        "allow_growth",
        "allow_soft_placement",
        "log_device_placement",
        "intra_op_parallelism_threads",
        "inter_op_parallelism_threads",
        "visible_device_list",
        "device_count",
    }
)
