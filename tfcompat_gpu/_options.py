"""The one table of GPU/thread options: the source of truth for every part of the project.

Each row says where the option lives in a TF1 ``ConfigProto``, what TF2 call carries it, whether
TensorFlow treats it as process-wide (first creator wins), whether it can still change once the
runtime started, and how exact the TF2 mapping is.  The facade, the conflict check, the lint
messages, the codemod and the README table all read these rows; the tests are parametrized over
them.  Nothing here imports TensorFlow.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["OPTIONS", "OPTIONS_BY_NAME", "Option", "option_for_proto_path"]

ConflictSeverity = Literal["error", "warn", "never"]


@dataclass(frozen=True)
class Option:
    """One row of the table."""

    name: str
    """Field of :class:`tfcompat_gpu.GPUConfig`."""
    proto_path: str
    """Dotted path in ``tf.compat.v1.ConfigProto``."""
    tf2_call: str
    """What TF2 offers for it (shown in docs, lint messages and codemod output)."""
    process_wide: bool
    """TensorFlow creates it once per process; a later session asking otherwise is ignored or fails."""
    after_start: bool
    """TensorFlow still accepts a change once the runtime has started."""
    exact: bool
    """The TF2 mapping reproduces TF1 behaviour exactly."""
    gpu: bool
    """Only matters when a GPU is present."""
    conflict: ConflictSeverity
    """Default reaction when a later session asks for another value: TensorFlow fails on a GPU
    ("error"), ignores it without a word ("warn"), or the field is per-session ("never")."""
    env: str | None
    """``TFCOMPAT_GPU_*`` variable read by :meth:`GPUConfig.from_env`."""
    note: str
    """How ``configure()`` applies it on TF2, and why it is exact or approximate."""
    aliases: tuple[str, ...] = ()
    """Other keys accepted in configuration files (the seed's ``rate``) and on the CLI."""


OPTIONS: tuple[Option, ...] = (
    Option(
        name="allow_growth",
        proto_path="gpu_options.allow_growth",
        tf2_call="tf.config.experimental.set_memory_growth(gpu, True) on every visible GPU",
        process_wide=True,
        after_start=False,
        exact=True,
        gpu=True,
        conflict="warn",
        env="TFCOMPAT_GPU_ALLOW_GROWTH",
        note=(
            "set on every visible GPU (TensorFlow rejects growth that differs between GPUs); "
            "also written to the context's base config when logical CPUs would make TensorFlow "
            "drop it"
        ),
    ),
    Option(
        name="per_process_gpu_memory_fraction",
        proto_path="gpu_options.per_process_gpu_memory_fraction",
        tf2_call="none public; the closest is a memory_limit in MB per logical device",
        process_wide=True,
        after_start=False,
        exact=True,
        gpu=True,
        conflict="warn",
        env="TFCOMPAT_GPU_MEMORY_FRACTION",
        note=(
            "TF2 has no call for it; written into the eager context's base config before the "
            "runtime starts, which TensorFlow hands to its GPU allocator unchanged"
        ),
        aliases=("rate", "memory_fraction"),
    ),
    Option(
        name="memory_limit_mb",
        proto_path="gpu_options.experimental.virtual_devices",
        tf2_call="tf.config.set_logical_device_configuration(gpu, "
        "[tf.config.LogicalDeviceConfiguration(memory_limit=MB)])",
        process_wide=True,
        after_start=False,
        exact=True,
        gpu=True,
        conflict="error",
        env="TFCOMPAT_GPU_MEMORY_LIMIT_MB",
        note="one logical device per limit on each visible GPU (a list makes virtual GPUs)",
    ),
    Option(
        name="visible_device_list",
        proto_path="gpu_options.visible_device_list",
        tf2_call="tf.config.set_visible_devices(gpus, 'GPU')",
        process_wide=True,
        after_start=False,
        exact=False,
        gpu=True,
        conflict="error",
        env="TFCOMPAT_GPU_VISIBLE_DEVICES",
        note=(
            "the listed GPUs become visible; eager TensorFlow numbers them in physical order, "
            'so a reorder such as "1,0" is applied as "0,1" (a warning says so)'
        ),
        aliases=("visible_devices",),
    ),
    Option(
        name="allow_soft_placement",
        proto_path="allow_soft_placement",
        tf2_call="tf.config.set_soft_device_placement(enabled)",
        process_wide=False,
        after_start=True,
        exact=True,
        gpu=False,
        conflict="never",
        env="TFCOMPAT_GPU_SOFT_PLACEMENT",
        note="applied as is; still accepted after the runtime started",
        aliases=("soft_placement",),
    ),
    Option(
        name="log_device_placement",
        proto_path="log_device_placement",
        tf2_call="tf.debugging.set_log_device_placement(enabled)",
        process_wide=False,
        after_start=True,
        exact=True,
        gpu=False,
        conflict="never",
        env="TFCOMPAT_GPU_LOG_PLACEMENT",
        note="applied as is; still accepted after the runtime started",
        aliases=("log_placement",),
    ),
    Option(
        name="intra_op_parallelism_threads",
        proto_path="intra_op_parallelism_threads",
        tf2_call="tf.config.threading.set_intra_op_parallelism_threads(n)",
        process_wide=True,
        after_start=False,
        exact=True,
        gpu=False,
        conflict="warn",
        env="TFCOMPAT_GPU_INTRA_OP_THREADS",
        note="applied as is (0 lets TensorFlow choose); one pool per process",
        aliases=("intra_op_threads",),
    ),
    Option(
        name="inter_op_parallelism_threads",
        proto_path="inter_op_parallelism_threads",
        tf2_call="tf.config.threading.set_inter_op_parallelism_threads(n)",
        process_wide=True,
        after_start=False,
        exact=True,
        gpu=False,
        conflict="warn",
        env="TFCOMPAT_GPU_INTER_OP_THREADS",
        note="applied as is (0 lets TensorFlow choose); the first session's pool serves all",
        aliases=("inter_op_threads",),
    ),
    Option(
        name="device_count",
        proto_path="device_count",
        tf2_call="tf.config.set_logical_device_configuration(cpu, [LogicalDeviceConfiguration()] * n)"
        " for CPU; tf.config.set_visible_devices(gpus[:n], 'GPU') for GPU",
        process_wide=False,
        after_start=False,
        exact=True,
        gpu=False,
        conflict="never",
        env=None,
        note=(
            '"CPU": n makes n logical CPUs (/CPU:0 … /CPU:n-1); "GPU": n keeps the first n '
            "visible GPUs (0 hides them all)"
        ),
    ),
)

OPTIONS_BY_NAME: dict[str, Option] = {option.name: option for option in OPTIONS}


def option_for_proto_path(path: str) -> Option | None:
    """Return the row whose ConfigProto path is ``path`` (``gpu_options.allow_growth``), if any."""
    for option in OPTIONS:
        if option.proto_path == path:
            return option
    return None


def markdown_table() -> str:
    """The README table: each TF1 field and what ``configure()`` does with it on TF2."""
    rows = [
        "| TF1 `ConfigProto` field | `GPUConfig` field | TF2 call | process-wide | exact | how `configure()` applies it |",
        "|---|---|---|---|---|---|",
    ]
    for option in OPTIONS:
        rows.append(
            f"| `{option.proto_path}` | `{option.name}` | {option.tf2_call} | "
            f"{'yes' if option.process_wide else 'no'} | {'yes' if option.exact else 'approximate'} | "
            f"{option.note} |"
        )
    return "\n".join(rows)


def fill_readme(text: str) -> str:
    """``text`` with the span between the options-table markers replaced by :func:`markdown_table`."""
    start, end = "<!-- options-table:start -->", "<!-- options-table:end -->"
    head, _, rest = text.partition(start)
    _, _, tail = rest.partition(end)
    return f"{head}{start}\n{markdown_table()}\n{end}{tail}"


if __name__ == "__main__":  # python -m tfcompat_gpu._options README.md
    import sys
    from pathlib import Path

    for name in sys.argv[1:]:
        path = Path(name)
        path.write_text(fill_readme(path.read_text(encoding="utf-8")), encoding="utf-8")
