"""Jupyter notebooks in ``check`` and ``migrate``: cells as one program, IPython syntax left alone."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from tfcompat_gpu.commands.check import main as lint_main
from tfcompat_gpu.utils.notebooks import NotebookError, read_notebook

# A tiny PNG, as a plot cell's output holds one.
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="


def keras2_notebook() -> nbformat.NotebookNode:
    """A Kaggle-style Keras 2 notebook: magics, a shell escape, outputs and a plot."""
    nb = new_notebook(
        metadata={
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python", "version": "3.7.12"},
        }
    )
    nb.cells = [
        new_markdown_cell("# Digit recognizer on one GPU"),
        new_code_cell(
            "%matplotlib inline\n%load_ext autoreload\nimport os\nimport numpy as np\n"
            "import tensorflow as tf\nfrom keras import backend as K",
            execution_count=1,
        ),
        new_code_cell(
            "!nvidia-smi",
            execution_count=2,
            outputs=[new_output("stream", name="stdout", text="| 0  Tesla P100-PCIE  Off |\n")],
        ),
        new_code_cell(
            "config = tf.ConfigProto()\nconfig.gpu_options.allow_growth = True\n"
            "sess = tf.Session(config=config)\nK.set_session(sess)",
            execution_count=3,
        ),
        new_code_cell(
            "import matplotlib.pyplot as plt\nplt.plot(np.arange(10))\nplt.show()",
            execution_count=4,
            outputs=[
                new_output(
                    "display_data",
                    data={"image/png": PNG, "text/plain": "<Figure size 432x288 with 1 Axes>"},
                    metadata={"needs_background": "light"},
                )
            ],
        ),
    ]
    return nb


def tf2_notebook() -> nbformat.NotebookNode:
    """A TF2 notebook: memory growth set on one GPU, after the runtime started."""
    nb = new_notebook()
    nb.cells = [
        new_code_cell(
            "import tensorflow as tf\nprint(tf.config.list_logical_devices('GPU'))",
            execution_count=1,
            outputs=[new_output("stream", name="stdout", text="[LogicalDevice(...)]\n")],
        ),
        new_code_cell(
            "gpus = tf.config.list_physical_devices('GPU')\nif gpus:\n"
            "    tf.config.experimental.set_memory_growth(gpus[0], True)\n    !nvidia-smi",
            execution_count=2,
        ),
    ]
    return nb


def write(nb: nbformat.NotebookNode, path: Path) -> Path:
    nbformat.write(nb, str(path))
    return path


def check(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = lint_main(["check", "--isolated", "--no-cache", *argv])
    return status, capsys.readouterr().out


def test_keras2_findings_name_cell_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(keras2_notebook(), tmp_path / "train.ipynb")
    status, out = check([str(path)], capsys)
    assert status == 1
    lines = out.splitlines()
    # cell 4 (the markdown cell counts) holds the session; its lines count from 1
    assert f"{path}:cell 4:1:10: TFG009" in out
    assert any(line.startswith(f"{path}:cell 4:4:1: TFG009") for line in lines)
    assert "TFG000" not in out  # %matplotlib, %load_ext and !nvidia-smi were not parsed


def test_tf2_findings_and_other_cells_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tf2_notebook(), tmp_path / "tf2.ipynb")
    _, out = check([str(path)], capsys)
    assert f"{path}:cell 2:3:5: TFG006" in out
    # the runtime was started in another cell: the message names it, not a program line
    assert "(`tf.config.list_logical_devices(...)` on cell 1, line 2)" in out


@pytest.mark.parametrize("fmt", ["json", "github", "sarif"])
def test_machine_formats_carry_the_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    path = write(tf2_notebook(), tmp_path / "tf2.ipynb")
    _, out = check(["--format", fmt, str(path)], capsys)
    if fmt == "json":
        found = json.loads(out)
        assert {(f["code"], f["cell"], f["line"], f["col"]) for f in found} >= {("TFG006", 2, 3, 5)}
    elif fmt == "github":
        line = next(line for line in out.splitlines() if "TFG006 cell 2, line 3:" in line)
        # a cell's line is not a line of the .ipynb file: the annotation is on the file
        assert line.startswith(f"::warning file={path},title=") or line.startswith(
            f"::error file={path},title="
        )
    else:
        results = json.loads(out)["runs"][0]["results"]
        result = next(r for r in results if r["ruleId"] == "TFG006")
        assert result["properties"] == {"cell": 2, "cellLine": 3, "cellColumn": 5}
        assert result["message"]["text"].startswith("cell 2, line 3: ")
        assert "region" not in result["locations"][0]["physicalLocation"]


def test_directories_hold_notebooks_but_not_checkpoints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tf2_notebook(), tmp_path / "tf2.ipynb")
    (tmp_path / ".ipynb_checkpoints").mkdir()
    write(tf2_notebook(), tmp_path / ".ipynb_checkpoints" / "tf2-checkpoint.ipynb")
    _, out = check([str(tmp_path)], capsys)
    assert "tf2.ipynb:cell 2:3:5: TFG006" in out
    assert "checkpoint" not in out


@pytest.mark.parametrize(
    ("cell", "kept"),
    [
        pytest.param("files = !ls\nx = 1", "files = !ls", id="system-assign"),
        pytest.param("%%bash\nnvidia-smi\necho $CUDA_VISIBLE_DEVICES", "%%bash", id="cell-magic"),
        pytest.param("tf.config?\nx = 1", "tf.config?", id="help"),
        pytest.param("for i in range(2):\n    !echo $i", "    !echo $i", id="indented"),
        pytest.param("t = %timeit -o sum(range(9))", "t = %timeit", id="magic-assign"),
        # A shell escape or magic ending in a backslash goes on to the next lines (a long
        # command line split over several, its flags indented).
        pytest.param(
            "!python prepare.py \\\n    --out=$OUT \\\n  --gpus=2\nx = 1",
            "--gpus=2",
            id="continued-escape",
        ),
        pytest.param(
            "if True:\n    !make \\\n        all\n    y = 2", "        all", id="continued-indented"
        ),
        pytest.param("%env CUDA_VISIBLE_DEVICES=0 \\\n\nx = 1", "%env", id="continued-blank"),
    ],
)
def test_ipython_syntax_is_masked(cell: str, kept: str) -> None:
    nb = new_notebook()
    nb.cells = [new_code_cell("import tensorflow as tf"), new_code_cell(cell)]
    parsed = read_notebook(nbformat.writes(nb))
    compile(parsed.program, "<nb>", "exec")  # valid Python, one line per cell line
    assert parsed.program.count("\n") == 1 + cell.count("\n") + 1
    assert kept not in parsed.program


@pytest.mark.parametrize(
    "cell",
    [
        pytest.param("print('epoch %d, loss %f'\n      % (epoch, loss))", id="percent-in-parens"),
        pytest.param('text = """header\n%s\n""" % body', id="percent-in-triple-string"),
        pytest.param("total = epoch + \\\n    !flag", id="after-backslash"),
        pytest.param("rows = [\n    'a',  # (\n    ?b\n]", id="help-in-list"),
    ],
)
def test_lines_inside_python_are_not_magics(cell: str) -> None:
    # IPython looks for %, ! and ? only where a statement starts, not in a bracket, a string
    # or after a backslash.
    nb = new_notebook()
    nb.cells = [new_code_cell(cell)]
    parsed = read_notebook(nbformat.writes(nb))
    assert parsed.program.rstrip("\n") == cell


def test_continued_shell_escape_leaves_the_rest_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Read as Python, the indented flags after `!cmd \\` were an "unexpected indent" and the
    # notebook was not checked at all.
    nb = new_notebook()
    nb.cells = [
        new_code_cell("import os\nimport tensorflow as tf"),
        new_code_cell("!python -m trainer \\\n  --data_dir=$DATA \\\n  --steps=10"),
        new_code_cell("os.environ['CUDA_VISIBLE_DEVCIES'] = '1'"),
    ]
    path = write(nb, tmp_path / "flags.ipynb")
    _, out = check([str(path)], capsys)
    assert "TFG000" not in out
    assert f"{path}:cell 3:1:12: TFG003" in out


def test_indented_cell_is_read_as_ipython_runs_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A cell pasted with one leading space on every line: IPython strips the first line's
    # indent from each line. Read as Python it was "unexpected indent", the notebook unchecked.
    nb = new_notebook()
    nb.cells = [
        new_code_cell("import os\nimport tensorflow as tf"),
        new_code_cell(" for name in ['a', 'b']:\n   os.environ['CUDA_VISIBLE_DEVCIES'] = '0'\n"),
    ]
    path = write(nb, tmp_path / "pasted.ipynb")
    _, out = check([str(path)], capsys)
    assert "TFG000" not in out
    # the column counts in the cell as it is written, indent included
    assert f"{path}:cell 2:2:15: TFG003" in out


def colab_automagic_notebook() -> nbformat.NotebookNode:
    """A Colab-style notebook whose setup cells call magics without their ``%``."""
    nb = new_notebook()
    nb.cells = [
        new_code_cell("pip install -q keras==2.3.1"),
        new_code_cell("\nmatplotlib inline\n"),
        new_code_cell("tensorflow_version 1.x"),
        new_code_cell("import os\nimport tensorflow as tf"),
        new_code_cell("os.environ['CUDA_VISIBLE_DEVCIES'] = '0'"),
    ]
    return nb


def test_automagic_cells_are_not_python(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # IPython runs a one-line cell `pip install ...` as the %pip magic (automagic); read as
    # Python it was a syntax error and the notebook went unchecked.
    path = write(colab_automagic_notebook(), tmp_path / "colab.ipynb")
    _, out = check([str(path)], capsys)
    assert "TFG000" not in out
    assert f"{path}:cell 5:1:12: TFG003" in out


@pytest.mark.parametrize(
    "cell",
    [
        pytest.param("pip install keras\nimport keras", id="in-a-longer-cell"),
        pytest.param("matplotlib inline\n\n", id="with-a-blank-line-after"),
        pytest.param("plot inline", id="not-a-magic"),
    ],
)
def test_automagic_needs_a_one_line_cell(cell: str) -> None:
    # IPython's automagic (its prefilter) runs only on a cell of one line: elsewhere such a
    # line is the syntax error IPython raises too.
    nb = new_notebook()
    nb.cells = [new_code_cell(cell)]
    assert read_notebook(nbformat.writes(nb)).program.startswith(cell.split("\n")[0])


def test_automagic_python_stays_python() -> None:
    nb = new_notebook()
    nb.cells = [new_code_cell("time = 5"), new_code_cell("load(path)")]
    assert read_notebook(nbformat.writes(nb)).program == "time = 5\nload(path)\n"


def test_migrate_leaves_automagic_cells_as_they_are(tmp_path: Path) -> None:
    nb = colab_automagic_notebook()
    nb.cells.append(new_code_cell("opt = tf.keras.optimizers.Adam(lr=0.01)"))
    path = write(nb, tmp_path / "colab.ipynb")
    before = json.loads(path.read_text())
    assert _migrate(["--write", str(path)]) == 0
    after = json.loads(path.read_text())
    assert [c["source"] for c in after["cells"][:5]] == [c["source"] for c in before["cells"][:5]]
    assert "learning_rate=0.01" in "".join(after["cells"][5]["source"])


def test_migrate_keeps_an_indented_cell_indented(tmp_path: Path) -> None:
    nb = new_notebook()
    nb.cells = [
        new_code_cell("import tensorflow as tf\nfrom tensorflow import keras"),
        new_code_cell("  opt = keras.optimizers.Adam(lr=0.01)\n  \n  x = 1  # kept\n"),
        new_code_cell("  y = 2\n   \n  z = 3"),
    ]
    path = write(nb, tmp_path / "pasted.ipynb")
    before = json.loads(path.read_text())
    assert _migrate(["--write", str(path)]) == 0
    after = json.loads(path.read_text())
    assert "".join(after["cells"][1]["source"]) == (
        "  opt = keras.optimizers.Adam(learning_rate=0.01)\n  \n  x = 1  # kept\n"
    )
    assert after["cells"][2]["source"] == before["cells"][2]["source"]


def test_broken_notebook_is_tfg000(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cut.ipynb"
    text = nbformat.writes(tf2_notebook())
    path.write_text(text[: text.index("tensorflow") + 20])
    _, out = check([str(path)], capsys)
    assert f"{path}:1:1: TFG000 cannot read the notebook: not valid JSON" in out


def test_syntax_error_names_its_cell(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    nb = new_notebook()
    nb.cells = [new_code_cell("import tensorflow as tf"), new_code_cell("x = 1\ndef f(:\n")]
    path = write(nb, tmp_path / "bad.ipynb")
    _, out = check([str(path)], capsys)
    assert f"{path}:cell 2:2:" in out
    assert "TFG000" in out


# -- migrate ---------------------------------------------------------------------------------


def _migrate(argv: list[str]) -> int:
    pytest.importorskip("libcst")
    from tfcompat_gpu.commands.migrate import main as migrate_main

    return migrate_main(["migrate", "-j1", *argv])


def _without_sources(data: dict[str, object]) -> dict[str, object]:
    copy = json.loads(json.dumps(data))
    for cell in copy["cells"]:
        cell.pop("source")
    return copy


@pytest.mark.parametrize("make", [keras2_notebook, tf2_notebook], ids=["keras2", "tf2"])
def test_migrate_write_keeps_outputs_and_layout(
    tmp_path: Path, make: object, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(make(), tmp_path / "nb.ipynb")  # type: ignore[operator]
    before_text = path.read_text()
    before = json.loads(before_text)
    assert _migrate(["--write", str(path)]) == 0
    after_text = path.read_text()
    after = json.loads(after_text)
    nb = nbformat.read(str(path), as_version=4)
    nbformat.validate(nb)  # opens and is still a valid notebook
    # every output, execution count, id and all metadata kept; only sources differ
    assert _without_sources(after) == _without_sources(before)
    # the file's layout: nbformat's own writer gives the same bytes for the new content
    assert after_text == nbformat.writes(nb) + "\n"
    # magics and shell escapes come back exactly as they were
    for old, new in zip(before["cells"], after["cells"]):
        for line in "".join(old["source"]).splitlines():
            if line.lstrip().startswith(("%", "!")):
                assert line in "".join(new["source"]).splitlines()
    # a second run changes nothing
    assert _migrate(["--check", str(path)]) == 0
    assert _migrate(["--write", str(path)]) == 0
    assert path.read_text() == after_text
    capsys.readouterr()


def test_migrate_keras2_rewrites_the_session_cell(tmp_path: Path) -> None:
    path = write(keras2_notebook(), tmp_path / "nb.ipynb")
    assert _migrate(["--write", str(path)]) == 0
    cells = nbformat.read(str(path), as_version=4).cells
    assert "set_session" not in cells[3].source
    assert "configure(" in cells[3].source
    assert cells[2].source == "!nvidia-smi"
    assert cells[1].source.splitlines()[-3:] == [
        "import os",
        "import numpy as np",
        "import tensorflow as tf",
    ]


def test_migrate_skips_a_broken_notebook_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cut.ipynb"
    text = nbformat.writes(keras2_notebook())[:300]
    path.write_text(text)
    assert _migrate(["--write", str(path)]) == 1
    assert "skipped: cannot read the notebook (not valid JSON" in capsys.readouterr().err
    assert path.read_text() == text


def test_line_numbers_hold_with_odd_line_breaks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # U+2028 and a form feed inside a line are not line breaks for Python; CRLF cells stay CRLF.
    nb = new_notebook()
    nb.cells = [
        new_code_cell("import os\r\nlabel = 'a\u2028b\x0cc'\r\n"),
        new_code_cell("os.environ['CUDA_VISIBLE_DEVCIES'] = '0'"),
    ]
    path = write(nb, tmp_path / "odd.ipynb")
    _, out = check([str(path)], capsys)
    assert f"{path}:cell 2:1:12: TFG003" in out


def test_migrate_leaves_unchanged_cells_alone(tmp_path: Path) -> None:
    nb = keras2_notebook()
    nb.cells.append(new_code_cell("x = 1\r\ny = 2\r\n"))
    raw = json.loads(nbformat.writes(nb))
    raw["cells"][-1]["source"] = "x = 1\r\ny = 2\r\n"  # one string, not a list of lines
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(raw, indent=1, ensure_ascii=False) + "\n")
    assert _migrate(["--write", str(path)]) == 0
    after = json.loads(path.read_text())
    assert after["cells"][-1]["source"] == "x = 1\r\ny = 2\r\n"
    assert after["cells"][2]["source"] == raw["cells"][2]["source"]  # the !nvidia-smi cell


def test_layout_without_ensure_ascii_and_with_escapes_is_kept(tmp_path: Path) -> None:
    nb = keras2_notebook()
    nb.cells[0].source = "# Entraînement sur un GPU"
    for ensure_ascii in (False, True):
        path = tmp_path / f"nb{ensure_ascii}.ipynb"
        path.write_text(
            json.dumps(json.loads(nbformat.writes(nb)), indent=2, ensure_ascii=ensure_ascii)
        )
        assert _migrate(["--write", str(path)]) == 0
        text = path.read_text()
        assert ("Entraînement" in text) is not ensure_ascii
        assert text.startswith('{\n  "cells": [')
        assert not text.endswith("\n")  # as it was


def kaggle_timed_notebook() -> nbformat.NotebookNode:
    """A Kaggle-style notebook that times its cells: the GPU set up and the model trained
    under ``%%time``, the noisy install under ``%%capture``."""
    nb = new_notebook()
    nb.cells = [
        new_code_cell("%%capture\n!pip install -q keras==2.3.1\nimport keras"),
        new_code_cell(
            "%%time\nimport tensorflow as tf\nfrom keras import backend as K\n"
            "config = tf.ConfigProto()\nconfig.gpu_options.allow_growth = True\n"
            "K.set_session(tf.Session(config=config))",
            outputs=[new_output("stream", name="stdout", text="Wall time: 1.2 s\n")],
        ),
        new_code_cell("%%timeit -n1 -r1\n    opt = keras.optimizers.Adam(lr=1e-3)"),
    ]
    return nb


def test_python_cell_magic_bodies_are_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # IPython runs the body of %%time, %%timeit and %%capture as Python in the notebook's
    # namespace; masked whole, the GPU setup under %%time was never looked at.
    path = write(kaggle_timed_notebook(), tmp_path / "nb.ipynb")
    status, out = check([str(path)], capsys)
    assert status == 1
    assert "nb.ipynb:cell 2:4:10: TFG009 `tf.ConfigProto`" in out
    assert "nb.ipynb:cell 2:6:15: TFG009 `tf.Session`" in out
    assert "nb.ipynb:cell 3:2:36: TFG036" in out  # the body's own indent counted


def test_migrate_rewrites_python_cell_magic_bodies(tmp_path: Path) -> None:
    path = write(kaggle_timed_notebook(), tmp_path / "nb.ipynb")
    assert _migrate(["--write", str(path)]) == 0
    cells = nbformat.read(str(path), as_version=4).cells
    assert cells[1].source.startswith("%%time\n")
    assert "configure(allow_growth=True)" in cells[1].source
    assert "set_session" not in cells[1].source
    assert cells[1].outputs[0]["text"] == "Wall time: 1.2 s\n"
    assert (
        cells[2].source == "%%timeit -n1 -r1\n    opt = keras.optimizers.Adam(learning_rate=1e-3)"
    )
    assert cells[0].source.startswith("%%capture\n")
    assert _migrate(["--check", str(path)]) == 0


@pytest.mark.parametrize(
    "first",
    [
        pytest.param(
            "%%bash\nnvidia-smi -L\nif [ -d /kaggle ]; then ls /kaggle/input; fi", id="bash"
        ),
        pytest.param("%%writefile train.py\nimport sys\nprint(sys.argv)", id="writefile"),
        pytest.param("\n%%bash\nnvidia-smi -L\nif [ -d data ]; then ls; fi", id="blank-then-bash"),
        pytest.param("%%capture\n!pip install -q tensorflow-gpu==1.15", id="capture"),
        pytest.param("%%time\n%%capture\n!pip install -q h5py", id="nested"),
    ],
)
def test_migrate_puts_no_line_before_a_cell_magic(
    tmp_path: Path, first: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # A Colab notebook often opens with a cell magic; the `import tfcompat_gpu` that migrate
    # adds at the top went above its `%%` line, and IPython then refused the cell.
    nb = new_notebook()
    nb.cells = [
        new_code_cell(first),
        new_code_cell(
            "import tensorflow as tf\nfrom keras import backend as K\n"
            "config = tf.ConfigProto()\nconfig.gpu_options.per_process_gpu_memory_fraction = 0.5\n"
            "K.set_session(tf.Session(config=config))"
        ),
    ]
    path = write(nb, tmp_path / "nb.ipynb")
    _status, out = check([str(path)], capsys)
    assert "TFG000" not in out  # a shell cell after a blank line is no Python
    assert _migrate(["--write", str(path)]) == 0
    cells = nbformat.read(str(path), as_version=4).cells
    assert "import tfcompat_gpu" in cells[0].source + cells[1].source
    assert cells[0].source.lstrip("\n").startswith(first.lstrip("\n").split("\n")[0])
    if "bash" in first or "writefile" in first:
        assert cells[0].source == first  # a shell script or a file's text is not Python
    assert "tfcompat_gpu.configure(" in cells[1].source
    capsys.readouterr()


def test_no_cell_for_new_lines_is_refused() -> None:
    nb = new_notebook()
    nb.cells = [new_code_cell("x = 1"), new_code_cell("%%bash\necho done")]
    parsed = read_notebook(nbformat.writes(nb))
    with pytest.raises(NotebookError, match="no cell outside a cell magic"):
        parsed.with_program(parsed.program + "y = 2\n")


def nbformat3_notebook() -> str:
    """An IPython 2 era notebook (nbformat 3): cells in worksheets, code in ``input``."""
    nb = new_notebook()
    nb.cells = [
        new_markdown_cell("Linear regression on the GPU"),
        new_code_cell("%matplotlib inline\nimport numpy as np\nimport tensorflow as tf"),
        new_code_cell(
            "X = tf.placeholder(tf.float32)\nsess = tf.Session()\nprint(sess.run(X * 2, {X: 1}))"
        ),
    ]
    return nbformat.writes(nbformat.convert(nb, 3), version=3)


def test_nbformat3_notebook_is_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "old.ipynb"
    path.write_text(nbformat3_notebook())
    status, out = check([str(path)], capsys)
    assert status == 1
    assert "TFG000" not in out
    assert "old.ipynb:cell 3:1:5: TFG041 `tf.placeholder`" in out
    assert "old.ipynb:cell 3:2:8: TFG009 `tf.Session`" in out


def test_migrate_writes_nbformat3_as_nbformat3(tmp_path: Path) -> None:
    path = tmp_path / "old.ipynb"
    path.write_text(nbformat3_notebook())
    before = json.loads(path.read_text())
    assert _migrate(["--write", str(path)]) == 0
    after = json.loads(path.read_text())
    nb = nbformat.read(str(path), as_version=nbformat.NO_CONVERT)
    nbformat.validate(nb)
    assert nb.nbformat == 3
    cells = after["worksheets"][0]["cells"]
    assert cells[1]["input"][0] == "%matplotlib inline\n"
    assert "import tensorflow.compat.v1 as tf\n" in cells[1]["input"]
    assert [c.get("cell_type") for c in cells] == [
        c.get("cell_type") for c in before["worksheets"][0]["cells"]
    ]
    assert after["metadata"] == before["metadata"]
    assert _migrate(["--check", str(path)]) == 0


def test_migrate_warning_names_the_cells_of_other_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A distributed-TensorFlow chapter: two cells each make a config of their own; the
    # warning pointed at lines of the joined program, which no cell has.
    nb = new_notebook()
    nb.cells = [
        new_code_cell("import tensorflow as tf"),
        new_markdown_cell("Log where each op runs."),
        new_code_cell(
            "c = tf.constant(1.0)\nconfig = tf.ConfigProto()\nconfig.log_device_placement = True\n"
            "with tf.Session(config=config) as sess:\n    print(sess.run(c))"
        ),
        new_code_cell(
            "config = tf.ConfigProto()\nconfig.gpu_options.allow_growth = True\n"
            "with tf.Session(config=config) as sess:\n    print(sess.run(c))"
        ),
    ]
    path = write(nb, tmp_path / "nb.ipynb")
    _migrate([str(path)])
    err = capsys.readouterr().err
    assert "different settings" in err
    assert "cell 3, line 2; cell 4, line 1" in err


def test_migrate_keeps_each_rewritten_line_in_its_own_cell(tmp_path: Path) -> None:
    # a course notebook: one-line cells in a row, each changed by the migration (the learning
    # rate set between two trainings); the changed lines form one block of the program's diff,
    # and each must stay in its cell, however many lines the rewrite of one of them takes
    nb = new_notebook()
    nb.cells = [
        new_code_cell("import numpy as np\nfrom keras.models import Sequential"),
        new_code_cell("model.fit_generator(batches, 4, nb_epoch=1)"),
        new_code_cell("model.optimizer.lr = 0.1"),
        new_code_cell("model.fit_generator(batches, 4, nb_epoch=2)", execution_count=3),
        new_code_cell("model.optimizer.lr = 0.01"),
        new_code_cell("model.fit_generator(batches, samples_per_epoch=4, nb_epoch=1)"),
        new_code_cell("model.optimizer.lr = 0.001"),
    ]
    path = write(nb, tmp_path / "nb.ipynb")
    assert _migrate(["--write", str(path)]) == 0
    cells = [cell.source for cell in nbformat.read(path, as_version=4).cells]
    # the helper the migration adds for the Keras 1 counts goes before the first line changed
    assert "def _keras1_samples(" in cells[1]
    cells[1] = cells[1].rpartition("\n")[2]
    assert cells[1:5] == [
        "model.fit(batches, steps_per_epoch=4, epochs=1)",
        "model.optimizer.learning_rate = 0.1",
        "model.fit(batches, steps_per_epoch=4, epochs=2)",
        "model.optimizer.learning_rate = 0.01",
    ]
    assert cells[5].startswith("model.fit(")
    assert "epochs=1" in cells[5]
    assert cells[6] == "model.optimizer.learning_rate = 0.001"
    again = [cell.source for cell in nbformat.read(path, as_version=4).cells]
    assert _migrate(["--write", str(path)]) == 0
    assert [cell.source for cell in nbformat.read(path, as_version=4).cells] == again
