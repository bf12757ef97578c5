"""``tfcompat-gpu run [options] script.py [args...]``: run a legacy script unmodified.

The script runs as ``python script.py args`` would run it (same ``sys.argv``, ``__name__ ==
"__main__"``, ``sys.path[0]`` = its directory, its exit status, tracebacks that point at its
lines), after :func:`tfcompat_gpu.install`.  GPU settings come from ``TFCOMPAT_GPU_*``
variables, then ``--config FILE``, then the flags (later wins).  They are applied to the
process when the script imports TensorFlow (so its own ``os.environ[...]`` lines before that
import still count) and win over what its sessions ask for.
"""

from __future__ import annotations

import os
import sys
import types

from tfcompat_gpu.commands import _voice
from tfcompat_gpu.dropin import _legacy_keras
from tfcompat_gpu.dropin._children import RunMode, activate
from tfcompat_gpu.errors import GPUConfigError, GPUConfigWarning

# Every start of a script goes through this module: what a script run with no options needs is
# imported here, the rest (argparse, the settings tables, GPUConfig, the auto-mode reader) where
# it is used (tests/dropin/test_run_startup.py keeps the list).
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Sequence
    from typing import Any

    from tfcompat_gpu.settings.config import GPUConfig

__all__ = ["REPORT_ENV", "main", "report"]

REPORT_ENV = "TFCOMPAT_GPU_REPORT"
_PROG = _voice.prog("run")

_DEFAULTS: dict[str, object] = {
    "allow_growth": False,
    "memory_fraction": None,
    "memory_limit_mb": None,
    "visible_devices": None,
    "intra_op_threads": None,
    "inter_op_threads": None,
    "soft": None,
    "log_placement": False,
    "jit": None,
    "auto_mixed_precision": None,
    "config": None,
    "conflict_policy": None,
    "tf1": False,
    "legacy_keras": False,
    "auto": True,
    "report": None,
}
"""What :func:`_parser` gives when no option comes before the script (tests check it)."""


def _plain(args: list[str]) -> types.SimpleNamespace | None:
    """``run SCRIPT ARGS...`` (no option before the script) read without argparse.

    Everything after the script is its own (``argparse.REMAINDER``), so the options are the
    parser's defaults; building the parser and matching its patterns costs a few ms at every
    start.  A ``--`` anywhere is left to argparse, which drops the first one.  None: parse.
    """
    if not args or args[0].startswith("-") or "--" in args:
        return None
    return types.SimpleNamespace(**_DEFAULTS, script=args[0], args=args[1:])


_NOT_SETTINGS = ("TFCOMPAT_GPU_CACHE_DIR", "TFCOMPAT_GPU_RUN_MODE")
"""The lint cache's folder, and the mode a run hands its children (read by them only)."""


def _settings_in_env() -> bool:
    """Whether a variable could set anything: ``TFCOMPAT_GPU_*`` (settings, conflict policy,
    report, legacy Keras; any name but :data:`_NOT_SETTINGS`) or ``TF_FORCE_GPU_ALLOW_GROWTH``
    (:meth:`GPUConfig.from_env`)."""
    return "TF_FORCE_GPU_ALLOW_GROWTH" in os.environ or any(
        name.startswith("TFCOMPAT_GPU_") and name not in _NOT_SETTINGS for name in os.environ
    )


def _columns() -> int:
    # shutil.get_terminal_size()'s rule (Lib/shutil.py): $COLUMNS, then the terminal, then 80.
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0 and sys.__stdout__ is not None:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


def _parser() -> _voice.Parser:
    import argparse

    from tfcompat_gpu.commands._settings_flags import add_settings_arguments

    class _Formatter(argparse.HelpFormatter):
        """argparse's own, sized as ``shutil.get_terminal_size()`` would size it.

        ``argparse.HelpFormatter.__init__`` imports ``shutil`` (and with it ``bz2`` and
        ``lzma``) for the width, and ``add_argument`` makes a formatter: a few ms otherwise.
        """

        def __init__(self, prog: str, *args: Any, **kwargs: Any) -> None:
            if kwargs.get("width") is None and len(args) < 3:
                kwargs["width"] = _columns() - 2  # as argparse does
            super().__init__(prog, *args, **kwargs)

    parser = _voice.Parser(
        prog=_PROG,
        formatter_class=_Formatter,
        description="Run a legacy TensorFlow/Keras script unmodified, GPU settings honoured.",
        epilog="Every setting can also come from TFCOMPAT_GPU_* variables (flags win).",
    )
    add_settings_arguments(parser)
    parser.add_argument(
        "--conflict-policy",
        choices=("error", "warn", "ignore", "remap"),
        help="what a session with other process-wide GPU options does",
    )
    parser.add_argument(
        "--tf1",
        action="store_true",
        help="the script (and modules beside it) get tensorflow.compat.v1, v2 behaviour off",
    )
    parser.add_argument(
        "--legacy-keras",
        action="store_true",
        help="Keras 2 code on a Keras 3 install: `import keras` is tf_keras (or "
        "TFCOMPAT_GPU_LEGACY_KERAS=1)",
    )
    parser.add_argument(
        "--no-auto",
        dest="auto",
        action="store_false",
        help="do not read the script to choose --tf1, --legacy-keras and soft placement",
    )
    parser.add_argument(
        "--report",
        metavar="FILE",
        help=f"write the settings in force and every session as JSON at exit (or ${REPORT_ENV})",
    )
    parser.add_argument("script", help="the Python script to run")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="its arguments")  # as _plain
    return parser


def _settings(ns: argparse.Namespace) -> GPUConfig:
    """Environment, then ``--config``, then the flags; each warning shown once, with its source."""
    import warnings

    from tfcompat_gpu.settings.config import GPUConfig

    stages: list[tuple[str, Callable[[], GPUConfig]]] = [("the environment", GPUConfig.from_env)]
    if ns.config:
        stages.append((repr(ns.config), lambda: GPUConfig.from_file(ns.config)))
    stages.append(("the command line", lambda: _from_flags(ns)))
    cfg = GPUConfig()
    shown: set[str] = set()
    for source, read in stages:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", GPUConfigWarning)
            part = read()
        for warning in caught:
            text = str(warning.message)
            if text not in shown:
                shown.add(text)
                _voice.say("run", "warning", f"{text} (from {source})")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", GPUConfigWarning)  # shown above already
            cfg = cfg.merged(part)
    return cfg


def _from_flags(ns: argparse.Namespace) -> GPUConfig:
    from tfcompat_gpu.commands._settings_flags import fields_from_flags
    from tfcompat_gpu.settings.config import GPUConfig

    fields = fields_from_flags(ns)
    try:
        return GPUConfig(**fields)
    except GPUConfigError as exc:
        raise GPUConfigError(f"{exc} (from the command line)") from None


def main(argv: Sequence[str] | None = None) -> int:
    """``tfcompat-gpu run``; ``argv`` starts with ``"run"``.  Returns the exit status: 2 for a
    usage or input error before the script starts, else the script's own (a ``SystemExit`` the
    script raises goes on to the caller, as under ``python script.py``).

    Example::

        $ tfcompat-gpu run --allow-growth --memory-fraction 0.5 train.py --epochs 3
    """
    # What _voice.returns_status does, without its functools (some ms at every start).
    try:
        return _main(argv)
    except _voice.ParserExit as done:
        return done.status


def _main(argv: Sequence[str] | None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["run"]:
        args = args[1:]
    plain = _plain(args)
    ns: Any = plain if plain is not None else _parser().parse_args(args)
    # No option and no variable: no settings to read, nothing to check (GPUConfig stays unloaded).
    bare = plain is not None and not _settings_in_env()
    try:
        settings = None if bare else _settings(ns)
        if not bare:
            from tfcompat_gpu.runtime.conflicts import get_conflict_policy, set_conflict_policy

            if ns.conflict_policy:
                set_conflict_policy(ns.conflict_policy)
            get_conflict_policy()  # an invalid TFCOMPAT_GPU_CONFLICT_POLICY fails here, not later
        report_path = _report_path(ns.report)
        legacy_keras = ns.legacy_keras or _legacy_keras.requested()
        if legacy_keras:
            _legacy_keras.check_available()  # before the script starts, naming the versions
    except GPUConfigError as exc:
        return _voice.error("run", str(exc))
    try:
        script = _Script.find(ns.script)
    except _CannotRunError as exc:
        return _voice.error("run", str(exc), exc.status)
    tf1 = ns.tf1
    chosen = None
    if ns.auto:
        tf1, legacy_keras, settings, chosen = _auto(script, tf1, legacy_keras, settings)
    mode = RunMode(
        settings=settings.to_dict() if settings is not None else {},
        tf1=tf1,
        legacy_keras=legacy_keras,
        policy=ns.conflict_policy or None,
        script_dirs=script.folders,
    )
    sys.argv = [ns.script, *ns.args]
    return _run(script, mode, report_path=report_path, chosen=chosen)


def _imports_nothing(source: bytes) -> bool:
    """Auto mode can find nothing in this code: no ``import`` (ASCII code, where the keyword
    cannot be spelt otherwise), so no alias to follow, no local module to read, no evidence."""
    return source.isascii() and b"import" not in source


def _auto(
    script: _Script, tf1: bool, legacy_keras: bool, settings: GPUConfig | None
) -> tuple[bool, bool, GPUConfig | None, str | None]:
    """Read the script (no import) and add the mode it needs; say so in one line.

    ``settings`` None: none given (the same as an empty ``GPUConfig``)."""
    if _imports_nothing(script.source):
        return tf1, legacy_keras, settings, None  # what the reading below would return
    import dataclasses
    import warnings

    from tfcompat_gpu.dropin import _auto

    soft = None if settings is None else settings.to_dict().get("allow_soft_placement")
    reading = _auto.read(script.code_path, script.source)
    if reading.metric_keys:
        from tfcompat_gpu.dropin import _keras2_models

        _keras2_models.read_metric_keys(reading.metric_keys)
    lines = script.notebook.where if script.notebook is not None else None
    choice = _auto.choose(
        reading,
        script.code_path,
        tf1=tf1,
        legacy_keras=legacy_keras,
        soft_placement=soft,
        lines=lines,
    )
    for note in choice.notes:
        print(note, file=sys.stderr)
    if choice.legacy_keras:
        try:
            _legacy_keras.check_available()
        except GPUConfigError as exc:
            # Not fatal: the guess may be wrong, and Keras 3 may run the script after all.
            _voice.say("run", "warning", f"auto mode would run this script on tf_keras: {exc}")
            choice = _auto.choose(
                reading,
                script.code_path,
                tf1=tf1,
                legacy_keras=True,  # as if given: nothing more to choose for Keras
                soft_placement=soft,
                lines=lines,
            )
            choice = dataclasses.replace(choice, notes=())
    if choice.message is None:
        return tf1, legacy_keras, settings, None
    print(choice.message, file=sys.stderr)
    if choice.soft_placement:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", GPUConfigWarning)
            from tfcompat_gpu.settings.config import GPUConfig

            soft_on = GPUConfig(allow_soft_placement=True)
            settings = soft_on if settings is None else settings.merged(soft_on)
    what = [
        name
        for name, on in (
            ("the v1 API", choice.tf1),
            ("tf_keras", choice.legacy_keras),
            ("soft placement", choice.soft_placement),
        )
        if on
    ]
    chosen = _join(what)
    return tf1 or choice.tf1, legacy_keras or choice.legacy_keras, settings, chosen


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def _report_path(flag: str | None) -> str | None:
    """The report file, checked before the script runs (it is written when the script ends)."""
    path = flag or os.environ.get(REPORT_ENV) or None
    if path is None:
        return None
    source = "--report" if flag else f"environment variable {REPORT_ENV}"
    folder = os.path.dirname(os.path.abspath(path))
    problem = ""
    if os.path.isdir(path):
        problem = "it is a directory"
    elif not os.path.isdir(folder):
        problem = f"folder {folder!r} does not exist"
    elif not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        problem = "it is not writable"
    if problem:
        raise GPUConfigError(
            f"{source}: cannot write the report to {path!r}: {problem}. "
            "Give a file path in an existing, writable folder."
        )
    return path


_EOCD = b"PK\x05\x06"  # zipfile.stringEndArchive
_EOCD_SIZE = 22  # zipfile.sizeEndCentDir


class _CannotRunError(Exception):
    """The argument is not something Python could run; ``status`` is Python's exit status."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class _Script:
    """What ``python ARG`` would run: a file, or the ``__main__`` of a folder or zip file.

    (A plain class, not a dataclass: ``dataclasses`` costs some ms at every start.)"""

    __slots__ = ("code_path", "folders", "notebook", "path0", "source", "spec")

    def __init__(
        self,
        code_path: str,
        path0: str,
        folders: tuple[str, ...],
        source: bytes,
        spec: Any = None,
        notebook: Any = None,
    ) -> None:
        self.code_path = code_path
        """File name the code is compiled under (its frames carry it; ``__file__``)."""
        self.path0 = path0
        """``sys.path[0]``: the folder of the resolved script (a symlink's target), or the
        folder/zip."""
        self.folders = folders
        """The script's folders as given and resolved (``--tf1`` hands them the v1 API)."""
        self.source = source
        self.spec = spec
        self.notebook = notebook
        """A :class:`~._run_notebook.NotebookScript` for a ``.ipynb`` file, run cell by cell."""

    def codes(self) -> list[tuple[str, bytes | str]]:
        """(file name, text) of each piece to compile and run in turn."""
        if self.notebook is not None:
            return list(self.notebook.cells)
        return [(self.code_path, self.source)]

    def __repr__(self) -> str:
        return f"_Script({self.code_path!r}, path0={self.path0!r}, folders={self.folders!r})"

    @classmethod
    def find(cls, arg: str) -> _Script:
        path = os.path.abspath(arg)
        if os.path.isdir(path):
            return cls._main_of(arg, path)
        try:
            with open(path, "rb") as handle:
                source = handle.read()
        except FileNotFoundError:
            raise _CannotRunError(f"can't open file {arg!r}: no such file", 2) from None
        except OSError as exc:
            raise _CannotRunError(f"can't open file {arg!r}: {exc.strerror}", 2) from None
        # A zip file ends with its end-of-central-directory record (and a comment of at most
        # 64 KiB); only a file that has one costs the import of zipfile.
        if _EOCD in source[-(_EOCD_SIZE + 0xFFFF) :]:
            import zipfile

            if zipfile.is_zipfile(path):
                return cls._main_of(arg, path)
        real = os.path.dirname(os.path.realpath(path))
        folders = tuple(dict.fromkeys((os.path.dirname(path), real)))
        if path.lower().endswith(".ipynb"):
            from tfcompat_gpu.commands._run_notebook import read_script

            try:
                notebook = read_script(path, source)
            except ValueError as exc:
                raise _CannotRunError(str(exc), 2) from None
            return cls(path, real, folders, notebook.program, notebook=notebook)
        return cls(path, real, folders, source)

    @classmethod
    def _main_of(cls, arg: str, path: str) -> _Script:
        import pkgutil

        finder: Any = pkgutil.get_importer(path)
        if finder is not None and not hasattr(finder, "find_spec"):
            # Python 3.9's zipimporter has only find_module (find_spec came in 3.10)
            import importlib.util

            found = finder.find_module("__main__")
            spec = (
                importlib.util.spec_from_loader(
                    "__main__", found, origin=found.get_filename("__main__")
                )
                if found is not None
                else None
            )
        else:
            spec = finder.find_spec("__main__") if finder is not None else None
        loader: Any = getattr(spec, "loader", None)
        origin = getattr(spec, "origin", None)
        source = None
        if spec is not None and isinstance(origin, str) and hasattr(loader, "get_source"):
            source = loader.get_source("__main__")
        if source is None:
            raise _CannotRunError(f"can't find '__main__' module in {arg!r}", 1)
        return cls(origin or path, path, (path,), source.encode("utf-8"), spec)


def _run(
    script: _Script, mode: RunMode, *, report_path: str | None, chosen: str | None = None
) -> int:
    v1 = activate(mode)
    sys.path[0] = script.path0
    main_module = types.ModuleType("__main__")
    main_module.__dict__.update(
        {
            "__file__": script.code_path,
            "__builtins__": __builtins__,
            "__cached__": None,
            "__spec__": script.spec,
            "__loader__": getattr(script.spec, "loader", None),
        }
    )
    sys.modules["__main__"] = main_module
    names = {script.code_path}
    if script.notebook is not None:
        from tfcompat_gpu.commands import _run_ipython

        script.notebook.remember_lines()
        names.update(name for name, _ in script.notebook.cells)
        note = script.notebook.note(script.code_path)
        if note:
            _voice.say("run", "note", note)
        if report_path:  # written after the run, which is in the notebook's folder
            report_path = os.path.abspath(report_path)
        _run_ipython.set_up(main_module.__dict__, script.code_path)
    try:
        try:
            codes = [
                compile(text, name, "exec", dont_inherit=True) for name, text in script.codes()
            ]
        except (SyntaxError, ValueError) as exc:  # as Python shows it: no traceback above it
            import traceback

            traceback.print_exception(type(exc), exc, None)
            return 1
        if v1 is not None:
            main_module.__dict__["__builtins__"] = v1.builtins_for_script()
            v1.start_local()
        try:
            for code in codes:  # a notebook's cells in turn, in one namespace
                exec(code, main_module.__dict__)
        finally:
            if v1 is not None:
                v1.stop_local()
    except SystemExit:
        raise
    except BaseException as exc:  # shown as Python shows it, from the script's frames on
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename not in names:
            tb = tb.tb_next
        script_tb = tb or exc.__traceback__
        exc.__traceback__ = script_tb  # what sys.excepthook shows
        if isinstance(exc, KeyboardInterrupt):
            # Python prints it, runs the atexit handlers and ends by SIGINT (status 130): let it,
            # with the script's frames only.
            _show_without_tool_frames(exc, script_tb)
            raise
        if script.notebook is not None and sys.excepthook is sys.__excepthook__:
            # Python's own hook reads source lines from files; a cell's are in linecache.
            import traceback

            traceback.print_exception(type(exc), exc, script_tb)
        else:
            sys.excepthook(type(exc), exc, script_tb)
        from tfcompat_gpu.dropin._hints import Flags, hint  # only a failure needs them

        flags = Flags(
            tf1=mode.tf1,
            legacy_keras=mode.legacy_keras,
            soft_placement=mode.settings.get("allow_soft_placement"),
        )
        line = hint(exc, flags)
        if line:
            print(line, file=sys.stderr)
        if chosen:
            # A wrong guess must be impossible to miss: the last word after a failure.
            _voice.say(
                "run",
                "note",
                f"auto mode chose {chosen} for this script; if that was wrong, "
                "rerun with --no-auto (and the flags you want)",
            )
        return 1
    finally:
        if report_path:
            _write_report(report_path)
    return 0


def _show_without_tool_frames(exc: BaseException, script_tb: Any) -> None:
    previous = sys.excepthook

    def hook(kind: type[BaseException], value: BaseException, tb: Any) -> None:
        sys.excepthook = previous
        if value is exc:
            value.__traceback__ = tb = script_tb
        previous(kind, value, tb)

    sys.excepthook = hook


def report() -> dict[str, Any]:
    """What took effect in this process: settings, their origin, every session, the TF config."""
    from tfcompat_gpu.dropin._sessions import seen_sessions
    from tfcompat_gpu.runtime.configuring import current_config
    from tfcompat_gpu.runtime.conflicts import get_conflict_policy
    from tfcompat_gpu.runtime.state import STATE
    from tfcompat_gpu.tfapi import _tf

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
    import json

    try:
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=2, sort_keys=True, default=str)
    except OSError as exc:  # checked before the run; the script's exit status still stands
        _voice.say("run", "warning", f"cannot write the report to {path!r}: {exc}")
