"""Every rewrite as a before/after pair, its warnings, and that a second run changes nothing."""

from __future__ import annotations

import pytest

pytest.importorskip("libcst")

from _support import assert_warnings, split_warning
from cases_rewrites import CASES, NOOPS

from tfcompat_gpu.codemod.api import migrate_source


@pytest.mark.parametrize(
    ("target", "before", "after", "warnings"),
    [pytest.param(t, b, a, w, id=i) for i, t, b, a, w in CASES],
)
def test_rewrite(target: str, before: str, after: str, warnings: list[tuple[int, str]]) -> None:
    result = migrate_source(before, target=target)  # type: ignore[arg-type]
    assert result.code == after
    assert_warnings(result.warnings, warnings)
    compile(result.code, "<migrated>", "exec")


@pytest.mark.parametrize(
    ("target", "before"), [pytest.param(t, b, id=i) for i, t, b, _, _ in CASES]
)
def test_second_run_changes_nothing(target: str, before: str) -> None:
    once = migrate_source(before, target=target).code  # type: ignore[arg-type]
    assert migrate_source(once, target=target).code == once  # type: ignore[arg-type]


@pytest.mark.parametrize("target", ["facade", "tf2"])
@pytest.mark.parametrize("code", [pytest.param(c, id=i) for i, c in NOOPS])
def test_noop(code: str, target: str) -> None:
    result = migrate_source(code, target=target)  # type: ignore[arg-type]
    assert result.code == code
    assert result.warnings == ()


def test_warnings_do_not_repeat_for_one_config() -> None:
    # the session and set_session of an unfollowable config are covered by the config's warning
    code = (
        "import tensorflow as tf\n"
        "from keras.backend.tensorflow_backend import set_session\n"
        "config = tf.ConfigProto(**opts)\n"
        "set_session(tf.Session(config=config))\n"
    )
    assert [split_warning(w)[0] for w in migrate_source(code).warnings] == [3]


def test_unknown_target_is_rejected() -> None:
    with pytest.raises(ValueError, match="Expected target"):
        migrate_source("", target="tf3")  # type: ignore[arg-type]


def test_tf2_target_decides_every_option_of_the_table() -> None:
    from tfcompat_gpu.codemod._emit_tf2 import BUILDERS, GRAPH_OPTIONS, NO_TF2_CALL
    from tfcompat_gpu.settings.options import OPTIONS_BY_NAME

    assert not set(BUILDERS) & set(NO_TF2_CALL)
    assert not (set(BUILDERS) | set(NO_TF2_CALL)) & set(GRAPH_OPTIONS)
    assert set(BUILDERS) | set(NO_TF2_CALL) | set(GRAPH_OPTIONS) == set(OPTIONS_BY_NAME)
