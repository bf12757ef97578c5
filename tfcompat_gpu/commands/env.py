"""``tfcompat-gpu env``: what TensorFlow, Keras, the GPUs and the GPU variables look like."""

from __future__ import annotations

import json
from collections.abc import Sequence

from tfcompat_gpu.commands import _voice

__all__ = ["main"]


@_voice.returns_status
def main(argv: Sequence[str]) -> int:
    parser = _voice.Parser(
        prog=_voice.prog("env"),
        description="Report TensorFlow, Keras, physical GPUs, GPU variables, the NVML inventory, "
        "the launcher and the tf.distribute strategy strategy() would return "
        "(imports TensorFlow, never starts its runtime).",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(list(argv)[1:])
    from tfcompat_gpu.runtime.environment import environment

    env = environment()
    if args.json:
        data = {
            "tensorflow_version": env.tensorflow_version,
            "keras_flavour": env.keras_flavour,
            "keras_version": env.keras_version,
            "mode": env.mode.value if env.mode else None,
            "physical_gpus": list(env.physical_gpus),
            "gpu_env": dict(env.gpu_env),
            "runtime_started": env.runtime_started,
            "gpu_inventory": env.gpu_inventory.to_dict() if env.gpu_inventory else None,
            "auto_selection": env.auto_selection,
            "distribution": env.distribution.to_dict() if env.distribution else None,
        }
        print(json.dumps(data, indent=2))
    else:
        print(env)
    return _voice.OK
