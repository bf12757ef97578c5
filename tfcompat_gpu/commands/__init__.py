"""The command-line subcommands, one module each (``tfcompat_gpu.cli`` dispatches to them)."""
