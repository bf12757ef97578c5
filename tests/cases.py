"""Invalid values per field, shared by the in-process and the TensorFlow-process tests.

Each case: (id, field, value, fragment expected in the message).  ``emit`` output is JSON, so
values with no JSON form are described by their id only.
"""

from __future__ import annotations

from typing import Any

BAD_VALUES: list[tuple[str, str, Any, str]] = [
    ("growth-str", "allow_growth", "yes", "expected True, False or None"),
    ("growth-int", "allow_growth", 1, "expected True, False or None"),
    ("fraction-str", "per_process_gpu_memory_fraction", "0.3", "a float in (0, 1]"),
    ("fraction-bool", "per_process_gpu_memory_fraction", True, "a float in (0, 1]"),
    ("fraction-zero", "per_process_gpu_memory_fraction", 0, "Use None for TensorFlow's default"),
    ("fraction-negative", "per_process_gpu_memory_fraction", -0.1, "a float in (0, 1]"),
    ("fraction-nan", "per_process_gpu_memory_fraction", float("nan"), "a float in (0, 1]"),
    ("fraction-inf", "per_process_gpu_memory_fraction", float("inf"), "a float in (0, 1]"),
    ("limit-zero", "memory_limit_mb", 0, "is not a memory size in MB"),
    ("limit-negative", "memory_limit_mb", -1, "is not a memory size in MB"),
    ("limit-str", "memory_limit_mb", "2048", "a positive int (MB)"),
    ("limit-bool", "memory_limit_mb", True, "a positive int (MB)"),
    ("limit-float", "memory_limit_mb", 1.5, "a positive int (MB)"),
    ("limit-empty-list", "memory_limit_mb", [], "An empty list would create no GPU device"),
    ("limit-list-str", "memory_limit_mb", [1024, "a"], "'a' is not a memory size in MB"),
    ("limit-dict-str-key", "memory_limit_mb", {"0": [1024]}, "Key '0' is not one"),
    ("limit-dict-empty", "memory_limit_mb", {0: []}, "An empty list would create no GPU device"),
    ("visible-empty-entry", "visible_device_list", "0,,1", "Could not parse entry ''"),
    ("visible-letter", "visible_device_list", "a", "Could not parse entry 'a'"),
    ("visible-duplicate", "visible_device_list", "0,0", "GPU id 0 is listed twice"),
    ("visible-negative", "visible_device_list", "-1", "Could not parse entry '-1'"),
    ("visible-float", "visible_device_list", "1.0", "Could not parse entry '1.0'"),
    ("visible-list-duplicate", "visible_device_list", [1, 1], "GPU id 1 is listed twice"),
    ("visible-list-bool", "visible_device_list", [True], "Entry True is not a GPU id"),
    ("visible-list-empty", "visible_device_list", [], 'device_count={"GPU": 0}'),
    ("visible-int", "visible_device_list", 1, "a comma-separated list of distinct GPU ids"),
    ("soft-str", "allow_soft_placement", "true", "expected True, False or None"),
    ("log-int", "log_device_placement", 1, "expected True, False or None"),
    ("intra-negative", "intra_op_parallelism_threads", -1, "an int >= 0"),
    ("intra-str", "intra_op_parallelism_threads", "4", "int(os.environ[...])"),
    ("intra-bool", "intra_op_parallelism_threads", True, "an int >= 0"),
    ("inter-float", "inter_op_parallelism_threads", 2.0, "an int >= 0"),
    ("inter-huge", "inter_op_parallelism_threads", 2**31, "an int >= 0"),
    ("count-lower", "device_count", {"cpu": 2}, "Device types are upper case: 'CPU'"),
    ("count-negative", "device_count", {"CPU": -1}, "must be an int >= 0"),
    ("count-bool", "device_count", {"CPU": True}, "must be an int >= 0"),
    ("count-str", "device_count", {"CPU": "2"}, "must be an int >= 0"),
    ("count-list", "device_count", [("CPU", 2)], "a dict of device type to count"),
]

BAD_COMBINATIONS: list[tuple[str, dict[str, Any], str]] = [
    (
        "fraction-and-limit",
        {"per_process_gpu_memory_fraction": 0.5, "memory_limit_mb": 1024},
        "per_process_gpu_memory_fraction and memory_limit_mb cannot be combined",
    ),
    (
        "growth-and-limit",
        {"allow_growth": True, "memory_limit_mb": [1024, 1024]},
        "allow_growth=True and memory_limit_mb cannot be combined",
    ),
    (
        "limit-key-not-visible",
        {"visible_device_list": "0", "memory_limit_mb": {1: [1024]}},
        "GPU id 1 has limits but is not in visible_device_list='0'",
    ),
    (
        "no-gpu-but-visible",
        {"device_count": {"GPU": 0}, "visible_device_list": "0"},
        'device_count={"GPU": 0} hides every GPU',
    ),
]
