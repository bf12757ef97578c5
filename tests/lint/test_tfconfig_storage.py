"""How the ``tf.config`` table is stored: per-release changes that decode to the full names."""

from __future__ import annotations

import hashlib
import json
import runpy
from pathlib import Path

from tfcompat_gpu.lint import tfconfig_gen
from tfcompat_gpu.lint._tfconfig_api import API, SOURCES

# What the table held when each release was still written out in full (22 releases, TensorFlow
# 2.0 to 2.21): the digest of its canonical JSON, and the sizes (v2, v1) per release.
FULL_TABLE_SHA256 = "91348356289cb47cab70aaba25c8b3c785af3c4a9c8520e032aca3d046c6de8a"
FULL_TABLE_SIZES = {
    **{"2.0": (30, 30), "2.1": (41, 41), "2.2": (42, 42), "2.3": (47, 47), "2.4": (50, 50)},
    **{"2.5": (51, 51), "2.6": (52, 52), "2.7": (52, 52)},
    **{f"2.{minor}": (53, 52) for minor in range(8, 12)},
    **{f"2.{minor}": (51, 50) for minor in range(12, 22)},
}


def _canonical(api: dict[tuple[int, int], dict[str, frozenset[str]]]) -> str:
    return json.dumps(
        {f"{r[0]}.{r[1]}": {f: sorted(api[r][f]) for f in ("v2", "v1")} for r in sorted(api)},
        sort_keys=True,
    )


def test_the_decoded_table_is_the_full_table_it_was_encoded_from() -> None:
    sizes = {f"{r[0]}.{r[1]}": (len(API[r]["v2"]), len(API[r]["v1"])) for r in sorted(API)}
    assert sizes == FULL_TABLE_SIZES
    assert hashlib.sha256(_canonical(API).encode()).hexdigest() == FULL_TABLE_SHA256
    assert set(API) == set(SOURCES)


def test_the_generator_writes_the_stored_table_back_unchanged() -> None:
    api, sources = tfconfig_gen._load()
    assert tfconfig_gen.render(api, sources) == tfconfig_gen.TABLE.read_text()


def test_a_release_that_removes_and_restores_names_decodes_to_its_own_names(
    tmp_path: Path,
) -> None:
    # The oldest release, one that drops a name, one that adds it back (and a new one), and one
    # with no change: every release reads back exactly as given.
    api = {
        (2, 0): {"v2": ["a", "b", "c"], "v1": ["a", "b"]},
        (2, 1): {"v2": ["a", "c"], "v1": ["a", "b"]},
        (2, 2): {"v2": ["a", "b", "c", "d"], "v1": []},
        (2, 3): {"v2": ["a", "b", "c", "d"], "v1": []},
    }
    sources = {release: f"made up {release}" for release in api}
    path = tmp_path / "table.py"
    path.write_text(tfconfig_gen.render(api, sources))
    decoded = runpy.run_path(str(path))["API"]
    assert decoded == {r: {f: frozenset(n) for f, n in names.items()} for r, names in api.items()}
    assert tfconfig_gen._load(path) == (api, sources)
