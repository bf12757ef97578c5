"""``tfcompat-gpu check``: exit 0 when clean, 1 with findings, 2 on errors (a usage error, a
path that does not exist, a bad configuration, an internal error)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from tfcompat_gpu.commands import _voice
from tfcompat_gpu.utils.shown import shown

__all__ = ["main"]


def _codes(value: str) -> list[str]:
    return [part.strip().upper() for part in value.split(",") if part.strip()]


def _check_parser() -> argparse.ArgumentParser:
    parser = _voice.Parser(
        prog=_voice.prog("check"),
        description="Lint Python files for TensorFlow GPU-configuration mistakes.",
    )
    parser.add_argument("paths", nargs="*", help="files or directories (default: .)")
    parser.add_argument(
        "--select",
        type=_codes,
        help="comma-separated codes or prefixes to "
        "enable instead of the defaults (TFG: every rule)",
    )
    parser.add_argument("--extend-select", type=_codes, default=[], help="codes to add")
    parser.add_argument("--ignore", type=_codes, default=[], help="codes to disable")
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="GLOB",
        help="skip files/directories matching GLOB (repeatable)",
    )
    parser.add_argument(
        "--format",
        choices=("text", "json", "github", "sarif"),
        default="text",
        help="output format (default: text)",
    )
    parser.add_argument("--statistics", action="store_true", help="count findings per rule")
    parser.add_argument(
        "--config", metavar="PYPROJECT", help="read [tool.tfcompat-gpu.lint] from this file"
    )
    parser.add_argument("--isolated", action="store_true", help="ignore every pyproject.toml")
    parser.add_argument(
        "-j",
        "--jobs",
        type=_voice.jobs_count,
        default=0,
        metavar="N",
        help="worker processes (default: one per idle CPU; 1: no workers)",
    )
    parser.add_argument(
        "--target-version",
        metavar="VERSION",
        help="TensorFlow the code runs on (1.15, 2.16; default: read from the project's "
        "tensorflow requirement, else the latest); TF1 targets turn the TF2-migration rules off",
    )
    parser.add_argument(
        "--show-settings",
        action="store_true",
        help="print the settings (rules, target TensorFlow per folder and the file that decided "
        "it) and exit without checking",
    )
    parser.add_argument(
        "--exit-zero", action="store_true", help="exit 0 even when there are findings"
    )
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="check every file again; neither read nor write the cache (use in CI)",
    )
    parser.add_argument(
        "--cache-dir",
        metavar="DIR",
        help="where to keep the findings of unchanged files (default: $TFCOMPAT_GPU_CACHE_DIR, "
        "else the user's cache folder)",
    )
    return parser


def _check(argv: list[str]) -> int:
    from tfcompat_gpu.lint.cache import default_cache_dir
    from tfcompat_gpu.lint.config import ConfigError, LintConfig, find_config, load_config
    from tfcompat_gpu.lint.formats import render
    from tfcompat_gpu.lint.paths import default_jobs, lint_paths
    from tfcompat_gpu.lint.progress import progress_line

    args = _check_parser().parse_args(argv)
    paths = args.paths or ["."]
    missing = _voice.first_missing(paths)
    if missing is not None:
        return _voice.error("check", f"no such file or directory: {shown(missing)}")
    progress = progress_line(sys.stderr, "checked") if args.format == "text" else None
    try:
        config = LintConfig() if args.isolated else load_config(args.config or find_config(paths))
        if args.show_settings:
            from tfcompat_gpu.lint.settings import show_settings

            print(
                show_settings(
                    paths,
                    config,
                    select=args.select,
                    extend_select=args.extend_select,
                    ignore=args.ignore,
                    exclude=args.exclude,
                    target_version=args.target_version,
                )
            )
            return 0
        report = lint_paths(
            paths,
            select=args.select,
            extend_select=args.extend_select,
            ignore=args.ignore,
            exclude=args.exclude,
            config=config,
            jobs=args.jobs if args.jobs > 0 else default_jobs(),
            target_version=args.target_version,
            cache_dir=None if args.no_cache else args.cache_dir or default_cache_dir(),
            progress=progress,
        )
    except ConfigError as exc:
        return _voice.error("check", str(exc))
    status = _voice.OK if report.ok or args.exit_zero else _voice.FINDINGS
    output = render(report, args.format, args.statistics)
    if output:
        try:
            print(output, flush=True)
        except BrokenPipeError:
            # `check ... | head`: the reader has seen enough, but the findings still decide
            # the status a CI step or `set -o pipefail` sees.
            _silence_stdout()
    return status


def _silence_stdout() -> None:
    # Python flushes stdout again at exit; a closed pipe would fail there too.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def main(argv: Sequence[str] | None = None) -> int:
    """``main(["check", "src/"])`` (the subcommand's name first); returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        return _check(args[1:])
    except _voice.ParserExit as done:  # --help, or a usage error already printed
        return done.status
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, as other command-line tools do.
        _silence_stdout()
        return 0
    except Exception as exc:  # never a traceback in CI logs without a status of 2
        return _voice.error("check", f"internal error: {exc!r}")


if __name__ == "__main__":
    raise SystemExit(main())
