"""The Keras ``migrate`` writes for: the one installed (package metadata), or ``--keras``."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest

pytest.importorskip("libcst")

from _support import migrate_cli

from tests._child import run
from tfcompat_gpu.codemod._stack import installed_keras
from tfcompat_gpu.codemod.api import migrate_source

_GET_VALUE = (
    "import keras\nfrom keras import backend as K\nprint(K.get_value(model.optimizer.lr))\n"
)


def test_installed_keras_is_the_keras_distribution_here() -> None:
    try:
        expected = 2 if int(version("keras").split(".")[0]) < 3 else 3
    except PackageNotFoundError:
        pytest.skip("no keras distribution here")
    assert installed_keras() == expected


def _fake_dists(root: Path, **versions: str) -> Path:
    """Real ``.dist-info`` metadata for ``name==version``, found before the environment's."""
    for name, number in versions.items():
        info = root / f"{name}-{number}.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {number}\n")
    return root


@pytest.mark.parametrize(
    ("versions", "expected"),
    [
        ({"keras": "2.15.0"}, 2),
        ({"keras": "3.12.0"}, 3),
        ({"keras": "2.4.3", "tensorflow": "2.21.0"}, 2),
    ],
)
def test_installed_keras_reads_metadata(
    tmp_path: Path, versions: dict[str, str], expected: int
) -> None:
    root = _fake_dists(tmp_path, **versions)
    done = run(
        [
            "-c",
            "import sys; from tfcompat_gpu.codemod._stack import installed_keras;"
            "print(installed_keras(), 'tensorflow' in sys.modules, 'keras' in sys.modules)",
        ],
        env={"PYTHONPATH": str(root)},
        timeout=60,
        check=True,
    )
    # read without importing TensorFlow or Keras
    assert done.stdout.split() == [str(expected), "False", "False"]


def test_keras_2_keeps_get_value_and_keras_3_rewrites_it() -> None:
    keras2 = migrate_source(_GET_VALUE, upgrade=True, keras=2)
    assert "K.get_value(model.optimizer.learning_rate)" in keras2.code
    keras3 = migrate_source(_GET_VALUE, upgrade=True, keras=3)
    assert "keras.ops.convert_to_numpy(model.optimizer.learning_rate)" in keras3.code
    with pytest.raises(ValueError, match="keras=4"):
        migrate_source(_GET_VALUE, upgrade=True, keras=4)


def test_cli_default_is_the_installed_keras(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(_GET_VALUE)
    done = migrate_cli(str(script))
    assert done.returncode == 0, done.stderr
    rewritten = "keras.ops.convert_to_numpy" in done.stdout
    assert rewritten is (installed_keras() == 3)
    forced = migrate_cli("--keras", "2", str(script))
    assert "keras.ops" not in forced.stdout
    assert "learning_rate" in forced.stdout
    bad = migrate_cli("--keras", "4", str(script))
    assert bad.returncode == 2
    assert "--keras: invalid choice: 4" in bad.stderr
    assert script.read_text() == _GET_VALUE
