"""One number grammar for every source: variables, files, flags, ``auto:N``, device lists, ranks.

Each case writes the same hostile number into every place a number is read from text, and
expects the same answer everywhere: ASCII digits (and decimal literals for real numbers) are
numbers; digit separators (``0_5``), superscripts (``²``) and fullwidth digits (U+FF11) are not,
as TensorFlow's and CUDA's byte-wise C parsers would not read them either.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from nvmlfake import FakeNVML, recording

from tfcompat_gpu import GPUConfig, GPUConfigError
from tfcompat_gpu.commands._settings_flags import fields_from_flags
from tfcompat_gpu.commands.plan import _logical_devices, _parser, _size_mb
from tfcompat_gpu.machine.cluster import slurm_tasks, tasks_per_node
from tfcompat_gpu.machine.inventory import fraction_in_mb, inventory, parse_auto
from tfcompat_gpu.machine.launchers import detect
from tfcompat_gpu.settings.kinds import parse_device_list
from tfcompat_gpu.utils.numbers import parse_float, parse_int, share_mb

BAD_INTS = ["²", "\uff11", "1_0", "٣", "+1", "0x1", "1.0", ""]
GOOD_INTS = [("0", 0), ("7", 7), (" 12 ", 12), ("007", 7)]


def _env_int(text: str) -> object:
    return GPUConfig.from_env({"TFCOMPAT_GPU_INTRA_OP_THREADS": text}).intra_op_parallelism_threads


def _ini_int(text: str, tmp_path) -> object:  # type: ignore[no-untyped-def]
    path = tmp_path / "gpu.ini"
    path.write_text(f"[gpu]\nintra_op_parallelism_threads = {text}\n", encoding="utf-8")
    return GPUConfig.from_file(path).intra_op_parallelism_threads


def _flag_int(text: str) -> object:
    ns = _parser().parse_args(["--intra-op-threads", text])
    return fields_from_flags(ns)["intra_op_parallelism_threads"]


def _gpus_flag(text: str) -> object:
    try:
        return _parser().parse_args(["--gpus", text]).gpus
    except SystemExit:
        raise GPUConfigError("--gpus rejected") from None


def _device_list(text: str) -> object:
    ids, problem = parse_device_list(text)
    if problem is not None:
        raise GPUConfigError(problem.reason)
    return ids[0]


def _auto(text: str) -> object:
    return parse_auto(f"auto:{text}")


def _cuda_visible(text: str) -> object:
    inv = inventory(
        {"CUDA_DEVICE_ORDER": "PCI_BUS_ID", "CUDA_VISIBLE_DEVICES": text},
        nvml=FakeNVML(recording("v100x4")),
    )
    visible = inv.visible()
    if not visible:
        raise GPUConfigError(inv.visible_note)
    return visible[0].cuda_index


def _launcher(text: str) -> object:
    info = detect({"LOCAL_RANK": text})
    assert info is not None
    return info.local_rank


def _slurm(text: str) -> object:
    return slurm_tasks({"SLURM_STEP_NUM_TASKS": text, "SLURM_PROCID": "0"}, None)


def _slurm_per_node(text: str) -> object:
    return tasks_per_node(f"{text.strip()}(x2)")[0]


def _memory_limit(text: str) -> object:
    return GPUConfig.from_env({"TFCOMPAT_GPU_MEMORY_LIMIT_MB": f"0:{text}"}).memory_limit_mb


INT_SOURCES: dict[str, Callable[..., object]] = {
    "env": _env_int,
    "ini": _ini_int,
    "flag": _flag_int,
    "plan-gpus": _gpus_flag,
    "device-list": _device_list,
    "auto": _auto,
    "cuda-visible-devices": _cuda_visible,
    "launcher": _launcher,
    "slurm-tasks": _slurm,
    "slurm-tasks-per-node": _slurm_per_node,
    "memory-limit-key": _memory_limit,
}


def _read(source: str, text: str, tmp_path) -> object:  # type: ignore[no-untyped-def]
    reader = INT_SOURCES[source]
    return reader(text, tmp_path) if source == "ini" else reader(text)


@pytest.mark.parametrize("text", [t for t in BAD_INTS if t], ids=ascii)
@pytest.mark.parametrize("source", INT_SOURCES)
def test_a_non_ascii_or_separated_integer_is_no_number_anywhere(source, text, tmp_path):
    if source == "auto" and text == "0":
        pytest.skip("auto:0 is a number, refused for its value")
    with pytest.raises(GPUConfigError):
        _read(source, text, tmp_path)


@pytest.mark.parametrize(("text", "number"), [g for g in GOOD_INTS if g[1] > 0], ids=repr)
@pytest.mark.parametrize(
    "source", [s for s in INT_SOURCES if s not in ("cuda-visible-devices", "memory-limit-key")]
)
def test_an_ascii_integer_reads_the_same_everywhere(source, text, number, tmp_path):
    value = _read(source, text, tmp_path)
    assert value == number


@pytest.mark.parametrize(
    "text",
    ["0_5", "\uff10.\uff15", "0.\uff15", "inf", "nan", "1e999", "½", "0,5", "5%"],
    ids=ascii,
)
@pytest.mark.parametrize("source", ["env", "ini", "flag"])
def test_a_fraction_follows_the_same_grammar_in_every_source(source, text, tmp_path):
    path = tmp_path / "gpu.ini"
    path.write_text(f"[gpu]\nrate = {text}\n", encoding="utf-8")
    readers = {
        "env": lambda: GPUConfig.from_env({"TFCOMPAT_GPU_MEMORY_FRACTION": text}),
        "ini": lambda: GPUConfig.from_file(path),
        "flag": lambda: fields_from_flags(_parser().parse_args(["--memory-fraction", text])),
    }
    with pytest.raises(GPUConfigError):
        readers[source]()


@pytest.mark.parametrize(
    ("text", "value"), [("0.5", 0.5), (".5", 0.5), ("5e-1", 0.5), (" 0.25 ", 0.25), ("1", 1.0)]
)
def test_decimal_literals_are_fractions(text, value):
    assert (
        GPUConfig.from_env({"TFCOMPAT_GPU_MEMORY_FRACTION": text}).per_process_gpu_memory_fraction
        == value
    )
    assert parse_float(text) == value


def test_a_percent_gets_the_fraction_as_the_fix():
    with pytest.raises(GPUConfigError, match=r"50% is 0\.5"):
        GPUConfig.from_env({"TFCOMPAT_GPU_MEMORY_FRACTION": "50%"})


def test_the_grammar_itself():
    assert [parse_int(t) for t in ("1", "²", "\uff11", "1_0", "-1")] == [1, None, None, None, None]
    assert [parse_float(t) for t in ("-0.5", "1e308", "1e309", "0_5")] == [-0.5, 1e308, None, None]


@pytest.mark.parametrize("visible", ["²", "\uff11", "0,²", "1,\uff11,0"], ids=ascii)
def test_cuda_visible_devices_with_a_non_ascii_digit_ends_the_list_there(visible):
    # CUDA reads the entry as invalid, and ignores it and every entry after it.
    inv = inventory(
        {"CUDA_DEVICE_ORDER": "PCI_BUS_ID", "CUDA_VISIBLE_DEVICES": visible},
        nvml=FakeNVML(recording("v100x4")),
    )
    before = visible.split(",")[:-1] if visible[-1] in "²\uff11" else visible.split(",")[:1]
    expected = [int(x) for x in before if x.isascii()]
    assert [gpu.cuda_index for gpu in inv.visible()] == expected
    assert "matches no GPU" in inv.visible_note


# -- a fraction larger than any card ------------------------------------------------------------


def test_a_huge_fraction_is_no_size_in_mb():
    assert share_mb(0.5, 16384) == 8192
    assert share_mb(1e308, 16384) is None
    assert "more than any card has" in fraction_in_mb(1e308, [16384])
    assert "more than any card has" in fraction_in_mb(1e308, [16384, 8192])


def test_the_plan_map_of_a_huge_fraction_says_so():
    answer = {
        "proto": {
            "visible_device_list": "",
            "virtual_devices": [],
            "per_process_gpu_memory_fraction": 1e308,
            "allow_growth": False,
        },
        "physical": [{"card": {"total_mb": 16384}, "growth": False}],
    }
    (device,) = _logical_devices(answer)
    assert "more than any card has, of 16384 MB" in device["memory"]


@pytest.mark.parametrize(
    "text", ["0", "0GiB", "1e400", "1e308T", "-1G", "\uff11\uff16G"], ids=ascii
)
def test_a_described_card_size_must_be_a_size(text):
    with pytest.raises(GPUConfigError, match="--gpu-memory"):
        _size_mb(text)
