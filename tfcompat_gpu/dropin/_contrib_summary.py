"""``tf.contrib.summary`` of TF 1.8-1.15, the eager summaries, from TensorFlow 2's ``tf.summary``.

Eager training loops of 2018-2019 wrote ``writer = tf.contrib.summary.create_file_writer(logdir)``,
``writer.set_as_default()`` (or ``with writer.as_default():``), then ``with
tf.contrib.summary.record_summaries_every_n_global_steps(100): tf.contrib.summary.scalar('loss',
loss)``.  TensorFlow 2's ``tf.summary`` grew out of that module: its writers are the same, and
each summary here takes TF1's default step, the global step (``get_or_create_global_step()``, as
``tf.contrib.summary`` chose it), which TF2 asks for explicitly.  The v2 module is used whatever
API the script runs on (``tf.summary`` is the v1 module under ``run``'s v1 mode).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from tfcompat_gpu.tfapi import _tf

__all__ = ["NAMES", "summary_module"]

SUMMARY_MODULE = "tensorflow.contrib.summary"


def _summary() -> Any:
    return _tf.tf().compat.v2.summary


def _step(step: Any) -> Any:
    return _tf.tf().compat.v1.train.get_or_create_global_step() if step is None else step


def create_file_writer(
    logdir: Any,
    max_queue: Any = None,
    flush_millis: Any = None,
    filename_suffix: Any = None,
    name: Any = None,
) -> Any:
    return _summary().create_file_writer(
        logdir,
        max_queue=max_queue,
        flush_millis=flush_millis,
        filename_suffix=filename_suffix,
        name=name,
    )


def record_summaries_every_n_global_steps(n: int, global_step: Any = None) -> Any:
    """Record while the global step is a multiple of ``n``, as TF1 did."""
    step = _step(global_step)
    return _summary().record_if(lambda: _tf.tf().equal(step % n, 0))


def always_record_summaries() -> Any:
    return _summary().record_if(True)


def never_record_summaries() -> Any:
    return _summary().record_if(False)


def scalar(name: str, tensor: Any, family: Any = None, step: Any = None) -> Any:
    return _summary().scalar(name, tensor, step=_step(step))


def histogram(name: str, tensor: Any, family: Any = None, step: Any = None) -> Any:
    return _summary().histogram(name, tensor, step=_step(step))


def image(
    name: str,
    tensor: Any,
    bad_color: Any = None,
    max_images: int = 3,
    family: Any = None,
    step: Any = None,
) -> Any:
    return _summary().image(name, tensor, step=_step(step), max_outputs=max_images)


def flush(writer: Any = None, name: Any = None) -> Any:
    return _summary().flush(writer)


NAMES: dict[str, Callable[..., Any]] = {
    "create_file_writer": create_file_writer,
    "record_summaries_every_n_global_steps": record_summaries_every_n_global_steps,
    "always_record_summaries": always_record_summaries,
    "never_record_summaries": never_record_summaries,
    "scalar": scalar,
    "histogram": histogram,
    "image": image,
    "flush": flush,
}


def _getattr(name: str) -> Any:
    if name in NAMES:
        return NAMES[name]
    if name.startswith("__"):
        raise AttributeError(name)
    raise AttributeError(
        f"tf.contrib.summary.{name}: tf.contrib was removed in TensorFlow 2.0; of "
        f"tf.contrib.summary the drop-in provides {', '.join(sorted(NAMES))}. Use tf.summary "
        "(TensorFlow 2's summaries, which take the step explicitly) instead."
    )


def summary_module() -> ModuleType:
    """The ``tensorflow.contrib.summary`` module object."""
    module = sys.modules.get(SUMMARY_MODULE)
    if module is None:
        module = ModuleType(SUMMARY_MODULE, "tf.contrib.summary of TF 1.x, by tfcompat_gpu.")
        module.__getattr__ = _getattr  # type: ignore[method-assign]
        module.__tfcompat_gpu__ = True  # type: ignore[attr-defined]
        module.__all__ = sorted(NAMES)  # type: ignore[attr-defined]
        sys.modules.setdefault(SUMMARY_MODULE, module)
    return sys.modules[SUMMARY_MODULE]
