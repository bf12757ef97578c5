"""GPUConfig: validation, equality, readers.  Pure Python: TensorFlow is never imported here."""

from __future__ import annotations

import re
import sys
import warnings

import pytest
from cases import BAD_COMBINATIONS, BAD_VALUES

from tfcompat_gpu import GPUConfig, GPUConfigError, GPUConfigWarning
from tfcompat_gpu.settings.options import OPTIONS


@pytest.mark.parametrize(
    ("field", "value", "fragment"),
    [case[1:] for case in BAD_VALUES],
    ids=[case[0] for case in BAD_VALUES],
)
def test_invalid_value_names_field_value_and_expectation(field, value, fragment):
    with pytest.raises(GPUConfigError) as info:
        GPUConfig(**{field: value})
    message = str(info.value)
    assert message.startswith(f"{field}: expected ")
    assert f"Received: {field}={value!r}." in message
    assert fragment in message
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [case[1:] for case in BAD_COMBINATIONS],
    ids=[case[0] for case in BAD_COMBINATIONS],
)
def test_combinations_tensorflow_rejects_later_are_rejected_now(fields, fragment):
    with pytest.raises(GPUConfigError, match=re.escape(fragment)):
        GPUConfig(**fields)


def test_fraction_above_one_means_unified_memory_and_warns():
    with pytest.warns(GPUConfigWarning, match="CUDA unified memory"):
        cfg = GPUConfig(per_process_gpu_memory_fraction=1.5)
    assert cfg.per_process_gpu_memory_fraction == 1.5


def test_valid_values_are_normalised():
    cfg = GPUConfig(
        visible_device_list=[1, 0],
        memory_limit_mb=[1024, 2048],
        device_count={"GPU": 1, "CPU": 2},
    )
    assert isinstance(
        GPUConfig(per_process_gpu_memory_fraction=1).per_process_gpu_memory_fraction, float
    )
    assert cfg.visible_device_list == "1,0"
    assert cfg.visible_ids == (1, 0)
    assert cfg.memory_limit_mb == (1024, 2048)
    assert dict(cfg.device_count) == {"CPU": 2, "GPU": 1}
    assert GPUConfig(visible_device_list=" 1, 0 ").visible_device_list == "1,0"
    assert GPUConfig(visible_device_list="").visible_device_list is None


def test_immutable_comparable_hashable():
    a = GPUConfig(allow_growth=True, visible_device_list="1,0", memory_limit_mb=None)
    b = GPUConfig(allow_growth=True, visible_device_list=[1, 0])
    assert a == b
    assert hash(a) == hash(b)
    assert a != GPUConfig(allow_growth=False, visible_device_list="1,0")
    with pytest.raises(AttributeError):
        a.allow_growth = False  # type: ignore[misc]
    limits = GPUConfig(memory_limit_mb={1: [512], 0: [1024, 1024]})
    assert limits == GPUConfig(memory_limit_mb={0: [1024, 1024], 1: [512]})
    assert len({limits, GPUConfig(memory_limit_mb={0: [1024, 1024], 1: [512]})}) == 1


def test_merged_keeps_exclusive_fields_exclusive():
    base = GPUConfig(per_process_gpu_memory_fraction=0.5, intra_op_parallelism_threads=2)
    merged = base.merged(GPUConfig(memory_limit_mb=1024))
    assert merged.memory_limit_mb == 1024
    assert merged.per_process_gpu_memory_fraction is None
    assert merged.intra_op_parallelism_threads == 2
    assert merged.merged(GPUConfig(allow_growth=True)).memory_limit_mb is None


def test_process_wide_view_follows_the_table():
    cfg = GPUConfig(
        allow_growth=True,
        allow_soft_placement=True,
        log_device_placement=True,
        intra_op_parallelism_threads=1,
        device_count={"CPU": 2},
    )
    wide = {name for name, _ in cfg.process_wide().items()}
    assert wide == {"allow_growth", "intra_op_parallelism_threads"}
    assert wide == {
        name for name, _ in cfg.items() if any(o.name == name and o.process_wide for o in OPTIONS)
    }


# -- environment ---------------------------------------------------------------------------


def test_from_env_reads_every_variable():
    env = {
        "TFCOMPAT_GPU_ALLOW_GROWTH": "1",
        "TFCOMPAT_GPU_VISIBLE_DEVICES": "1,0",
        "TFCOMPAT_GPU_MEMORY_FRACTION": "0.25",
        "TFCOMPAT_GPU_SOFT_PLACEMENT": "yes",
        "TFCOMPAT_GPU_LOG_PLACEMENT": "off",
        "TFCOMPAT_GPU_INTRA_OP_THREADS": "4",
        "TFCOMPAT_GPU_INTER_OP_THREADS": "2",
    }
    assert GPUConfig.from_env(env) == GPUConfig(
        allow_growth=True,
        visible_device_list="1,0",
        per_process_gpu_memory_fraction=0.25,
        allow_soft_placement=True,
        log_device_placement=False,
        intra_op_parallelism_threads=4,
        inter_op_parallelism_threads=2,
    )
    assert GPUConfig.from_env({}) == GPUConfig()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2048", 2048),
        ("1024,1024", (1024, 1024)),
        ("0:1024,1024;1:2048", {0: (1024, 1024), 1: (2048,)}),
    ],
)
def test_from_env_memory_limit_forms(text, expected):
    cfg = GPUConfig.from_env({"TFCOMPAT_GPU_MEMORY_LIMIT_MB": text})
    assert cfg.memory_limit_mb == expected


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("TFCOMPAT_GPU_ALLOW_GROWTH", "maybe"),
        ("TFCOMPAT_GPU_MEMORY_FRACTION", "half"),
        ("TFCOMPAT_GPU_MEMORY_FRACTION", "0"),
        ("TFCOMPAT_GPU_MEMORY_LIMIT_MB", "2GB"),
        ("TFCOMPAT_GPU_VISIBLE_DEVICES", "0,,1"),
        ("TFCOMPAT_GPU_SOFT_PLACEMENT", "2"),
        ("TFCOMPAT_GPU_LOG_PLACEMENT", "?"),
        ("TFCOMPAT_GPU_INTRA_OP_THREADS", "-1"),
        ("TFCOMPAT_GPU_INTER_OP_THREADS", "four"),
        ("TFCOMPAT_GPU_MEMORY_FRACTION", "nan"),
        ("TFCOMPAT_GPU_VISIBLE_DEVICES", "0,0"),
        ("TFCOMPAT_GPU_MEMORY_LIMIT_MB", "0"),
        ("TFCOMPAT_GPU_INTRA_OP_THREADS", "99999999999"),
    ],
)
def test_from_env_malformed_value_names_the_variable(variable, value):
    with pytest.raises(GPUConfigError) as info:
        GPUConfig.from_env({variable: value})
    assert variable in str(info.value)
    assert repr(value) in str(info.value)


@pytest.mark.parametrize(
    ("tf_value", "configured", "expected"),
    [
        ("true", "0", True),
        ("false", "1", False),
        ("true", None, True),
    ],
)
def test_tf_force_gpu_allow_growth_overrides_like_tensorflow(tf_value, configured, expected):
    env = {"TF_FORCE_GPU_ALLOW_GROWTH": tf_value}
    if configured is not None:
        env["TFCOMPAT_GPU_ALLOW_GROWTH"] = configured
    assert GPUConfig.from_env(env).allow_growth is expected


@pytest.mark.parametrize("tf_value", ["True", "1", "yes", ""])
def test_tf_force_gpu_allow_growth_invalid_is_ignored_like_tensorflow(tf_value):
    env = {"TF_FORCE_GPU_ALLOW_GROWTH": tf_value, "TFCOMPAT_GPU_ALLOW_GROWTH": "0"}
    with pytest.warns(GPUConfigWarning, match="TF_FORCE_GPU_ALLOW_GROWTH"):
        cfg = GPUConfig.from_env(env)
    assert cfg.allow_growth is False


def test_from_env_defaults_to_os_environ(monkeypatch):
    monkeypatch.setenv("TFCOMPAT_GPU_INTRA_OP_THREADS", "3")
    assert GPUConfig.from_env().intra_op_parallelism_threads == 3


# -- files ----------------------------------------------------------------------------------


def test_from_ini_file_as_in_the_config_file_seed(tmp_path):
    path = tmp_path / "gpu.ini"
    path.write_text("[gpu]\nallow_growth = true\nallow_soft_placement = True\nrate = 0.3\n")
    assert GPUConfig.from_file(path) == GPUConfig(
        allow_growth=True, allow_soft_placement=True, per_process_gpu_memory_fraction=0.3
    )


def test_from_ini_file_accepts_field_names(tmp_path):
    path = tmp_path / "gpu.cfg"
    path.write_text(
        "[gpu]\nvisible_device_list = 1,0\nintra_op_parallelism_threads = 4\n"
        "memory_limit_mb = 1024,1024\ndevice_count = CPU:2\n"
    )
    cfg = GPUConfig.from_file(path)
    assert cfg.visible_device_list == "1,0"
    assert cfg.memory_limit_mb == (1024, 1024)
    assert dict(cfg.device_count or {}) == {"CPU": 2}


def test_from_pyproject_table(tmp_path):
    path = tmp_path / "pyproject.toml"
    path.write_text(
        '[project]\nname = "x"\n\n[tool.tfcompat-gpu]\nallow_growth = true\n'
        'visible_device_list = "0"\nmemory_limit_mb = {}\n\n[tool.tfcompat-gpu.lint]\nselect = ["TFG001"]\n'.replace(
            "memory_limit_mb = {}\n", ""
        )
    )
    assert GPUConfig.from_file(path) == GPUConfig(allow_growth=True, visible_device_list="0")


def test_from_toml_memory_limit_table(tmp_path):
    path = tmp_path / "gpu.toml"
    path.write_text('[tool.tfcompat-gpu]\nmemory_limit_mb = { "0" = [1024, 1024], "1" = [2048] }\n')
    assert GPUConfig.from_file(path).memory_limit_mb == {0: (1024, 1024), 1: (2048,)}


@pytest.mark.parametrize(
    ("name", "text", "fragment"),
    [
        ("gpu.ini", "[other]\nx = 1\n", "has no [gpu] section"),
        ("gpu.ini", "[gpu]\nallow_grwoth = true\n", "Unknown GPU setting 'allow_grwoth'"),
        ("gpu.ini", "[gpu]\nrate = lots\n", "a number in (0, 1]"),
        ("gpu.ini", "[gpu]\nrate = 0\n", "per_process_gpu_memory_fraction"),
        ("gpu.ini", "not an ini file", "is not a valid INI file"),
        ("gpu.toml", "[tool.tfcompat-gpu\n", "is not valid TOML"),
        ("gpu.toml", "[tool.other]\nx = 1\n", "has no [tool.tfcompat-gpu]"),
        ("gpu.toml", "[tool.tfcompat-gpu]\nallow_growth = 'yes'\n", "allow_growth"),
    ],
)
def test_bad_files_raise_our_error(tmp_path, name, text, fragment):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(GPUConfigError, match=re.escape(fragment)):
        GPUConfig.from_file(path)


def test_missing_file_raises_our_error(tmp_path):
    with pytest.raises(GPUConfigError, match="Cannot read GPU settings"):
        GPUConfig.from_file(tmp_path / "nope.ini")


def test_import_does_not_import_tensorflow():
    assert "tensorflow" not in sys.modules or pytest.skip("another test imported TensorFlow")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        GPUConfig(allow_growth=True)
    assert "tensorflow" not in sys.modules
