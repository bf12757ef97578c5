"""``tfcompat-gpu run notebook.ipynb``: the code cells run in order in one namespace, as
Jupyter's "Run All" does; IPython lines are named and left out; a traceback names the cell.

The notebooks are written with the ``json`` module in nbformat 4's layout (cells with a
``source`` as a list of lines, outputs, metadata), as Jupyter saves them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._child import run


def _cell(
    source: str, kind: str = "code", outputs: list[object] | None = None
) -> dict[str, object]:
    cell: dict[str, object] = {
        "cell_type": kind,
        "metadata": {},
        "source": source.splitlines(keepends=True),
    }
    if kind == "code":
        cell["execution_count"] = None
        cell["outputs"] = outputs or []
    return cell


def _notebook(path: Path, *sources: str | dict[str, object]) -> Path:
    cells = [_cell(s) if isinstance(s, str) else s for s in sources]
    data = {
        "cells": cells,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return path


def _run(cwd: Path, *args: str, env: dict[str, str] | None = None):
    return run(["-m", "tfcompat_gpu", "run", *args], cwd=cwd, env=env, timeout=240)


def test_cells_run_in_order_in_one_namespace_and_ipython_lines_are_named(tmp_path):
    _notebook(
        tmp_path / "explore.ipynb",
        _cell("# Exploring the data", kind="markdown"),
        "%matplotlib inline\nimport sys\nrows = [1, 2, 3]\n!nvidia-smi",
        _cell("total = sum(rows)\nprint('total', total)", outputs=[{"output_type": "stream"}]),
        "%%time\nprint('timed body ran', total * 2)",
        "%%bash\necho never",
        "display(total, 'shown')\nprint(sys.argv[1:])",
    )
    done = _run(tmp_path, "explore.ipynb", "--epochs", "3")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "total 6\ntimed body ran 12\n6\nshown\n['--epochs', '3']\n"
    assert "never" not in done.stdout
    note = [line for line in done.stderr.splitlines() if "IPython line" in line]
    assert len(note) == 1, done.stderr
    assert "5 IPython line(s)" in note[0]
    assert "cell 2 line 1: %matplotlib inline" in note[0]
    assert "cell 2 line 4: !nvidia-smi" in note[0]
    assert "cell 4 line 1: %%time" in note[0]
    assert "and 2 more" in note[0]  # the %%bash cell's two lines


def test_a_failing_cell_is_named_in_the_traceback_and_stops_the_run(tmp_path):
    _notebook(
        tmp_path / "fails.ipynb",
        "def ratio(a, b):\n    return a / b",
        "print('before')\n\nratio(1, 0)",
        "print('never reached')",
    )
    done = _run(tmp_path, "fails.ipynb")
    assert done.returncode == 1
    assert done.stdout == "before\n"
    assert f'File "{tmp_path / "fails.ipynb"}:cell 2", line 3, in <module>' in done.stderr
    assert "    ratio(1, 0)\n" in done.stderr
    assert f'File "{tmp_path / "fails.ipynb"}:cell 1", line 2, in ratio' in done.stderr
    assert "    return a / b\n" in done.stderr
    assert done.stderr.rstrip().endswith("ZeroDivisionError: division by zero")
    assert "tfcompat_gpu" not in done.stderr.replace("tfcompat-gpu", "")


def test_a_syntax_error_in_a_cell_runs_nothing(tmp_path):
    _notebook(tmp_path / "broken.ipynb", "print('ran')", "x = = 1")
    done = _run(tmp_path, "broken.ipynb")
    assert done.returncode == 1
    assert done.stdout == ""
    assert f'File "{tmp_path / "broken.ipynb"}:cell 2", line 1' in done.stderr
    assert "SyntaxError" in done.stderr


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"{not json", "is not a notebook that can be run: not valid JSON"),
        (b'{"metadata": {}}', "is not a notebook that can be run: not a Jupyter notebook"),
        (b'{"cells": []}\xff', "is not UTF-8 text"),
    ],
)
def test_a_file_that_is_no_notebook_is_an_error_naming_it(tmp_path, content, expected):
    (tmp_path / "odd.ipynb").write_bytes(content)
    done = _run(tmp_path, "odd.ipynb")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("tfcompat-gpu run: error: ")
    assert str(tmp_path / "odd.ipynb") in done.stderr
    assert expected in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.tf
def test_a_tf1_notebook_gets_the_v1_api_and_auto_mode_names_the_cell(tmp_path):
    _notebook(
        tmp_path / "graph.ipynb",
        "import numpy as np\nimport tensorflow as tf",
        _cell("## A graph", kind="markdown"),
        "x = tf.placeholder(tf.float32, [None, 2])\nw = tf.Variable(tf.ones([2, 1]))\n"
        "y = tf.matmul(x, w)",
        "config = tf.ConfigProto()\nconfig.gpu_options.allow_growth = True\n"
        "with tf.Session(config=config) as sess:\n"
        "    sess.run(tf.global_variables_initializer())\n"
        "    print(sess.run(y, feed_dict={x: np.ones((3, 2))}).ravel().tolist())",
    )
    done = _run(tmp_path, "graph.ipynb", env={"TF_CPP_MIN_LOG_LEVEL": "3"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[2.0, 2.0, 2.0]"
    chosen = [line for line in done.stderr.splitlines() if "--no-auto" in line]
    assert chosen, done.stderr
    assert "tf.placeholder, cell 3 line 1" in chosen[0]


def test_the_notebook_runs_in_its_folder_as_jupyter_runs_it(tmp_path):
    (tmp_path / "nb" / "data").mkdir(parents=True)
    (tmp_path / "nb" / "data" / "rows.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    _notebook(
        tmp_path / "nb" / "load.ipynb",
        "import os\nprint(os.path.basename(os.getcwd()))",
        "print(open('data/rows.csv').read().splitlines()[1])",
        "import json\njson.dump({'done': True}, open('out.json', 'w'))",
    )
    done = _run(tmp_path, "--report", "report.json", "nb/load.ipynb")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "nb\n1,2\n"
    assert (tmp_path / "nb" / "out.json").exists()
    # a relative --report names a file in the folder run was started in
    assert json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["config"] == {}


def test_ipython_display_names_work_without_ipython_and_figures_do_not_wait(tmp_path):
    _notebook(
        tmp_path / "show.ipynb",
        "from IPython.display import Image, HTML, display, clear_output\n"
        "from IPython import display as ipythondisplay\n"
        "import IPython.display\n"
        "from IPython.core.interactiveshell import InteractiveShell\n"
        'InteractiveShell.ast_node_interactivity = "all"',
        "display(HTML('<b>hi</b>'), Image(filename='missing.png'), 7)\n"
        "ipythondisplay.clear_output(wait=True)\nIPython.display.display('text')",
        "import IPython, os\nprint(IPython.get_ipython(), os.environ['MPLBACKEND'])",
    )
    done = _run(tmp_path, "show.ipynb", env={"MPLBACKEND": ""})
    if "IPython line" in done.stderr or done.returncode:
        pytest.fail(done.stderr)
    try:
        import IPython  # noqa: F401
    except ImportError:  # the stand-in modules
        assert done.stdout == (
            "<IPython.display.HTML object>\n<IPython.display.Image object>\n7\ntext\nNone agg\n"
        )
    else:
        assert done.stdout.endswith("None agg\n")


def test_a_backend_the_user_chose_is_kept(tmp_path):
    _notebook(tmp_path / "b.ipynb", "import os\nprint(os.environ['MPLBACKEND'])")
    done = _run(tmp_path, "b.ipynb", env={"MPLBACKEND": "svg"})
    assert done.returncode == 0, done.stderr
    assert done.stdout == "svg\n"


def test_get_ipython_calls_are_named_and_not_run_and_a_timed_body_runs(tmp_path):
    _notebook(
        tmp_path / "converted.ipynb",
        "get_ipython().run_line_magic('matplotlib', 'inline')\n"
        "get_ipython().system('touch made_by_shell')\n"
        "files = get_ipython().getoutput('ls')\nprint(files)",
        "get_ipython().run_cell_magic('time', '', 'x = 6 * 7\\n!echo no\\nprint(x)\\n')\n"
        "get_ipython().run_cell_magic('bash', '', 'touch made_by_bash\\n')\nprint(x + 1)",
    )
    done = _run(tmp_path, "converted.ipynb")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n42\n43\n"
    assert not (tmp_path / "made_by_shell").exists()
    assert not (tmp_path / "made_by_bash").exists()
    notes = [line for line in done.stderr.splitlines() if "get_ipython()" in line]
    nb = tmp_path / "converted.ipynb"
    calls = [
        (1, 1, "run_line_magic('matplotlib', 'inline')"),
        (1, 2, "system('touch made_by_shell')"),
        (1, 3, "getoutput('ls')"),
        (2, 2, "run_cell_magic('bash', '', ...)"),
    ]
    assert notes == [
        f"tfcompat-gpu run: note: {nb}:cell {cell} line {line}: get_ipython().{call} is "
        "IPython's and is not run outside IPython"
        for cell, line, call in calls
    ]


def test_name_main_guard_and_exit_status_in_a_cell(tmp_path):
    _notebook(
        tmp_path / "exits.ipynb",
        "if __name__ == '__main__':\n    print('main')",
        "import sys\nsys.exit(3)",
        "print('never')",
    )
    done = _run(tmp_path, "exits.ipynb")
    assert done.returncode == 3, done.stderr
    assert done.stdout == "main\n"


def test_a_spawned_child_does_not_run_the_notebook_again(tmp_path):
    # The child does not run the notebook's JSON as a script; as under Jupyter, what it
    # unpickles it imports.
    _notebook(
        tmp_path / "pool.ipynb",
        "import multiprocessing as mp, os\nprint(os.path.basename(__file__))",
        "with mp.get_context('spawn').Pool(2) as pool:\n    print(pool.map(abs, [-1, -2]))",
    )
    done = _run(tmp_path, "pool.ipynb")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "pool.ipynb\n[1, 2]\n"
    assert "Traceback" not in done.stderr
