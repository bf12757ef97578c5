"""TFG030 against every release of the ``tf.config`` table, and targets between and before them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tfcompat_gpu.lint._tfconfig_api import API, SOURCES
from tfcompat_gpu.lint.api import check
from tfcompat_gpu.lint.rules.apinames import config_name_problem

RELEASES = sorted(API)
OLDEST = RELEASES[0]
# A target older than every release of the table (TensorFlow 1.15 when the table starts at 2.0).
BEFORE = (OLDEST[0], OLDEST[1] - 1) if OLDEST[1] else (OLDEST[0] - 1, 15)
FLAVOURS = ("v2", "v1")


def _added(flavour: str, release: tuple[int, int]) -> list[str]:
    """Names of ``release`` that no older release of the table has."""
    older = [r for r in RELEASES if r < release]
    if not older:
        return []
    return sorted(
        name for name in API[release][flavour] if not any(name in API[r][flavour] for r in older)
    )


def test_the_table_holds_the_releases_people_run() -> None:
    # Each release was read from a real TensorFlow (see SOURCES); a target between two of them
    # is judged by its neighbours, so the table must not skip the common releases.
    assert {(2, r) for r in range(0, 22)} <= set(API)
    assert set(SOURCES) == set(API)


@pytest.mark.parametrize("release", RELEASES, ids=[f"{r[0]}.{r[1]}" for r in RELEASES])
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_every_name_of_a_release_is_fine_for_that_target(
    flavour: str, release: tuple[int, int]
) -> None:
    reported = {
        name: config_name_problem(name, flavour, release)
        for name in API[release][flavour]
        if config_name_problem(name, flavour, release) is not None
    }
    assert reported == {}


@pytest.mark.parametrize("release", RELEASES[1:], ids=[f"{r[0]}.{r[1]}" for r in RELEASES[1:]])
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_a_name_added_in_a_release_is_reported_for_older_targets(
    flavour: str, release: tuple[int, int]
) -> None:
    added = _added(flavour, release)
    older = [r for r in RELEASES if r < release]
    # The release just below and one before the table.  (A target between two releases accepts
    # what either has: the name may have come in that very release.)
    targets = {older[-1], BEFORE}
    missed = {
        (name, target)
        for name in added
        for target in sorted(targets)
        if target not in API or name not in API[target][flavour]
        if config_name_problem(name, flavour, target) is None
    }
    assert missed == set()


@pytest.mark.parametrize("release", RELEASES[1:], ids=[f"{r[0]}.{r[1]}" for r in RELEASES[1:]])
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_a_name_a_release_dropped_is_reported_for_it_and_newer_targets(
    flavour: str, release: tuple[int, int]
) -> None:
    previous = max(r for r in RELEASES if r < release)
    dropped = API[previous][flavour] - API[release][flavour]
    newer = [r for r in RELEASES if r >= release]
    assert {
        (name, target)
        for name in dropped
        for target in newer
        if name not in API[target][flavour]
        if config_name_problem(name, flavour, target) is None
    } == set()
    assert all(config_name_problem(name, flavour, previous) is None for name in dropped)


def test_a_name_added_later_is_reported_before_the_oldest_release() -> None:
    later = sorted(
        {n for r in RELEASES for n in API[r]["v2"]} - API[OLDEST]["v2"] - {"experimental"}
    )
    assert later, "the table's releases add no tf.config name"
    assert all(config_name_problem(name, "v2", BEFORE) is not None for name in later)


@pytest.mark.parametrize("minor", range(0, 26))
@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize(
    "name",
    [
        "experimental.set_memory_growth",
        "experimental.get_memory_growth",
        "experimental.list_physical_devices",
        "experimental.set_visible_devices",
        "experimental.set_virtual_device_configuration",
        "experimental.VirtualDeviceConfiguration",
    ],
)
def test_names_of_every_2x_release_are_fine_on_every_2x_target(
    name: str, flavour: str, minor: int
) -> None:
    # tensorflow/python/framework/config.py exports these under tf.config.experimental since
    # 2.0 (`@tf_export("config.experimental.set_memory_growth")`) and no release removed them.
    assert config_name_problem(name, flavour, (2, minor)) is None


@pytest.mark.parametrize("target", sorted({(1, 14), BEFORE}))
def test_before_the_table_typos_are_reported_and_unknown_names_are_not(
    target: tuple[int, int],
) -> None:
    assert config_name_problem("experimental.set_memory_grwoth", "v2", target) == (
        "experimental.set_memory_grwoth",
        "experimental.set_memory_growth",
    )
    # A name no release of the table lists, and not a typo: an older release may have had it.
    assert config_name_problem("experimental.some_name_of_the_past", "v2", target) is None


def test_the_check_reports_a_later_name_for_an_older_target(tmp_path: Path) -> None:
    later = sorted(set(API[RELEASES[-1]]["v2"]) - API[OLDEST]["v2"] - {"experimental"})
    name = next(n for n in later if "." in n or n[0].islower())
    script = tmp_path / "train.py"
    script.write_text(f"import tensorflow as tf\n\ntf.config.{name}\n")
    older = f"{BEFORE[0]}.{BEFORE[1]}"
    found = check([str(script)], select="TFG030", target_version=older).findings
    assert [(f.code, f.line) for f in found] == [("TFG030", 3)]
    latest = f"{RELEASES[-1][0]}.{RELEASES[-1][1]}"
    assert check([str(script)], select="TFG030", target_version=latest).findings == []


@pytest.mark.parametrize(
    ("name", "missing_in", "present_in"),
    [
        # tensorflow/python/framework/config.py: `get_memory_info` came in 2.5,
        # `reset_memory_stats` in 2.6, `enable_op_determinism` in 2.8; the MLIR graph
        # optimization switches left in 2.12.
        ("experimental.get_memory_info", [(2, 3), (2, 4)], [(2, 5), (2, 21)]),
        ("experimental.reset_memory_stats", [(2, 4), (2, 5)], [(2, 6), (2, 21)]),
        ("experimental.enable_op_determinism", [(2, 4), (2, 7)], [(2, 8), (2, 21)]),
        ("experimental.enable_mlir_graph_optimization", [(2, 12), (2, 21)], [(2, 6), (2, 11)]),
    ],
)
def test_names_that_came_or_went(
    name: str, missing_in: list[tuple[int, int]], present_in: list[tuple[int, int]]
) -> None:
    assert [t for t in missing_in if config_name_problem(name, "v2", t) is None] == []
    assert [t for t in present_in if config_name_problem(name, "v2", t) is not None] == []
