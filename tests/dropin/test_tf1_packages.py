"""Which importers ``run --tf1`` counts as the script's own: the folder's modules and its packages.

What a spawned child goes by (it has no path-entry finder of its own): a module whose folder is
a package, with an ``__init__.py`` in every folder up to the script's, is the project's; a
library installed in a virtual environment inside the project folder is not.
"""

from __future__ import annotations

from pathlib import Path

from tfcompat_gpu.dropin._tf1 import V1Import


def _file(path: Path, text: str = "") -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_modules_of_packages_in_the_script_folder_are_the_scripts(tmp_path: Path) -> None:
    _file(tmp_path / "model" / "__init__.py")
    _file(tmp_path / "model" / "layers" / "__init__.py")
    v1 = V1Import(str(tmp_path))
    assert v1._ours({"__file__": _file(tmp_path / "helper.py")})
    assert v1._ours({"__file__": _file(tmp_path / "model" / "ner_model.py")})
    assert v1._ours({"__file__": _file(tmp_path / "model" / "layers" / "dense.py")})


def test_folders_that_are_not_packages_are_not(tmp_path: Path) -> None:
    # a virtual environment in the project: lib/ has no __init__.py above the library's package
    site = tmp_path / "venv" / "lib" / "python3.11" / "site-packages"
    _file(site / "keras" / "__init__.py")
    _file(tmp_path / "scripts" / "other" / "__init__.py")
    v1 = V1Import(str(tmp_path))
    assert not v1._ours({"__file__": _file(site / "keras" / "models.py")})
    assert not v1._ours({"__file__": _file(tmp_path / "scripts" / "tool.py")})
    # a package inside a folder that is not one
    assert not v1._ours({"__file__": _file(tmp_path / "scripts" / "other" / "mod.py")})
    assert not v1._ours({"__name__": "no_file"})
