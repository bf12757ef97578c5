"""``tfcompat-gpu plan``: the device map these settings give on this machine (or a described one).

The settings come from the same variables, ``--config`` file and flags as ``tfcompat-gpu run``.
The machine is this one, read through NVML, or one described with ``--gpus``/``--gpu-memory``.
``CUDA_DEVICE_ORDER`` and ``CUDA_VISIBLE_DEVICES`` are applied here (:mod:`._inventory`); what
TensorFlow makes of the GPUs left is answered by TensorFlow's own configuration code in a child
process (:mod:`._planchild`), so this process never imports TensorFlow.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from tfcompat_gpu.commands import _voice
from tfcompat_gpu.commands._settings_flags import add_settings_arguments, fields_from_flags
from tfcompat_gpu.errors import GPUConfigError
from tfcompat_gpu.machine.inventory import MB, Inventory, inventory, parse_auto, pick, with_visible
from tfcompat_gpu.machine.nvml import GPUReading, Readings
from tfcompat_gpu.utils.numbers import REAL_TEXT, parse_int, share_mb
from tfcompat_gpu.utils.words import plural

__all__ = ["main", "make_plan", "render"]

_PROG = _voice.prog("plan")
_SIZE = re.compile(rf"({REAL_TEXT})\s*(|m|mb|mib|g|gb|gib|t|tb|tib)\Z", re.IGNORECASE)
_FLAG_OF = {
    "allow_growth": "--allow-growth",
    "allow_soft_placement": "--soft-placement",
    "log_device_placement": "--log-placement",
}


def _parser() -> _voice.Parser:
    parser = _voice.Parser(
        prog=_PROG,
        description="Print the device map GPU settings give, without starting TensorFlow here: "
        "physical GPU -> TensorFlow physical device -> logical devices.",
        epilog="Settings come from TFCOMPAT_GPU_* variables, --config and the flags, as for "
        "'tfcompat-gpu run'. Without --gpus the machine is this one, read through NVML.",
    )
    settings = parser.add_argument_group("settings (as for 'tfcompat-gpu run')")
    add_settings_arguments(settings)
    machine = parser.add_argument_group("machine (default: this one, through NVML)")
    machine.add_argument("--gpus", type=_count, metavar="N", help="describe a machine with N GPUs")
    machine.add_argument(
        "--gpu-memory",
        metavar="SIZE",
        help='memory of each described GPU ("16GiB", "24576MB"; a list gives one per GPU)',
    )
    machine.add_argument(
        "--cuda-visible-devices", metavar="LIST", help="instead of $CUDA_VISIBLE_DEVICES"
    )
    machine.add_argument(
        "--cuda-device-order",
        choices=("FASTEST_FIRST", "PCI_BUS_ID"),
        help="instead of $CUDA_DEVICE_ORDER",
    )
    parser.add_argument(
        "--device",
        action="append",
        metavar="SPEC",
        help="also say where tf.device(SPEC) lands (default: /gpu:0 and /gpu:1)",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")
    return parser


def _count(text: str) -> int:
    # Not type=int: int() reads "1_0" as 10 and fullwidth digits as ASCII ones.
    count = parse_int(text)
    if count is None:
        raise argparse.ArgumentTypeError(f"expected a GPU count in ASCII digits, not {text!r}")
    return count


def _size_mb(text: str) -> int:
    match = _SIZE.match(text.strip())
    if not match:
        raise GPUConfigError(
            f"--gpu-memory: expected a size such as 16GiB, 12G or 24576MB. Received: {text!r}."
        )
    value, unit = float(match.group(1)), match.group(2).lower()
    scale = {"": 1, "m": 1, "mb": 1, "mib": 1, "t": 1 << 20, "tb": 1 << 20, "tib": 1 << 20}
    mb = value * scale.get(unit, 1024)
    # A card has at least 1 MB and at most what TensorFlow's int64 byte counts can hold.
    if not 1 <= mb < 2**63 / MB:
        raise GPUConfigError(
            f"--gpu-memory: expected a card size of at least 1 MB, such as 16GiB or 24576MB. "
            f"Received: {text!r}."
        )
    return int(mb)


MAX_DESCRIBED_GPUS = 1024
"""The most GPUs ``--gpus`` describes: more than one machine holds (16 on the largest boards;
NVLink domains of 72 are several machines to CUDA), few enough that the plan stays quick."""


def _described(ns: argparse.Namespace) -> Readings:
    count = ns.gpus
    if not 0 <= count <= MAX_DESCRIBED_GPUS:
        raise GPUConfigError(
            f"--gpus: expected a GPU count from 0 to {MAX_DESCRIBED_GPUS} (one machine; plan a "
            f"cluster one machine at a time). Received: {count}."
        )
    sizes = [_size_mb(part) for part in ns.gpu_memory.split(",")] if ns.gpu_memory else []
    if len(sizes) == 1:
        sizes *= count
    if sizes and len(sizes) != count:
        raise GPUConfigError(
            f"--gpu-memory: expected one size or {count} (one per GPU). Received: "
            f"{ns.gpu_memory!r}."
        )
    gpus = tuple(
        GPUReading(
            index=i,
            name="described GPU",
            uuid=f"GPU-described-{i}",
            # A PCI bus number is one byte: past 255 GPUs, the next PCI domain.
            pci_bus_id=f"{i // 255:08X}:{i % 255 + 1:02X}:00.0",
            memory_total=sizes[i] * MB if sizes else 0,
            memory_free=sizes[i] * MB if sizes else 0,
            memory_used=0,
            utilization_gpu=None,
            utilization_memory=None,
            compute_capability=None,
            sm_clock_max_mhz=None,
            cores=None,
        )
        for i in range(count)
    )
    return Readings(None, None, gpus)


def _plain(value: Any) -> Any:
    # Keys stay as they are ({0: [1024]} is GPU 0, shown as such); JSON writes them as strings.
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _settings(ns: argparse.Namespace) -> tuple[dict[str, Any], list[str]]:
    """Fields from the variables, the file, then the flags (combinations not yet checked), and
    the warnings about single values.

    The warnings are returned, not printed with Python's source line: they become notes of the
    plan, beside the ones TensorFlow's side gives.
    """
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fields = _read_settings(ns)
    return fields, [str(w.message) for w in caught]


def _read_settings(ns: argparse.Namespace) -> dict[str, Any]:
    from tfcompat_gpu.settings.config import GPUConfig

    fields: dict[str, Any] = {}
    env = dict(os.environ)
    auto = env.get("TFCOMPAT_GPU_VISIBLE_DEVICES", "")
    if parse_auto(auto) is not None:
        fields["visible_device_list"] = auto.strip()
        del env["TFCOMPAT_GPU_VISIBLE_DEVICES"]
    fields.update(GPUConfig.from_env(env).to_dict())
    if ns.config:
        fields.update(GPUConfig.from_file(ns.config).to_dict())
    fields.update(fields_from_flags(ns))
    for name, value in fields.items():
        if not (name == "visible_device_list" and parse_auto(value) is not None):
            GPUConfig(**{name: value})  # each value alone; combinations are TensorFlow's to judge
    return {name: _plain(value) for name, value in fields.items()}


def _child(request: dict[str, Any]) -> dict[str, Any]:
    env = dict(os.environ)
    env["TF_CPP_MIN_LOG_LEVEL"] = "3"
    # The child must see no real GPU: its GPUs are the simulated ones.
    env["CUDA_VISIBLE_DEVICES"] = ""
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(os.path.abspath(__file__))), env.get("PYTHONPATH", "")]
    )
    proc = subprocess.run(
        [sys.executable, "-m", "tfcompat_gpu.commands._plan_child"],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    try:
        answer: dict[str, Any] = json.loads(proc.stdout)
    except ValueError:
        raise GPUConfigError(
            f"TensorFlow's configuration code could not be run (exit {proc.returncode}): "
            f"{proc.stderr.strip()[-2000:]}"
        ) from None
    if "fatal" in answer:
        fatal = answer["fatal"]
        if fatal["type"] in ("ImportError", "ModuleNotFoundError"):
            raise GPUConfigError(
                "plan asks TensorFlow's own configuration code, and TensorFlow could not be "
                f"imported ({fatal['message']}). Install it in this environment "
                "(pip install 'tfcompat-gpu[tf]' or [tf-cpu])."
            )
        raise GPUConfigError(
            f"TensorFlow's configuration code could not be run: {fatal['type']}: {fatal['message']}"
        )
    return answer


def make_plan(
    fields: Mapping[str, Any],
    machine: Inventory,
    devices: Sequence[str] = ("/gpu:0", "/gpu:1"),
    environ: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The device map of ``fields`` on ``machine``, as plain data (what ``--format json`` prints)."""
    fields = dict(fields)
    env = dict(os.environ if environ is None else environ)
    auto: dict[str, Any] | None = None
    count = parse_auto(fields.get("visible_device_list"))
    if count is not None:
        selection = pick(machine, count)
        env["CUDA_VISIBLE_DEVICES"] = selection.cuda_visible_devices
        before = machine.cuda_visible_devices
        machine = with_visible(machine, selection.cuda_visible_devices)
        auto = {
            "request": fields["visible_device_list"],
            "picked_cuda": [gpu.cuda_index for gpu in selection.picked],
            "cuda_visible_devices": selection.cuda_visible_devices,
            "replaces_cuda_visible_devices": before,
            "reason": selection.reason(),
        }
        fields["visible_device_list"] = None
        fields = {k: v for k, v in fields.items() if v is not None}
    cards = [
        {
            "cuda_index": gpu.cuda_index,
            "pci_bus_id": gpu.pci_bus_id,
            "name": gpu.name,
            # What TensorFlow's allocator sees: CUDA's total, without the driver's reserve.
            "total_mb": gpu.cuda_total_mb or gpu.total_mb or None,
        }
        for gpu in machine.visible()
    ]
    answer = _child(
        {
            "gpus": cards,
            "fields": fields,
            "devices": list(devices),
            "cuda_visible_devices": machine.cuda_visible_devices,
        }
    )
    logical = _logical_devices(answer)
    on_physical: dict[int, list[dict[str, Any]]] = {}  # one pass: thousands of GPUs stay linear
    for device in logical:
        on_physical.setdefault(device["tf_physical_index"], []).append(device)
    physical = []
    for gpu in machine.gpus:
        entry: dict[str, Any] = {
            "cuda_index": gpu.cuda_index,
            "pci_bus_id": gpu.pci_bus_id,
            "name": gpu.name,
            "total_mb": gpu.total_mb or None,
            "tf_physical": None,
            "removed_by": None,
            "logical": [],
        }
        if gpu.tf_index is None:
            entry["removed_by"] = "CUDA_VISIBLE_DEVICES"
        else:
            entry["tf_physical"] = f"/physical_device:GPU:{gpu.tf_index}"
            if not answer["physical"][gpu.tf_index]["visible"]:
                entry["removed_by"] = "visible_device_list"
            entry["logical"] = on_physical.get(gpu.tf_index, [])
        physical.append(entry)
    by_tf = {gpu.tf_index: gpu for gpu in machine.gpus if gpu.tf_index is not None}
    for device in logical:
        gpu = by_tf[device["tf_physical_index"]]
        device["cuda_index"] = gpu.cuda_index
        device["pci_bus_id"] = gpu.pci_bus_id
    return {
        "tensorflow": answer["tensorflow"],
        "machine": {
            "source": "described" if machine.source == "described" else "nvml",
            "gpus": len(machine.gpus),
            "cuda_device_order": machine.device_order,
            "order_exact": machine.order_exact,
            "cuda_visible_devices": machine.cuda_visible_devices,
            "notes": [n for n in (machine.order_note, machine.visible_note) if n],
        },
        "settings": fields,
        "auto": auto,
        "physical": physical,
        "logical": logical,
        "tf_config": answer["proto"],
        "soft_placement": answer["soft_placement"],
        "landing": [_landing(d, logical, answer["soft_placement"]) for d in answer["devices"]],
        "strategy": _strategy(logical, answer.get("strategy")),
        "errors": answer["errors"],
        "replay": answer.get("replay"),
        "notes": answer["notes"],
    }


def _logical_devices(answer: dict[str, Any]) -> list[dict[str, Any]]:
    """TensorFlow numbers logical GPUs along its visible list, one per virtual device."""
    proto = answer["proto"]
    physical = answer["physical"]
    text = proto["visible_device_list"]
    order = [int(i) for i in text.split(",")] if text else list(range(len(physical)))
    virtual = proto["virtual_devices"]
    fraction = proto["per_process_gpu_memory_fraction"]
    out: list[dict[str, Any]] = []
    for position, tf_index in enumerate(order):
        device = physical[tf_index]
        limits = virtual[position] if position < len(virtual) and virtual[position] else [None]
        total = device["card"].get("total_mb")
        for limit in limits:
            if limit is not None:
                memory = f"{int(limit)} MB (memory_limit)"
            elif fraction:
                share = share_mb(fraction, total) if total else None
                mb = (
                    "MB unknown"
                    if not total
                    else f"{share} MB of {total} MB"
                    if share is not None
                    else f"more than any card has, of {total} MB"
                )
                memory = f"{fraction} of the card ({mb})"
            else:
                memory = "all free memory (TensorFlow's default, minus a reserve)"
            out.append(
                {
                    "name": f"/device:GPU:{len(out)}",
                    "tf_physical_index": tf_index,
                    "memory_limit_mb": int(limit) if limit is not None else None,
                    "memory": memory,
                    "growth": bool(device["growth"] or proto["allow_growth"]),
                }
            )
    return out


def _landing(parsed: dict[str, Any], logical: list[dict[str, Any]], soft: bool) -> dict[str, Any]:
    spec = parsed["spec"]
    if "error" in parsed:
        return {"spec": spec, "lands": None, "error": parsed["error"]["message"]}
    kind = (parsed.get("type") or "").upper()
    index = parsed.get("index") or 0
    if kind == "GPU":
        if index < len(logical):
            device = logical[index]
            where = (
                f"{device['name']} = /physical_device:GPU:{device['tf_physical_index']} "
                f"(CUDA {device['cuda_index']}, {device['pci_bus_id']})"
            )
            return {"spec": spec, "lands": where, "error": None}
        if soft:
            return {
                "spec": spec,
                "lands": "/device:CPU:0 (no such GPU; soft placement moves the ops)",
                "error": None,
            }
        return {
            "spec": spec,
            "lands": None,
            "error": f"InvalidArgumentError at the first op: cannot satisfy device "
            f"'{spec}' ({plural(len(logical), 'logical GPU')}, soft placement off)",
        }
    if kind in ("CPU", ""):
        return {"spec": spec, "lands": f"/device:CPU:{index}", "error": None}
    return {"spec": spec, "lands": None, "error": f"device type {kind!r}: not planned"}


def _strategy(logical: list[dict[str, Any]], explained: dict[str, Any] | None) -> dict[str, Any]:
    import tfcompat_gpu

    names = [d["name"] for d in logical]
    mirrored = (
        "tf.distribute.MirroredStrategy() mirrors over every logical GPU: " + ", ".join(names)
        if names
        else "tf.distribute.MirroredStrategy() finds no GPU and runs on /device:CPU:0"
    )
    if "strategy" not in getattr(tfcompat_gpu, "_LAZY", {}):
        return {
            "available": False,
            "text": f"tfcompat_gpu.strategy() is not part of this version; {mirrored}",
        }
    if not explained or explained.get("error"):
        why = (explained or {}).get("error") or "the settings fail"
        # Not available to this plan: strategy() would raise with these settings.
        return {
            "available": False,
            "text": f"tfcompat_gpu.strategy(): not planned ({why}); {mirrored}",
        }
    devices = ", ".join(explained.get("devices") or ()) or "-"
    return {
        "available": True,
        "explain": explained,
        "text": f"tfcompat_gpu.strategy() -> {explained.get('kind')} over {devices}",
    }


def render(plan: dict[str, Any]) -> str:
    """The text form of :func:`make_plan`'s answer."""
    m = plan["machine"]
    cvd = m["cuda_visible_devices"]
    lines = [
        f"Machine: {plural(m['gpus'], 'GPU')} ({m['source']}); "
        f"CUDA_DEVICE_ORDER={m['cuda_device_order']}"
        + ("" if m["order_exact"] else " (CUDA numbers estimated)")
        + ("; CUDA_VISIBLE_DEVICES unset" if cvd is None else f"; CUDA_VISIBLE_DEVICES={cvd!r}"),
        "Settings: "
        + (", ".join(f"{k}={v!r}" for k, v in plan["settings"].items()) or "none (defaults)"),
    ]
    for error in plan["errors"]:
        who = "TensorFlow" if error["source"] == "tensorflow" else "tfcompat_gpu"
        lines.append(f"error ({who}): {error['type']}: {error['message']}")
    if plan["errors"]:
        lines.append("These settings fail: the map below is TensorFlow's without them.")
    if plan["auto"]:
        auto = plan["auto"]
        lines.append(
            f"auto: {auto['request']} -> CUDA_VISIBLE_DEVICES={auto['cuda_visible_devices']!r}"
            f" ({auto['reason']})"
        )
    lines.append("")
    lines.append("physical GPU (CUDA)                       TF physical              TF logical")
    for gpu in plan["physical"]:
        card = f"cuda {gpu['cuda_index']} {gpu['pci_bus_id']}"
        if gpu["total_mb"]:
            card += f" {gpu['total_mb']} MB"
        if gpu["tf_physical"] is None:
            lines.append(f"{card:<41} -                        removed by CUDA_VISIBLE_DEVICES")
            continue
        if gpu["removed_by"]:
            lines.append(f"{card:<41} {gpu['tf_physical']:<24} removed by visible_device_list")
            continue
        logical = "; ".join(
            f"{d['name']} {d['memory']}" + (", growth" if d["growth"] else "")
            for d in gpu["logical"]
        )
        lines.append(f"{card:<41} {gpu['tf_physical']:<24} {logical}")
    lines.append("")
    renumbered = [
        f"CUDA {g['cuda_index']} -> {g['tf_physical']}"
        for g in plan["physical"]
        if g["tf_physical"] is not None
        and g["tf_physical"] != f"/physical_device:GPU:{g['cuda_index']}"
    ]
    if renumbered:
        lines.append("Renumbered by CUDA_VISIBLE_DEVICES: " + ", ".join(renumbered))
    moved = [
        f"{d['name']} is /physical_device:GPU:{d['tf_physical_index']}"
        for d in plan["logical"]
        if d["name"] != f"/device:GPU:{d['tf_physical_index']}"
    ]
    if moved:
        lines.append("Renumbered logical GPUs: " + ", ".join(moved))
    for landing in plan["landing"]:
        target = landing["lands"] or f"error: {landing['error']}"
        lines.append(f"tf.device({landing['spec']!r}) -> {target}")
    lines.append(plan["strategy"]["text"])
    graph = [
        f"{name}={plan['settings'][name]!r} -> {field} {plan['tf_config'][field]}"
        for name, field in (("jit", "global_jit_level"), ("auto_mixed_precision",) * 2)
        if name in plan["settings"] and field in plan["tf_config"]
    ]
    if graph:
        lines.append("Graph options (tf.function and sessions): " + "; ".join(graph))
    for note in plan["machine"]["notes"] + plan["notes"]:
        lines.append(f"note: {note}")
    for outcome in plan["replay"] or ():
        if (
            plan["settings"].get("allow_growth")
            and outcome["error"] is None
            and not outcome["growth_kept"]
        ):
            lines.append(
                "note: TensorFlow accepts the calls in the order "
                + " -> ".join(outcome["order"])
                + " but silently drops memory growth"
            )
    lines.append(
        f"(answered by TensorFlow {plan['tensorflow']}'s configuration code with simulated "
        "physical GPUs; the GPU allocator itself was not run)"
    )
    return "\n".join(lines)


@_voice.returns_status
def main(argv: Sequence[str]) -> int:
    """``tfcompat-gpu plan``; ``argv`` starts with ``"plan"``.  Returns the exit status: 1 when
    the settings fail (the plan says why), 2 for a usage or input error.

    Example::

        $ tfcompat-gpu plan --gpus 4 --gpu-memory 16GiB --cuda-visible-devices 2,3 \\
              --memory-limit-mb 2048,2048
    """
    args = list(argv)
    if args[:1] == ["plan"]:
        args = args[1:]
    ns = _parser().parse_args(args)
    environ = dict(os.environ)
    if ns.cuda_visible_devices is not None:
        environ["CUDA_VISIBLE_DEVICES"] = ns.cuda_visible_devices
    if ns.cuda_device_order is not None:
        environ["CUDA_DEVICE_ORDER"] = ns.cuda_device_order
    try:
        fields, notes = _settings(ns)
        if ns.gpus is not None:
            machine = inventory(environ, readings=_described(ns), source="described")
        elif ns.gpu_memory:
            raise GPUConfigError("--gpu-memory describes a machine: give --gpus N with it.")
        else:
            machine = inventory(environ)
            if not machine.available:
                raise GPUConfigError(
                    f"this machine's GPUs could not be read: {machine.message} Describe one "
                    "instead, e.g. --gpus 4 --gpu-memory 16GiB."
                )
        plan = make_plan(fields, machine, ns.device or ("/gpu:0", "/gpu:1"), environ)
    except GPUConfigError as exc:
        return _voice.error("plan", str(exc))
    plan["notes"] = list(dict.fromkeys([*plan["notes"], *notes]))
    if ns.format == "json":
        print(json.dumps(plan, indent=2))
    else:
        print(render(plan))
    return _voice.FINDINGS if plan["errors"] else _voice.OK
