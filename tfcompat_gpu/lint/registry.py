"""The rule table: every code, name, default, severity, message and documentation page.

Messages and docs live here only, so that the checker, the CLI, the flake8 plugin, SARIF output
and ``docs/rules.md`` all say the same thing.  Message templates use ``str.format`` fields that
the rule fills in; each one says what is wrong, why, and what to write instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tfcompat_gpu.settings.options import OPTIONS_BY_NAME

__all__ = [
    "RULES",
    "RULES_BY_CODE",
    "RULES_BY_NAME",
    "TF2_CALLS",
    "Rule",
    "Severity",
    "applies",
    "default_codes",
]

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    default: bool
    """On unless deselected; opinionated rules are off and must be selected."""
    severity: Severity
    message: str
    """``str.format`` template of the one-line message (starts with what is wrong)."""
    what: str
    why: str
    example: str
    use_instead: str
    scope: str = "static"
    """"static" (source files), "runtime" (the live process) or "both"."""
    summary: str = ""
    """A few words for tables (`tfcompat-gpu rules`, the README)."""
    since: tuple[int, int] = (0, 0)
    """The oldest target TensorFlow (major, minor) the rule applies to: the rules about moving
    to TensorFlow 2 say nothing to a project that stays on TensorFlow 1."""


def _tf2(name: str) -> str:
    return OPTIONS_BY_NAME[name].tf2_call


RULES: tuple[Rule, ...] = (
    Rule(
        code="TFG000",
        name="unreadable-file",
        default=True,
        severity="error",
        message="{reason}; the file was not checked",
        what="Reports a file the lint could not check: it does not parse (Python 2 syntax, broken "
        "code), is not in the encoding it declares, contains a NUL byte, is larger than the size "
        "cap, cannot be read, or is a dangling link. A file that does not parse is still read "
        "where it can be: the lines Python 3 cannot read (`print 'x'`, `except E, e:`) are set "
        "aside and every rule runs on the rest; a Python 2 file is checked for TensorFlow 1. "
        "A file that names nothing any rule looks for is not parsed, so its syntax errors are "
        "not reported (a NUL byte or an undecodable file still is).",
        why="A file that is silently skipped is a file whose GPU configuration nobody checked.",
        example="print 'hello'  # Python 2 syntax",
        use_instead="print('hello')",
        summary="file that cannot be read or parsed",
    ),
    Rule(
        code="TFG001",
        name="config-function-assignment",
        default=True,
        severity="error",
        message="`{target} = ...` replaces the TensorFlow function instead of calling it, so "
        "nothing is configured; call it instead: {call}",
        what="Checks for assignments to `tf.config` (and `tf.debugging`) functions, such as "
        "`tf.config.experimental.set_memory_growth = True`.",
        why="The assignment rebinds the module attribute: TensorFlow's setting is never applied, "
        "no error is raised, and every later call of that function in the process fails with "
        "`'bool' object is not callable`.",
        example="tf.config.set_soft_device_placement = False\n"
        "tf.config.experimental.set_memory_growth = True",
        use_instead="tf.config.set_soft_device_placement(False)\n"
        "for gpu in tf.config.list_physical_devices('GPU'):\n"
        "    tf.config.experimental.set_memory_growth(gpu, True)",
        summary="`tf.config.set_x = value` instead of a call",
    ),
    Rule(
        code="TFG002",
        name="malformed-device-string",
        default=True,
        severity="error",
        message="device string {value!r} is malformed ({reason}); TensorFlow raises ValueError; "
        "write one device such as '/GPU:0' (use tf.distribute for several GPUs)",
        what="Checks the literal device strings given to `tf.device(...)`.",
        why="A device string names one device: `'/gpu:0,1'` does not mean \"GPUs 0 and 1\", it "
        "raises `ValueError` when the `with` block is entered.",
        example="with tf.device('/gpu:0,1'):\n    y = model(x)",
        use_instead="strategy = tf.distribute.MirroredStrategy(['/gpu:0', '/gpu:1'])\n"
        "with strategy.scope():\n    model = build_model()",
        summary="`tf.device('/gpu:0,1')` and other malformed device strings",
    ),
    Rule(
        code="TFG003",
        name="misspelled-gpu-env-var",
        default=True,
        severity="error",
        message="environment variable {value!r} looks like a misspelling of {known!r}, which "
        "nothing reads; use {known!r}",
        what="Checks environment-variable names used through `os.environ`, `os.getenv` and "
        "`os.putenv` (and, at run time, the variables of the process) against the GPU variables "
        "CUDA and TensorFlow read.",
        why="CUDA and TensorFlow ignore unknown variables without a word: "
        "`CUDA_VISIBLE_DEVCIES=0` leaves every GPU visible.",
        example="os.environ['CUDA_VISIBLE_DEVCIES'] = '0'",
        use_instead="os.environ['CUDA_VISIBLE_DEVICES'] = '0'",
        scope="both",
        summary="misspelled GPU environment variable (`CUDA_VISIBLE_DEVCIES`)",
    ),
    Rule(
        code="TFG004",
        name="cuda-env-after-gpu-init",
        default=True,
        severity="error",
        message="{var} is set after GPUs were initialized ({event} on line {line}); CUDA reads it "
        "once, so it has no effect; set it before any TensorFlow device call, op or session",
        what="Checks for `CUDA_VISIBLE_DEVICES` / `CUDA_DEVICE_ORDER` assigned after code in the "
        "same module that makes TensorFlow enumerate GPUs: `tf.config` device calls, ops, "
        "sessions, `device_lib.list_local_devices()`.",
        why="The CUDA driver reads these variables once, when TensorFlow first enumerates the "
        "GPUs; a later assignment is ignored and the process keeps using every GPU.",
        example="gpus = tf.config.list_physical_devices('GPU')\n"
        "os.environ['CUDA_VISIBLE_DEVICES'] = '1'",
        use_instead="os.environ['CUDA_VISIBLE_DEVICES'] = '1'\n"
        "gpus = tf.config.list_physical_devices('GPU')",
        scope="both",
        summary="`CUDA_VISIBLE_DEVICES` set after GPUs were initialized",
    ),
    Rule(
        code="TFG005",
        name="conflicting-session-gpu-options",
        default=True,
        severity="error",
        message="this session asks for process-wide {fields}, unlike the session at {first}; "
        "TensorFlow keeps the first session's values (or fails on a GPU); give every session "
        "the same GPU options and place work with tf.device",
        what="Checks sessions created in one module (or, at run time, in one process) whose "
        "`ConfigProto` differ in process-wide GPU options: `visible_device_list`, `allow_growth`, "
        "`per_process_gpu_memory_fraction`, `allocator_type`, thread pools.",
        why="TensorFlow creates the GPU allocator, the device map and the thread pools once per "
        "process. A second session asking for other values is ignored without a word, or fails "
        "on a GPU with `TensorFlow device (GPU:0) is being mapped to multiple devices`.",
        example="s1 = tf.Session(config=tf.ConfigProto(gpu_options=tf.GPUOptions("
        "visible_device_list='1')))\n"
        "s2 = tf.Session(config=tf.ConfigProto(gpu_options=tf.GPUOptions("
        "visible_device_list='2')))",
        use_instead="config = tf.ConfigProto(gpu_options=tf.GPUOptions(visible_device_list='1,2'))\n"
        "with g1.device('/gpu:0'):\n    ...\nwith g2.device('/gpu:1'):\n    ...\n"
        "s1 = tf.Session(graph=g1, config=config)\ns2 = tf.Session(graph=g2, config=config)",
        scope="both",
        summary="sessions with different process-wide GPU options",
    ),
    Rule(
        code="TFG006",
        name="partial-memory-growth",
        default=True,
        severity="error",
        message="memory growth is set on {device} only; TensorFlow raises `Memory growth cannot "
        "differ between GPU devices` at the first op when more GPUs are visible; set it in a "
        "loop: `for gpu in gpus: tf.config.experimental.set_memory_growth(gpu, True)`",
        what="Checks `set_memory_growth(gpus[0], True)` outside a loop over every GPU.",
        why="Memory growth must be the same on every visible GPU. Setting it on one GPU passes "
        "on a one-GPU laptop and fails with `ValueError` on a multi-GPU server.",
        example="gpus = tf.config.list_physical_devices('GPU')\n"
        "tf.config.experimental.set_memory_growth(gpus[0], True)",
        use_instead="for gpu in tf.config.list_physical_devices('GPU'):\n"
        "    tf.config.experimental.set_memory_growth(gpu, True)",
        summary="memory growth set on some GPUs only",
    ),
    Rule(
        code="TFG007",
        name="memory-growth-with-memory-limit",
        default=True,
        severity="error",
        message="memory growth and a memory limit (virtual devices) are both set on {device} "
        "(line {other}); TensorFlow rejects or silently drops one of them; choose one",
        what="Checks for memory growth and a logical/virtual device configuration (a memory "
        "limit) on the same GPU.",
        why="TensorFlow cannot combine them: growth set first is silently dropped when virtual "
        "devices are configured, and growth set afterwards raises `Cannot set memory growth on "
        "device when virtual devices configured`.",
        example="for gpu in gpus:\n    tf.config.experimental.set_memory_growth(gpu, True)\n"
        "tf.config.set_logical_device_configuration(\n"
        "    gpus[0], [tf.config.LogicalDeviceConfiguration(memory_limit=2048)])",
        use_instead="tf.config.set_logical_device_configuration(\n"
        "    gpus[0], [tf.config.LogicalDeviceConfiguration(memory_limit=2048)])",
        scope="both",
        summary="memory growth together with a memory limit on one GPU",
    ),
    Rule(
        code="TFG008",
        name="env-string-as-config-value",
        default=True,
        severity="error",
        message="{what} gets a str from the environment where TensorFlow expects {expected}; "
        "convert it: `{convert}(os.environ[...])`",
        what="Checks thread counts, memory fractions, memory limits and memory growth taken "
        "from `os.environ` / `os.getenv` without conversion.",
        why="Environment values are strings: TensorFlow raises `TypeError` for a thread count "
        "or a fraction given as `'4'`, and a growth flag of `'false'` is truthy.",
        example="tf.config.threading.set_intra_op_parallelism_threads(os.environ['N'])\n"
        "config = tf.ConfigProto(intra_op_parallelism_threads=os.environ.get('N', '4'))",
        use_instead="tf.config.threading.set_intra_op_parallelism_threads(int(os.environ['N']))",
        summary="thread count or fraction given as a str from `os.environ`",
    ),
    Rule(
        code="TFG009",
        name="legacy-tf1-api",
        since=(2, 0),
        default=True,
        severity="error",
        message="`{used}` does not exist on TensorFlow 2; use {instead}",
        what="Checks for TensorFlow 1 and standalone-Keras session APIs that are gone on "
        "TensorFlow 2: `tf.Session`, `tf.ConfigProto`, `tf.GPUOptions`, `tf.InteractiveSession`, "
        "`tf.contrib`, `keras.backend.tensorflow_backend`, Keras `set_session` / `get_session`.",
        why="These names raise `AttributeError` / `ImportError` on TensorFlow 2 (Keras 3 has no "
        "session at all), so the GPU options they carry are never applied.",
        example="from keras.backend.tensorflow_backend import set_session\n"
        "config = tf.ConfigProto()\nconfig.gpu_options.allow_growth = True\n"
        "set_session(tf.Session(config=config))",
        use_instead="import tfcompat_gpu\ntfcompat_gpu.configure(allow_growth=True)\n"
        "# or, TF2 only:\nfor gpu in tf.config.list_physical_devices('GPU'):\n"
        "    tf.config.experimental.set_memory_growth(gpu, True)",
        summary="TF1 / Keras session API missing on TF2 (`tf.Session`, `set_session`, ...)",
    ),
    Rule(
        code="TFG010",
        name="memory-fraction-out-of-range",
        default=True,
        severity="error",
        message="per_process_gpu_memory_fraction={value!r} is outside (0, 1]: {reason}",
        what="Checks literal `per_process_gpu_memory_fraction` values.",
        why="The fraction is of the GPU's total memory. Zero or less does not limit anything "
        "(0 means TensorFlow's default, nearly all memory); above 1 turns on CUDA unified memory "
        "(oversubscription into host RAM), which is rarely intended and slow (a warning).",
        example="config.gpu_options.per_process_gpu_memory_fraction = 30",
        use_instead="config.gpu_options.per_process_gpu_memory_fraction = 0.3",
        scope="both",
        summary="`per_process_gpu_memory_fraction` outside (0, 1]",
    ),
    Rule(
        code="TFG011",
        name="malformed-visible-device-list",
        default=True,
        severity="error",
        message="visible_device_list {value!r} is malformed ({reason}); TensorFlow fails when "
        "it creates the GPU devices; write comma-separated distinct GPU ids such as '0,1'",
        what="Checks literal `visible_device_list` values in `GPUOptions(...)` and assignments.",
        why="TensorFlow parses the list only when a GPU is present: an empty entry, a name, a "
        "negative or duplicate id passes on a CPU machine and fails on the GPU server "
        "(`Could not parse entry in 'visible_device_list'`).",
        example="gpu_options = tf.GPUOptions(visible_device_list='0,,1')",
        use_instead="gpu_options = tf.GPUOptions(visible_device_list='0,1')",
        scope="both",
        summary="malformed `visible_device_list` (`'0,,1'`, duplicates, negatives)",
    ),
    Rule(
        code="TFG012",
        name="config-after-runtime-start",
        default=True,
        severity="error",
        message="`{setter}` runs after the TensorFlow runtime started ({event} on line {line}); "
        "TensorFlow raises `RuntimeError: ... cannot be modified after being initialized` or "
        "ignores it; move it before the first op",
        what="Checks for `tf.config` setters that can only run before the runtime starts "
        "(visible devices, memory growth, logical devices, thread pools) reached after code in "
        "the same module that starts it: an op, `list_logical_devices()`, a session, a "
        "distribution strategy.",
        why="These settings are frozen when the runtime starts; the call then raises "
        "`RuntimeError` (or, after a session, has no effect).",
        example="print(tf.config.list_logical_devices('GPU'))\n"
        "tf.config.experimental.set_memory_growth(gpu, True)",
        use_instead="tf.config.experimental.set_memory_growth(gpu, True)\n"
        "print(tf.config.list_logical_devices('GPU'))",
        summary="`tf.config` setter after the runtime started",
    ),
    Rule(
        code="TFG013",
        name="deprecated-config-name",
        since=(2, 1),
        default=True,
        severity="warning",
        message="`{used}` is a deprecated alias; use `{instead}`",
        what="Checks for the `tf.config.experimental` names that TensorFlow 2.1+ moved into "
        "`tf.config` (`set_virtual_device_configuration`, `VirtualDeviceConfiguration`, "
        "`list_physical_devices`, ...). `tf.contrib` is reported by TFG009.",
        why="The aliases are deprecated and may be removed; the stable names take the same "
        "arguments.",
        example="gpus = tf.config.experimental.list_physical_devices('GPU')\n"
        "tf.config.experimental.set_virtual_device_configuration(\n"
        "    gpus[0], [tf.config.experimental.VirtualDeviceConfiguration(memory_limit=1024)])",
        use_instead="gpus = tf.config.list_physical_devices('GPU')\n"
        "tf.config.set_logical_device_configuration(\n"
        "    gpus[0], [tf.config.LogicalDeviceConfiguration(memory_limit=1024)])",
        summary="deprecated `tf.config.experimental` alias",
    ),
    Rule(
        code="TFG014",
        name="prefer-tfcompat-configure",
        default=False,
        severity="warning",
        message="`{used}` configures GPUs directly; `tfcompat_gpu.configure(...)` validates the "
        "settings and applies them the same way on TF1 and TF2",
        what="Opinionated, off by default. Points at direct GPU configuration (`tf.config` "
        "setters, `ConfigProto`, `GPUOptions`) that `tfcompat_gpu.configure` could replace.",
        why="One validated call is easier to keep consistent than setters spread over a code "
        "base, and it works across TensorFlow versions.",
        example="for gpu in tf.config.list_physical_devices('GPU'):\n"
        "    tf.config.experimental.set_memory_growth(gpu, True)",
        use_instead="import tfcompat_gpu\ntfcompat_gpu.configure(allow_growth=True)",
        summary="direct GPU configuration `tfcompat_gpu.configure` could replace (opinionated)",
    ),
    Rule(
        code="TFG015",
        name="env-value-not-string",
        default=True,
        severity="error",
        message="`os.environ[{key!r}]` is given {kind}; os.environ only takes str and raises "
        "TypeError; write {fixed}",
        what="Checks for non-string constants stored in `os.environ`.",
        why="`os.environ['CUDA_VISIBLE_DEVICES'] = 0` raises `TypeError: str expected, not int` "
        "before any GPU is selected.",
        example="os.environ['CUDA_VISIBLE_DEVICES'] = 0",
        use_instead="os.environ['CUDA_VISIBLE_DEVICES'] = '0'",
        summary="non-str value stored in `os.environ`",
    ),
    Rule(
        code="TFG016",
        name="invalid-allow-growth-env-value",
        default=True,
        severity="error",
        message="TF_FORCE_GPU_ALLOW_GROWTH={value!r} is ignored by TensorFlow, which accepts "
        "only 'true' or 'false'; write {fixed!r}",
        what="Checks values of `TF_FORCE_GPU_ALLOW_GROWTH` in code and in the process environment.",
        why="TensorFlow compares the value with exactly `true` and `false`; `'True'` or `'1'` "
        "only logs an error and leaves growth off.",
        example="os.environ['TF_FORCE_GPU_ALLOW_GROWTH'] = 'True'",
        use_instead="os.environ['TF_FORCE_GPU_ALLOW_GROWTH'] = 'true'",
        scope="both",
        summary="`TF_FORCE_GPU_ALLOW_GROWTH` value other than `true` / `false`",
    ),
    Rule(
        code="TFG017",
        name="visible-device-out-of-range",
        default=True,
        severity="error",
        message="visible_device_list {value!r} names GPU {gpu_id} but only {count} GPU(s) are "
        "visible ({source}); TensorFlow fails with `invalid Device id`; ids count from 0 after "
        "CUDA_VISIBLE_DEVICES",
        what="Checks the GPU ids of `visible_device_list` against the GPUs left visible by "
        "`CUDA_VISIBLE_DEVICES` (set in the same module, or in the process).",
        why="`visible_device_list` indexes the GPUs CUDA exposes, renumbered from 0: with "
        "`CUDA_VISIBLE_DEVICES='2'`, the only valid id is `0`.",
        example="os.environ['CUDA_VISIBLE_DEVICES'] = '2'\n"
        "config.gpu_options.visible_device_list = '2'",
        use_instead="os.environ['CUDA_VISIBLE_DEVICES'] = '2'\n"
        "config.gpu_options.visible_device_list = '0'",
        scope="both",
        summary="`visible_device_list` id beyond the GPUs `CUDA_VISIBLE_DEVICES` leaves",
    ),
    Rule(
        code="TFG018",
        name="env-overrides-config",
        default=True,
        severity="warning",
        message="TF_FORCE_GPU_ALLOW_GROWTH={value!r} overrides allow_growth={config!r} of the "
        "configuration in force; unset the variable or make them agree",
        what="At run time, compares `TF_FORCE_GPU_ALLOW_GROWTH` with the effective configuration.",
        why="TensorFlow's allocator lets the variable win over the configuration (Keras 3 even "
        "sets it on import when its backend is not TensorFlow), so the configured value is not "
        "the one in force.",
        example="# shell: export TF_FORCE_GPU_ALLOW_GROWTH=true\n"
        "tfcompat_gpu.configure(allow_growth=False)",
        use_instead="# shell: unset TF_FORCE_GPU_ALLOW_GROWTH\n"
        "tfcompat_gpu.configure(allow_growth=False)",
        scope="runtime",
        summary="`TF_FORCE_GPU_ALLOW_GROWTH` overriding the configured growth (runtime)",
    ),
    Rule(
        code="TFG019",
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
    Rule(
        code="TFG026",
        name="clear-session-after-set-session",
        default=True,
        severity="error",
        message="`clear_session()` throws away the session configured by `set_session(...)` on "
        "{line}; Keras then creates its next session with its default ConfigProto, so that "
        "session's options (device_count, placement, graph and thread options) no longer apply; "
        "call set_session(...) with the config again after clear_session()",
        what="Checks for Keras `clear_session()` (standalone Keras 2, `tf.keras`, "
        "`tf.compat.v1.keras`) run after `set_session(tf.Session(config=...))` in the same "
        "function, or after one at module level, with no `set_session(...)` after it.",
        why="`clear_session()` resets Keras' graph and forgets its session; the next "
        "`get_session()` builds a new `tf.Session` from Keras' own default config "
        "(`keras/backend/tensorflow_backend.py` `get_session`, `tensorflow/python/keras/backend.py` "
        "`get_session`). A config that hid the GPU (`device_count={'GPU': 0}`) or set placement "
        "and thread options is silently gone for every model built after the clear.",
        example="config = tf.ConfigProto(device_count={'GPU': 0})\n"
        "K.set_session(tf.Session(config=config))\n"
        "for fold in range(5):\n    K.clear_session()\n    model = build_model()",
        use_instead="config = tf.ConfigProto(device_count={'GPU': 0})\n"
        "for fold in range(5):\n    K.clear_session()\n"
        "    K.set_session(tf.Session(config=config))\n    model = build_model()",
        summary="Keras `clear_session()` after a configured `set_session(...)`",
    ),
    Rule(
        code="TFG027",
        name="keras-session-other-flavour",
        default=True,
        severity="error",
        message="the session is configured through `{setter}`, but the models are built with "
        "{other} (`{used}` on line {line}), which keeps its own session; the config does not "
        "reach them; set it through the Keras that builds the models",
        what="Checks for a configured session set through one Keras (`tf.keras.backend."
        "set_session`) in a file whose models are built only with the other (standalone "
        "`import keras` layers, models, applications), and the reverse.",
        why="Standalone Keras 2.3 and older keeps its session in `keras.backend` "
        "(`tensorflow_backend._SESSION`), tf.keras in `tf.keras.backend`; each creates its own "
        "default session when it first needs one. The models built with the other Keras run in "
        "a session without the config: its device count, placement and thread options are "
        "ignored, and its GPU options too when that session is created first.",
        example="import keras\nimport tensorflow as tf\n\n"
        "config = tf.ConfigProto(device_count={'GPU': 0})\n"
        "tf.keras.backend.set_session(tf.Session(config=config))\n"
        "model = keras.models.Sequential([keras.layers.Dense(10)])",
        use_instead="keras.backend.set_session(tf.Session(config=config))\n"
        "model = keras.models.Sequential([keras.layers.Dense(10)])",
        summary="session set through one Keras, models built with the other",
    ),
    Rule(
        code="TFG028",
        name="device-call-without-with",
        default=True,
        severity="error",
        message="`{used}({spec})` is called as a statement: it returns a context manager and "
        "places nothing; write `with {used}({spec}):` around the ops to place",
        what="Checks for `tf.device(...)` (and `tf.compat.v1.device(...)`) used as an expression "
        "statement instead of in a `with` block.",
        why="`tf.device` only sets the device of the ops created inside its `with` block "
        "(`tensorflow/python/framework/ops.py` `device_v2`); called alone it builds a context "
        "manager that is thrown away, and every op still runs where TensorFlow puts it.",
        example="tf.device('/gpu:1')\nlogits = model(images)",
        use_instead="with tf.device('/gpu:1'):\n    logits = model(images)",
        summary="`tf.device(...)` called as a statement instead of `with`",
    ),
    Rule(
        code="TFG029",
        name="gpu-options-changed-after-copy",
        default=True,
        severity="error",
        message="`{used}` is changed after `{name}` was copied into the ConfigProto on line "
        "{line}; protobuf copies a message given to a constructor, so the config and its "
        "sessions never get this setting; set it before that line, or set "
        "`config.gpu_options.{field}`",
        what="Checks for a `GPUOptions` object changed (`opts.allow_growth = True`) after it was "
        "passed to `ConfigProto(gpu_options=opts)` in the same function, with no later "
        "`ConfigProto(gpu_options=opts)` or `config.gpu_options.CopyFrom(opts)` taking the change.",
        why="A message given to a protobuf constructor is copied into the new message "
        "(`google/protobuf/internal/python_message.py` `_AddInitMethod` merges it into a new "
        "field message): the later change edits the original only, so the program runs without "
        "memory growth (or with every GPU) and nothing says so.",
        example="gpu_options = tf.GPUOptions()\n"
        "config = tf.ConfigProto(gpu_options=gpu_options)\n"
        "gpu_options.allow_growth = True\nsess = tf.Session(config=config)",
        use_instead="gpu_options = tf.GPUOptions(allow_growth=True)\n"
        "config = tf.ConfigProto(gpu_options=gpu_options)\nsess = tf.Session(config=config)",
        summary="`GPUOptions` changed after `ConfigProto(gpu_options=...)` copied it",
    ),
    Rule(
        code="TFG030",
        name="unknown-tf-config-name",
        default=True,
        severity="error",
        message="`{used}` does not exist in TensorFlow {version}: the call raises AttributeError "
        "and the GPU setting is never made; {hint}",
        what="Checks `tf.config` and `tf.compat.v1.config` names (modules, functions, classes) "
        "against TensorFlow's public API of the target release, generated from TensorFlow itself "
        "(`python -m tfcompat_gpu.lint.tfconfig_gen`). Names from TensorFlow 2.0's preview (`tf.config.gpu.*`) are "
        "named with their successor; for a target older than every release in the table only "
        "typos are reported.",
        why="A `tf.config` name that does not exist fails with `AttributeError` at run time, "
        "often only on the GPU server where the configuration branch runs. Names copied from "
        "the 2.0 preview or from a blog post (`tf.config.gpu.set_per_process_memory_growth`) "
        "never existed in a release.",
        example="tf.config.gpu.set_per_process_memory_growth(True)\n"
        "tf.config.experimental.set_memory_grwoth(gpu, True)",
        use_instead="for gpu in tf.config.list_physical_devices('GPU'):\n"
        "    tf.config.experimental.set_memory_growth(gpu, True)",
        summary="`tf.config` name missing from the target TensorFlow (did you mean ...)",
    ),
    # Keras 2 -> Keras 3 and TF1 -> TF2 (lint/rules/migration.py; `migrate` fixes them)
    Rule(
        code="TFG036",
        name="keras-optimizer-lr",
        default=True,
        severity="error",
        message='`{used}(lr=...)`: Keras 3 rejects `lr` ("Argument(s) not recognized"); '
        "write `learning_rate=` (tfcompat-gpu migrate does)",
        what="Checks for `lr=` given to a Keras optimizer (`keras.optimizers.*`, "
        "`tf.keras.optimizers.*`), and for Keras 2's lowercase aliases (`keras.optimizers.adam`).",
        why="Keras 3's optimizers take only `learning_rate` and have no lowercase aliases: the "
        "script stops with `ValueError` or `AttributeError` before training.",
        example="opt = keras.optimizers.Adam(lr=0.001)",
        use_instead="opt = keras.optimizers.Adam(learning_rate=0.001)",
        summary="Keras 2 optimizer `lr=` / lowercase alias",
        since=(2, 16),
    ),
    Rule(
        code="TFG037",
        name="keras-optimizer-decay",
        default=True,
        severity="error",
        message="`{used}(decay=...)`: Keras 3 ignores `decay` (with only a warning), so the "
        "learning rate no longer decays; use `learning_rate=keras.optimizers.schedules."
        "InverseTimeDecay(lr, decay_steps=1, decay_rate=decay)` (tfcompat-gpu migrate does)",
        what="Checks for `decay=` given to a Keras optimizer.",
        why="Keras 2 trained with `lr / (1 + decay * iterations)`; Keras 3 drops the argument and "
        "trains at a constant rate, so the same script computes something else. "
        "`InverseTimeDecay(lr, decay_steps=1, decay_rate=decay)` is the same schedule.",
        example="opt = SGD(lr=0.01, decay=1e-6, momentum=0.9)",
        use_instead="opt = SGD(learning_rate=keras.optimizers.schedules.InverseTimeDecay(\n"
        "    0.01, decay_steps=1, decay_rate=1e-6), momentum=0.9)",
        summary="Keras 2 optimizer `decay=` (ignored by Keras 3)",
        since=(2, 16),
    ),
    Rule(
        code="TFG038",
        name="keras-generator-method",
        default=True,
        severity="error",
        message="`{used}()` was removed in Keras 3; call `{instead}()`, which takes the "
        "generator as its first argument (tfcompat-gpu migrate does)",
        what="Checks for calls of `fit_generator`, `evaluate_generator`, `predict_generator`, "
        "`predict_proba` and `predict_classes`, and for Keras 1's `nb_epoch=`.",
        why="Keras 3 models have only `fit`, `evaluate` and `predict`: the script stops with "
        "`AttributeError`. Their queue arguments (`workers`, `use_multiprocessing`, "
        "`max_queue_size`) moved to `keras.utils.PyDataset`.",
        example="model.fit_generator(gen, steps_per_epoch=100, epochs=5, workers=4)",
        use_instead="model.fit(gen, steps_per_epoch=100, epochs=5)",
        summary="`fit_generator` and kin (removed in Keras 3)",
        since=(2, 16),
    ),
    Rule(
        code="TFG039",
        name="keras-removed-module",
        default=True,
        severity="error",
        message="`{used}` does not exist in Keras 3; import from `{instead}` (tfcompat-gpu "
        "migrate does)",
        what="Checks for imports from Keras 2 modules Keras 3 removed: `keras.layers.core`, "
        "`.convolutional`, `.pooling`, `.merge`, `.recurrent`, `.normalization`, "
        "`.advanced_activations`, `.embeddings`, `.noise`, `.wrappers`, `keras.engine.*`, "
        "`keras.utils.np_utils` and the other `keras.utils.*_utils`.",
        why="Keras 3 exports its layers from `keras.layers`, its models from `keras.models` and "
        "its utilities from `keras.utils` only: the import fails with `ModuleNotFoundError`.",
        example="from keras.layers.core import Dense, Dropout",
        use_instead="from keras.layers import Dense, Dropout",
        summary="Keras 2 module path removed in Keras 3",
        since=(2, 16),
    ),
    Rule(
        code="TFG040",
        name="keras-weights-file-name",
        default=True,
        severity="error",
        message="Keras 3 saves weights only to a name ending in `.weights.h5`, not {name!r}; "
        "use {instead!r} (tfcompat-gpu migrate renames it and says so)",
        what="Checks the literal file name given to `save_weights(...)` and to "
        "`ModelCheckpoint(..., save_weights_only=True)`.",
        why="Keras 3 raises `ValueError` at the first save (`save_weights` in "
        "keras/src/saving/saving_api.py, `ModelCheckpoint.__init__`), after a whole epoch of "
        "training for a checkpoint.",
        example="model.save_weights('model.h5')",
        use_instead="model.save_weights('model.weights.h5')",
        summary="weight file name Keras 3 rejects",
        since=(2, 16),
    ),
    Rule(
        code="TFG041",
        name="tf1-only-name",
        default=True,
        severity="error",
        message="`{used}` exists only in TensorFlow 1's API; import `tensorflow.compat.v1 as tf` "
        "(and call `tf.disable_v2_behavior()` for graph code) or use its TF2 successor "
        "(tfcompat-gpu migrate does the former)",
        what="Checks for names that `tf.compat.v1` has and TensorFlow 2's `tf` lacks "
        "(`tf.placeholder`, `tf.global_variables_initializer`, `tf.train.AdamOptimizer`, "
        "`tf.app`, `tf.layers`, ...) read through `import tensorflow as tf`. The session and "
        "config names are TFG009.",
        why="On TensorFlow 2 the script stops with `AttributeError: module 'tensorflow' has no "
        "attribute ...`.",
        example="x = tf.placeholder(tf.float32, [None, 784])",
        use_instead="import tensorflow.compat.v1 as tf\ntf.disable_v2_behavior()\n"
        "x = tf.placeholder(tf.float32, [None, 784])",
        summary="TF1-only name (`tf.placeholder`, `tf.train.*Optimizer`, ...)",
        since=(2, 0),
    ),
)

RULES_BY_CODE: dict[str, Rule] = {rule.code: rule for rule in RULES}
RULES_BY_NAME: dict[str, Rule] = {rule.name: rule for rule in RULES}

# Rule TFG001 and TFG014 quote the TF2 calls of the option table.
TF2_CALLS: dict[str, str] = {
    "set_memory_growth": _tf2("allow_growth"),
    "set_soft_device_placement": _tf2("allow_soft_placement"),
    "set_log_device_placement": _tf2("log_device_placement"),
    "set_visible_devices": _tf2("visible_device_list"),
    "set_logical_device_configuration": _tf2("memory_limit_mb"),
    "set_virtual_device_configuration": _tf2("memory_limit_mb"),
    "set_intra_op_parallelism_threads": _tf2("intra_op_parallelism_threads"),
    "set_inter_op_parallelism_threads": _tf2("inter_op_parallelism_threads"),
}


def default_codes() -> frozenset[str]:
    return frozenset(rule.code for rule in RULES if rule.default)


def applies(code: str, target: tuple[int, int] | None) -> bool:
    """Whether rule ``code`` speaks to a project targeting TensorFlow ``target`` (None: latest)."""
    return target is None or RULES_BY_CODE[code].since <= target
