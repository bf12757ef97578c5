"""IPython's ``%env`` / ``%set_env`` in notebooks: the environment assignments they are."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from tfcompat_gpu.cli import main


def test_env_magics_are_environment_assignments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A Colab notebook picks the GPU with %env after TensorFlow listed them: too late, as an
    # os.environ assignment would be; %env NAME alone only reads it.
    nb = new_notebook()
    nb.cells = [
        new_code_cell("import tensorflow as tf\ngpus = tf.config.list_physical_devices('GPU')"),
        new_code_cell("%env CUDA_VISIBLE_DEVICES\nif gpus:\n    %env CUDA_VISIBLE_DEVICES=1"),
        new_code_cell("%set_env CUDA_DEVICE_ORDER PCI_BUS_ID\n%env TF_FORCE_GPU_ALOW_GROWTH=true"),
    ]
    path = tmp_path / "colab.ipynb"
    nbformat.write(nb, str(path))
    main(["check", "--isolated", "--no-cache", str(path)])
    out = capsys.readouterr().out
    found = [line for line in out.splitlines() if ": TFG" in line]
    wanted = [
        "cell 2:3:5: TFG004 CUDA_VISIBLE_DEVICES is set after GPUs were initialized",
        "cell 3:1:1: TFG004 CUDA_DEVICE_ORDER is set after GPUs were initialized",
        "cell 3:2:1: TFG003 environment variable 'TF_FORCE_GPU_ALOW_GROWTH' looks like",
    ]
    assert len(found) == len(wanted), out
    for line, start in zip(found, wanted):
        assert line.startswith(f"{path}:{start}"), out
    assert "on cell 1, line 2" in out
    pytest.importorskip("libcst")
    before = path.read_text()
    assert main(["migrate", "--write", str(path)]) == 0
    assert path.read_text() == before  # the magics stay as written
