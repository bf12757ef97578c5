"""Legacy scripts of every kind run under ``tfcompat-gpu run`` with no flags.

Each script in ``tests/data/legacy_zoo`` is written in the style of public TF1 / Keras 2 code
(tutorials, multi-GPU towers, Keras 2 examples, Estimator, monitored sessions) or TF2
``tf.config`` code.  The test checks the one line auto mode printed (what it chose and why, with
the name and line), that the script ran, and that its GPU settings reached TensorFlow: the
runner's report (the process configuration, the sessions' ConfigProtos and TensorFlow's own
effective config).  Scripts that configure GPUs through ``tf.config`` get simulated physical
GPUs (``tests/simgpu.py``), which drives TensorFlow's own configuration code.  The runs share a
TensorFlow import: each is a child forked from one interpreter (``zygote.py``).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests._child import ROOT, run_py
from tfcompat_gpu.dropin import _auto
from tfcompat_gpu.dropin._legacy_keras import keras_is_3

pytestmark = [
    pytest.mark.tf,
    pytest.mark.skipif(sys.platform == "win32", reason="the shared interpreter forks"),
]

ZOO = ROOT / "tests" / "data" / "legacy_zoo"
KERAS3 = keras_is_3()


def _tf_version() -> tuple[int, int]:
    return _auto._installed_version("tensorflow", "tensorflow-cpu") or (0, 0)


ESTIMATOR_GONE = _tf_version() >= (2, 16)
GROWTH = {"gpu_options.allow_growth": True}


@dataclass(frozen=True)
class Case:
    chose: tuple[str, ...]
    """"v1", "keras", "soft": what the auto line must say it turned on (nothing: no line)."""
    why: tuple[str, ...] = ()
    """Evidence the line must name: ``"tf.placeholder, line 5"``."""
    result: str = ""
    """Regular expression the script's ``result:`` line must match."""
    config: dict[str, Any] = field(default_factory=dict)
    """Expected :func:`report` ``config``: the settings the drop-in applied process-wide."""
    tf: dict[str, Any] = field(default_factory=dict)
    """Fields TensorFlow's effective ConfigProto must hold."""
    mode: str = ""
    gpus: int = 0


CASES: dict[str, Case] = {
    # -- TF1 graph code
    "tf1_mnist_softmax.py": Case(
        ("v1",),
        ("tf.placeholder, line 5",),
        r"trained \[8, 2\]",
        {"per_process_gpu_memory_fraction": 0.4},
        {"gpu_options.per_process_gpu_memory_fraction": 0.4},
        "graph",
    ),
    "tf1_interactive_session.py": Case(
        ("v1",), ("tf.random_normal, line 7",), r"4\.0", {"allow_growth": True}, GROWTH, "graph"
    ),
    "tf1_app_flags_threads.py": Case(
        ("v1",),
        ("tf.app.flags.FLAGS, line 4",),
        r"24\.0",
        {"inter_op_parallelism_threads": 2, "intra_op_parallelism_threads": 2},
        {"inter_op_parallelism_threads": 2, "intra_op_parallelism_threads": 2},
        "graph",
    ),
    "tf1_saver_summary.py": Case(
        ("v1",),
        ("tf.get_variable, line 8",),
        r"\[2\.0, 4\.0\] True",
        {"allow_growth": True},
        GROWTH,
        "graph",
    ),
    "tf1_keras_layers_in_graph.py": Case(
        ("v1", "keras") if KERAS3 else ("v1",),
        (
            "tf.placeholder, line 11",
            *(("Keras in a v1 graph (import keras, line 4",) if KERAS3 else ()),
        ),
        r"\[\[3\.0, 3\.0\]\]",
        {"per_process_gpu_memory_fraction": 0.3},
        {"gpu_options.per_process_gpu_memory_fraction": 0.3},
        "graph",
    ),
    "tf1_tf_keras_alias_in_graph.py": Case(
        ("v1", "keras") if KERAS3 else ("v1",),
        (
            "tf.placeholder, line 9",
            *(("Keras in a v1 graph (tf.keras, line 5",) if KERAS3 else ()),
        ),
        r"\[\[3\.0, 3\.0\]\]",
        {"allow_growth": True},
        GROWTH,
        "graph",
    ),
    "tf1_keras_guide_train_optimizer.py": Case(
        ("v1", "keras") if KERAS3 else ("v1",),
        (
            "tf.VERSION, line 6",
            *(("Keras in a v1 graph (import tensorflow.keras, line 4",) if KERAS3 else ()),
        ),
        r"keras 2 epochs 2",
        mode="graph",
    ),
    # -- multi-GPU: towers on GPUs this machine does not have, and a pinned second GPU
    "tf1_multi_gpu_towers.py": Case(
        ("v1", "soft"),
        ("tf.train.GradientDescentOptimizer, line 20", "tf.device('/gpu:%d' (computed)), line 25"),
        r"towers 2 loss 0\.0016",
        {"allow_growth": True, "allow_soft_placement": True},
        {**GROWTH, "allow_soft_placement": True},
        "graph",
    ),
    "tf1_pinned_second_gpu.py": Case(
        ("v1", "soft"),
        ("sess.run(), line 9", "tf.device('/gpu:1'), line 5"),
        r"\[\[7\.0, 10\.0\], \[15\.0, 22\.0\]\]",
        {"allow_growth": True, "allow_soft_placement": True},
        {**GROWTH, "allow_soft_placement": True},
        "graph",
    ),
    # -- monitored sessions
    "tf1_monitored_training.py": Case(
        ("v1",),
        ("tf.train.get_or_create_global_step, line 4",),
        r"steps 3",
        {"allow_growth": True, "per_process_gpu_memory_fraction": 0.5},
        {**GROWTH, "gpu_options.per_process_gpu_memory_fraction": 0.5},
        "graph",
    ),
    "tf1_monitored_session_chief.py": Case(
        ("v1",),
        ("tf.train.MonitoredSession, line 8",),
        r"counted 3",
        {"inter_op_parallelism_threads": 2},
        {"inter_op_parallelism_threads": 2},
        "graph",
    ),
    # -- Keras 2: old module paths, lr=/decay=, fit_generator, multi_gpu_model
    "keras2_mnist_mlp.py": Case(
        ("keras",),
        ("keras.layers.core, line 6",),
        r"lr 0\.001 epochs 1",
        {"allow_growth": True},
        GROWTH,
        "eager",
    ),
    "keras2_fit_generator.py": Case(
        ("keras",),
        ("SGD(lr=...), line 22",),
        r"evaluated True",
        {"per_process_gpu_memory_fraction": 0.3},
        {"gpu_options.per_process_gpu_memory_fraction": 0.3},
        "eager",
    ),
    "keras2_wgan_merge.py": Case(("keras",), ("keras.layers.merge, line 5",), r"\(4, 3\) 0\.0"),
    "keras2_keras1_arguments.py": Case(
        ("keras",), ("keras.layers.core, line 5",), r"epochs 2 steps 3"
    ),
    "keras2_old_layer_modules.py": Case(
        ("keras",),
        ("keras.engine.topology, line 6",),
        r"\(2, 10\)",
        {"inter_op_parallelism_threads": 2, "intra_op_parallelism_threads": 2},
        {"inter_op_parallelism_threads": 2, "intra_op_parallelism_threads": 2},
    ),
    "keras2_resize_layer_engine.py": Case(
        ("v1", "keras"),
        ("tf.image.resize_images, line 22", "Keras 2 API (keras.backend.common, line 5)"),
        r"\[\[16\.0\]\] channels_last",
        mode="graph",
    ),
    "keras2_multi_gpu_model.py": Case(
        ("keras",), ("Adam(lr=...), line 18",), r"trained 4", {"allow_growth": True}, GROWTH
    ),
    "keras2_tf_keras_lr.py": Case(("keras",), ("Adam(lr=...), line 6",), r"lr 0\.005"),
    # -- TF2 tf.config code and TF2 scripts that must stay TF2
    "tf2_memory_growth_loop.py": Case(
        (),
        result=r"growth \[True, True\]",
        tf={
            **GROWTH,
            "gpu_options.visible_device_list": "0,1",
            "device_count": {"CPU": 1, "GPU": 2},
        },
        mode="eager",
        gpus=2,
    ),
    "tf2_virtual_gpus.py": Case(
        (),
        result=r"logical 2",
        tf={
            "gpu_options.experimental.virtual_devices": [
                "memory_limit_mb: 1024\nmemory_limit_mb: 1024\n"
            ]
        },
        mode="eager",
        gpus=1,
    ),
    "tf2_visible_devices.py": Case(
        (),
        result=r"visible \['/physical_device:GPU:1'\]",
        tf={"gpu_options.visible_device_list": "1", "device_count": {"CPU": 1, "GPU": 1}},
        mode="eager",
        gpus=2,
    ),
    "tf2_threads_strategy.py": Case(
        (),
        result=r"replicas 1",
        tf={"intra_op_parallelism_threads": 2, "inter_op_parallelism_threads": 1},
        mode="eager",
    ),
    "tf2_mentions_tf1_names.py": Case((), result=r"3\.0 True", mode="eager"),
    "tf2_compat_v1_graph.py": Case(
        (), result=r"\[3\.0, 6\.0\]", config={"allow_growth": True}, tf=GROWTH, mode="graph"
    ),
    "keras3_style.py": Case((), result=r"keras \d", mode="eager"),
}

ESTIMATORS: dict[str, Case] = {
    "estimator_runconfig.py": Case(
        ("v1",),
        ("tf.get_variable, line 10",),
        r"global step 3",
        {"allow_growth": True, "intra_op_parallelism_threads": 2},
        {**GROWTH, "intra_op_parallelism_threads": 2},
        "graph",
    ),
    "estimator_premade.py": Case(
        ("v1",),
        ("tf.estimator.LinearRegressor, line 11",),
        r"trained 2",
        {"per_process_gpu_memory_fraction": 0.25},
        {"gpu_options.per_process_gpu_memory_fraction": 0.25},
        "graph",
    ),
}


@pytest.fixture(scope="module")
def zygotes() -> Iterator[dict[bool, Any]]:
    from zygote import Zygote

    started: dict[bool, Any] = {}

    class Pool(dict):  # type: ignore[type-arg]
        def __missing__(self, legacy_keras: bool) -> Any:
            started[legacy_keras] = self[legacy_keras] = Zygote(legacy_keras)
            return started[legacy_keras]

    yield Pool()
    for zygote in started.values():
        zygote.close()


def _run(zygotes: dict[bool, Any], tmp_path: Path, name: str, case: Case) -> Any:
    script = ZOO / name
    # The shared interpreter imported TensorFlow with Keras 3 or with tf_keras; the script's
    # own run decides again, and must agree (it fails loudly otherwise).
    static = _auto.choose(
        _auto.read(str(script)),
        str(script),
        tf1=False,
        legacy_keras=False,
        soft_placement=None,
        gpu_count=0,
        count_gpus=False,
    )
    zygote = zygotes[static.legacy_keras and KERAS3]
    return zygote.run(tmp_path, script, gpus=case.gpus, env={"CUDA_VISIBLE_DEVICES": ""})


def _auto_line(err: str) -> str | None:
    lines = [
        line for line in err.splitlines() if re.match(r"tfcompat-gpu run: (?!note|hint)", line)
    ]
    lines = [line for line in lines if "(--no-auto turns this off)" in line]
    assert len(lines) <= 1, lines
    return lines[0] if lines else None


def _check_line(err: str, case: Case) -> None:
    line = _auto_line(err)
    if not case.chose:
        assert line is None, line
        return
    assert line is not None, err[-3000:]
    using = {"v1": "the v1 API", "keras": "tf_keras" if KERAS3 else "Keras 2's old names"}
    using["soft"] = "soft placement"
    chosen = line.rpartition(": using ")[2]
    for key in ("v1", "keras", "soft"):
        assert (using[key] in chosen) is (key in case.chose), (key, line)
    for evidence in case.why:
        assert evidence in line, line


def _check_settings(report: Any, case: Case) -> None:
    assert report is not None
    assert report["config"] == case.config
    tf_config = report["tensorflow"]["config"]
    for key, value in case.tf.items():
        assert tf_config.get(key) == value, (key, tf_config)
    if case.mode:
        assert report["tensorflow"]["mode"] == case.mode
    for session in report["sessions"]:  # every session got the process-wide settings
        for key, value in case.tf.items():
            if key.startswith("gpu_options.") or key.endswith("threads"):
                assert session["config"].get(key) == value, (key, session)


@pytest.mark.parametrize("name", list(CASES))
def test_legacy_script_runs_with_no_flags(zygotes, tmp_path, name):
    case = CASES[name]
    run = _run(zygotes, tmp_path, name, case)
    assert run.rc == 0, run.err[-3000:]
    _check_line(run.err, case)
    results = [line for line in run.out.splitlines() if line.startswith("result:")]
    assert len(results) == 1, run.out
    assert re.search(case.result, results[0]), run.out
    _check_settings(run.report, case)


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_estimator_script(zygotes, tmp_path, name):
    case = ESTIMATORS[name]
    run = _run(zygotes, tmp_path, name, case)
    _check_line(run.err, case)
    notes = [line for line in run.err.splitlines() if "uses tf.estimator" in line]
    if ESTIMATOR_GONE:
        # One clear line before the script starts, then the script fails as it would.
        assert run.rc == 1
        assert len(notes) == 1
        assert "which TensorFlow 2.16 removed" in notes[0]
        assert "run it on TensorFlow 2.15 with `tfcompat-gpu run --tf1`" in notes[0]
        assert run.err.index(notes[0]) < run.err.index("Traceback")
        # and the last line names what auto mode chose, and how to turn it off
        assert run.err.rstrip("\n").splitlines()[-1] == (
            "tfcompat-gpu run: note: auto mode chose the v1 API for this script; if that was "
            "wrong, rerun with --no-auto (and the flags you want)"
        )
        return
    assert notes == []
    assert run.rc == 0, run.err[-3000:]
    assert re.search(case.result, run.out), run.out
    _check_settings(run.report, case)


def test_the_zoo_is_all_here():
    scripts = {p.name for p in ZOO.glob("*.py")} - {"zoo_towers.py"}
    assert scripts == set(CASES) | set(ESTIMATORS)
    assert len(scripts) >= 20


def test_the_tf1_names_auto_mode_reads_are_v1_only():

    # tf.compat.v1.layers is tf_keras' from TensorFlow 2.16 on (auto mode adds tf_keras for it).
    env = {"TF_USE_LEGACY_KERAS": "1"} if KERAS3 else {}
    out = run_py(
        """
        import tensorflow as tf
        from tfcompat_gpu.dropin._auto import V1_ONLY

        def has(module, dotted):
            for part in dotted.split("."):
                try:
                    module = getattr(module, part)
                except (AttributeError, ImportError):
                    return False
            return True

        emit({
            "not_in_v1": sorted(n for n in V1_ONLY if not has(tf.compat.v1, n)),
            "in_v2": sorted(n for n in V1_ONLY if has(tf, n)),
        })
        """,
        env=env,
    )
    assert out == {"not_in_v1": [], "in_v2": []}
