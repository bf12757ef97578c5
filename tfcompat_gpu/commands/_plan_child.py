"""The child process of ``tfcompat-gpu plan``: TensorFlow's own configuration code answers.

Run as ``python -m tfcompat_gpu.commands._plan_child`` with a JSON request on stdin; prints one JSON
answer.  It simulates the machine's GPUs as TensorFlow physical devices (:mod:`._simgpu`), applies
the settings with :func:`tfcompat_gpu.configure` (which calls TensorFlow's ``tf.config``
setters), and reads back what TensorFlow made of them: the visible devices, memory growth, the
logical devices and the ``ConfigProto`` the runtime would get.  Settings TensorFlow rejects
are replayed as plain ``tf.config`` calls to capture TensorFlow's own error.

To answer quickly it loads only TensorFlow's configuration modules
(:func:`tfcompat_gpu.tfapi._tf.lean_tensorflow`), not every API.  Never run this module in a user's
process.
"""

from __future__ import annotations

import json
import os
import sys
import warnings
from collections.abc import Callable
from typing import Any

__all__ = ["answer", "main"]


def _error(exc: BaseException) -> dict[str, str]:
    return {"type": type(exc).__name__, "message": str(exc)}


def _replay(tf: Any, fields: dict[str, Any], gpus: list[Any]) -> list[dict[str, Any]]:
    """Apply the GPU fields as plain ``tf.config`` calls, both ways round, keep what TF says."""
    from tfcompat_gpu.tfapi import _tf

    ids: list[int] = []
    visible = fields.get("visible_device_list")
    if isinstance(visible, str) and visible:
        from tfcompat_gpu.settings.kinds import parse_device_list

        ids = list(parse_device_list(visible)[0])
    elif isinstance(visible, list):
        ids = [int(i) for i in visible]
    if any(i >= len(gpus) for i in ids):
        return []
    chosen = [gpus[i] for i in sorted(set(ids))] if visible is not None else list(gpus)
    limits = fields.get("memory_limit_mb")
    growth = fields.get("allow_growth")

    def logical(position: int) -> list[Any]:
        value = limits
        if isinstance(value, dict):
            value = value.get(ids[position] if ids else position)
        if value is None:
            return []
        values = value if isinstance(value, list) else [value]
        return [tf.config.LogicalDeviceConfiguration(memory_limit=int(mb)) for mb in values]

    calls: dict[str, Callable[[], object]] = {
        "visible": lambda: tf.config.set_visible_devices(chosen, "GPU"),
        "limits": lambda: [
            tf.config.set_logical_device_configuration(gpu, logical(i))
            for i, gpu in enumerate(chosen)
            if logical(i)
        ],
        "growth": lambda: [tf.config.experimental.set_memory_growth(gpu, growth) for gpu in chosen],
    }
    orders: list[tuple[str, ...]] = [("visible", "limits")]
    if growth is not None:
        orders = [("visible", "limits", "growth"), ("visible", "growth", "limits")]
    results = []
    for order in orders:
        snapshot = _tf.ContextSnapshot.take()
        step = ""
        outcome: dict[str, Any] = {"order": list(order), "error": None}
        try:
            for step in order:
                calls[step]()
            outcome["growth_kept"] = bool(_tf.context().config.gpu_options.allow_growth)
        except (ValueError, RuntimeError, TypeError) as exc:
            outcome.update(error=_error(exc), at=step)
        finally:
            snapshot.restore()
        results.append(outcome)
    return results


def answer(request: dict[str, Any]) -> dict[str, Any]:
    from tfcompat_gpu.machine import inventory as _inventory
    from tfcompat_gpu.tfapi import _tf

    tf = _tf.lean_tensorflow()
    from tfcompat_gpu.errors import GPUConfigError
    from tfcompat_gpu.machine.simgpu import simulate_gpus
    from tfcompat_gpu.settings.config import GPUConfig

    cards: list[dict[str, Any]] = request["gpus"]
    gpus = simulate_gpus(len(cards))
    # The parent hid the real GPUs from this process; messages name the planned variable.
    if request.get("cuda_visible_devices") is None:
        os.environ.pop("CUDA_VISIBLE_DEVICES", None)
    else:
        os.environ["CUDA_VISIBLE_DEVICES"] = request["cuda_visible_devices"]
    totals = {i: card["total_mb"] for i, card in enumerate(cards) if card.get("total_mb")}
    _inventory.TOTALS_OVERRIDE = totals if len(totals) == len(cards) else None
    fields: dict[str, Any] = dict(request["fields"])
    if isinstance(fields.get("memory_limit_mb"), dict):  # JSON keys are strings
        fields["memory_limit_mb"] = {int(k): v for k, v in fields["memory_limit_mb"].items()}
    out: dict[str, Any] = {"tensorflow": tf.__version__, "errors": [], "notes": []}
    cfg = None
    try:
        cfg = GPUConfig(**fields)
    except GPUConfigError as exc:
        out["errors"].append({"source": "tfcompat_gpu", **_error(exc)})
    applied = None
    if cfg is not None:
        from tfcompat_gpu import configure

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                applied = configure(cfg)
            except GPUConfigError as exc:
                out["errors"].append({"source": "tfcompat_gpu", **_error(exc)})
        out["notes"] = [str(w.message) for w in caught]
    if applied is None:
        out["replay"] = _replay(tf, fields, gpus)
        for outcome in out["replay"]:
            if outcome["error"]:
                out["errors"].append({"source": "tensorflow", **outcome["error"]})
    ctx = _tf.context()
    proto = ctx.config
    visible = ctx.get_visible_devices("GPU")
    physical = []
    for i, gpu in enumerate(gpus):
        logical = ctx.get_logical_device_configuration(gpu) or []
        physical.append(
            {
                "name": gpu.name,
                "visible": gpu in visible,
                "growth": ctx.get_memory_growth(gpu),
                "logical_limits_mb": [d.memory_limit for d in logical],
                "card": cards[i],
            }
        )
    options = proto.gpu_options
    jit, rewrites = proto.graph_options.optimizer_options, proto.graph_options.rewrite_options
    out.update(
        {
            "applied": applied.to_dict() if applied is not None else None,
            "physical": physical,
            "proto": {
                "visible_device_list": options.visible_device_list,
                "allow_growth": options.allow_growth,
                "per_process_gpu_memory_fraction": options.per_process_gpu_memory_fraction,
                "virtual_devices": [
                    list(v.memory_limit_mb) for v in options.experimental.virtual_devices
                ],
                "device_count": dict(proto.device_count),
                # the graph options as every later session and tf.function gets them
                "global_jit_level": type(jit).GlobalJitLevel.Name(jit.global_jit_level),
                "auto_mixed_precision": type(rewrites).Toggle.Name(rewrites.auto_mixed_precision),
            },
            # Unset, the eager runtime places ops softly (a v1 Session does not).
            "soft_placement": True
            if ctx._soft_device_placement is None
            else bool(ctx._soft_device_placement),
            "devices": [_parse_device(tf, spec) for spec in request.get("devices", [])],
            "strategy": _strategy() if applied is not None else None,
        }
    )
    return out


def _strategy() -> dict[str, Any] | None:
    """What ``tfcompat_gpu.explain()`` says ``strategy()`` would build, where it exists."""
    import tfcompat_gpu

    if "explain" not in getattr(tfcompat_gpu, "_LAZY", {}):
        return None
    try:
        plan: dict[str, Any] = tfcompat_gpu.explain().to_dict()
    except Exception as exc:  # reported in the plan, never fatal to it
        return {"error": f"{type(exc).__name__}: {exc}"}
    return plan


def _parse_device(tf: Any, spec: str) -> dict[str, Any]:
    """TensorFlow's own parse of a device string (``/gpu:1``, ``/device:GPU:1``)."""
    try:
        parsed = tf.DeviceSpec.from_string(spec)
    except (ValueError, TypeError) as exc:
        return {"spec": spec, "error": _error(exc)}
    return {"spec": spec, "type": parsed.device_type, "index": parsed.device_index}


def main() -> int:
    request = json.loads(sys.stdin.read())
    try:
        result = answer(request)
    except Exception as exc:  # reported to the parent, which says what failed
        result = {"fatal": _error(exc)}
    sys.stdout.write(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
