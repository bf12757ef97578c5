"""``tfcompat-gpu run [options] script.py [args...]``: run a legacy script unmodified.

The script runs as ``python script.py args`` would run it (same ``sys.argv``, ``__name__ ==
"__main__"``, ``sys.path[0]`` = its directory, its exit status, tracebacks that point at its
lines), after :func:`tfcompat_gpu.install`.  GPU settings come from ``TFCOMPAT_GPU_*``
variables, then ``--config FILE``, then the flags (later wins).  They are applied to the
process when the script imports TensorFlow (so its own ``os.environ[...]`` lines before that
import still count) and win over what its sessions ask for.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
import types
from collections.abc import Sequence
from typing import Any

from tfcompat_gpu._errors import GPUConfigError
from tfcompat_gpu._options import parse_text
from tfcompat_gpu.config import GPUConfig

__all__ = ["REPORT_ENV", "main", "report"]

REPORT_ENV = "TFCOMPAT_GPU_REPORT"
_PROG = "tfcompat-gpu run"

# flag -> GPUConfig field; the values are parsed like the TFCOMPAT_GPU_* variables.
_VALUE_FLAGS: dict[str, tuple[str, str, str]] = {
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


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # exit 2 with our prefix, never a traceback
        self.print_usage(sys.stderr)
        print(f"{_PROG}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def _parser() -> _Parser:
    parser = _Parser(
        prog=_PROG,
        description="Run a legacy TensorFlow/Keras script unmodified, GPU settings honoured.",
        epilog="Every setting can also come from TFCOMPAT_GPU_* variables (flags win).",
    )
    parser.add_argument("--allow-growth", action="store_true", help="grow GPU memory on demand")
    for flag, (_, metavar, text) in _VALUE_FLAGS.items():
        parser.add_argument(flag, metavar=metavar, help=text)
    placement = parser.add_mutually_exclusive_group()
    placement.add_argument(
        "--soft-placement", dest="soft", action="store_const", const=True, help="fall back to CPU"
    )
    placement.add_argument(
        "--no-soft-placement", dest="soft", action="store_const", const=False, help="never"
    )
    parser.add_argument("--log-placement", action="store_true", help="log each op's device")
    parser.add_argument(
        "--conflict-policy",
        choices=("error", "warn", "ignore", "remap"),
        help="what a session with other process-wide GPU options does",
    )
    parser.add_argument("--config", metavar="FILE", help="INI ([gpu]) or TOML GPU settings")
    parser.add_argument(
        "--tf1",
        action="store_true",
        help="the script (and modules beside it) get tensorflow.compat.v1, v2 behaviour off",
    )
    parser.add_argument(
        "--report",
        metavar="FILE",
        help=f"write the settings in force and every session as JSON at exit (or ${REPORT_ENV})",
    )
    parser.add_argument("script", help="the Python script to run")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="its arguments")
    return parser


def _settings(ns: argparse.Namespace) -> GPUConfig:
    cfg = GPUConfig.from_env()
    if ns.config:
        cfg = cfg.merged(GPUConfig.from_file(ns.config))
    fields: dict[str, Any] = {}
    if ns.allow_growth:
        fields["allow_growth"] = True
    for flag, (name, _, _) in _VALUE_FLAGS.items():
        raw = getattr(ns, flag[2:].replace("-", "_"))
        if raw is not None:
            fields[name] = parse_text(name, raw, flag)
    if ns.soft is not None:
        fields["allow_soft_placement"] = ns.soft
    if ns.log_placement:
        fields["log_device_placement"] = True
    try:
        flags = GPUConfig(**fields)
    except GPUConfigError as exc:
        raise GPUConfigError(f"{exc} (from the command line)") from None
    return cfg.merged(flags)


def main(argv: Sequence[str] | None = None) -> int:
    """``tfcompat-gpu run``; ``argv`` starts with ``"run"``.  Returns the exit status.

    Example::

        $ tfcompat-gpu run --allow-growth --memory-fraction 0.5 train.py --epochs 3
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["run"]:
        args = args[1:]
    ns = _parser().parse_args(args)
    try:
        settings = _settings(ns)
        if ns.conflict_policy:
            from tfcompat_gpu.conflicts import set_conflict_policy

            set_conflict_policy(ns.conflict_policy)
        else:
            from tfcompat_gpu.conflicts import get_conflict_policy

            get_conflict_policy()  # an invalid TFCOMPAT_GPU_CONFLICT_POLICY fails here, not later
    except GPUConfigError as exc:
        print(f"{_PROG}: error: {exc}", file=sys.stderr)
        return 2
    script = ns.script
    if not os.path.isfile(script):
        print(f"{_PROG}: error: can't open file {script!r}: no such file", file=sys.stderr)
        return 2
    report_path = ns.report or os.environ.get(REPORT_ENV) or None
    return _run(script, ns.args, settings, tf1=ns.tf1, report_path=report_path)


def _run(
    script: str, args: list[str], settings: GPUConfig, *, tf1: bool, report_path: str | None
) -> int:
    import tfcompat_gpu
    from tfcompat_gpu.patching import _sessions
    from tfcompat_gpu.patching._tf1 import V1Import

    path = os.path.abspath(script)
    tfcompat_gpu.install()
    _sessions.set_overrides(settings)
    _on_tensorflow(settings, tf1)
    v1 = V1Import(os.path.dirname(path)) if tf1 else None
    sys.argv = [script, *args]
    sys.path[0] = os.path.dirname(path)
    main_module = types.ModuleType("__main__")
    main_module.__dict__.update(
        {"__file__": path, "__builtins__": __builtins__, "__cached__": None, "__spec__": None}
    )
    sys.modules["__main__"] = main_module
    try:
        with open(path, "rb") as source:
            code = compile(source.read(), path, "exec", dont_inherit=True)
        if v1 is not None:
            v1.start()
        try:
            exec(code, main_module.__dict__)
        finally:
            if v1 is not None:
                v1.stop()
    except (SystemExit, KeyboardInterrupt):
        raise
    except BaseException as exc:  # shown as Python shows it, from the script's frames on
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename != path:
            tb = tb.tb_next
        traceback.print_exception(type(exc), exc, tb or exc.__traceback__)
        return 1
    finally:
        if report_path:
            _write_report(report_path)
    return 0


def _on_tensorflow(settings: GPUConfig, tf1: bool) -> None:
    """Apply the settings (and ``--tf1``) once TensorFlow is imported, whoever imports it."""
    if not settings.to_dict() and not tf1:
        return
    import wrapt

    def hook(module: types.ModuleType) -> None:
        if tf1:
            module.compat.v1.disable_v2_behavior()
        if settings.to_dict():
            from tfcompat_gpu.configuring import configure_at

            configure_at(settings, "tfcompat-gpu run options")

    wrapt.register_post_import_hook(hook, "tensorflow")


def report() -> dict[str, Any]:
    """What took effect in this process: settings, their origin, every session, the TF config."""
    from tfcompat_gpu import _tf
    from tfcompat_gpu._state import STATE
    from tfcompat_gpu.configuring import current_config
    from tfcompat_gpu.conflicts import get_conflict_policy
    from tfcompat_gpu.patching._sessions import seen_sessions

    out: dict[str, Any] = {
        "config": current_config().to_dict(),
        "where": STATE.process_wide_where,
        "policy": get_conflict_policy(),
        "sessions": seen_sessions(),
        "tensorflow": None,
    }
    if _tf.is_imported() and hasattr(sys.modules["tensorflow"], "config"):
        out["tensorflow"] = {
            "version": str(_tf.version()),
            "mode": "graph" if _tf.graph_mode() else "eager",
            "runtime_started": _tf.runtime_started(),
            "config": _tf.set_fields(_tf.effective_proto()),
        }
    return out


def _write_report(path: str) -> None:
    try:
        data = report()
    except Exception as exc:  # the script's outcome matters more than the report
        data = {"error": f"{type(exc).__name__}: {exc}"}
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=2, sort_keys=True, default=str)
