"""Put a graph (or a block of ops) on the GPU that has a given physical number in this process.

TensorFlow names GPUs by their position in the process device list (``visible_device_list``),
not by their physical number, and that list is fixed once per process.  :func:`on_gpu`
translates a physical GPU number into the TensorFlow device name and places ops there; the
``"remap"`` conflict policy uses the same placement for sessions that ask for their own list.
"""

from __future__ import annotations

import contextlib
import threading
import weakref
from types import TracebackType
from typing import Any

from tfcompat_gpu.errors import GPUConfigConflictError
from tfcompat_gpu.runtime.state import STATE
from tfcompat_gpu.settings.kinds import as_int
from tfcompat_gpu.tfapi import _tf
from tfcompat_gpu.utils.where import user_frame

__all__ = ["GPUPlacement", "check_placeable", "on_gpu", "place_graph"]

_lock = threading.Lock()
_placed: weakref.WeakKeyDictionary[Any, tuple[str, str]] = weakref.WeakKeyDictionary()


def check_placeable(graph: Any, device: str, where: str) -> None:
    """Raise if ``graph`` is already placed on another device (one graph, one GPU)."""
    with _lock:
        previous = _placed.get(graph)
    if previous is not None and previous[0] != device:
        placed_device, placed_where = previous
        raise GPUConfigConflictError(
            f"Cannot place one graph on two GPUs: the graph used at {where} asks for {device}, "
            f"but it was placed on {placed_device} at {placed_where}. Fix: build each model in "
            "its own tf.Graph() and pass it to its session (tf.Session(graph=g, ...)), or place "
            "ops by hand with tfcompat_gpu.on_gpu(gpu_id)."
        )


def place_graph(graph: Any, device: str, where: str) -> None:
    """Put every op of ``graph`` without a device, existing or future, on ``device``.

    Ops that already carry a device keep it, and so do the ones created later inside a
    ``with tf.device(...)`` block.  Placing a graph twice on the same device is a no-op.
    """
    check_placeable(graph, device, where)
    with _lock:
        if graph in _placed:
            return
        for op in graph.get_operations():
            if not op.device:
                _tf.set_op_device(op, device)
        _tf.pin_graph_device(graph, device)
        _placed[graph] = (device, where)


class GPUPlacement:
    """The result of :func:`on_gpu`: the device name, usable as a context manager."""

    def __init__(self, gpu_id: int, device: str, graph: Any = None) -> None:
        self.gpu_id = gpu_id
        """The physical GPU number asked for."""
        self.device = device
        """Its TensorFlow device name in this process (``/device:GPU:1``)."""
        self.graph = graph
        self._stack: contextlib.ExitStack | None = None

    def __repr__(self) -> str:
        return f"GPUPlacement(gpu_id={self.gpu_id}, device={self.device!r})"

    def __enter__(self) -> GPUPlacement:
        stack = contextlib.ExitStack()
        if self.graph is not None:
            stack.enter_context(self.graph.as_default())
        else:
            stack.enter_context(_tf.tf().device(self.device))
        self._stack = stack
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        stack, self._stack = self._stack, None
        if stack is not None:
            stack.close()


def on_gpu(gpu_id: int, graph: Any = None) -> GPUPlacement:
    """Run ops on physical GPU ``gpu_id``, whatever TensorFlow calls it in this process.

    - ``with on_gpu(1): ...`` places the ops built in the block (eager or graph mode).
    - ``on_gpu(1, graph=g)`` places the whole graph ``g`` at once: its ops without a device,
      and every op created in it later (``with on_gpu(1, graph=g):`` also makes ``g`` the
      default graph for the block).  Ops that carry a device keep it.

    The device name comes from the process device list: with ``visible_device_list="1,2"``,
    physical GPU 2 is ``/device:GPU:1``; a GPU split into virtual devices counts once per
    logical device.  A GPU outside the list raises :class:`~tfcompat_gpu.GPUConfigError`,
    except under the ``"remap"`` policy in graph mode, where it joins the list that later
    sessions get.

    Example::

        tfcompat_gpu.configure(visible_device_list="1,2")
        g = tf.Graph()
        tfcompat_gpu.on_gpu(2, graph=g)     # every op of g on /device:GPU:1
        with tfcompat_gpu.on_gpu(1):
            x = tf.constant(1.0)            # on /device:GPU:0
    """
    from tfcompat_gpu.runtime.conflicts import get_conflict_policy
    from tfcompat_gpu.runtime.devices import extend_device_list, gpu_device

    number = as_int(gpu_id)  # numpy integers too
    if number is not None:
        gpu_id = number
    with STATE.lock:
        if (
            get_conflict_policy() == "remap"
            and isinstance(gpu_id, int)
            and _tf.is_imported()
            and _tf.graph_mode()
        ):
            extend_device_list((gpu_id,))
        device = gpu_device(gpu_id)
    if graph is not None:
        place_graph(graph, device, user_frame())
    return GPUPlacement(gpu_id, device, graph)
