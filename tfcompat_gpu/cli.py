"""The ``tfcompat-gpu`` command: one entry point, one module per subcommand.

Each subcommand lives in its own module and exposes ``main(argv) -> int``; this module only
dispatches, so ``tfcompat-gpu check`` never pays for importing the runner or LibCST.  How the
commands speak (message prefix, exit statuses, streams) is :mod:`tfcompat_gpu.commands._voice`.
"""

from __future__ import annotations

import importlib
import os
import sys

from tfcompat_gpu.commands import _voice

TYPE_CHECKING = False  # (collections.abc imports collections: some ms at every start of `run`)
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["main"]

# name -> (module, one-line help)
_COMMANDS: dict[str, tuple[str, str]] = {
    "run": (
        "tfcompat_gpu.commands.run",
        "run a legacy script unmodified, GPU settings honoured",
    ),
    "check": ("tfcompat_gpu.commands.check", "lint files for GPU-configuration mistakes"),
    "rules": ("tfcompat_gpu.commands.rules", "list the lint rules"),
    "explain": ("tfcompat_gpu.commands.explain", "print the documentation of one lint rule"),
    "migrate": ("tfcompat_gpu.commands.migrate", "rewrite legacy GPU configuration for TF2"),
    "env": ("tfcompat_gpu.commands.env", "report TensorFlow, Keras, GPUs and GPU variables"),
    "plan": ("tfcompat_gpu.commands.plan", "print the device map GPU settings give on a machine"),
}


def _usage() -> str:
    width = max(len(name) for name in _COMMANDS)
    lines = ["usage: tfcompat-gpu COMMAND [ARGS...]", "", "commands:"]
    lines += [f"  {name:<{width}}  {text}" for name, (_, text) in _COMMANDS.items()]
    lines += ["", "Run 'tfcompat-gpu COMMAND --help' for a command's options."]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``tfcompat-gpu``; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("-h", "--help", "help"):
        print(_usage())
        return _voice.OK
    if not args:
        print(_usage(), file=sys.stderr)
        return _voice.error("", "the following arguments are required: COMMAND")
    if args[0] == "--version":
        from tfcompat_gpu import __version__

        print(f"tfcompat-gpu {__version__}")
        return 0
    name, rest = args[0], args[1:]
    if name not in _COMMANDS:
        print(_usage(), file=sys.stderr)
        return _voice.error("", f"unknown command {name!r}")
    module = importlib.import_module(_COMMANDS[name][0])
    try:
        status: int = module.main([name, *rest])
        sys.stdout.flush()  # inside the try: an unflushed buffer would fail at exit instead
    except BrokenPipeError:
        # The reader went away (`tfcompat-gpu plan | head -2`): stop without a traceback, as
        # Python's documentation advises (signal module, "Note on SIGPIPE"): point stdout at
        # devnull so the interpreter's own flush at exit cannot fail again, exit 1.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return status


if __name__ == "__main__":
    raise SystemExit(main())
