"""``jit`` and ``auto_mixed_precision``: XLA auto-clustering and grappler's mixed precision as
options of the facade, checked, read from text, applied in eager TF2 and to v1 sessions."""

from __future__ import annotations

import argparse

import pytest

from tests._child import run_py
from tfcompat_gpu import GPUConfig, GPUConfigError
from tfcompat_gpu.commands._settings_flags import add_settings_arguments, fields_from_flags


@pytest.mark.parametrize(
    ("field", "value", "fragment"),
    [
        ("jit", 1, "Pass a bool: the proto's ON_1 (1) is True, OFF (-1) is False."),
        ("jit", "xla", "Received: jit='xla'. Pass True ('autoclustering') or False."),
        ("jit", "ON_1", "expected True, False, 'autoclustering' or None"),
        ("jit", 2.0, "expected True, False, 'autoclustering' or None"),
        ("auto_mixed_precision", 1, "the proto's ON (1) is True, OFF (2) is False"),
        ("auto_mixed_precision", "autoclustering", "expected True, False or None"),
        ("auto_mixed_precision", "true", "Pass a bool, e.g. True."),
    ],
)
def test_invalid_values_name_field_value_and_fix(field: str, value: object, fragment: str) -> None:
    with pytest.raises(GPUConfigError) as info:
        GPUConfig(**{field: value})
    assert f"{field}: expected" in str(info.value)
    assert fragment in str(info.value)


def test_autoclustering_is_true_as_tf_config_optimizer_set_jit_takes_it() -> None:
    assert GPUConfig(jit="autoclustering") == GPUConfig(jit=True)
    assert GPUConfig(jit=False).jit is False
    # XLA DEFAULT and OFF are the same to a session (TF_XLA_FLAGS overrides either): equal
    # values for conflicts and messages, while the config keeps what was asked.
    from tfcompat_gpu.settings.options import same_value

    assert same_value("jit", None, False)
    assert not same_value("jit", None, True)
    assert same_value("auto_mixed_precision", None, False)


def test_variables_files_and_flags_read_both(tmp_path) -> None:
    env = {"TFCOMPAT_GPU_JIT": "autoclustering", "TFCOMPAT_GPU_AUTO_MIXED_PRECISION": "off"}
    assert GPUConfig.from_env(env).to_dict() == {"jit": True, "auto_mixed_precision": False}
    with pytest.raises(GPUConfigError, match=r"environment variable TFCOMPAT_GPU_JIT.*ON_1"):
        GPUConfig.from_env({"TFCOMPAT_GPU_JIT": "ON_1"})
    ini = tmp_path / "gpu.ini"
    ini.write_text("[gpu]\njit = true\nauto_mixed_precision = 0\n", encoding="utf-8")
    assert GPUConfig.from_file(ini).to_dict() == {"jit": True, "auto_mixed_precision": False}
    toml = tmp_path / "pyproject.toml"
    toml.write_text('[tool.tfcompat-gpu]\njit = "autoclustering"\n', encoding="utf-8")
    assert GPUConfig.from_file(toml).to_dict() == {"jit": True}
    parser = argparse.ArgumentParser()
    add_settings_arguments(parser)
    assert fields_from_flags(parser.parse_args(["--jit", "--no-auto-mixed-precision"])) == {
        "jit": True,
        "auto_mixed_precision": False,
    }
    assert fields_from_flags(parser.parse_args([])) == {}
    with pytest.raises(SystemExit):
        parser.parse_args(["--jit", "--no-jit"])


@pytest.mark.tf
def test_eager_apply_reads_back_and_still_applies_after_start() -> None:
    out = run_py(
        """
        import warnings
        warnings.simplefilter("error", DeprecationWarning)  # set_jit(True) is deprecated
        import tensorflow as tf
        import tfcompat_gpu
        def state():
            return [tf.config.optimizer.get_jit(),
                    tf.config.optimizer.get_experimental_options().get("auto_mixed_precision")]
        before = state()
        eff = tfcompat_gpu.configure(jit=True, auto_mixed_precision=True)
        applied = state()
        tf.constant(1.0) + 1  # the runtime starts
        tfcompat_gpu.configure(jit=False, auto_mixed_precision=False)
        late = state()
        late_config = tfcompat_gpu.current_config().to_dict()
        # nothing half-applied: a bad value fails before TensorFlow is touched
        try:
            tfcompat_gpu.configure(jit=True, auto_mixed_precision="on")
        except tfcompat_gpu.GPUConfigError as exc:
            error = str(exc)
        emit({"before": before, "applied": applied, "effective": eff.to_dict(),
              "late": late, "late_config": late_config, "error": error, "after_error": state()})
        """
    )
    assert out["before"] == ["", None]
    assert out["applied"] == ["autoclustering", True]
    assert out["effective"] == {"jit": True, "auto_mixed_precision": True}
    assert out["late"] == ["", False]
    assert out["late_config"] == {"jit": False, "auto_mixed_precision": False}
    assert out["error"].startswith("auto_mixed_precision: expected True, False or None")
    assert out["after_error"] == ["", False]


@pytest.mark.tf
def test_v1_sessions_under_the_dropin_get_the_fields() -> None:
    out = run_py(
        """
        import tfcompat_gpu
        tfcompat_gpu.install()
        import tensorflow as tf
        tf.compat.v1.disable_eager_execution()
        from tensorflow.core.protobuf import rewriter_config_pb2
        tfcompat_gpu.configure(jit=True)
        def fields(c):
            return [tf.compat.v1.OptimizerOptions.GlobalJitLevel.Name(
                        c.graph_options.optimizer_options.global_jit_level),
                    rewriter_config_pb2.RewriterConfig.Toggle.Name(
                        c.graph_options.rewrite_options.auto_mixed_precision)]
        plain = tf.compat.v1.Session()
        # a session's own config: its per-session fields overlay the process config
        own = tf.compat.v1.ConfigProto()
        own.graph_options.rewrite_options.auto_mixed_precision = rewriter_config_pb2.RewriterConfig.ON
        amp = tf.compat.v1.Session(config=own)
        off = tf.compat.v1.ConfigProto()
        off.graph_options.optimizer_options.global_jit_level = tf.compat.v1.OptimizerOptions.OFF
        no_jit = tf.compat.v1.Session(config=off)
        on_2 = tf.compat.v1.ConfigProto()
        on_2.graph_options.optimizer_options.global_jit_level = tf.compat.v1.OptimizerOptions.ON_2
        kept = tf.compat.v1.Session(config=on_2)
        ours = tfcompat_gpu.session(tfcompat_gpu.GPUConfig(auto_mixed_precision=False))
        emit({"plain": fields(plain._config), "amp": fields(amp._config),
              "no_jit": fields(no_jit._config), "on_2": fields(kept._config),
              "ours": fields(ours._config), "process": tfcompat_gpu.current_config().to_dict()})
        """
    )
    assert out["plain"] == ["ON_1", "DEFAULT"]
    assert out["amp"] == ["ON_1", "ON"]
    assert out["no_jit"] == ["OFF", "DEFAULT"]
    assert out["on_2"] == ["ON_2", "DEFAULT"]  # not modelled: the session gets it as asked
    assert out["ours"] == ["ON_1", "OFF"]
    # per-session fields stay with their session
    assert out["process"] == {"jit": True}


@pytest.mark.tf
def test_plan_shows_the_graph_options_tensorflow_gets() -> None:
    import json

    from tests._child import cli

    proc = cli("plan", "--gpus", "1", "--jit", "--no-auto-mixed-precision", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    plan = json.loads(proc.stdout)
    assert plan["settings"] == {"jit": True, "auto_mixed_precision": False}
    assert plan["tf_config"]["global_jit_level"] == "ON_1"
    assert plan["tf_config"]["auto_mixed_precision"] == "OFF"
    text = cli("plan", "--gpus", "1", env={"TFCOMPAT_GPU_JIT": "on"}).stdout
    assert "Graph options (tf.function and sessions): jit=True -> global_jit_level ON_1" in text


@pytest.mark.tf
def test_run_flags_reach_the_script(tmp_path) -> None:
    from tests._child import cli

    script = tmp_path / "probe.py"
    script.write_text(
        "import tensorflow as tf\n"
        "options = tf.config.optimizer.get_experimental_options()\n"
        "print('PROBE', tf.config.optimizer.get_jit(), options.get('auto_mixed_precision'))\n",
        encoding="utf-8",
    )
    proc = cli("run", "--jit", "--no-auto-mixed-precision", str(script))
    assert proc.returncode == 0, proc.stderr
    assert "PROBE autoclustering False" in proc.stdout
