"""The GPU-settings flags that ``tfcompat-gpu run`` and ``tfcompat-gpu plan`` share.

One table of value flags, one function that adds every settings flag to a parser, and one that
reads the flags' fields back; the values are parsed like the ``TFCOMPAT_GPU_*`` variables
(:func:`tfcompat_gpu.settings.options.parse_text`).  Nothing here imports TensorFlow.
"""

from __future__ import annotations

import argparse
from typing import Any

from tfcompat_gpu.settings.options import parse_text

__all__ = ["SWITCH_FLAGS", "VALUE_FLAGS", "add_settings_arguments", "fields_from_flags"]

# flag -> (GPUConfig field, metavar, help)
VALUE_FLAGS: dict[str, tuple[str, str, str]] = {
    "--memory-fraction": (
        "per_process_gpu_memory_fraction",
        "F",
        "cap each GPU at F of its memory",
    ),
    "--memory-limit-mb": (
        "memory_limit_mb",
        "N",
        'cap each visible GPU at N MB; "1024,1024" splits each into virtual GPUs',
    ),
    "--visible-devices": ("visible_device_list", "LIST", 'GPUs this process uses, e.g. "0,1"'),
    "--intra-op-threads": ("intra_op_parallelism_threads", "N", "threads inside one op"),
    "--inter-op-threads": ("inter_op_parallelism_threads", "N", "ops run in parallel"),
}
# GPUConfig field -> (flag that turns it on, help); "--no-" + the flag turns it off.
SWITCH_FLAGS: dict[str, tuple[str, str]] = {
    "jit": ("--jit", "XLA auto-clustering of tf.function and session graphs"),
    "auto_mixed_precision": ("--auto-mixed-precision", "grappler's float16 graph rewrite"),
}


def add_settings_arguments(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """Add ``--allow-growth``, the value flags, soft/log placement, the switches (``--jit`` /
    ``--no-jit``, ...) and ``--config``."""
    parser.add_argument("--allow-growth", action="store_true", help="grow GPU memory on demand")
    for flag, (_, metavar, text) in VALUE_FLAGS.items():
        parser.add_argument(flag, metavar=metavar, help=text)
    placement = parser.add_mutually_exclusive_group()
    placement.add_argument(
        "--soft-placement", dest="soft", action="store_const", const=True, help="fall back to CPU"
    )
    placement.add_argument(
        "--no-soft-placement", dest="soft", action="store_const", const=False, help="never"
    )
    parser.add_argument("--log-placement", action="store_true", help="log each op's device")
    for name, (flag, text) in SWITCH_FLAGS.items():
        switch = parser.add_mutually_exclusive_group()
        switch.add_argument(flag, dest=name, action="store_const", const=True, help=text)
        switch.add_argument(
            "--no-" + flag[2:], dest=name, action="store_const", const=False, help="turn it off"
        )
    parser.add_argument("--config", metavar="FILE", help="INI ([gpu]) or TOML GPU settings")


def fields_from_flags(ns: argparse.Namespace) -> dict[str, Any]:
    """The ``GPUConfig`` fields the flags in ``ns`` set (each value parsed, not yet combined)."""
    fields: dict[str, Any] = {}
    if ns.allow_growth:
        fields["allow_growth"] = True
    for flag, (name, _, _) in VALUE_FLAGS.items():
        raw = getattr(ns, flag[2:].replace("-", "_"))
        if raw is not None:
            fields[name] = parse_text(name, raw, flag)
    if ns.soft is not None:
        fields["allow_soft_placement"] = ns.soft
    if ns.log_placement:
        fields["log_device_placement"] = True
    for name in SWITCH_FLAGS:
        if getattr(ns, name, None) is not None:
            fields[name] = getattr(ns, name)
    return fields
