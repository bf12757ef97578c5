"""What a notebook finds in IPython, for ``tfcompat-gpu run notebook.ipynb``, where no IPython
shell is running.

* ``get_ipython()`` in the notebook's namespace is a stand-in shell: its magics and shell
  commands (``run_line_magic``, ``run_cell_magic``, ``system``, ``getoutput``, ``magic``) are not
  run, as the notebook's ``%`` and ``!`` lines are not, and each call is named in a note on
  stderr; the body of ``run_cell_magic("time" | "timeit" | "capture" | "prun", line, body)`` runs
  in the notebook's namespace, as the body of such a cell does.
* Where IPython is not installed, ``IPython``, ``IPython.display`` and ``IPython.core.display``
  (and ``IPython.core.interactiveshell``) are stand-in modules, so that a notebook's
  ``from IPython.display import Image, HTML, display`` does not stop it: ``display()`` prints
  each object (a rich object as IPython's terminal shows it, ``<IPython.display.HTML object>``),
  the rich objects keep what they were given and read no file, and ``IPython.get_ipython()``
  returns None, as IPython's own does outside a shell (libraries that ask whether they are in
  a notebook get the true answer).  Where IPython is installed it is used as it is.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import types
from typing import Any

from tfcompat_gpu.commands import _voice

__all__ = ["StandInShell", "install_ipython_stand_in", "notebook_names", "set_up"]

# IPython runs the body of these cell magics as Python in the notebook's namespace.
_PYTHON_BODY = frozenset(["time", "timeit", "capture", "prun"])


def set_up(namespace: dict[str, Any], path: str) -> None:
    """Before the first cell, as Jupyter has it: the notebook's folder is the working
    directory (``pd.read_csv("data/train.csv")`` reads the notebook's ``data``), figures are
    drawn off-screen (``MPLBACKEND=agg`` unless set: ``plt.show()`` waits on no window),
    and IPython's names are in the namespace.  ``__file__`` stays the notebook's path, and
    ``__spec__`` is named ``__main__``, which tells a ``spawn`` child of ``multiprocessing``
    not to run the main module again (it would read the notebook's JSON as a script): as under
    Jupyter, the child imports what it unpickles."""
    import importlib.machinery

    namespace["__spec__"] = importlib.machinery.ModuleSpec("__main__", None, origin=path)
    os.chdir(os.path.dirname(path))
    if not os.environ.get("MPLBACKEND"):  # empty: unset, for matplotlib
        os.environ["MPLBACKEND"] = "agg"
    install_ipython_stand_in()
    namespace.update(notebook_names(namespace, path))


class StandInShell:
    """``get_ipython()`` for a notebook run outside IPython: magics and shell commands are not
    run, each call is named on stderr."""

    def __init__(self, namespace: dict[str, Any], shown_path: str) -> None:
        self.user_ns = namespace
        self._shown_path = shown_path

    def _skip(self, call: str) -> None:
        where = _caller_cell()
        _voice.say(
            "run",
            "note",
            f"{where or self._shown_path}: get_ipython().{call} is IPython's and is not run "
            "outside IPython",
        )

    def run_line_magic(self, magic_name: str, line: str, _stack_depth: int = 1) -> None:
        self._skip(f"run_line_magic({magic_name!r}, {line!r})")

    def magic(self, arg_s: str) -> None:
        self._skip(f"magic({arg_s!r})")

    def run_cell_magic(self, magic_name: str, line: str, cell: str) -> None:
        if magic_name not in _PYTHON_BODY:
            self._skip(f"run_cell_magic({magic_name!r}, {line!r}, ...)")
            return
        import json

        from tfcompat_gpu.utils.notebooks import read_notebook

        # The body as IPython reads it: its own magics and shell lines masked.
        body = read_notebook(json.dumps({"cells": [{"cell_type": "code", "source": cell}]})).program
        where = _caller_cell() or self._shown_path
        exec(compile(body, f"{where} (%%{magic_name} body)", "exec"), self.user_ns)

    def system(self, cmd: str) -> None:
        self._skip(f"system({cmd!r})")

    def getoutput(self, cmd: str, split: bool = True, depth: int = 0) -> list[str]:
        self._skip(f"getoutput({cmd!r})")
        return []

    def __repr__(self) -> str:
        return "<tfcompat-gpu stand-in for IPython's shell: magics and shell commands not run>"


def _caller_cell() -> str | None:
    """``NOTEBOOK:cell N line L`` of the nearest notebook frame calling in, or None."""
    frame = sys._getframe(1)
    while frame is not None:
        name = frame.f_code.co_filename
        if ".ipynb:cell " in name and "(%%" not in name:
            return f"{name} line {frame.f_lineno}"
        frame = frame.f_back  # type: ignore[assignment]
    return None


def notebook_names(namespace: dict[str, Any], shown_path: str) -> dict[str, Any]:
    """What IPython puts in every notebook's namespace: ``get_ipython`` and ``display``."""
    shell = StandInShell(namespace, shown_path)
    running = None
    try:
        if importlib.util.find_spec("IPython") is not None:
            running = importlib.import_module("IPython").get_ipython()
    except Exception:  # a broken IPython install: the stand-in serves
        running = None
    display: Any
    try:
        display = importlib.import_module("IPython.display").display
    except ImportError:
        display = _display
    return {
        "get_ipython": (lambda: running) if running is not None else (lambda: shell),
        "display": display,
    }


# --- stand-in modules, where IPython is not installed ------------------------------------


class _Rich:
    """A rich display object (``HTML``, ``Image``...): keeps what it was given."""

    def __init__(self, data: Any = None, *args: Any, **kwargs: Any) -> None:
        self.data = data
        self.args = args
        self.kwargs = kwargs

    def __repr__(self) -> str:
        return f"<IPython.display.{type(self).__name__} object>"


def _display(*objs: Any, **_options: Any) -> None:
    for obj in objs:
        print(obj)


def _nothing(*_args: Any, **_kwargs: Any) -> None:
    return None


_RICH = (
    "Audio",
    "Code",
    "FileLink",
    "FileLinks",
    "HTML",
    "IFrame",
    "Image",
    "JSON",
    "Javascript",
    "Latex",
    "Markdown",
    "Math",
    "Pretty",
    "ProgressBar",
    "SVG",
    "ScribdDocument",
    "TextDisplayObject",
    "DisplayObject",
    "Video",
    "VimeoVideo",
    "YouTubeVideo",
)
_DISPLAY_FUNCTIONS = (
    "display_html",
    "display_javascript",
    "display_jpeg",
    "display_json",
    "display_latex",
    "display_markdown",
    "display_pdf",
    "display_png",
    "display_pretty",
    "display_svg",
)


class _InteractiveShell:
    """``IPython.core.interactiveshell.InteractiveShell``: settings a notebook makes
    (``ast_node_interactivity = "all"``) are kept and mean nothing here."""

    ast_node_interactivity = "last_expr"

    @classmethod
    def initialized(cls) -> bool:
        return False

    @classmethod
    def instance(cls, *_args: Any, **_kwargs: Any) -> None:
        return None


def install_ipython_stand_in() -> bool:
    """Put the stand-in ``IPython`` modules in :data:`sys.modules` where IPython is not
    installed; whether they were put there."""
    if "IPython" in sys.modules or importlib.util.find_spec("IPython") is not None:
        return False
    doc = "Stand-in for IPython put here by tfcompat-gpu run (IPython is not installed)."
    package = types.ModuleType("IPython", doc)
    package.__path__ = []  # a package: ``import IPython.display`` finds the submodule below
    package.get_ipython = _nothing  # type: ignore[attr-defined]
    package.version_info = (0, 0, 0, "stand-in")  # type: ignore[attr-defined]
    package.__version__ = "0.0.0+tfcompat-gpu-stand-in"  # type: ignore[attr-defined]
    display = types.ModuleType("IPython.display", doc)
    display.display = _display  # type: ignore[attr-defined]
    display.clear_output = _nothing  # type: ignore[attr-defined]
    display.update_display = _nothing  # type: ignore[attr-defined]
    display.publish_display_data = _nothing  # type: ignore[attr-defined]
    for name in _RICH:
        setattr(display, name, type(name, (_Rich,), {"__module__": "IPython.display"}))
    for name in _DISPLAY_FUNCTIONS:
        setattr(display, name, _display)
    core = types.ModuleType("IPython.core", doc)
    core.__path__ = []
    shell = types.ModuleType("IPython.core.interactiveshell", doc)
    shell.InteractiveShell = _InteractiveShell  # type: ignore[attr-defined]
    package.display = display  # type: ignore[attr-defined]
    package.core = core  # type: ignore[attr-defined]
    core.display = display  # type: ignore[attr-defined]
    core.interactiveshell = shell  # type: ignore[attr-defined]
    sys.modules.update(
        {
            "IPython": package,
            "IPython.display": display,
            "IPython.core": core,
            "IPython.core.display": display,
            "IPython.core.interactiveshell": shell,
        }
    )
    return True
