"""The one table of GPU/thread options: the source of truth for every part of the project.

Each row says where the option lives in a TF1 ``ConfigProto``, what TF2 call carries it, whether
TensorFlow treats it as process-wide (first creator wins), whether it can still change once the
runtime started, how exact the TF2 mapping is, and its value kind and TensorFlow default.  The
kind (:mod:`tfcompat_gpu.settings.kinds`) checks values and reads text; :class:`~tfcompat_gpu.GPUConfig`,
the readers, the proto conversion, the conflict check, the lint, the runner, the codemod and the
README table read these rows, and the tests are parametrized over them.  Adding an option is one
row here (plus one kind if its kind is new) and one field of ``GPUConfig``.

The functions below are what other parts use instead of hand-written per-field code:
:func:`resolve_key` (names and aliases, with a "did you mean"), :func:`parse_text` (text of a
variable, file or flag), :func:`check_value`, :func:`same_value` (``None`` is TensorFlow's
default), :func:`is_default` and :func:`show_value` (messages).  Nothing here imports TensorFlow.

Example::

    >>> parse_text("intra_op_parallelism_threads", " 4 ", "TFCOMPAT_GPU_INTRA_OP_THREADS")
    4
    >>> same_value("allow_growth", None, False), same_value("intra_op_parallelism_threads", 0, 2)
    (True, False)
    >>> resolve_key("rate", "gpu.ini [gpu]")
    'per_process_gpu_memory_fraction'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from tfcompat_gpu.errors import GPUConfigError
from tfcompat_gpu.settings.kinds import (
    COUNT,
    DEVICE_COUNT,
    DEVICE_IDS,
    FRACTION,
    JIT_LEVEL,
    MEMORY_LIMIT,
    REWRITE_TOGGLE,
    SWITCH,
    Kind,
    TextError,
)

__all__ = [
    "EXCLUSIVE",
    "OPTIONS",
    "OPTIONS_BY_NAME",
    "Exclusive",
    "Option",
    "check_value",
    "is_default",
    "option_for_proto_path",
    "parse_text",
    "resolve_key",
    "same_value",
    "show_value",
    "unknown_setting",
]

ConflictSeverity = Literal["error", "warn", "never"]


@dataclass(frozen=True)
class Option:
    """One row of the table."""

    name: str
    """Field of :class:`tfcompat_gpu.GPUConfig`."""
    kind: Kind
    """How values are checked, read from text and written as plain data."""
    default: Any
    """TensorFlow's value when the field is unset (``None``: no value stands for it)."""
    default_text: str
    """TensorFlow's default in words, for messages (``"every GPU"``)."""
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
    """Other keys accepted in configuration files (``rate``, the key of the INI files legacy
    scripts read their memory fraction from) and on the CLI."""

    def same(self, a: Any, b: Any) -> bool:
        """Whether two values mean the same to TensorFlow (``None`` is its default)."""
        return bool((self.default if a is None else a) == (self.default if b is None else b))


OPTIONS: tuple[Option, ...] = (
    Option(
        name="allow_growth",
        kind=SWITCH,
        default=False,
        default_text="False",
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
        kind=FRACTION,
        default=None,
        default_text="no cap",
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
        kind=MEMORY_LIMIT,
        default=None,
        default_text="no virtual devices",
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
        kind=DEVICE_IDS,
        default=None,
        default_text="every GPU",
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
        kind=SWITCH,
        default=False,
        default_text="False",
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
        kind=SWITCH,
        default=False,
        default_text="False",
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
        kind=COUNT,
        default=0,
        default_text="0",
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
        kind=COUNT,
        default=0,
        default_text="0",
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
        kind=DEVICE_COUNT,
        default=None,
        default_text="one CPU, every GPU",
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
    Option(
        name="jit",
        kind=JIT_LEVEL,
        # global_jit_level DEFAULT and OFF are the same to a session: XLA auto-clustering is
        # off unless TF_XLA_FLAGS=--tf_xla_auto_jit asks for it, and that flag overrides the
        # ConfigProto either way (tensorflow/compiler/jit/xla_cluster_util.cc,
        # GetXlaGlobalJitLevel), so None and False compare equal.
        default=False,
        default_text="off (global_jit_level DEFAULT)",
        proto_path="graph_options.optimizer_options.global_jit_level",
        tf2_call='tf.config.optimizer.set_jit("autoclustering") or set_jit(False)',
        process_wide=False,
        # tensorflow/python/eager/context.py, Context.optimizer_jit: the setter only records
        # the value (Context.config writes ON_1 or OFF) and resets the function call options,
        # so it still applies after the runtime started, to functions called from then on.
        after_start=True,
        exact=True,
        gpu=False,
        conflict="never",
        env="TFCOMPAT_GPU_JIT",
        note=(
            "XLA auto-clustering: True is global_jit_level ON_1, False is OFF; still accepted "
            "after the runtime started. ON_2 read from a ConfigProto is not modelled (set_jit "
            "only sets ON_1): it stays in the kept proto fields and reaches sessions unchanged"
        ),
    ),
    Option(
        name="auto_mixed_precision",
        kind=REWRITE_TOGGLE,
        # RewriterConfig DEFAULT is off: grappler runs the rewrite only for ON or AGGRESSIVE
        # (tensorflow/core/grappler/optimizers/meta_optimizer.cc, AutoMixedPrecisionEnabled).
        default=False,
        default_text="off (rewrite_options DEFAULT)",
        proto_path="graph_options.rewrite_options.auto_mixed_precision",
        tf2_call='tf.config.optimizer.set_experimental_options({"auto_mixed_precision": enabled})',
        process_wide=False,
        # context.py, Context.set_optimizer_experimental_options: recorded, function call
        # options reset; Context.config writes RewriterConfig ON or OFF.
        after_start=True,
        exact=True,
        # float16 on NVIDIA GPUs (Volta and later), and on CPUs with AMX-FP16
        # (tensorflow/python/framework/config.py, set_optimizer_experimental_options)
        gpu=False,
        conflict="never",
        env="TFCOMPAT_GPU_AUTO_MIXED_PRECISION",
        note=(
            "grappler's automatic mixed precision rewrite: True is RewriterConfig ON, False "
            "is OFF; still accepted after the runtime started. AGGRESSIVE read from a "
            "ConfigProto is kept in the proto fields, unmodelled"
        ),
    ),
)

OPTIONS_BY_NAME: dict[str, Option] = {option.name: option for option in OPTIONS}

_BY_KEY: dict[str, str] = {
    **{alias: option.name for option in OPTIONS for alias in option.aliases},
    **{option.name: option.name for option in OPTIONS},
}


class Exclusive(NamedTuple):
    """Two fields TensorFlow cannot honour together; setting one drops the other on merge."""

    first: str
    second: str
    reason: str
    """Why, and which to keep; formatted with ``{first}`` and ``{second}``, the two values."""


EXCLUSIVE: tuple[Exclusive, ...] = (
    Exclusive(
        "per_process_gpu_memory_fraction",
        "memory_limit_mb",
        "per_process_gpu_memory_fraction and memory_limit_mb cannot be combined: "
        "TensorFlow rejects a memory fraction when virtual devices are set "
        "(per_process_gpu_memory_fraction={first!r}, memory_limit_mb={second!r}). Keep one: "
        "memory_limit_mb is an absolute cap in MB per GPU, the fraction is relative to each "
        "GPU's total memory.",
    ),
    Exclusive(
        "allow_growth",
        "memory_limit_mb",
        "allow_growth=True and memory_limit_mb cannot be combined: TensorFlow 2 cannot "
        "set memory growth on a GPU that has logical (virtual) devices "
        "(memory_limit_mb={second!r}). Keep one: memory_limit_mb caps the memory, "
        "allow_growth allocates it on demand.",
    ),
)


def is_default(name: str, value: Any) -> bool:
    """Whether ``value`` is what TensorFlow does anyway (unset, ``False``, ``0``)."""
    option = OPTIONS_BY_NAME[name]
    return value is None or option.same(value, None)


def same_value(name: str, a: Any, b: Any) -> bool:
    """Whether two values of option ``name`` mean the same to TensorFlow.

    ``None`` stands for TensorFlow's default, so growth ``None`` and ``False`` are the same, as
    are ``0`` threads and ``None``.  Unknown names (unmodelled proto paths) compare with ``==``.
    """
    option = OPTIONS_BY_NAME.get(name)
    return a == b if option is None else option.same(a, b)


def show_value(name: str, value: Any) -> str:
    """``repr(value)``, or TensorFlow's default in words for ``None``."""
    if value is None:
        option = OPTIONS_BY_NAME.get(name)
        text = option.default_text if option is not None else ""
        return f"{text} (TensorFlow's default)".lstrip()
    return repr(value)


def unknown_setting(key: str, where: str = "") -> GPUConfigError:
    """The error for a key that names no option, with the closest name when there is one."""
    names = sorted(OPTIONS_BY_NAME)
    import difflib

    close = difflib.get_close_matches(key.strip().lower().replace("-", "_"), sorted(_BY_KEY), n=1)
    hint = f" Did you mean {_BY_KEY[close[0]]!r}?" if close else ""
    place = f" in {where}" if where else ""
    return GPUConfigError(
        f"Unknown GPU setting {key!r}{place}. Expected one of: {', '.join(names)}.{hint}"
    )


def resolve_key(key: str, where: str = "") -> str:
    """The option a file key, variable suffix or flag names (``rate``, ``allow-growth``)."""
    name = _BY_KEY.get(key.strip().lower().replace("-", "_"))
    if name is None:
        raise unknown_setting(key, where)
    return name


def parse_text(name: str, raw: str, where: str) -> Any:
    """The Python value of option ``name`` written as ``raw`` in ``where`` (a variable, a file
    key, a flag); the value is checked when the config is built."""
    try:
        return OPTIONS_BY_NAME[name].kind.parse(raw.strip())
    except TextError as exc:
        fix = f" {exc.fix}" if exc.fix else ""
        raise GPUConfigError(
            f"{where}: expected {exc.expected} for {name}. Received: {raw!r}.{fix}"
        ) from None


def check_value(name: str, value: Any) -> Any:
    """``value`` checked and normalized for option ``name`` (None stays None)."""
    return None if value is None else OPTIONS_BY_NAME[name].kind.check(name, value)


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


if __name__ == "__main__":  # python -m tfcompat_gpu.settings.options README.md
    import sys
    from pathlib import Path

    for name in sys.argv[1:]:
        path = Path(name)
        path.write_text(fill_readme(path.read_text(encoding="utf-8")), encoding="utf-8")
