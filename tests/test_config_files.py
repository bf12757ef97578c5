"""Configuration files as users have them: other encodings, BOMs, ``%``, shared INI and TOML files,
duplicated keys.  Each problem is a GPUConfigError naming the file, the line where known, the
key and the fix.  Pure Python: TensorFlow is never imported here."""

from __future__ import annotations

import pytest

from tfcompat_gpu import GPUConfig, GPUConfigError


def _error(path) -> str:
    with pytest.raises(GPUConfigError) as info:
        GPUConfig.from_file(path)
    return str(info.value)


def test_latin1_file_names_file_line_and_fix(tmp_path):
    path = tmp_path / "gpu.ini"
    path.write_bytes("[gpu]\n# réglages du GPU\nallow_growth = true\n".encode("latin-1"))
    message = _error(path)
    assert f"{path}:2" in message
    assert "UTF-8" in message
    assert "save" in message.lower()


def test_binary_file_is_our_error(tmp_path):
    path = tmp_path / "gpu.toml"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe")
    message = _error(path)
    assert str(path) in message
    assert "UTF-8" in message


def test_utf8_bom_is_read(tmp_path):
    path = tmp_path / "gpu.ini"
    path.write_bytes("[gpu]\nallow_growth = true\n".encode("utf-8-sig"))
    assert GPUConfig.from_file(path) == GPUConfig(allow_growth=True)
    toml = tmp_path / "gpu.toml"
    toml.write_bytes("[tool.tfcompat-gpu]\nallow_growth = true\n".encode("utf-8-sig"))
    assert GPUConfig.from_file(toml) == GPUConfig(allow_growth=True)


def test_percent_sign_elsewhere_in_the_file_is_harmless(tmp_path):
    path = tmp_path / "gpu.ini"
    path.write_text("[log]\nformat = %(message)s\n[gpu]\nallow_growth = true\n")
    assert GPUConfig.from_file(path) == GPUConfig(allow_growth=True)


@pytest.mark.parametrize("text", ["tool = 3\n", 'tool = "x"\n', "[tool]\ntfcompat-gpu = 3\n"])
def test_toml_tool_that_is_not_a_table(tmp_path, text):
    path = tmp_path / "pyproject.toml"
    path.write_text(text)
    message = _error(path)
    assert str(path) in message
    assert "[tool.tfcompat-gpu]" in message


def test_ini_default_section_does_not_leak_into_gpu(tmp_path):
    path = tmp_path / "setup.cfg"
    path.write_text("[DEFAULT]\nname = demo\nverbose = 1\n\n[gpu]\nallow_growth = true\n")
    assert GPUConfig.from_file(path) == GPUConfig(allow_growth=True)


@pytest.mark.parametrize(
    ("name", "text", "line", "fragments"),
    [
        (
            "gpu.ini",
            "[gpu]\nrate = 0.3\nper_process_gpu_memory_fraction = 0.5\n",
            3,
            ["rate", "per_process_gpu_memory_fraction", "line 2", "keep one"],
        ),
        (
            "gpu.toml",
            "[tool.tfcompat-gpu]\nrate = 0.3\nmemory_fraction = 0.5\n",
            3,
            ["rate", "memory_fraction", "line 2", "keep one"],
        ),
        ("gpu.ini", "[gpu]\nallow_growth = true\nallow_growth = false\n", 3, ["allow_growth"]),
        ("gpu.ini", "[gpu]\ndevice_count = CPU:2,CPU:3\n", 2, ["'CPU'", "twice", "device_count"]),
        (
            "gpu.ini",
            "[gpu]\nmemory_limit_mb = 0:1024;0:2048\n",
            2,
            ["GPU 0", "twice", "memory_limit_mb"],
        ),
        # No interpolation: the fix says what to write instead of a percentage.
        ("gpu.ini", "[gpu]\nallow_growth = false\nrate = 50%\n", 3, ["rate", "'50%'", "0.5"]),
        (
            "gpu.ini",
            "[DEFAULT]\nallow_growth = true\n\n[gpu]\nallow_soft_placement = true\n",
            2,
            ["allow_growth", "[DEFAULT]", "Move it under [gpu]"],
        ),
    ],
    ids=[
        "alias-and-name",
        "two-aliases-toml",
        "same-key",
        "device-count",
        "memory-limit",
        "percent",
        "gpu-key-in-default-section",
    ],
)
def test_problems_name_file_line_key_and_fix(tmp_path, name, text, line, fragments):
    path = tmp_path / name
    path.write_text(text)
    message = _error(path)
    assert f"{path}:{line}" in message
    for fragment in fragments:
        assert fragment in message
    assert "nterpolation" not in message


@pytest.mark.parametrize(
    ("text", "line", "key"),
    [
        ("[gpu]\nallow_growth = maybe\n", 2, "allow_growth"),
        ("[gpu]\n\nintra_op_threads = four\n", 3, "intra_op_threads"),
        ("[gpu]\nvisible_device_list = 0,,1\n", 2, "visible_device_list"),
        ("[gpu]\nrate = 0\n", 2, "rate"),
    ],
)
def test_bad_values_name_file_line_and_key(tmp_path, text, line, key):
    path = tmp_path / "gpu.ini"
    path.write_text(text)
    message = _error(path)
    assert f"{path}:{line}" in message
    assert key in message


@pytest.mark.parametrize(
    ("variable", "value", "fragment"),
    [
        ("TFCOMPAT_GPU_MEMORY_LIMIT_MB", "0:1024;0:2048", "GPU 0"),
        ("TFCOMPAT_GPU_VISIBLE_DEVICES", "1,1", "listed twice"),
    ],
)
def test_duplicates_in_variables_are_errors(variable, value, fragment):
    with pytest.raises(GPUConfigError, match=fragment):
        GPUConfig.from_env({variable: value})
