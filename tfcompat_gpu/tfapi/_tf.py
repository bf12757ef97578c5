"""The one module that imports TensorFlow, lazily, and every use of its private state.

TF2 has no public call for ``per_process_gpu_memory_fraction`` (nor for the allocator fields of
``GPUOptions``), but the eager context hands its base ``ConfigProto`` (``Context._config``) to the
runtime and to ``Session(config=None)``.  Writing there before the runtime starts is how those
fields reach TensorFlow's GPU allocator.  That, the snapshot used to roll back a failed
``configure()``, and the few other private attributes read here are guarded by the TF version
and by a check that the attributes exist, so a future TensorFlow that changes them produces a
clear :class:`GPUConfigError` instead of a wrong result.
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import sys
from dataclasses import dataclass
from types import ModuleType, SimpleNamespace
from typing import TYPE_CHECKING, Any

from tfcompat_gpu.errors import GPUConfigError

if TYPE_CHECKING:
    from packaging.version import Version

__all__ = [
    "ContextSnapshot",
    "abandon_session",
    "config_proto_class",
    "context",
    "context_if_created",
    "default_graph",
    "is_imported",
    "parse_config_proto",
    "pin_graph_device",
    "private_api_available",
    "runtime_started",
    "session_module",
    "set_fields",
    "set_op_device",
    "tf",
    "version",
]

# TF releases whose eager Context was read for the private attributes below.
_TESTED: tuple[Any, Any] = ("2.12", "2.22")  # Version()ed on use: packaging costs ms
_CONTEXT_ATTRS = (
    "_config",
    "_context_handle",
    "_visible_device_list",
    "_memory_growth_map",
    "_virtual_device_map",
    "_soft_device_placement",
    "_log_device_placement",
    "_intra_op_parallelism_threads",
    "_inter_op_parallelism_threads",
)


def tf() -> ModuleType:
    """The ``tensorflow`` module, imported on first use."""
    module = sys.modules.get("tensorflow")
    if module is not None and hasattr(module, "config"):
        return module
    try:
        return importlib.import_module("tensorflow")
    except ImportError as exc:
        raise ImportError(
            "tfcompat_gpu needs TensorFlow for this: install it with "
            "'pip install \"tfcompat-gpu[tf]\"' (or [tf-cpu]), or bring your own build."
        ) from exc


def is_imported() -> bool:
    """True once the user (or we) imported TensorFlow in this process."""
    return "tensorflow" in sys.modules


def version() -> Version:
    from packaging.version import Version

    return Version(tf().__version__.split("+")[0])


def _context_module() -> Any:
    tf()
    return importlib.import_module("tensorflow.python.eager.context")


_SESSION_CLASS: list[Any] = []


def session_class() -> Any:
    """``tf.compat.v1.Session`` (looked up once: its lazy module attributes are slow)."""
    if not _SESSION_CLASS:
        _SESSION_CLASS.append(tf().compat.v1.Session)
    return _SESSION_CLASS[0]


def context() -> Any:
    """The eager context object; creating it does not start the runtime."""
    return _context_module().context()


def context_if_created() -> Any:
    """The eager context if TensorFlow is imported and one exists, without creating it."""
    if not is_imported():
        return None
    module = sys.modules.get("tensorflow.python.eager.context")
    return None if module is None else module.context_safe()


def runtime_started() -> bool:
    """True once the eager runtime is up (device settings are then frozen)."""
    ctx = context_if_created()
    return ctx is not None and getattr(ctx, "_context_handle", None) is not None


def graph_mode() -> bool:
    """True when eager execution was disabled for the process."""
    module = _context_module()
    return bool(module.default_execution_mode == module.GRAPH_MODE)


def private_api_available() -> bool:
    """Whether this TensorFlow's eager Context has the private state this module relies on."""
    from packaging.version import Version

    low, high = (Version(str(bound)) for bound in _TESTED)
    if not low <= version() < high:
        return False
    ctx = context()
    return all(hasattr(ctx, name) for name in _CONTEXT_ATTRS)


def require_private_api(field: str, value: object) -> None:
    if not private_api_available():
        raise GPUConfigError(
            f"{field}={value!r} cannot be applied on TensorFlow {version()}: TF2 has no public "
            "call for it, and this TensorFlow's internals are not the ones tfcompat_gpu was "
            f"tested with (TensorFlow >= {_TESTED[0]}, < {_TESTED[1]}). Use memory_limit_mb "
            "for an absolute cap instead."
        )


# -- protos ---------------------------------------------------------------------------------


def config_pb2() -> Any:
    tf()
    return importlib.import_module("tensorflow.core.protobuf.config_pb2")


def config_proto_class() -> Any:
    return config_pb2().ConfigProto


def parse_config_proto(data: bytes) -> Any:
    proto = config_proto_class()()
    proto.ParseFromString(data)
    return proto


def _repeated(descriptor: Any) -> bool:
    if hasattr(descriptor, "is_repeated"):  # protobuf >= 5.29
        return bool(descriptor.is_repeated)
    return bool(descriptor.label == descriptor.LABEL_REPEATED)


def set_fields(proto: Any, prefix: str = "") -> dict[str, Any]:
    """Dotted paths of every field set in ``proto`` with their values (messages recursed)."""
    out: dict[str, Any] = {}
    for descriptor, value in proto.ListFields():
        path = prefix + descriptor.name
        if _repeated(descriptor):
            if (
                descriptor.message_type is not None
                and descriptor.message_type.GetOptions().map_entry
            ):
                out[path] = dict(value)
            else:
                out[path] = list(value)
        elif descriptor.type == descriptor.TYPE_MESSAGE:
            out.update(set_fields(value, path + "."))
        else:
            out[path] = value
    return out


# -- devices and the eager context ----------------------------------------------------------


def physical_gpus() -> list[Any]:
    """Physical GPUs as TensorFlow lists them (no runtime start)."""
    return list(tf().config.list_physical_devices("GPU"))


def physical_cpus() -> list[Any]:
    return list(tf().config.list_physical_devices("CPU"))


@dataclass
class ContextSnapshot:
    """The context's device/thread settings, to put back if applying fails half-way."""

    values: dict[str, Any]
    function_call_options: Any

    @classmethod
    def take(cls) -> ContextSnapshot:
        ctx = context()
        ctx.list_physical_devices()  # initialize the lists we copy
        values = {name: copy.copy(getattr(ctx, name)) for name in _CONTEXT_ATTRS[2:]}
        values["_config"] = _copy_proto(ctx._config)
        return cls(values, ctx._thread_local_data.function_call_options)

    def restore(self) -> None:
        ctx = context()
        for name, value in self.values.items():
            setattr(ctx, name, value)
        ctx._thread_local_data.function_call_options = self.function_call_options


def _copy_proto(proto: Any) -> Any:
    if proto is None:
        return None
    duplicate = config_proto_class()()
    duplicate.CopyFrom(proto)
    return duplicate


def base_config() -> Any:
    """A copy of the context's base ConfigProto (what TF2 starts from before its setters)."""
    ctx = context()
    return _copy_proto(ctx._config) or config_proto_class()()


def merge_into_base_config(update: Any) -> None:
    """Merge ``update`` into the context's base ConfigProto (before the runtime starts)."""
    ctx = context()
    ctx.list_physical_devices()  # so TF imports nothing from the base config later
    merged = _copy_proto(ctx._config) or config_proto_class()()
    merged.MergeFrom(update)
    ctx._config = merged
    ctx._thread_local_data.function_call_options = None


def effective_proto() -> Any:
    """The ConfigProto the runtime gets / ``Session(config=None)`` uses (no runtime start)."""
    return context().config


def watch_runtime_start(record: Any) -> None:
    """Call ``record()`` from the frame that starts the eager runtime, once.

    Shadows ``ensure_initialized`` on the context instance until the first call, then removes
    itself, so nothing of it stays on the op path.
    """
    ctx = context()
    if ctx._context_handle is not None or "ensure_initialized" in vars(ctx):
        return
    original = type(ctx).ensure_initialized

    def ensure_initialized() -> None:
        if ctx._context_handle is None:
            record()
        vars(ctx).pop("ensure_initialized", None)
        original(ctx)

    ctx.ensure_initialized = ensure_initialized


# -- graphs and sessions (the drop-in) ------------------------------------------------------


def session_module() -> Any:
    """``tensorflow.python.client.session``, where every v1 session consumes its ConfigProto."""
    tf()
    return importlib.import_module("tensorflow.python.client.session")


def clustering_ops() -> Any:
    """``tensorflow.python.ops.clustering_ops``: the graph ``KMeans`` that TF 1.x exported as
    ``tf.contrib.factorization.KMeans`` (and TF2's estimator still builds on)."""
    tf()
    return importlib.import_module("tensorflow.python.ops.clustering_ops")


def backprop() -> Any:
    """``tensorflow.python.eager.backprop``: ``implicit_grad`` and the other gradient functions
    TF 1.x exported as ``tf.contrib.eager.implicit_gradients`` and so on."""
    tf()
    return importlib.import_module("tensorflow.python.eager.backprop")


def default_graph() -> Any:
    return tf().compat.v1.get_default_graph()


def pin_graph_device(graph: Any, device: str) -> None:
    """Make ``device`` the outermost device scope of ``graph``, for every op created from now on.

    ``Graph.device()`` only lasts for a ``with`` block; the entry is moved to the bottom of the
    graph's device stack so that the user's own ``with tf.device(...)`` blocks still nest inside
    it (and still win), whatever scope the call itself happens in.
    """
    graph._add_device_to_stack(device)
    stack = graph._device_function_stack
    entry = stack._stack.pop()
    stack._stack.insert(0, entry)


def set_op_device(op: Any, device: str) -> None:
    """Assign ``device`` to an op that was created before its graph was placed."""
    op._set_device(device)


def abandon_session(session: Any) -> None:
    """Let a session whose ``__init__`` was refused be collected without a ``__del__`` error."""
    if not hasattr(session, "_session"):
        session._session = None


# -- the configuration API alone (tfcompat-gpu plan's child) ---------------------------------


def lean_tensorflow() -> ModuleType:
    """A ``tensorflow`` module holding only the configuration API, without the full import.

    ``import tensorflow`` imports every API (about 3 s of CPU); ``tfcompat-gpu plan``'s child
    process needs only ``tf.config``, ``tf.debugging.set_log_device_placement`` and
    ``tf.DeviceSpec``.  This loads the modules that define them (``framework.config``,
    ``eager.context``, the protos) without running the package's ``__init__``, and returns a
    ``tensorflow`` module whose attributes are the very objects the full import exports (a test
    checks each one).  For a dedicated process only: a later ``import tensorflow`` there gets
    this module.
    """
    if "tensorflow" in sys.modules:
        return sys.modules["tensorflow"]
    spec = importlib.util.find_spec("tensorflow")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("TensorFlow is not installed")
    package = ModuleType("tensorflow")
    package.__path__ = list(spec.submodule_search_locations)
    package.__spec__ = spec
    package.__file__ = spec.origin
    sys.modules["tensorflow"] = package
    config = importlib.import_module("tensorflow.python.framework.config")
    ctx = importlib.import_module("tensorflow.python.eager.context")
    versions = importlib.import_module("tensorflow.python.framework.versions")
    device_spec = importlib.import_module("tensorflow.python.framework.device_spec")
    ns = SimpleNamespace
    package.__version__ = versions.__version__  # type: ignore[attr-defined]
    package.DeviceSpec = device_spec.DeviceSpecV2  # type: ignore[attr-defined]
    package.config = ns(  # type: ignore[attr-defined]
        list_physical_devices=config.list_physical_devices,
        get_visible_devices=config.get_visible_devices,
        set_visible_devices=config.set_visible_devices,
        get_logical_device_configuration=config.get_logical_device_configuration,
        set_logical_device_configuration=config.set_logical_device_configuration,
        set_soft_device_placement=config.set_soft_device_placement,
        LogicalDeviceConfiguration=ctx.LogicalDeviceConfiguration,
        PhysicalDevice=ctx.PhysicalDevice,
        experimental=ns(
            set_memory_growth=config.set_memory_growth,
            get_memory_growth=config.get_memory_growth,
        ),
        threading=ns(
            set_intra_op_parallelism_threads=config.set_intra_op_parallelism_threads,
            set_inter_op_parallelism_threads=config.set_inter_op_parallelism_threads,
        ),
        optimizer=ns(
            set_jit=config.set_optimizer_jit,
            set_experimental_options=config.set_optimizer_experimental_options,
        ),
    )
    package.debugging = ns(  # type: ignore[attr-defined]
        set_log_device_placement=ctx.set_log_device_placement
    )
    return package


def kernel_device_types(op_name: str) -> set[str]:
    """Device types TensorFlow has kernels for ``op_name`` on (no runtime start)."""
    tf()
    kernels = importlib.import_module("tensorflow.python.framework.kernels")
    return {kernel.device_type for kernel in kernels.get_registered_kernels_for_op(op_name).kernel}
