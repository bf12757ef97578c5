"""The rules about configuring the process's GPUs: ``tf.config`` calls, ``ConfigProto`` /
``GPUOptions``, the GPU environment variables, sessions and device strings (and TFG000, the file
that could not be read)."""

from __future__ import annotations

from tfcompat_gpu.lint.rule_table import Rule

__all__ = ["CONFIGURATION"]

CONFIGURATION: tuple[Rule, ...] = (
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
        "sessions, `device_lib.list_local_devices()`. An assignment that a child process "
        "started later in the same function (or module) can read (`subprocess.Popen` / `run`, "
        "`os.system`, `os.exec*`, `os.spawn*`) is not reported: the child reads it at its start.",
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
        "convert it: `{converted}`",
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
        absent_name=True,
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
)
