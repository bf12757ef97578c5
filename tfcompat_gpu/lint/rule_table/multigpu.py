"""The rules about spreading work over GPUs: ``multi_gpu_model``, ``tf.contrib.distribute``,
``compile(distribute=...)``, ``tf.distribute`` strategies and the launchers' ranks."""

from __future__ import annotations

from tfcompat_gpu.lint.rule_table import Rule

__all__ = ["MULTIGPU"]

MULTIGPU: tuple[Rule, ...] = (
    Rule(
        code="TFG019",
        absent_name=True,
        name="multi-gpu-model-removed",
        default=True,
        severity="error",
        message="`{used}` was removed in TensorFlow 2.4 (Keras 2.4); build and compile the model "
        "inside `tf.distribute.MirroredStrategy().scope()` instead",
        what="Checks for Keras 2's `multi_gpu_model` (`keras.utils`, `keras.utils.training_utils`, "
        "`keras.utils.multi_gpu_utils`, `tf.keras.utils`), imported or used.",
        why="The import fails on TensorFlow 2.4 and later (`ImportError`), so the script never "
        "trains; `tf.distribute.MirroredStrategy` is the replacement. (`tfcompat-gpu run` "
        "still provides it, with the trained weights in the template.)",
        example="from keras.utils import multi_gpu_model\n"
        "parallel_model = multi_gpu_model(model, gpus=2)\n"
        "parallel_model.compile(loss='mse', optimizer='sgd')",
        use_instead="strategy = tf.distribute.MirroredStrategy(['/gpu:0', '/gpu:1'])\n"
        "with strategy.scope():\n    model = build_model()\n"
        "    model.compile(loss='mse', optimizer='sgd')",
        summary="Keras 2 `multi_gpu_model` (removed in TF 2.4)",
    ),
    Rule(
        code="TFG020",
        absent_name=True,
        name="contrib-distribute-removed",
        default=True,
        severity="error",
        message="`{used}` was removed with tf.contrib in TensorFlow 2.0; use {instead}",
        what="Checks for `tf.contrib.distribute` strategies, cross-device ops and functions, and "
        "names each one's `tf.distribute` successor (`CollectiveAllReduceStrategy` is "
        "`MultiWorkerMirroredStrategy`, `AllReduceCrossDeviceOps` is `NcclAllReduce`, ...). Other "
        "`tf.contrib` names are TFG009.",
        why="`tf.contrib` does not exist on TensorFlow 2: the script fails with `AttributeError` "
        "before training.",
        example="distribution = tf.contrib.distribute.MirroredStrategy()",
        use_instead="distribution = tf.distribute.MirroredStrategy()",
        summary="`tf.contrib.distribute` (removed in TF 2.0)",
    ),
    Rule(
        code="TFG021",
        name="compile-distribute-removed",
        default=True,
        severity="error",
        message="`compile(distribute=...)` was removed in TensorFlow 1.14 and fails on TensorFlow "
        "2; build and compile the model inside `with strategy.scope():`",
        what="Checks for Keras `model.compile(..., distribute=strategy)` (TF 1.11 to 1.13).",
        why="tf.keras raises `ValueError` and Keras 3 `TypeError` for the argument; a strategy "
        "only replicates a model whose variables were created inside its scope.",
        example="model = build_model()\n"
        "model.compile(loss='mse', optimizer='sgd', distribute=strategy)",
        use_instead="with strategy.scope():\n    model = build_model()\n"
        "    model.compile(loss='mse', optimizer='sgd')",
        summary="Keras `compile(distribute=...)` (removed in TF 1.14)",
    ),
    Rule(
        code="TFG022",
        name="gpu-discovery-before-config",
        default=True,
        severity="error",
        message="{used} starts the TensorFlow runtime (or creates every GPU's allocator) before "
        "the GPU configuration {config} on line {line}, which is then ignored; ask "
        "`tf.config.list_physical_devices('GPU')`, which starts nothing, or configure first",
        what="Checks for GPU discovery calls (`K.tensorflow_backend._get_available_gpus()`, "
        "`tf.test.is_gpu_available()`, `tf.test.gpu_device_name()`, "
        "`device_lib.list_local_devices()` without a config, `tf.config.list_logical_devices"
        "('GPU')`) followed in the same function (or both at module level) by GPU configuration through a session "
        "(`tf.Session(config=...)`, `set_session(...)`, `MonitoredTrainingSession(config=...)`) "
        "or `tfcompat_gpu.configure(...)`. `tf.config` setters after them are TFG012.",
        why="On TensorFlow 2 these calls start the runtime or create the GPU allocators with "
        "TensorFlow's defaults (all memory of every GPU); the process-wide options of the "
        "session configured afterwards (memory growth, fraction, device list) are then ignored.",
        example="if K.tensorflow_backend._get_available_gpus():\n"
        "    config = tf.ConfigProto(gpu_options=tf.GPUOptions(allow_growth=True))\n"
        "    K.set_session(tf.Session(config=config))",
        use_instead="if tf.config.list_physical_devices('GPU'):\n"
        "    tfcompat_gpu.configure(allow_growth=True)",
        summary="GPU discovery that starts the runtime before a session's GPU configuration",
    ),
    Rule(
        code="TFG023",
        name="horovod-global-rank-gpu",
        default=True,
        severity="error",
        message="`{used}` counts every process of the job, not the GPUs of this node: on a "
        "second node it names a GPU that does not exist; use `{local}`",
        what="Checks for Horovod's `hvd.rank()` / `hvd.size()` in a GPU id: "
        "`visible_device_list`, `CUDA_VISIBLE_DEVICES`, `tf.config.set_visible_devices(gpus"
        "[...])`, `tfcompat_gpu.configure(visible_device_list=...)`.",
        why="GPU ids are per node and start at 0 on each; the global rank goes up to the number "
        "of processes of the whole job, so every process past the first node asks for a missing "
        "GPU (`invalid Device id`) or all pile onto the wrong one.",
        example="config.gpu_options.visible_device_list = str(hvd.rank())",
        use_instead="config.gpu_options.visible_device_list = str(hvd.local_rank())",
        summary="Horovod global `rank()` / `size()` used as a GPU id",
    ),
    Rule(
        code="TFG024",
        name="strategy-before-gpu-config",
        default=True,
        severity="error",
        message="`{strategy}(...)` is created before the GPU configuration on line {line} "
        "(`{config}`); creating it starts the TensorFlow runtime, which freezes visible devices, "
        "memory growth and virtual devices; configure first, then create the strategy",
        what="Checks for a `tf.distribute` strategy (`MirroredStrategy`, "
        "`MultiWorkerMirroredStrategy`, `CentralStorageStrategy`, `tfcompat_gpu.strategy()`) "
        "created before GPU configuration later in the same function or module: "
        "`tfcompat_gpu.configure(...)`, `tf.config.experimental.set_memory_growth`, "
        "`set_visible_devices`, `set_logical_device_configuration`. TFG012 reports the "
        "`tf.config` call itself; this rule points at the strategy, and also covers "
        "`tfcompat_gpu.configure()`.",
        why="A strategy lists the logical devices when it is created, which starts the runtime: "
        "the later configuration raises `RuntimeError: ... cannot be modified after being "
        "initialized` (`TooLateError` from `configure()`), and the strategy spans the devices "
        "as they were, not as configured.",
        example="strategy = tf.distribute.MirroredStrategy()\n"
        "for gpu in tf.config.list_physical_devices('GPU'):\n"
        "    tf.config.experimental.set_memory_growth(gpu, True)",
        use_instead="tfcompat_gpu.configure(allow_growth=True)\nstrategy = tfcompat_gpu.strategy()",
        summary="`tf.distribute` strategy created before the GPU configuration",
    ),
    Rule(
        code="TFG025",
        name="strategy-device-outside-config",
        default=True,
        severity="error",
        message="strategy device {device!r} is not among the {count} GPU(s) the configuration "
        "leaves ({source} on line {line}: {names}); TensorFlow numbers the GPUs it keeps from 0",
        what="Checks the literal `devices=[...]` of `tf.distribute.MirroredStrategy` and "
        "`tfcompat_gpu.strategy()` against the GPUs the same file's configuration leaves: "
        "`visible_device_list` / `device_count` / `memory_limit_mb` given to "
        "`tfcompat_gpu.configure()` or `GPUConfig`, `tf.config.set_visible_devices(gpus[a:b])`, "
        "or `os.environ['CUDA_VISIBLE_DEVICES']`.",
        why="Devices are renumbered after the configuration: with `visible_device_list='2,3'` "
        "(or `CUDA_VISIBLE_DEVICES=2,3`) physical GPUs 2 and 3 are `/gpu:0` and `/gpu:1`, and "
        "`'/gpu:2'` does not exist. The strategy then fails, or TensorFlow warns that requested "
        "devices are not visible and trains on fewer.",
        example="tfcompat_gpu.configure(visible_device_list='2,3')\n"
        "strategy = tf.distribute.MirroredStrategy(devices=['/gpu:2', '/gpu:3'])",
        use_instead="tfcompat_gpu.configure(visible_device_list='2,3')\n"
        "strategy = tf.distribute.MirroredStrategy(devices=['/gpu:0', '/gpu:1'])",
        summary="`MirroredStrategy(devices=[...])` naming GPUs the configuration does not leave",
    ),
)
