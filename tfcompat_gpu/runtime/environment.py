"""``environment()``: what TensorFlow, Keras, the GPUs and the GPU variables look like.

It never starts the TensorFlow runtime, and imports TensorFlow only when asked to.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tfcompat_gpu.runtime.mode import Mode, detect_mode
from tfcompat_gpu.settings.env_vars import GPU_ENV_VARS, legacy_keras_requested
from tfcompat_gpu.tfapi import _tf

__all__ = ["Environment", "environment"]


@dataclass(frozen=True)
class Environment:
    """What TensorFlow, Keras and the GPUs look like to this process."""

    tensorflow_version: str | None
    keras_flavour: str | None
    """``"keras3"``, ``"tf_keras"`` (``TF_USE_LEGACY_KERAS``) or ``"keras2"`` (TF <= 2.15)."""
    keras_version: str | None
    mode: Mode | None
    physical_gpus: tuple[str, ...]
    gpu_env: Mapping[str, str]
    runtime_started: bool
    gpu_inventory: Any = None
    """The machine's GPUs read through NVML (:class:`tfcompat_gpu.Inventory`), or why they
    could not be read."""
    auto_selection: str | None = None
    """What ``visible_device_list="auto[:N]"`` picked, how it was made visible, and why."""
    distribution: Any = None
    """:func:`tfcompat_gpu.explain`'s plan: launcher, ranks, cluster, the strategy and why."""

    def __str__(self) -> str:
        lines = [
            f"TensorFlow:      {self.tensorflow_version or 'not available'}",
            f"Keras:           {self.keras_flavour or '-'} {self.keras_version or ''}".rstrip(),
            f"Mode:            {self.mode.value if self.mode else '-'}",
            f"Physical GPUs:   {', '.join(self.physical_gpus) or 'none'}",
            f"Runtime started: {'yes' if self.runtime_started else 'no'}",
            "GPU variables:   "
            + (", ".join(f"{k}={v}" for k, v in self.gpu_env.items()) or "none"),
        ]
        if self.auto_selection is not None:
            lines.append(f"Auto selection:  {self.auto_selection}")
        if self.gpu_inventory is not None:
            lines.append(str(self.gpu_inventory))
        if self.distribution is not None:
            lines.append(str(self.distribution))
        return "\n".join(lines)


def _dist_version(name: str) -> str | None:
    import importlib.metadata

    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def environment(*, import_tensorflow: bool = True) -> Environment:
    """Report TensorFlow, Keras, GPUs, GPU variables and the NVML inventory; never starts the
    runtime.

    With ``import_tensorflow=False`` TensorFlow is only inspected if already imported.

    Example::

        print(tfcompat_gpu.environment())
    """
    from tfcompat_gpu.machine.inventory import inventory
    from tfcompat_gpu.machine.resolve import last_choice

    report = _environment(import_tensorflow)
    choice = last_choice()
    return dataclasses.replace(
        report, gpu_inventory=inventory(), auto_selection=str(choice) if choice else None
    )


def _environment(import_tensorflow: bool) -> Environment:
    gpu_env = {name: os.environ[name] for name in GPU_ENV_VARS if name in os.environ}
    if not (import_tensorflow or _tf.is_imported()):
        return Environment(None, None, None, None, (), gpu_env, False)
    try:
        tf_version = _tf.version()
    except ImportError:
        return Environment(None, None, None, None, (), gpu_env, False)
    flavour: str
    keras: str | None
    if tf_version.release < (2, 16):
        flavour, keras = "keras2", _dist_version("keras") or str(tf_version)
    elif legacy_keras_requested():
        flavour, keras = "tf_keras", _dist_version("tf-keras")
    else:
        flavour, keras = "keras3", _dist_version("keras")
    gpus = tuple(d.name for d in _tf.physical_gpus())
    from tfcompat_gpu.runtime.distribute import explain

    return Environment(
        str(tf_version),
        flavour,
        keras,
        detect_mode(),
        gpus,
        gpu_env,
        _tf.runtime_started(),
        distribution=explain(),
    )
