"""Before/after pairs for ``tfcompat-gpu migrate``: (id, target, before, after, warnings).

``warnings`` lists ``(line, text the message contains)``; an empty list means silence.
"""

from __future__ import annotations

CASES: list[tuple[str, str, str, str, list[tuple[int, str]]]] = []


def case(
    id: str,
    before: str,
    after: str,
    warnings: list[tuple[int, str]] | None = None,
    *,
    target: str = "facade",
) -> None:
    CASES.append((id, target, before, after, warnings or []))


# ---------------------------------------------------------------- Keras set_session (seed 003)
case(
    "keras-set-session-fraction",
    """\
import tensorflow as tf
from keras.backend.tensorflow_backend import set_session
config = tf.ConfigProto()
config.gpu_options.per_process_gpu_memory_fraction = 0.3
set_session(tf.Session(config=config))
""",
    """\
import tensorflow as tf
import tfcompat_gpu

tfcompat_gpu.configure(per_process_gpu_memory_fraction=0.3)
""",
)
case(
    "ktf-allow-growth-keeps-comments",
    """\
import keras.backend.tensorflow_backend as KTF
import tensorflow as tf
import os

os.environ["CUDA_VISIBLE_DEVICES"] = "1"
config = tf.ConfigProto()
config.gpu_options.allow_growth=True   # grow on demand
sess = tf.Session(config=config)
KTF.set_session(sess)
""",
    """\
import tensorflow as tf
import os
import tfcompat_gpu

os.environ["CUDA_VISIBLE_DEVICES"] = "1"
# grow on demand
tfcompat_gpu.configure(allow_growth=True)
""",
)
case(
    # set_session goes, get_session has no TF2 counterpart: it stays, and so does its import
    "ktf-get-session-keeps-its-import",
    """\
import keras.backend.tensorflow_backend as KTF
import tensorflow as tf
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
KTF.set_session(tf.Session(config=config))
print(KTF.get_session()._config)
""",
    """\
import keras.backend.tensorflow_backend as KTF
import tensorflow as tf
import tfcompat_gpu

tfcompat_gpu.configure(allow_growth=True)
print(KTF.get_session()._config)
""",
    [
        (1, "the import stays because line 6 still uses it"),
        (6, "get_session() does not exist with TF2 and Keras 3"),
    ],
)
case(
    "keras-backend-threads-device-count-long-call",
    """\
import tensorflow as tf
from keras import backend as K
num_cores = 4
config = tf.ConfigProto(intra_op_parallelism_threads=num_cores, inter_op_parallelism_threads=num_cores,
                        allow_soft_placement=True, device_count={'CPU': 4})
session = tf.Session(config=config)
K.set_session(session)
K.clear_session()
""",
    """\
import tensorflow as tf
from keras import backend as K
import tfcompat_gpu

num_cores = 4
tfcompat_gpu.configure(
    intra_op_parallelism_threads=num_cores,
    inter_op_parallelism_threads=num_cores,
    allow_soft_placement=True,
    device_count={'CPU': 4},
)
K.clear_session()
""",
)
case(
    "tf-keras-set-session-compat-v1",
    """\
import tensorflow as tf
config = tf.compat.v1.ConfigProto(log_device_placement=True)
tf.compat.v1.keras.backend.set_session(tf.compat.v1.Session(config=config))
""",
    """\
import tensorflow as tf
import tfcompat_gpu

tfcompat_gpu.configure(log_device_placement=True)
""",
)
# ---------------------------------------------------------------- sessions still in use
case(
    "session-still-used",
    """\
import tensorflow.compat.v1 as tf
from keras.backend.tensorflow_backend import set_session
tf.disable_v2_behavior()
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
sess = tf.Session(config=config)
set_session(sess)
print(sess.run(tf.constant(1)))
""",
    """\
import tensorflow.compat.v1 as tf
import tfcompat_gpu

tf.disable_v2_behavior()
tfcompat_gpu.configure(allow_growth=True)
sess = tfcompat_gpu.session()
print(sess.run(tf.constant(1)))
""",
)
case(
    "inline-config-in-with",
    """\
import tensorflow.compat.v1 as tf
x = tf.constant(1)
with tf.Session(config=tf.ConfigProto(allow_soft_placement=True, gpu_options=tf.GPUOptions(allow_growth=True))) as sess:
    sess.run(x)
""",
    """\
import tensorflow.compat.v1 as tf
import tfcompat_gpu

x = tf.constant(1)
tfcompat_gpu.configure(allow_soft_placement=True, allow_growth=True)
with tfcompat_gpu.session() as sess:
    sess.run(x)
""",
)
case(
    "from-compat-import-v1-graph-kept",
    """\
from tensorflow.compat import v1
g = v1.Graph()
config = v1.ConfigProto(inter_op_parallelism_threads=2)
sess = v1.Session(graph=g, config=config)
sess.close()
""",
    """\
from tensorflow.compat import v1
import tfcompat_gpu

g = v1.Graph()
tfcompat_gpu.configure(inter_op_parallelism_threads=2)
sess = tfcompat_gpu.session(graph=g)
sess.close()
""",
)
case(
    "positional-session-arguments",
    """\
import tensorflow as tf
config = tf.ConfigProto(allow_soft_placement=True)
sess = tf.Session('', g, config)
sess.close()
""",
    """\
import tensorflow as tf
import tfcompat_gpu

tfcompat_gpu.configure(allow_soft_placement=True)
sess = tfcompat_gpu.session(target='', graph=g)
sess.close()
""",
)
case(
    "gpu-options-variable",
    """\
import tensorflow as tf
gpu_options = tf.GPUOptions(per_process_gpu_memory_fraction=0.333)
gpu_options.allow_growth = True
config = tf.ConfigProto(gpu_options=gpu_options)
config.allow_soft_placement = True
sess = tf.Session(config=config)
""",
    """\
import tensorflow as tf
import tfcompat_gpu

tfcompat_gpu.configure(
    per_process_gpu_memory_fraction=0.333,
    allow_growth=True,
    allow_soft_placement=True,
)
""",
)
case(
    "inside-function-returns-session",
    """\
import tensorflow as tf


def make_session(threads):
    config = tf.ConfigProto()
    config.intra_op_parallelism_threads = threads
    return tf.Session(config=config)
""",
    """\
import tensorflow as tf
import tfcompat_gpu


def make_session(threads):
    tfcompat_gpu.configure(intra_op_parallelism_threads=threads)
    return tfcompat_gpu.session()
""",
)
case(
    "config-file-driven-seed-001",
    """\
import tensorflow as tf
gpuConfig = tf.ConfigProto()
gpuConfig.allow_soft_placement = config.getboolean('gpu', 'allow_soft_placement')
gpuConfig.gpu_options.allow_growth = config.getboolean('gpu', 'allow_growth')
gpuConfig.gpu_options.per_process_gpu_memory_fraction = config.getfloat('gpu', 'rate')
sess = tf.Session(config=gpuConfig)
sess.run(op)
""",
    """\
import tensorflow as tf
import tfcompat_gpu

tfcompat_gpu.configure(
    allow_soft_placement=config.getboolean('gpu', 'allow_soft_placement'),
    allow_growth=config.getboolean('gpu', 'allow_growth'),
    per_process_gpu_memory_fraction=config.getfloat('gpu', 'rate'),
)
sess = tfcompat_gpu.session()
sess.run(op)
""",
)
case(
    # a config factory: it returns a GPUConfig, and each session gets it (seed 001)
    "config-returned-by-a-function-seed-001",
    """\
import tensorflow as tf


def GPU_config():
    gpuConfig = tf.ConfigProto()  # from the INI file
    gpuConfig.allow_soft_placement = config.getboolean('gpu', 'allow_soft_placement')
    gpuConfig.gpu_options.allow_growth = config.getboolean('gpu', 'allow_growth')
    gpuConfig.gpu_options.per_process_gpu_memory_fraction = config.getfloat('gpu', 'rate')
    return gpuConfig


sess = tf.Session(config=GPU_config())
sess.run(op)
""",
    """\
import tensorflow as tf
import tfcompat_gpu


def GPU_config():
    # from the INI file
    return tfcompat_gpu.GPUConfig(
        allow_soft_placement=config.getboolean('gpu', 'allow_soft_placement'),
        allow_growth=config.getboolean('gpu', 'allow_growth'),
        per_process_gpu_memory_fraction=config.getfloat('gpu', 'rate'),
    )


sess = tfcompat_gpu.session(GPU_config())
sess.run(op)
""",
)
case(
    "config-returned-directly-graph-kept",
    """\
import tensorflow as tf
def make_config(threads):
    return tf.ConfigProto(intra_op_parallelism_threads=threads)
with tf.Session(graph=g, config=make_config(2)) as sess:
    pass
""",
    """\
import tensorflow as tf
import tfcompat_gpu

def make_config(threads):
    return tfcompat_gpu.GPUConfig(intra_op_parallelism_threads=threads)
with tfcompat_gpu.session(make_config(2), graph=g) as sess:
    pass
""",
)
case(
    "device-count-subscript",
    """\
import tensorflow as tf
config = tf.ConfigProto(device_count={"CPU": 2})
config.device_count["GPU"] = 0
sess = tf.Session(config=config)
sess.close()
""",
    """\
import tensorflow as tf
import tfcompat_gpu

tfcompat_gpu.configure(device_count={"CPU": 2, "GPU": 0})
sess = tfcompat_gpu.session()
sess.close()
""",
)
case(
    "interactive-session-keeps-default-session",
    """\
import tensorflow as tf
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
sess = tf.InteractiveSession(config=config)
""",
    """\
import tensorflow as tf
import tfcompat_gpu

tfcompat_gpu.configure(allow_growth=True)
sess = tf.compat.v1.InteractiveSession()
""",
)
case(
    "same-config-name-rebuilt-identically",
    """\
import tensorflow as tf
config = tf.ConfigProto(allow_soft_placement=True)
sess = tf.Session(config=config)
sess.close()
config = tf.ConfigProto(allow_soft_placement=True)
sess = tf.Session(config=config)
sess.close()
""",
    """\
import tensorflow as tf
import tfcompat_gpu

tfcompat_gpu.configure(allow_soft_placement=True)
sess = tfcompat_gpu.session()
sess.close()
tfcompat_gpu.configure(allow_soft_placement=True)
sess = tfcompat_gpu.session()
sess.close()
""",
)
case(
    "empty-config-only-session",
    """\
import tensorflow as tf
config = tf.ConfigProto()
with tf.Session(config=config) as sess:
    pass
""",
    """\
import tensorflow as tf
import tfcompat_gpu

with tfcompat_gpu.session() as sess:
    pass
""",
)
case(
    "set-session-in-nested-block-leaves-pass",
    """\
import tensorflow as tf
from keras import backend as K
config = tf.ConfigProto(allow_soft_placement=True)
sess = tf.Session(config=config)
if K.backend() == "tensorflow":
    K.set_session(sess)
""",
    """\
import tensorflow as tf
from keras import backend as K
import tfcompat_gpu

tfcompat_gpu.configure(allow_soft_placement=True)
if K.backend() == "tensorflow":
    pass
""",
)

# ---------------------------------------------------------------- --target tf2
case(
    "tf2-allow-growth-loop",
    """\
import tensorflow as tf
from keras.backend.tensorflow_backend import set_session
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
set_session(tf.Session(config=config))
""",
    """\
import tensorflow as tf
for gpu in tf.config.list_physical_devices("GPU"):
    tf.config.experimental.set_memory_growth(gpu, True)
""",
    target="tf2",
)
case(
    "tf2-threads-placement-cpus",
    """\
import tensorflow as tf
config = tf.ConfigProto(intra_op_parallelism_threads=4, inter_op_parallelism_threads=2,
                        allow_soft_placement=True, log_device_placement=False, device_count={'CPU': 2})
sess = tf.Session(config=config)
sess.run(op)
""",
    """\
import tensorflow as tf
tf.config.threading.set_intra_op_parallelism_threads(4)
tf.config.threading.set_inter_op_parallelism_threads(2)
tf.config.set_soft_device_placement(True)
tf.debugging.set_log_device_placement(False)
tf.config.set_logical_device_configuration(
    tf.config.list_physical_devices("CPU")[0],
    [tf.config.LogicalDeviceConfiguration()] * 2,
)
sess = tf.compat.v1.Session()
sess.run(op)
""",
    target="tf2",
)
case(
    "tf2-visible-devices-ascending",
    """\
import tensorflow.compat.v1 as tf
config = tf.ConfigProto(gpu_options=tf.GPUOptions(visible_device_list="0,2"))
with tf.Session(config=config) as sess:
    pass
""",
    """\
import tensorflow.compat.v1 as tf
gpus = tf.config.list_physical_devices("GPU")
if gpus:
    tf.config.set_visible_devices([gpus[i] for i in (0, 2)], "GPU")
with tf.Session() as sess:
    pass
""",
    target="tf2",
)
case(
    # TF1 ignored the list without GPUs: the guard keeps that; the name does not clobber `gpus`
    "tf2-visible-devices-guarded-in-function",
    """\
import tensorflow as tf
gpus = 2


def run():
    config = tf.ConfigProto(gpu_options=tf.GPUOptions(visible_device_list="1"))
    with tf.Session(config=config) as sess:
        return sess.run(op)
""",
    """\
import tensorflow as tf
gpus = 2


def run():
    physical_gpus = tf.config.list_physical_devices("GPU")
    if physical_gpus:
        tf.config.set_visible_devices([physical_gpus[i] for i in (1,)], "GPU")
    with tf.compat.v1.Session() as sess:
        return sess.run(op)
""",
    target="tf2",
)
case(
    "tf2-gpu-count-zero",
    """\
import tensorflow as tf
sess = tf.Session(config=tf.ConfigProto(device_count={"GPU": 0}))
sess.close()
""",
    """\
import tensorflow as tf
tf.config.set_visible_devices(tf.config.list_physical_devices("GPU")[:0], "GPU")
sess = tf.compat.v1.Session()
sess.close()
""",
    target="tf2",
)
case(
    "tf2-fraction-left-with-warning",
    """\
import tensorflow as tf
from keras.backend.tensorflow_backend import set_session
config = tf.ConfigProto()
config.gpu_options.per_process_gpu_memory_fraction = 0.3
set_session(tf.Session(config=config))
""",
    """\
import tensorflow as tf
from keras.backend.tensorflow_backend import set_session
config = tf.ConfigProto()
config.gpu_options.per_process_gpu_memory_fraction = 0.3
set_session(tf.Session(config=config))
""",
    [(3, "per_process_gpu_memory_fraction has no TF2 call")],
    target="tf2",
)
case(
    "tf2-reordered-visible-devices-left",
    """\
import tensorflow as tf
sess = tf.Session(config=tf.ConfigProto(gpu_options=tf.GPUOptions(visible_device_list="1,0")))
""",
    """\
import tensorflow as tf
sess = tf.Session(config=tf.ConfigProto(gpu_options=tf.GPUOptions(visible_device_list="1,0")))
""",
    [(2, "cannot reorder GPUs")],
    target="tf2",
)
case(
    "tf2-growth-with-logical-cpus-left",
    """\
import tensorflow as tf
config = tf.ConfigProto(device_count={"CPU": 2})
config.gpu_options.allow_growth = True
sess = tf.Session(config=config)
""",
    """\
import tensorflow as tf
config = tf.ConfigProto(device_count={"CPU": 2})
config.gpu_options.allow_growth = True
sess = tf.Session(config=config)
""",
    [(2, "drops memory growth when logical CPUs")],
    target="tf2",
)
case(
    "tf2-config-factory-left",
    """\
import tensorflow as tf
def make_config():
    return tf.ConfigProto(allow_soft_placement=True)
sess = tf.Session(config=make_config())
""",
    """\
import tensorflow as tf
def make_config():
    return tf.ConfigProto(allow_soft_placement=True)
sess = tf.Session(config=make_config())
""",
    [(3, "TF2 has no config object to return")],
    target="tf2",
)
case(
    "tf2-no-tensorflow-alias-adds-import",
    """\
from tensorflow import ConfigProto, Session
sess = Session(config=ConfigProto(allow_soft_placement=True))
sess.close()
""",
    """\
import tensorflow

tensorflow.config.set_soft_device_placement(True)
sess = tensorflow.compat.v1.Session()
sess.close()
""",
    target="tf2",
)

# ---------------------------------------------------------------- assignments to tf.config functions
case(
    "assignments-to-config-functions-seed-000",
    """\
import tensorflow as tf
tf.config.set_soft_device_placement = True
tf.config.experimental.set_memory_growth = True  # grow
tf.debugging.set_log_device_placement = True
tf.config.threading.set_intra_op_parallelism_threads = 2
""",
    """\
import tensorflow as tf
tf.config.set_soft_device_placement(True)
for gpu in tf.config.list_physical_devices("GPU"):  # grow
    tf.config.experimental.set_memory_growth(gpu, True)
tf.debugging.set_log_device_placement(True)
tf.config.threading.set_intra_op_parallelism_threads(2)
""",
)
case(
    # the assignment left soft placement on; the call would make ops pinned to a GPU fail
    # on a machine without one, which the program never did: the line goes, a comment says so
    "soft-placement-off-assignment-removed-seed-000",
    """\
import tensorflow as tf
# whether to fall back to the CPU
tf.config.set_soft_device_placement = False
with tf.device("/device:GPU:0"):
    x = tf.constant(1.0)
""",
    """\
import tensorflow as tf
# whether to fall back to the CPU
# tfcompat-gpu migrate: removed "tf.config.set_soft_device_placement = False": the assignment never took effect, so soft placement stayed on; call tf.config.set_soft_device_placement(False) to turn it off
with tf.device("/device:GPU:0"):
    x = tf.constant(1.0)
""",
)
case(
    # alone in a block, the removed line leaves a ``pass``; its own comment stays
    "soft-placement-off-assignment-removed-from-block",
    """\
import tensorflow as tf
def setup(flag):
    tf.config.set_soft_device_placement = flag  # from the command line
""",
    """\
import tensorflow as tf
def setup(flag):
    # tfcompat-gpu migrate: removed "tf.config.set_soft_device_placement = flag": the assignment never took effect, so soft placement stayed on; call tf.config.set_soft_device_placement(flag) if that is wanted
    # from the command line
    pass
""",
)
case(
    # the last statement of a block and of the file: the comment stays where the line was
    "soft-placement-off-assignment-removed-last",
    """\
import tensorflow as tf
if tf.__version__:
    y = 1
    tf.config.set_soft_device_placement = False
tf.config.set_soft_device_placement = False
""",
    """\
import tensorflow as tf
if tf.__version__:
    y = 1
    # tfcompat-gpu migrate: removed "tf.config.set_soft_device_placement = False": the assignment never took effect, so soft placement stayed on; call tf.config.set_soft_device_placement(False) to turn it off
# tfcompat-gpu migrate: removed "tf.config.set_soft_device_placement = False": the assignment never took effect, so soft placement stayed on; call tf.config.set_soft_device_placement(False) to turn it off
""",
)
case(
    "growth-assignment-with-virtual-devices-warns",
    """\
import tensorflow as tf
tf.config.experimental.set_memory_growth = True
gpus = tf.config.experimental.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.experimental.set_virtual_device_configuration(gpus[0],
                                                           [tf.config.experimental.VirtualDeviceConfiguration(memory_limit=2048)])
""",
    """\
import tensorflow as tf
for physical_gpu in tf.config.list_physical_devices("GPU"):
    tf.config.experimental.set_memory_growth(physical_gpu, True)
gpus = tf.config.list_physical_devices('GPU')
for gpu in gpus:
    tf.config.set_logical_device_configuration(gpus[0],
                                                           [tf.config.LogicalDeviceConfiguration(memory_limit=2048)])
""",
    [(2, "TensorFlow drops growth on a GPU that has logical devices")],
)
case(
    "assignment-of-unknown-setter-warns",
    """\
import tensorflow as tf
tf.config.set_visible_devices = []
""",
    """\
import tensorflow as tf
tf.config.set_visible_devices = []
""",
    [(2, "replaces the function instead of calling it")],
)

# ---------------------------------------------------------------- deprecated names
case(
    "deprecated-names",
    """\
import tensorflow as tf
gpus = tf.config.experimental.list_physical_devices('GPU')
tf.config.experimental.set_visible_devices(gpus[:1], 'GPU')
tf.config.experimental.set_virtual_device_configuration(
    gpus[0],  # first GPU
    [tf.config.experimental.VirtualDeviceConfiguration(memory_limit=1024)],
)
print(tf.config.experimental.list_logical_devices('GPU'), tf.config.experimental.get_visible_devices())
print(tf.config.experimental.get_virtual_device_configuration(gpus[0]))
""",
    """\
import tensorflow as tf
gpus = tf.config.list_physical_devices('GPU')
tf.config.set_visible_devices(gpus[:1], 'GPU')
tf.config.set_logical_device_configuration(
    gpus[0],  # first GPU
    [tf.config.LogicalDeviceConfiguration(memory_limit=1024)],
)
print(tf.config.list_logical_devices('GPU'), tf.config.get_visible_devices())
print(tf.config.get_logical_device_configuration(gpus[0]))
""",
)
case(
    "deprecated-names-through-compat-aliases",
    """\
import tensorflow.compat.v1 as tf1
from tensorflow.compat import v1
import tensorflow
a = tf1.config.experimental.list_physical_devices("GPU")
b = v1.config.experimental.list_logical_devices("GPU")
c = tensorflow.compat.v1.config.experimental.list_physical_devices("CPU")
""",
    """\
import tensorflow.compat.v1 as tf1
from tensorflow.compat import v1
import tensorflow
a = tf1.config.list_physical_devices("GPU")
b = v1.config.list_logical_devices("GPU")
c = tensorflow.compat.v1.config.list_physical_devices("CPU")
""",
)

# ---------------------------------------------------------------- left alone, with a warning
_LEFT = [
    (
        "kwargs-config",
        """\
import tensorflow as tf
config = tf.ConfigProto(**options)
sess = tf.Session(config=config)
""",
        [(2, "built from **arguments")],
    ),
    (
        "dynamic-gpu-options",
        """\
import tensorflow as tf
config = tf.ConfigProto(gpu_options=tf.GPUOptions(**settings["gpu"]))
sess = tf.Session(config=config)
""",
        [(2, "built from **arguments")],
    ),
    (
        "setattr-loop",
        """\
import tensorflow as tf
config = tf.ConfigProto()
for key, value in options.items():
    setattr(config.gpu_options, key, value)
sess = tf.Session(config=config)
""",
        [(2, "used on line 4 in a way the migration cannot follow")],
    ),
    (
        "config-escapes-to-a-server",
        """\
import tensorflow as tf
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
server = tf.train.Server(cluster, job_name="worker", config=config)
""",
        [(2, "used on line 4")],
    ),
    (
        "run-config-with-graph-options",
        """\
import tensorflow as tf
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.graph_options.optimizer_options.global_jit_level = tf.OptimizerOptions.ON_1
run_config = tf.estimator.RunConfig(model_dir=FLAGS.model_dir, session_config=config)
""",
        [(2, "[graph options for an Estimator]")],
    ),
    (
        # a monitored session builds its own sessions: no smaller ConfigProto can reach them
        # through tfcompat_gpu.session()
        "monitored-session-field-without-successor",
        """\
import tensorflow as tf
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.graph_options.place_pruned_graph = True
with tf.train.MonitoredTrainingSession(config=config) as sess:
    pass
""",
        [(2, "[graph_options.place_pruned_graph]")],
    ),
    (
        "change-in-a-loop",
        """\
import tensorflow as tf
config = tf.ConfigProto()
for name in FLAGS.gpu_flags:
    config.gpu_options.allow_growth = True
sess = tf.Session(config=config)
""",
        [(2, "changed on line 4 in a loop [loop]")],
    ),
    (
        "conditional-change-after-the-session",
        """\
import tensorflow as tf
config = tf.ConfigProto()
sess = tf.Session(config=config)
if args.growth:
    config.gpu_options.allow_growth = True
""",
        [(2, "reads it before the change on line 5 [set after the session]")],
    ),
    (
        "conditional-change-then-return",
        """\
import tensorflow as tf
def main(args):
    config = tf.ConfigProto()
    if args.dry_run:
        config.gpu_options.allow_growth = True
        return None
    sess = tf.Session(config=config)
""",
        [(3, "line 6 may leave it before the session [jump out of the if]")],
    ),
    (
        "conditional-change-under-a-tensorflow-test",
        """\
import tensorflow as tf
config = tf.ConfigProto()
if tf.test.is_built_with_cuda():
    config.gpu_options.allow_growth = True
sess = tf.Session(config=config)
""",
        [(2, "under an if that calls TensorFlow (line 3)")],
    ),
    (
        "conditional-change-in-try",
        """\
import tensorflow as tf
config = tf.ConfigProto()
try:
    config.gpu_options.visible_device_list = os.environ["LOCAL_RANK"]
except KeyError:
    pass
sess = tf.Session(config=config)
""",
        [(2, "in a try statement [try]")],
    ),
    (
        "set-both-ways-out-of-order",
        """\
import tensorflow as tf
config = tf.ConfigProto()
if args.growth:
    config.gpu_options.allow_growth = True
config.gpu_options.allow_growth = False
sess = tf.Session(config=config)
""",
        [(2, "set under a condition on line 4 and again after it")],
    ),
    (
        "xla-on-2-has-no-tf2-call",
        """\
import tensorflow as tf
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.graph_options.optimizer_options.global_jit_level = tf.OptimizerOptions.ON_2
sess = tf.Session(config=config)
""",
        [(2, "global_jit_level is ON_2, and tf.config.optimizer.set_jit() only sets ON_1")],
    ),
    (
        "field-without-equivalent",
        """\
import tensorflow as tf
from keras import backend as K
config = tf.ConfigProto()
config.graph_options.place_pruned_graph = True
K.set_session(tf.Session(config=config))
""",
        [
            (
                3,
                "graph_options.place_pruned_graph has no tfcompat_gpu.configure() equivalent "
                "[graph_options.place_pruned_graph]",
            )
        ],
    ),
    (
        "allocator-other-than-the-default",
        """\
import tensorflow as tf
from keras import backend as K
config = tf.ConfigProto()
config.gpu_options.allocator_type = "cuda_malloc"
K.set_session(tf.Session(config=config))
""",
        [
            (
                3,
                "other than TensorFlow's default, and TF2 has no call for it [gpu_options.allocator_type]",
            )
        ],
    ),
    (
        "config-on-an-attribute",
        """\
import tensorflow as tf
self.config = tf.ConfigProto(allow_soft_placement=True)
self.sess = tf.Session(config=self.config)
""",
        [(2, "not assigned to a name"), (3, "cannot follow")],
    ),
    (
        "config-from-a-parameter",
        """\
import tensorflow as tf
def make(config):
    return tf.Session(config=config)
""",
        [(3, "cannot follow")],
    ),
    (
        "two-sessions-different-gpus-seed-004",
        """\
import tensorflow as tf
gpu_options_1=tf.GPUOptions(allow_growth=True, visible_device_list='1')
session1 = tf.Session(config=tf.ConfigProto(allow_soft_placement=True, gpu_options=gpu_options_1))
gpu_options_2=tf.GPUOptions(allow_growth=True, visible_device_list='2')
session2 = tf.Session(config=tf.ConfigProto(allow_soft_placement=True, gpu_options=gpu_options_2))
""",
        [(3, "ask for different settings"), (5, "ask for different settings")],
    ),
    (
        "set-session-of-unknown-session",
        """\
from keras.backend.tensorflow_backend import set_session
set_session(make_session())
""",
        [(2, "set_session() does not exist")],
    ),
    (
        "config-factory-used-elsewhere",
        """\
import tensorflow as tf
def make_config():
    return tf.ConfigProto(allow_soft_placement=True)
sess = tf.Session(config=make_config())
server = tf.train.Server(cluster, config=make_config())
""",
        [(3, "make_config() is used on line 5 otherwise than as the config of a session or a")],
    ),
    (
        "config-factory-with-two-returns",
        """\
import tensorflow as tf
def make_config(fast):
    config = tf.ConfigProto(allow_soft_placement=True)
    if fast:
        return None
    return config
sess = tf.Session(config=make_config(False))
""",
        [(3, "not a plain function with one return")],
    ),
    (
        "keras-get-session-left",
        """\
from keras import backend as K
print(K.get_session()._config)
""",
        [(2, "get_session() does not exist with TF2 and Keras 3")],
    ),
    (
        "session-used-before-config-complete",
        """\
import tensorflow as tf
config = tf.ConfigProto()
sess = tf.Session(config=config)
config.allow_soft_placement = True
""",
        [(2, "uses it before it is complete")],
    ),
]
for _id, _code, _warnings in _LEFT:
    case(_id, _code, _code, _warnings)

_FRACTION_UNDER_FLAG = """\
import tensorflow as tf
config = tf.ConfigProto()
if args.fraction:
    config.gpu_options.per_process_gpu_memory_fraction = args.fraction
sess = tf.Session(config=config)
"""
case(
    # with --target tf2 the merged settings must all have TF2 calls, conditions or not
    "conditional-fraction-tf2-target",
    _FRACTION_UNDER_FLAG,
    _FRACTION_UNDER_FLAG,
    [(2, "per_process_gpu_memory_fraction has no TF2 call")],
    target="tf2",
)

# ---------------------------------------------------------------- settings under a condition
case(
    # Horovod training scripts pin one GPU per process when run under horovodrun
    "horovod-conditional-device-list",
    """\
import tensorflow as tf
import horovod.tensorflow as hvd

def main(args):
    if args.use_horovod:
        hvd.init()
    config = tf.ConfigProto()
    config.gpu_options.allow_growth = True
    if args.use_horovod:
        # pin this process to its GPU
        config.gpu_options.visible_device_list = str(hvd.local_rank())
    sess = tf.Session(config=config)
    sess.run(tf.global_variables_initializer())
""",
    """\
import tensorflow as tf
import horovod.tensorflow as hvd
import tfcompat_gpu

def main(args):
    if args.use_horovod:
        hvd.init()
    tfcompat_gpu.configure(allow_growth=True)
    if args.use_horovod:
        # pin this process to its GPU
        tfcompat_gpu.configure(visible_device_list=str(hvd.local_rank()))
    sess = tfcompat_gpu.session()
    sess.run(tf.global_variables_initializer())
""",
)
case(
    # flags decide growth or a fixed share; threads from flags too
    "flag-driven-growth-elif",
    """\
import tensorflow as tf
from keras import backend as K
gpu_options = tf.GPUOptions()
if FLAGS.allow_growth:
    gpu_options.allow_growth = True
elif FLAGS.memory_fraction > 0:
    gpu_options.per_process_gpu_memory_fraction = FLAGS.memory_fraction
config = tf.ConfigProto(gpu_options=gpu_options)
if FLAGS.num_intra_threads:
    config.intra_op_parallelism_threads = FLAGS.num_intra_threads
K.set_session(tf.Session(config=config))
""",
    """\
import tensorflow as tf
import tfcompat_gpu

if FLAGS.allow_growth:
    tfcompat_gpu.configure(allow_growth=True)
elif FLAGS.memory_fraction > 0:
    tfcompat_gpu.configure(per_process_gpu_memory_fraction=FLAGS.memory_fraction)
if FLAGS.num_intra_threads:
    tfcompat_gpu.configure(intra_op_parallelism_threads=FLAGS.num_intra_threads)
""",
)
case(
    "flag-driven-growth-tf2-target",
    """\
import tensorflow as tf
config = tf.ConfigProto(allow_soft_placement=True)
if args.growth:
    config.gpu_options.allow_growth = True
else:
    config.gpu_options.visible_device_list = "0"
sess = tf.Session(config=config)
sess.run(train_op)
""",
    """\
import tensorflow as tf
tf.config.set_soft_device_placement(True)
if args.growth:
    for gpu in tf.config.list_physical_devices("GPU"):
        tf.config.experimental.set_memory_growth(gpu, True)
else:
    gpus = tf.config.list_physical_devices("GPU")
    if gpus:
        tf.config.set_visible_devices([gpus[i] for i in (0,)], "GPU")
sess = tf.compat.v1.Session()
sess.run(train_op)
""",
    target="tf2",
)
case(
    # a config built in each arm of an if: each becomes that arm's configure()
    "config-assigned-in-each-arm",
    """\
import tensorflow as tf
def main():
    if FLAGS.use_gpu:
        config = tf.ConfigProto(allow_soft_placement=True)
        config.gpu_options.allow_growth = True
    elif FLAGS.cpu_threads:
        config = tf.ConfigProto(intra_op_parallelism_threads=FLAGS.cpu_threads)
    else:
        config = tf.ConfigProto(device_count={"GPU": 0})
    sess = tf.Session(config=config)
    sess.run(op)
""",
    """\
import tensorflow as tf
import tfcompat_gpu

def main():
    if FLAGS.use_gpu:
        tfcompat_gpu.configure(allow_soft_placement=True, allow_growth=True)
    elif FLAGS.cpu_threads:
        tfcompat_gpu.configure(intra_op_parallelism_threads=FLAGS.cpu_threads)
    else:
        tfcompat_gpu.configure(device_count={"GPU": 0})
    sess = tfcompat_gpu.session()
    sess.run(op)
""",
)
_ARM_WITHOUT_TF2_CALL = """\
import tensorflow as tf
if FLAGS.use_gpu:
    config = tf.ConfigProto(allow_soft_placement=True)
else:
    config = tf.ConfigProto(gpu_options=tf.GPUOptions(per_process_gpu_memory_fraction=0.5))
sess = tf.Session(config=config)
sess.run(op)
"""
case(
    # one arm cannot be translated: neither is (the session receives either)
    "config-assigned-in-each-arm-one-left",
    _ARM_WITHOUT_TF2_CALL,
    _ARM_WITHOUT_TF2_CALL,
    [
        (3, "the config built on line 5, in another arm of the same if, cannot be migrated"),
        (5, "per_process_gpu_memory_fraction has no TF2 call"),
    ],
    target="tf2",
)
_ARM_LEAVES = """\
import tensorflow as tf
if FLAGS.use_gpu:
    config = tf.ConfigProto(allow_soft_placement=True)
else:
    config = tf.ConfigProto(device_count={"GPU": 0})
    raise SystemExit("no GPU")
sess = tf.Session(config=config)
"""
case(
    "config-assigned-in-each-arm-of-an-if-that-leaves",
    _ARM_LEAVES,
    _ARM_LEAVES,
    [
        (3, "[jump out of the if]"),
        (5, "[jump out of the if]"),
        (7, "[untraced config]"),
    ],
)

# ---------------------------------------------------------------- config factories
case(
    # a training utility module builds the config; the script imports it
    "factory-in-a-local-module",
    """\
import tensorflow as tf
import keras.backend.tensorflow_backend as KTF
from train_utils import get_session_config
import train_utils

KTF.set_session(tf.Session(config=get_session_config()))
eval_sess = tf.Session(config=train_utils.get_session_config(num_threads=2))
eval_sess.run(metrics)
""",
    """\
import tensorflow as tf
from train_utils import get_session_config
import train_utils
import tfcompat_gpu

tfcompat_gpu.configure(get_session_config())
eval_sess = tfcompat_gpu.session(train_utils.get_session_config(num_threads=2))
eval_sess.run(metrics)
""",
)
case(
    "factory-in-the-same-file-with-set-session",
    """\
import tensorflow as tf
import keras.backend.tensorflow_backend as KTF


def get_session_config():
    config = tf.ConfigProto(allow_soft_placement=True)
    config.gpu_options.allow_growth = True
    return config


KTF.set_session(tf.Session(config=get_session_config()))
""",
    """\
import tensorflow as tf
import tfcompat_gpu


def get_session_config():
    return tfcompat_gpu.GPUConfig(allow_soft_placement=True, allow_growth=True)


tfcompat_gpu.configure(get_session_config())
""",
)
case(
    # the factory's config bound to a name first, then handed to a session set for Keras
    "factory-bound-to-a-name-then-set-session",
    """\
import os
import tensorflow as tf
from tensorflow.keras import backend as K


def get_session_conf():
    session_conf = tf.ConfigProto(
        intra_op_parallelism_threads=int(os.environ['OMP_NUM_THREADS'])
    )
    return session_conf


def set_perf_settings_for_keras():
    session_conf = get_session_conf()
    session = tf.Session(config=session_conf)
    K.set_session(session)
""",
    """\
import os
import tensorflow as tf
from tensorflow.keras import backend as K
import tfcompat_gpu


def get_session_conf():
    return tfcompat_gpu.GPUConfig(intra_op_parallelism_threads=int(os.environ['OMP_NUM_THREADS']))


def set_perf_settings_for_keras():
    session_conf = get_session_conf()
    tfcompat_gpu.configure(session_conf)
""",
)
case(
    "factory-bound-to-a-name-used-by-sessions",
    """\
import tensorflow as tf


def make_config():
    config = tf.ConfigProto()
    config.gpu_options.allow_growth = True
    return config


conf = make_config()
train_sess = tf.Session(config=conf)
eval_sess = tf.Session(config=conf)
train_sess.run(step)
""",
    """\
import tensorflow as tf
import tfcompat_gpu


def make_config():
    return tfcompat_gpu.GPUConfig(allow_growth=True)


conf = make_config()
train_sess = tfcompat_gpu.session(conf)
eval_sess = tfcompat_gpu.session(conf)
train_sess.run(step)
""",
)
case(
    # changed after the call: what the session receives is not what the function returns
    "factory-bound-to-a-name-then-changed",
    """\
import tensorflow as tf


def make_config():
    config = tf.ConfigProto()
    config.gpu_options.allow_growth = True
    return config


conf = make_config()
conf.allow_soft_placement = True
sess = tf.Session(config=conf)
""",
    """\
import tensorflow as tf


def make_config():
    config = tf.ConfigProto()
    config.gpu_options.allow_growth = True
    return config


conf = make_config()
conf.allow_soft_placement = True
sess = tf.Session(config=conf)
""",
    [(5, "[factory other use]")],
)
case(
    # the module that defines the factory: its callers are elsewhere
    "factory-module-without-callers",
    """\
import tensorflow as tf


def get_session_config(num_threads=0):
    config = tf.ConfigProto()
    config.gpu_options.allow_growth = True
    config.intra_op_parallelism_threads = num_threads
    return config
""",
    """\
import tensorflow as tf
import tfcompat_gpu


def get_session_config(num_threads=0):
    return tfcompat_gpu.GPUConfig(
        allow_growth=True,
        intra_op_parallelism_threads=num_threads,
    ).to_config_proto()
""",
)

# ---------------------------------------------------------------- Estimator and monitored sessions
case(
    # Horovod Estimator scripts: one GPU per process, threads and growth in a RunConfig.  An
    # Estimator always gives its sessions an explicit config (its own default without
    # session_config), so the RunConfig gets the process config as a ConfigProto
    "estimator-run-config-horovod",
    """\
import horovod.tensorflow as hvd
import tensorflow as tf

hvd.init()
session_config = tf.ConfigProto(allow_soft_placement=True)
session_config.gpu_options.visible_device_list = str(hvd.local_rank())
session_config.gpu_options.allow_growth = True
session_config.intra_op_parallelism_threads = 1
run_config = tf.estimator.RunConfig(
    model_dir=FLAGS.model_dir if hvd.rank() == 0 else None,
    save_checkpoints_steps=1000,
    session_config=session_config,
)
estimator = tf.estimator.Estimator(model_fn=model_fn, config=run_config)
""",
    """\
import horovod.tensorflow as hvd
import tensorflow as tf
import tfcompat_gpu

hvd.init()
tfcompat_gpu.configure(
    allow_soft_placement=True,
    visible_device_list=str(hvd.local_rank()),
    allow_growth=True,
    intra_op_parallelism_threads=1,
)
run_config = tf.estimator.RunConfig(
    model_dir=FLAGS.model_dir if hvd.rank() == 0 else None,
    save_checkpoints_steps=1000,
    session_config=tfcompat_gpu.current_config().to_config_proto(),
)
estimator = tf.estimator.Estimator(model_fn=model_fn, config=run_config)
""",
)
case(
    # a helper that builds the RunConfig from a session-config function: the function returns
    # a GPUConfig, which configures the process where the RunConfig is built
    "estimator-run-config-factory",
    """\
import tensorflow as tf


def _session_config():
    gpu_options = tf.GPUOptions(per_process_gpu_memory_fraction=0.9, allow_growth=True)
    return tf.ConfigProto(allow_soft_placement=True, gpu_options=gpu_options)


def default_run_config(model_dir, save_checkpoints_steps=500):
    return tf.estimator.RunConfig(
        model_dir=model_dir,
        session_config=_session_config(),
        save_checkpoints_steps=save_checkpoints_steps,
    )
""",
    """\
import tensorflow as tf
import tfcompat_gpu


def _session_config():
    return tfcompat_gpu.GPUConfig(
        per_process_gpu_memory_fraction=0.9,
        allow_growth=True,
        allow_soft_placement=True,
    )


def default_run_config(model_dir, save_checkpoints_steps=500):
    return tf.estimator.RunConfig(
        model_dir=model_dir,
        session_config=tfcompat_gpu.configure(_session_config()).to_config_proto(),
        save_checkpoints_steps=save_checkpoints_steps,
    )
""",
)
case(
    "estimator-run-config-compat-v1-under-a-flag",
    """\
import tensorflow.compat.v1 as tf

config = tf.ConfigProto()
if FLAGS.allow_growth:
    config.gpu_options.allow_growth = True
estimator = tf.estimator.Estimator(
    model_fn, config=tf.estimator.RunConfig(session_config=config)
)
""",
    """\
import tensorflow.compat.v1 as tf
import tfcompat_gpu

if FLAGS.allow_growth:
    tfcompat_gpu.configure(allow_growth=True)
estimator = tf.estimator.Estimator(
    model_fn, config=tf.estimator.RunConfig(session_config=tfcompat_gpu.current_config().to_config_proto())
)
""",
)
case(
    "contrib-learn-run-config",
    """\
import tensorflow as tf

config = tf.ConfigProto()
config.gpu_options.per_process_gpu_memory_fraction = 0.5
run_config = tf.contrib.learn.RunConfig(session_config=config, tf_random_seed=42)
""",
    """\
import tensorflow as tf
import tfcompat_gpu

tfcompat_gpu.configure(per_process_gpu_memory_fraction=0.5)
run_config = tf.contrib.learn.RunConfig(session_config=tfcompat_gpu.current_config().to_config_proto(), tf_random_seed=42)
""",
)
case(
    # a monitored session given no config builds its sessions with the process config
    "monitored-training-session",
    """\
import tensorflow as tf

config = tf.ConfigProto(allow_soft_placement=True)
config.gpu_options.allow_growth = True
hooks = [tf.train.StopAtStepHook(last_step=FLAGS.max_steps)]
with tf.train.MonitoredTrainingSession(
    checkpoint_dir=FLAGS.train_dir, hooks=hooks, config=config
) as mon_sess:
    while not mon_sess.should_stop():
        mon_sess.run(train_op)
""",
    """\
import tensorflow as tf
import tfcompat_gpu

tfcompat_gpu.configure(allow_soft_placement=True, allow_growth=True)
hooks = [tf.train.StopAtStepHook(last_step=FLAGS.max_steps)]
with tf.train.MonitoredTrainingSession(
    checkpoint_dir=FLAGS.train_dir, hooks=hooks
) as mon_sess:
    while not mon_sess.should_stop():
        mon_sess.run(train_op)
""",
)
case(
    "monitored-training-session-tf2-target",
    """\
import tensorflow.compat.v1 as tf

config = tf.ConfigProto(log_device_placement=False)
config.gpu_options.allow_growth = True
config.intra_op_parallelism_threads = 4
with tf.train.MonitoredTrainingSession(is_chief=True, config=config) as sess:
    sess.run(train_op)
""",
    """\
import tensorflow.compat.v1 as tf

tf.debugging.set_log_device_placement(False)
for gpu in tf.config.list_physical_devices("GPU"):
    tf.config.experimental.set_memory_growth(gpu, True)
tf.config.threading.set_intra_op_parallelism_threads(4)
with tf.train.MonitoredTrainingSession(is_chief=True) as sess:
    sess.run(train_op)
""",
    target="tf2",
)
case(
    # the config last in a call written one argument a line: the trailing comma stays
    "singular-monitored-session",
    """\
import tensorflow as tf

gpu_options = tf.GPUOptions(visible_device_list="0", allow_growth=True)
config = tf.ConfigProto(gpu_options=gpu_options)
with tf.train.SingularMonitoredSession(
    hooks=[_LoggerHook()],
    checkpoint_dir=checkpoint_dir,
    config=config,
) as sess:
    sess.run(predictions)
""",
    """\
import tensorflow as tf
import tfcompat_gpu

tfcompat_gpu.configure(visible_device_list="0", allow_growth=True)
with tf.train.SingularMonitoredSession(
    hooks=[_LoggerHook()],
    checkpoint_dir=checkpoint_dir,
) as sess:
    sess.run(predictions)
""",
)
case(
    # the common Estimator tutorial shape: a default RunConfig with the config put in by
    # replace(), directly or on a RunConfig built before
    "estimator-run-config-replace",
    """\
import tensorflow as tf


def main(_):
    sess_config = tf.ConfigProto()
    sess_config.gpu_options.allow_growth = True
    run_config = tf.estimator.RunConfig().replace(session_config=sess_config)
    classifier = tf.estimator.Estimator(model_fn=model_fn, model_dir=FLAGS.model_dir, config=run_config)
""",
    """\
import tensorflow as tf
import tfcompat_gpu


def main(_):
    tfcompat_gpu.configure(allow_growth=True)
    run_config = tf.estimator.RunConfig().replace(session_config=tfcompat_gpu.current_config().to_config_proto())
    classifier = tf.estimator.Estimator(model_fn=model_fn, model_dir=FLAGS.model_dir, config=run_config)
""",
)
case(
    "estimator-run-config-replace-on-a-name",
    """\
import tensorflow as tf

run_config = tf.estimator.RunConfig(model_dir=FLAGS.model_dir, save_checkpoints_steps=500)
session_config = tf.ConfigProto(device_count={"GPU": 1, "CPU": FLAGS.num_threads})
run_config = run_config.replace(session_config=session_config, save_summary_steps=50)
""",
    """\
import tensorflow as tf
import tfcompat_gpu

run_config = tf.estimator.RunConfig(model_dir=FLAGS.model_dir, save_checkpoints_steps=500)
tfcompat_gpu.configure(device_count={"GPU": 1, "CPU": FLAGS.num_threads})
run_config = run_config.replace(session_config=tfcompat_gpu.current_config().to_config_proto(), save_summary_steps=50)
""",
)
case(
    # an evaluation loop restoring a checkpoint through a session creator
    "monitored-session-chief-session-creator",
    """\
import tensorflow as tf

config = tf.ConfigProto(allow_soft_placement=True)
config.gpu_options.allow_growth = True
session_creator = tf.train.ChiefSessionCreator(
    checkpoint_filename_with_path=checkpoint_path, config=config
)
with tf.train.MonitoredSession(session_creator=session_creator, hooks=eval_hooks) as sess:
    while not sess.should_stop():
        sess.run(eval_ops)
""",
    """\
import tensorflow as tf
import tfcompat_gpu

tfcompat_gpu.configure(allow_soft_placement=True, allow_growth=True)
session_creator = tf.train.ChiefSessionCreator(
    checkpoint_filename_with_path=checkpoint_path
)
with tf.train.MonitoredSession(session_creator=session_creator, hooks=eval_hooks) as sess:
    while not sess.should_stop():
        sess.run(eval_ops)
""",
)
case(
    # one get_session_config() for a plain session and a monitored one
    "factory-for-a-session-and-a-monitored-session",
    """\
import tensorflow as tf


def get_session_config():
    config = tf.ConfigProto()
    config.gpu_options.allow_growth = True
    return config


def evaluate():
    with tf.Session(config=get_session_config()) as sess:
        sess.run(eval_op)


def train():
    with tf.train.MonitoredTrainingSession(config=get_session_config()) as sess:
        sess.run(train_op)
""",
    """\
import tensorflow as tf
import tfcompat_gpu


def get_session_config():
    return tfcompat_gpu.GPUConfig(allow_growth=True)


def evaluate():
    with tfcompat_gpu.session(get_session_config()) as sess:
        sess.run(eval_op)


def train():
    with tf.train.MonitoredTrainingSession(config=tfcompat_gpu.configure(get_session_config()).to_config_proto()) as sess:
        sess.run(train_op)
""",
)
case(
    "factory-from-a-local-module-for-an-estimator",
    """\
import tensorflow as tf
from utils.session import get_session_config

run_config = tf.estimator.RunConfig(model_dir=FLAGS.model_dir, session_config=get_session_config())
""",
    """\
import tensorflow as tf
from utils.session import get_session_config
import tfcompat_gpu

run_config = tf.estimator.RunConfig(model_dir=FLAGS.model_dir, session_config=tfcompat_gpu.configure(get_session_config()).to_config_proto())
""",
)
case(
    # an Estimator's sessions read RunConfig's session_config, never tf.config
    "run-config-with-target-tf2",
    """\
import tensorflow as tf
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
run_config = tf.estimator.RunConfig(session_config=config)
""",
    """\
import tensorflow as tf
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
run_config = tf.estimator.RunConfig(session_config=config)
""",
    [(2, "hands it the process config [RunConfig with --target tf2]")],
    target="tf2",
)

# ---------------------------------------------------------------- XLA, mixed precision, defaults
case(
    # NVIDIA-style training scripts: XLA auto-clustering and automatic mixed precision
    "xla-and-amp",
    """\
import tensorflow as tf
from tensorflow.core.protobuf import rewriter_config_pb2
config = tf.ConfigProto(allow_soft_placement=True)
config.gpu_options.allow_growth = True
if FLAGS.use_xla:
    config.graph_options.optimizer_options.global_jit_level = tf.OptimizerOptions.ON_1
if FLAGS.amp:
    config.graph_options.rewrite_options.auto_mixed_precision = rewriter_config_pb2.RewriterConfig.ON
sess = tf.Session(config=config)
sess.run(train_op)
""",
    """\
import tensorflow as tf
from tensorflow.core.protobuf import rewriter_config_pb2
import tfcompat_gpu

tfcompat_gpu.configure(allow_soft_placement=True, allow_growth=True)
if FLAGS.use_xla:
    tfcompat_gpu.configure(jit=True)
if FLAGS.amp:
    tfcompat_gpu.configure(auto_mixed_precision=True)
sess = tfcompat_gpu.session()
sess.run(train_op)
""",
)
case(
    # XLA and mixed precision are options of the facade; the other rewrites stay TF2 calls
    "xla-amp-and-a-rewrite-facade",
    """\
import tensorflow as tf
from tensorflow.core.protobuf import rewriter_config_pb2
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.graph_options.optimizer_options.global_jit_level = tf.OptimizerOptions.ON_1
config.graph_options.rewrite_options.auto_mixed_precision = rewriter_config_pb2.RewriterConfig.ON
config.graph_options.rewrite_options.layout_optimizer = rewriter_config_pb2.RewriterConfig.OFF
sess = tf.Session(config=config)
sess.run(train_op)
""",
    """\
import tensorflow as tf
from tensorflow.core.protobuf import rewriter_config_pb2
import tfcompat_gpu

tfcompat_gpu.configure(allow_growth=True, jit=True, auto_mixed_precision=True)
tf.config.optimizer.set_experimental_options({"layout_optimizer": False})
sess = tfcompat_gpu.session()
sess.run(train_op)
""",
)
case(
    "xla-off-and-amp-off-facade",
    """\
import tensorflow as tf
config = tf.ConfigProto()
config.graph_options.optimizer_options.global_jit_level = tf.OptimizerOptions.OFF
config.graph_options.rewrite_options.auto_mixed_precision = RewriterConfig.OFF
sess = tf.Session(config=config)
sess.run(train_op)
""",
    """\
import tensorflow as tf
import tfcompat_gpu

tfcompat_gpu.configure(jit=False, auto_mixed_precision=False)
sess = tfcompat_gpu.session()
sess.run(train_op)
""",
)
case(
    "xla-amp-and-a-rewrite-tf2-target",
    """\
import tensorflow as tf
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.graph_options.optimizer_options.global_jit_level = tf.OptimizerOptions.ON_1
config.graph_options.rewrite_options.auto_mixed_precision = RewriterConfig.ON
config.graph_options.rewrite_options.layout_optimizer = RewriterConfig.OFF
sess = tf.Session(config=config)
sess.run(train_op)
""",
    """\
import tensorflow as tf
for gpu in tf.config.list_physical_devices("GPU"):
    tf.config.experimental.set_memory_growth(gpu, True)
tf.config.optimizer.set_jit("autoclustering")
tf.config.optimizer.set_experimental_options({"auto_mixed_precision": True, "layout_optimizer": False})
sess = tf.compat.v1.Session()
sess.run(train_op)
""",
    target="tf2",
)
case(
    "xla-and-rewrites-tf2-target",
    """\
import tensorflow as tf
config = tf.ConfigProto()
config.graph_options.optimizer_options.global_jit_level = 1
config.graph_options.rewrite_options.layout_optimizer = RewriterConfig.OFF
config.graph_options.rewrite_options.disable_meta_optimizer = True
with tf.Session(config=config) as sess:
    pass
""",
    """\
import tensorflow as tf
tf.config.optimizer.set_jit("autoclustering")
tf.config.optimizer.set_experimental_options({"layout_optimizer": False, "disable_meta_optimizer": True})
with tf.compat.v1.Session() as sess:
    pass
""",
    target="tf2",
)
case(
    # a field with no successor stays on a smaller config the session still receives
    "field-without-successor-kept-on-the-session",
    """\
import tensorflow as tf
config = tf.ConfigProto(allow_soft_placement=True)
config.gpu_options.allow_growth = True
config.graph_options.place_pruned_graph = True
sess = tf.Session(config=config)
sess.run(op)
""",
    """\
import tensorflow as tf
import tfcompat_gpu

config = tf.compat.v1.ConfigProto()
tfcompat_gpu.configure(allow_soft_placement=True, allow_growth=True)
config.graph_options.place_pruned_graph = True
sess = tfcompat_gpu.session(config)
sess.run(op)
""",
    [(4, "stays on a ConfigProto the session still receives, the rest is migrated")],
)
_KEPT_MIGRATED = """\
import tensorflow as tf
import tfcompat_gpu

config = tf.compat.v1.ConfigProto()
tfcompat_gpu.configure(allow_growth=True)
config.graph_options.place_pruned_graph = True
sess = tfcompat_gpu.session(config)
sess.run(op)
"""
# what the case above writes: a second run has nothing to change or report
case("field-kept-on-the-session-second-run", _KEPT_MIGRATED, _KEPT_MIGRATED)
case(
    # Keras 3 has no session to hand the kept field to: the whole config stays
    "field-without-successor-under-set-session",
    """\
import tensorflow as tf
from keras import backend as K
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.graph_options.place_pruned_graph = True
K.set_session(tf.Session(config=config))
""",
    """\
import tensorflow as tf
from keras import backend as K
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
config.graph_options.place_pruned_graph = True
K.set_session(tf.Session(config=config))
""",
    [(3, "place_pruned_graph has no tfcompat_gpu.configure() equivalent")],
)
case(
    # "BFC" is the allocator TensorFlow uses anyway: the setting goes, the GPU part migrates
    "default-allocator-dropped",
    """\
import tensorflow as tf
import keras.backend.tensorflow_backend as KTF
config = tf.ConfigProto()
config.gpu_options.allocator_type = 'BFC'
config.gpu_options.per_process_gpu_memory_fraction = 0.4
KTF.set_session(tf.Session(config=config))
""",
    """\
import tensorflow as tf
import tfcompat_gpu

tfcompat_gpu.configure(per_process_gpu_memory_fraction=0.4)
""",
)

case(
    # the two deprecated names the lint reports as well (one table for both)
    "deprecated-run-functions-eagerly",
    """\
import tensorflow as tf
tf.config.experimental_run_functions_eagerly(True)
print(tf.config.experimental_functions_run_eagerly())
""",
    """\
import tensorflow as tf
tf.config.run_functions_eagerly(True)
print(tf.config.functions_run_eagerly())
""",
)


case(
    # one name of the import goes, the one still used stays (and the import with it)
    "stale-import-name-removed-others-kept",
    """\
import tensorflow as tf
from keras.backend.tensorflow_backend import set_session, clear_session
set_session(tf.Session(config=tf.ConfigProto(allow_soft_placement=True)))
clear_session()
""",
    """\
import tensorflow as tf
from keras.backend.tensorflow_backend import clear_session
import tfcompat_gpu

tfcompat_gpu.configure(allow_soft_placement=True)
clear_session()
""",
    [(2, "keras.backend.tensorflow_backend does not exist with Keras >= 2.4")],
)


# ---------------------------------------------------------------- scoping and comments kept
case(
    # the session is a global other functions read: it stays, built from the process config
    "global-session-stays",
    """\
import tensorflow as tf
sess = None

def init():
    global sess
    config = tf.ConfigProto()
    config.gpu_options.allow_growth = True
    sess = tf.Session(config=config)

def predict(x):
    return sess.run(x)
""",
    """\
import tensorflow as tf
import tfcompat_gpu

sess = None

def init():
    global sess
    tfcompat_gpu.configure(allow_growth=True)
    sess = tfcompat_gpu.session()

def predict(x):
    return sess.run(x)
""",
)
case(
    "nonlocal-session-stays",
    """\
import tensorflow as tf

def make():
    sess = None
    def init():
        nonlocal sess
        sess = tf.Session(config=tf.ConfigProto(allow_soft_placement=True))
    init()
    return sess
""",
    """\
import tensorflow as tf
import tfcompat_gpu

def make():
    sess = None
    def init():
        nonlocal sess
        tfcompat_gpu.configure(allow_soft_placement=True)
        sess = tfcompat_gpu.session()
    init()
    return sess
""",
)
case(
    "global-session-stays-tf2",
    """\
import tensorflow as tf
sess = None

def init():
    global sess
    sess = tf.Session(config=tf.ConfigProto(log_device_placement=True))
""",
    """\
import tensorflow as tf
sess = None

def init():
    global sess
    tf.debugging.set_log_device_placement(True)
    sess = tf.compat.v1.Session()
""",
    target="tf2",
)
case(
    # a global config may be read anywhere: left, and said so
    "global-config-left",
    """\
import tensorflow as tf

def init():
    global config
    config = tf.ConfigProto()
    config.gpu_options.allow_growth = True
    return tf.Session(config=config)
""",
    """\
import tensorflow as tf

def init():
    global config
    config = tf.ConfigProto()
    config.gpu_options.allow_growth = True
    return tf.Session(config=config)
""",
    [(5, "config is declared global or nonlocal"), (7, "built where the migration cannot follow")],
)
case(
    # on TF2 the Keras import fails: left in the try, it would send the block to except
    "guarded-import-is-removed",
    """\
try:
    import tensorflow as tf
    from keras.backend.tensorflow_backend import set_session
    config = tf.ConfigProto()
    config.gpu_options.allow_growth = True
    set_session(tf.Session(config=config))
except ImportError:
    tf = None
""",
    """\
import tfcompat_gpu

try:
    import tensorflow as tf
    tfcompat_gpu.configure(allow_growth=True)
except ImportError:
    tf = None
""",
)
case(
    "guarded-import-is-removed-tf2",
    """\
try:
    import tensorflow as tf
    import keras.backend.tensorflow_backend as KTF
except (ImportError, AttributeError):
    tf = None
config = tf.ConfigProto(allow_soft_placement=True)
KTF.set_session(tf.Session(config=config))
""",
    """\
try:
    import tensorflow as tf
except (ImportError, AttributeError):
    tf = None
tf.config.set_soft_device_placement(True)
""",
    target="tf2",
)
case(
    "comments-inside-a-multiline-call-are-kept",
    """\
import tensorflow as tf
config = tf.ConfigProto(
    allow_soft_placement=True,  # fall back to the CPU
    # growth keeps the other jobs on this GPU alive
    gpu_options=tf.GPUOptions(allow_growth=True),
)
sess = tf.Session(config=config)
""",
    """\
import tensorflow as tf
import tfcompat_gpu

# fall back to the CPU
# growth keeps the other jobs on this GPU alive
tfcompat_gpu.configure(allow_soft_placement=True, allow_growth=True)
""",
)
case(
    "comments-inside-an-inline-config-are-kept",
    """\
import tensorflow as tf
with tf.Session(config=tf.ConfigProto(
        log_device_placement=True,  # noisy, on purpose
)) as sess:
    sess.run(1)
""",
    """\
import tensorflow as tf
import tfcompat_gpu

# noisy, on purpose
tfcompat_gpu.configure(log_device_placement=True)
with tfcompat_gpu.session() as sess:
    sess.run(1)
""",
)


# ---------------------------------------------------------------- no-ops: silent and unchanged
NOOPS: list[tuple[str, str]] = [
    # a name bound twice is not an alias of either value: its session stays unknown
    (
        "module-alias-bound-twice",
        "import tensorflow as tf\n"
        "v1 = tf.compat.v1\n"
        "v1 = None\n"
        "sess = v1.Session()\n",
    ),
    # a value that is not a module (a class bound to a name) is not followed
    (
        "module-alias-not-a-module",
        "import tensorflow as tf\n"
        "Session = tf.compat.v1.Session\n"
        "sess = Session()\n",
    ),
    (
        "already-migrated",
        """\
import tfcompat_gpu
tfcompat_gpu.configure(allow_growth=True, per_process_gpu_memory_fraction=0.3)
sess = tfcompat_gpu.session()
""",
    ),
    (
        "current-tf2-code",
        """\
import tensorflow as tf
for gpu in tf.config.list_physical_devices("GPU"):
    tf.config.experimental.set_memory_growth(gpu, True)
tf.config.set_soft_device_placement(False)
""",
    ),
    (
        "unrelated-names",
        """\
import json
config = {"allow_growth": True}
config["gpu_options"] = 1
def set_session(sess):
    return sess
set_session(Session(config=config))
""",
    ),
    (
        "session-without-config",
        """\
import tensorflow.compat.v1 as tf
with tf.Session() as sess:
    sess.run(tf.constant(1))
sess = tf.Session(config=None)
""",
    ),
    ("empty-file", ""),
]


# ---------------------------------------------------------------- sessions made by a function
# set_session(get_session()), get_session() returning the session its config built: calling
# it configures the process, so the call stays and set_session goes.
case(
    "set-session-of-session-factory",
    """\
import keras
import tensorflow as tf


def get_session():
    # Construct a modified tf session.
    config = tf.ConfigProto()
    config.gpu_options.allow_growth = True
    return tf.Session(config=config)


def main(args=None):
    # optionally choose specific GPU
    keras.backend.tensorflow_backend.set_session(get_session())
""",
    """\
import keras
import tensorflow as tf
import tfcompat_gpu


def get_session():
    # Construct a modified tf session.
    tfcompat_gpu.configure(allow_growth=True)
    return tfcompat_gpu.session()


def main(args=None):
    # optionally choose specific GPU
    get_session()
""",
)
case(
    "set-session-of-nested-session-factory",
    """\
import tensorflow as tf
import keras.backend.tensorflow_backend as KTF


def tf_session_allow_growth():
    def get_session():
        gpu_options = tf.GPUOptions(allow_growth=True)
        return tf.Session(config=tf.ConfigProto(gpu_options=gpu_options))

    KTF.set_session(get_session())


tf_session_allow_growth()
""",
    """\
import tensorflow as tf
import tfcompat_gpu


def tf_session_allow_growth():
    def get_session():
        tfcompat_gpu.configure(allow_growth=True)
        return tfcompat_gpu.session()

    get_session()


tf_session_allow_growth()
""",
)
case(
    "return-set-session",
    """\
import keras
import tensorflow as tf

def get_session():
    config = tf.ConfigProto()
    config.gpu_options.allow_growth = True
    return keras.backend.tensorflow_backend.set_session(tf.Session(config=config))

get_session()
""",
    """\
import keras
import tensorflow as tf
import tfcompat_gpu

def get_session():
    tfcompat_gpu.configure(allow_growth=True)
    return None

get_session()
""",
)
case(
    # the GPU-fraction answer most Keras 2 scripts copied: one GPUOptions that the config of
    # each arm copies (protobuf copies a message given to a constructor)
    "set-session-of-factory-with-shared-gpu-options",
    """\
import os
import tensorflow as tf
import keras.backend.tensorflow_backend as KTF


def get_session(gpu_fraction=0.333):
    num_threads = os.environ.get('OMP_NUM_THREADS')
    gpu_options = tf.GPUOptions(per_process_gpu_memory_fraction=gpu_fraction)

    if num_threads:
        return tf.Session(config=tf.ConfigProto(
            gpu_options=gpu_options, intra_op_parallelism_threads=num_threads))
    else:
        return tf.Session(config=tf.ConfigProto(gpu_options=gpu_options))


KTF.set_session(get_session())
""",
    """\
import os
import tensorflow as tf
import tfcompat_gpu


def get_session(gpu_fraction=0.333):
    num_threads = os.environ.get('OMP_NUM_THREADS')

    if num_threads:
        tfcompat_gpu.configure(
            per_process_gpu_memory_fraction=gpu_fraction,
            intra_op_parallelism_threads=num_threads,
        )
        return tfcompat_gpu.session()
    else:
        tfcompat_gpu.configure(per_process_gpu_memory_fraction=gpu_fraction)
        return tfcompat_gpu.session()


get_session()
""",
)
case(
    # one arm's config cannot be migrated: the GPUOptions it copies stays with it
    "shared-gpu-options-one-arm-left",
    """\
import tensorflow as tf

gpu_options = tf.GPUOptions(allow_growth=True)
if FLAGS.cluster:
    server = tf.train.Server(cluster, config=tf.ConfigProto(gpu_options=gpu_options))
else:
    sess = tf.Session(config=tf.ConfigProto(gpu_options=gpu_options))
""",
    """\
import tensorflow as tf
import tfcompat_gpu

gpu_options = tf.GPUOptions(allow_growth=True)
if FLAGS.cluster:
    server = tf.train.Server(cluster, config=tf.ConfigProto(gpu_options=gpu_options))
else:
    tfcompat_gpu.configure(allow_growth=True)
""",
    [(5, "[passed to Server()]")],
)
case(
    # changed after the first copy: each copy holds other settings, left as it is
    "shared-gpu-options-changed-between-copies",
    """\
import tensorflow as tf

gpu_options = tf.GPUOptions(allow_growth=True)
first = tf.Session(config=tf.ConfigProto(gpu_options=gpu_options))
gpu_options.per_process_gpu_memory_fraction = 0.5
second = tf.Session(config=tf.ConfigProto(gpu_options=gpu_options))
""",
    """\
import tensorflow as tf

gpu_options = tf.GPUOptions(allow_growth=True)
first = tf.Session(config=tf.ConfigProto(gpu_options=gpu_options))
gpu_options.per_process_gpu_memory_fraction = 0.5
second = tf.Session(config=tf.ConfigProto(gpu_options=gpu_options))
""",
    [(4, "[changed after the ConfigProto copied it]"), (6, "[passed to ConfigProto()]")],
)
case(
    "set-session-of-factory-returning-none",
    """\
import tensorflow as tf
from keras import backend as K


def get_session(gpu_fraction=0.3):
    if gpu_fraction is None:
        return None
    gpu_options = tf.GPUOptions(per_process_gpu_memory_fraction=gpu_fraction)
    return tf.Session(config=tf.ConfigProto(gpu_options=gpu_options))


K.set_session(get_session())
""",
    """\
import tensorflow as tf
from keras import backend as K
import tfcompat_gpu


def get_session(gpu_fraction=0.3):
    if gpu_fraction is None:
        return None
    tfcompat_gpu.configure(per_process_gpu_memory_fraction=gpu_fraction)
    return tfcompat_gpu.session()


K.set_session(get_session())
""",
    [(12, "[set_session of an untraced session]")],
)
case(
    # the config is migrated; the set_session the migration cannot remove says so itself
    "set-session-in-an-expression-is-reported",
    """\
import tensorflow as tf
import keras.backend as K
config = tf.ConfigProto()
config.gpu_options.allow_growth = True
sess = tf.Session(config=config)
ok = K.set_session(sess) or True
""",
    """\
import tensorflow as tf
import keras.backend as K
import tfcompat_gpu

tfcompat_gpu.configure(allow_growth=True)
sess = tfcompat_gpu.session()
ok = K.set_session(sess) or True
""",
    [(6, "[set_session of an untraced session]")],
)


# ------------------------------------------- a module bound to a second name by assignment
case(
    # TF2-era code that kept the v1 API under its own name: the session, its config and
    # compat.v1's Keras backend (absent with Keras 3) read through it
    "module-alias-compat-v1",
    """\
import tensorflow as tf
tf_v1 = tf.compat.v1


def gpu_configuration():
    config = tf_v1.ConfigProto()
    config.gpu_options.allow_growth = True
    sess = tf_v1.Session(config=config)
    tf_v1.keras.backend.set_session(sess)
""",
    """\
import tensorflow as tf
import tfcompat_gpu

tf_v1 = tf.compat.v1


def gpu_configuration():
    tfcompat_gpu.configure(allow_growth=True)
""",
)

case(
    "module-alias-keras-backend",
    """\
import tensorflow as tf
K = tf.keras.backend
config = tf.compat.v1.ConfigProto(log_device_placement=True)
K.set_session(tf.compat.v1.Session(config=config))
""",
    """\
import tensorflow as tf
import tfcompat_gpu

K = tf.keras.backend
tfcompat_gpu.configure(log_device_placement=True)
""",
)
