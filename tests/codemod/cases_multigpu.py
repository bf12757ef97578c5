"""Before/after pairs for the multi-GPU migrations: (id, before, after, warnings).

``warnings`` lists ``(line, text the message contains)``; an empty list means silence.
"""

from __future__ import annotations

CASES: list[tuple[str, str, str, list[tuple[int, str]]]] = []


def case(id: str, before: str, after: str, warnings: list[tuple[int, str]] | None = None) -> None:
    CASES.append((id, before, after, warnings or []))


# ---------------------------------------------------------------- tf.contrib.distribute
case(
    "contrib-mirrored",
    """\
import tensorflow as tf
a = tf.contrib.distribute.MirroredStrategy()
b = tf.contrib.distribute.MirroredStrategy(num_gpus=2, cross_tower_ops=ops, auto_shard_dataset=True)
c = tf.contrib.distribute.OneDeviceStrategy("/gpu:0")
d = tf.contrib.distribute.AllReduceCrossDeviceOps("hierarchical_copy", num_packs=2)
e = tf.contrib.distribute.AllReduceCrossDeviceOps(all_reduce_alg="nccl")
f = tf.contrib.distribute.get_distribution_strategy()
""",
    """\
import tensorflow as tf
a = tf.distribute.MirroredStrategy()
b = tf.distribute.MirroredStrategy(devices=["/gpu:0", "/gpu:1"], cross_device_ops=ops)
c = tf.distribute.OneDeviceStrategy("/gpu:0")
d = tf.distribute.HierarchicalCopyAllReduce(num_packs=2)
e = tf.distribute.NcclAllReduce()
f = tf.distribute.get_strategy()
""",
)
case(
    "contrib-collective-and-parameter-server",
    """\
import tensorflow.compat.v1 as tf
s = tf.contrib.distribute.CollectiveAllReduceStrategy(num_gpus_per_worker=2)
p = tf.contrib.distribute.ParameterServerStrategy(num_gpus_per_worker=1)
""",
    """\
import tensorflow.compat.v1 as tf
s = tf.distribute.MultiWorkerMirroredStrategy()
p = tf.compat.v1.distribute.experimental.ParameterServerStrategy()
""",
    [(2, "num_gpus_per_worker dropped"), (3, "num_gpus_per_worker dropped")],
)
case(
    "contrib-left-with-warning",
    """\
import tensorflow as tf
a = tf.contrib.distribute.MirroredStrategy(num_gpus=n)
b = tf.contrib.distribute.AllReduceCrossDeviceOps("ring")
""",
    """\
import tensorflow as tf
a = tf.contrib.distribute.MirroredStrategy(num_gpus=n)
b = tf.contrib.distribute.AllReduceCrossDeviceOps("ring")
""",
    [(2, "the GPU count is not a literal"), (3, "AllReduceCrossDeviceOps left unchanged")],
)

# ---------------------------------------------------------------- GPU discovery
case(
    "discovery-keras-backend",
    """\
import tensorflow as tf
from keras import backend as K
gpus = K.tensorflow_backend._get_available_gpus()
if tf.test.is_gpu_available():
    print(tf.test.gpu_device_name())
""",
    """\
import tensorflow as tf
gpus = [gpu.name.replace("physical_device:", "device:") for gpu in tf.config.list_physical_devices("GPU")]
if bool(tf.config.list_physical_devices("GPU")):
    print(("/device:GPU:0" if tf.config.list_physical_devices("GPU") else ""))
""",
)
case(
    "discovery-adds-tensorflow-and-keeps-used-imports",
    """\
import keras.backend.tensorflow_backend as KTF
from keras import backend as K
n = len(KTF._get_available_gpus())
K.clear_session()
""",
    """\
from keras import backend as K
import tensorflow as tf

n = len([gpu.name.replace("physical_device:", "device:") for gpu in tf.config.list_physical_devices("GPU")])
K.clear_session()
""",
)

# ---------------------------------------------------------------- sessions beside GPU pins
# a tower per GPU run in a session given no config: soft placement, as TF2 and run give it
case(
    "session-soft-placement-towers",
    """\
import tensorflow as tf

images = tf.placeholder(tf.float32, [None, 32])
shards = tf.split(images, 2)
losses = []
for k in range(2):
    with tf.device("/gpu:%d" % k), tf.name_scope("replica_%d" % k):
        losses.append(tf.reduce_sum(tf.layers.dense(shards[k], 1)))
total = tf.add_n(losses)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
evaluation = tf.Session(graph=tf.get_default_graph())
other = tf.Session("", tf.get_default_graph())
""",
    """\
import tensorflow as tf
import tfcompat_gpu

images = tf.placeholder(tf.float32, [None, 32])
shards = tf.split(images, 2)
losses = []
for k in range(2):
    with tf.device("/gpu:%d" % k), tf.name_scope("replica_%d" % k):
        losses.append(tf.reduce_sum(tf.layers.dense(shards[k], 1)))
total = tf.add_n(losses)

with tfcompat_gpu.session(tfcompat_gpu.GPUConfig(allow_soft_placement=True)) as sess:
    sess.run(tf.global_variables_initializer())
evaluation = tfcompat_gpu.session(tfcompat_gpu.GPUConfig(allow_soft_placement=True), graph=tf.get_default_graph())
other = tfcompat_gpu.session(tfcompat_gpu.GPUConfig(allow_soft_placement=True), target="", graph=tf.get_default_graph())
""",
)
# model parallelism: one op on the second GPU, a session that logs placement and says nothing
# of soft placement; its config goes to configure(), the session places softly
case(
    "session-soft-placement-config-without-it",
    """\
import tensorflow as tf

with tf.device("/cpu:0"):
    left = tf.constant([1.0, 2.0])
with tf.device("/gpu:1"):
    right = left * 3

session = tf.Session(config=tf.ConfigProto(log_device_placement=True))
print(session.run(right))
""",
    """\
import tensorflow as tf
import tfcompat_gpu

with tf.device("/cpu:0"):
    left = tf.constant([1.0, 2.0])
with tf.device("/gpu:1"):
    right = left * 3

tfcompat_gpu.configure(log_device_placement=True)
session = tfcompat_gpu.session(tfcompat_gpu.GPUConfig(allow_soft_placement=True))
print(session.run(right))
""",
)
# the file's own word on placement stands
case(
    "session-soft-placement-config-with-it",
    """\
import tensorflow as tf

with tf.device("/gpu:1"):
    right = tf.constant([1.0, 2.0]) * 3

session = tf.Session(config=tf.ConfigProto(allow_soft_placement=False))
print(session.run(right))
""",
    """\
import tensorflow as tf
import tfcompat_gpu

with tf.device("/gpu:1"):
    right = tf.constant([1.0, 2.0]) * 3

tfcompat_gpu.configure(allow_soft_placement=False)
session = tfcompat_gpu.session()
print(session.run(right))
""",
)
# pinned to the CPU only: nothing a machine may lack
case(
    "session-soft-placement-cpu-pin-left",
    """\
import tensorflow as tf

with tf.device("/cpu:0"):
    step = tf.train.get_or_create_global_step()
sess = tf.Session()
""",
    """\
import tensorflow as tf

with tf.device("/cpu:0"):
    step = tf.train.get_or_create_global_step()
sess = tf.Session()
""",
)
# ---------------------------------------------------------------- multi_gpu_model
case(
    "multi-gpu-model-keras-docs",
    """\
import tensorflow as tf
from keras.applications import Xception
from keras.utils import multi_gpu_model

with tf.device("/cpu:0"):
    model = Xception(weights=None, input_shape=(height, width, 3), classes=num_classes)
parallel_model = multi_gpu_model(model, gpus=8)
parallel_model.compile(loss="categorical_crossentropy", optimizer="rmsprop")
parallel_model.fit(x, y, epochs=20, batch_size=256)
model.save("my_model.h5")
""",
    """\
import tensorflow as tf
from keras.applications import Xception

strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1", "/gpu:2", "/gpu:3", "/gpu:4", "/gpu:5", "/gpu:6", "/gpu:7"][:len(tf.config.list_physical_devices("GPU"))] or None)
with strategy.scope():
    model = Xception(weights=None, input_shape=(height, width, 3), classes=num_classes)
    parallel_model = model
    parallel_model.compile(loss="categorical_crossentropy", optimizer="rmsprop")
parallel_model.fit(x, y, epochs=20, batch_size=256)
model.save("my_model.h5")
""",
)
case(
    "multi-gpu-model-functional-ids-in-function",
    """\
import tensorflow as tf
from keras.utils.multi_gpu_utils import multi_gpu_model

def train():
    inputs = tf.keras.Input((4,))
    outputs = tf.keras.layers.Dense(1)(inputs)
    model = tf.keras.Model(inputs, outputs)
    parallel = multi_gpu_model(model, gpus=[0, 1], cpu_merge=False)
    parallel.compile(loss="mse", optimizer="sgd")
    return model
""",
    """\
import tensorflow as tf

def train():
    strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
    with strategy.scope():
        inputs = tf.keras.Input((4,))
        outputs = tf.keras.layers.Dense(1)(inputs)
        model = tf.keras.Model(inputs, outputs)
        parallel = model
        parallel.compile(loss="mse", optimizer="sgd")
    return model
""",
)
case(
    # the fallback of Keras 2.2's multi_gpu_model documentation
    "multi-gpu-model-try-fallback",
    """\
from keras.applications import Xception
from keras.utils import multi_gpu_model

model = Xception(weights=None, input_shape=(299, 299, 3), classes=10)
try:
    parallel_model = multi_gpu_model(model, cpu_relocation=True)
    print("Training using multiple GPUs..")
except ValueError:
    parallel_model = model
    print("Training using single GPU or CPU..")
parallel_model.compile(loss="categorical_crossentropy", optimizer="rmsprop")
parallel_model.fit(x, y, epochs=20, batch_size=256)
""",
    """\
from keras.applications import Xception
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = Xception(weights=None, input_shape=(299, 299, 3), classes=10)
    parallel_model = model
    parallel_model.compile(loss="categorical_crossentropy", optimizer="rmsprop")
print("Training using multiple GPUs..")
parallel_model.fit(x, y, epochs=20, batch_size=256)
""",
)
case(
    "multi-gpu-model-try-pass-in-function",
    """\
from keras.utils import multi_gpu_model

def build(n_gpus):
    model = make_model()
    try:
        model = multi_gpu_model(model, gpus=2)
    except:
        pass
    model.compile(loss="mse", optimizer="adam")
    return model
""",
    """\
import tensorflow as tf

def build(n_gpus):
    strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"][:len(tf.config.list_physical_devices("GPU"))] or None)
    with strategy.scope():
        model = make_model()
        model.compile(loss="mse", optimizer="adam")
    return model
""",
)
# a GPU count from a name: read as multi_gpu_model read it (ids or a count)
case(
    "multi-gpu-model-try-gpu-count-variable",
    """\
from keras.utils import multi_gpu_model

model = make_model()
try:
    model = multi_gpu_model(model, gpus=n_gpus)
except Exception:
    pass
""",
    """\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["/gpu:%d" % i for i in (n_gpus if isinstance(n_gpus, (list, tuple)) else range(n_gpus))][:len(tf.config.list_physical_devices("GPU"))] or None)
with strategy.scope():
    model = make_model()
""",
)
case(
    "multi-gpu-model-gpu-count-flag-in-function",
    """\
from keras.utils import multi_gpu_model

def train(opts):
    net = build_net(opts.width)
    parallel = multi_gpu_model(net, opts.gpus, cpu_relocation=True)
    parallel.compile(optimizer="adam", loss="mse")
    return parallel
""",
    """\
import tensorflow as tf

def train(opts):
    strategy = tf.distribute.MirroredStrategy(["/gpu:%d" % i for i in (opts.gpus if isinstance(opts.gpus, (list, tuple)) else range(opts.gpus))][:len(tf.config.list_physical_devices("GPU"))] or None)
    with strategy.scope():
        net = build_net(opts.width)
        parallel = net
        parallel.compile(optimizer="adam", loss="mse")
    return parallel
""",
)
# counted between the model and the call: the strategy, built before the model, cannot read it
case(
    "multi-gpu-model-gpu-count-set-late-left",
    """\
from keras.utils import multi_gpu_model

autoencoder = make_autoencoder()
gpu_total = len(list_gpus())
parallel = multi_gpu_model(autoencoder, gpus=gpu_total, cpu_relocation=True)
parallel.compile(optimizer="adam", loss="mse")
""",
    """\
from keras.utils import multi_gpu_model

autoencoder = make_autoencoder()
gpu_total = len(list_gpus())
parallel = multi_gpu_model(autoencoder, gpus=gpu_total, cpu_relocation=True)
parallel.compile(optimizer="adam", loss="mse")
""",
    [(5, "multi_gpu_model left unchanged (the GPU count is set among the statements")],
)
case(
    "multi-gpu-model-gpu-count-call-left",
    """\
from keras.utils import multi_gpu_model

model = make_model()
parallel = multi_gpu_model(model, gpus=len(list_gpus()))
""",
    """\
from keras.utils import multi_gpu_model

model = make_model()
parallel = multi_gpu_model(model, gpus=len(list_gpus()))
""",
    [(4, "multi_gpu_model left unchanged (the GPU list is not a literal)")],
)
case(
    "multi-gpu-model-try-handler-does-more-left",
    """\
from keras.utils import multi_gpu_model

model = make_model()
try:
    parallel = multi_gpu_model(model, gpus=2)
except ValueError:
    raise SystemExit("needs two GPUs")
""",
    """\
from keras.utils import multi_gpu_model

model = make_model()
try:
    parallel = multi_gpu_model(model, gpus=2)
except ValueError:
    raise SystemExit("needs two GPUs")
""",
    [(5, "multi_gpu_model left unchanged (the model is built elsewhere)")],
)
# a summary and a print between the replication and the compile: the compile still goes in
case(
    "multi-gpu-model-summary-before-compile",
    """\
from keras.layers import Dense
from keras.models import Sequential
from keras.utils import multi_gpu_model

net = Sequential()
net.add(Dense(8, input_shape=(4,)))
net = multi_gpu_model(net, 2)
net.summary()
print("replicas ready")
net.compile(loss="mse", optimizer="sgd")
net.fit(x, y)
print("done")
""",
    """\
from keras.layers import Dense
from keras.models import Sequential
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"][:len(tf.config.list_physical_devices("GPU"))] or None)
with strategy.scope():
    net = Sequential()
    net.add(Dense(8, input_shape=(4,)))
    net.summary()
    print("replicas ready")
    net.compile(loss="mse", optimizer="sgd")
net.fit(x, y)
print("done")
""",
)
# the session's configuration above the model turns into one configure() call in the same walk:
# the block then has fewer statements than the one the model's construction was found in
case(
    "multi-gpu-model-after-session-config",
    """\
import keras
import tensorflow as tf
from keras import backend as K
from keras.layers import Dense
from keras.models import Sequential
from keras.utils import multi_gpu_model

session_config = tf.ConfigProto()
session_config.gpu_options.allow_growth = True
K.set_session(tf.Session(config=session_config))

net = Sequential()
net.add(Dense(64, activation="relu", input_shape=(20,)))
net.add(Dense(1, activation="sigmoid"))
net = multi_gpu_model(net, 2)
net.compile(loss="binary_crossentropy", optimizer="adam")
net.fit(features, labels, batch_size=32)
""",
    """\
import keras
import tensorflow as tf
from keras.layers import Dense
from keras.models import Sequential
import tfcompat_gpu

tfcompat_gpu.configure(allow_growth=True)

strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"][:len(tf.config.list_physical_devices("GPU"))] or None)
with strategy.scope():
    net = Sequential()
    net.add(Dense(64, activation="relu", input_shape=(20,)))
    net.add(Dense(1, activation="sigmoid"))
    net.compile(loss="binary_crossentropy", optimizer="adam")
net.fit(features, labels, batch_size=32)
""",
)
case(
    "multi-gpu-model-fallback-after-session-config",
    """\
import tensorflow as tf
from keras.layers import Dense, Input
from keras.models import Model
from keras.utils import multi_gpu_model

config = tf.ConfigProto(allow_soft_placement=True)
config.gpu_options.per_process_gpu_memory_fraction = 0.5
sess = tf.Session(config=config)

inputs = Input(shape=(8,))
outputs = Dense(2, activation="softmax")(inputs)
model = Model(inputs, outputs)
try:
    parallel = multi_gpu_model(model, gpus=2)
    print("training on 2 GPUs")
except ValueError:
    parallel = model
    print("training on one device")
parallel.compile(loss="categorical_crossentropy", optimizer="sgd")
""",
    """\
import tensorflow as tf
from keras.layers import Dense, Input
from keras.models import Model
import tfcompat_gpu

tfcompat_gpu.configure(allow_soft_placement=True, per_process_gpu_memory_fraction=0.5)

strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"][:len(tf.config.list_physical_devices("GPU"))] or None)
with strategy.scope():
    inputs = Input(shape=(8,))
    outputs = Dense(2, activation="softmax")(inputs)
    model = Model(inputs, outputs)
    parallel = model
    parallel.compile(loss="categorical_crossentropy", optimizer="sgd")
print("training on 2 GPUs")
""",
)
case(
    "multi-gpu-model-built-elsewhere",
    """\
from keras.utils import multi_gpu_model

def parallelize(model, n):
    return multi_gpu_model(model, gpus=n)

parallel = multi_gpu_model(load_model("m.h5"), gpus=2)
""",
    """\
from keras.utils import multi_gpu_model

def parallelize(model, n):
    return multi_gpu_model(model, gpus=n)

parallel = multi_gpu_model(load_model("m.h5"), gpus=2)
""",
    [
        (4, "multi_gpu_model left unchanged: Keras 3 has no multi_gpu_model"),
        (6, "multi_gpu_model left unchanged (the model is built elsewhere)"),
    ],
)
case(
    # a trainer class keeping the parallel model on an attribute: left, and said
    "multi-gpu-model-on-an-attribute-left",
    """\
import tensorflow as tf
from keras.utils import multi_gpu_model

class TemplateNet(object):
    def set_parallel_model(self, gpus=2):
        with tf.device('/cpu:0'):
            cpu_model = self.def_model()
        self.model = multi_gpu_model(cpu_model, gpus=gpus)
""",
    """\
import tensorflow as tf
from keras.utils import multi_gpu_model

class TemplateNet(object):
    def set_parallel_model(self, gpus=2):
        with tf.device('/cpu:0'):
            cpu_model = self.def_model()
        self.model = multi_gpu_model(cpu_model, gpus=gpus)
""",
    [(8, "[multi_gpu_model call left]")],
)

# ---------------------------------------------------------------- compile(distribute=...)
case(
    "compile-distribute-seed003",
    """\
import tensorflow as tf

inputs = tf.keras.layers.Input(shape=(1,))
predictions = tf.keras.layers.Dense(1)(inputs)
model = tf.keras.models.Model(inputs=inputs, outputs=predictions)

features = tf.data.Dataset.from_tensors([1.]).repeat(100).batch(10)

distribution = tf.contrib.distribute.MirroredStrategy()
model.compile(loss='mean_squared_error',
              optimizer=tf.keras.optimizers.SGD(0.2),
              distribute=distribution)
model.fit(features, epochs=5)
""",
    """\
import tensorflow as tf

features = tf.data.Dataset.from_tensors([1.]).repeat(100).batch(10)

distribution = tf.distribute.MirroredStrategy()
with distribution.scope():
    inputs = tf.keras.layers.Input(shape=(1,))
    predictions = tf.keras.layers.Dense(1)(inputs)
    model = tf.keras.models.Model(inputs=inputs, outputs=predictions)
    model.compile(loss='mean_squared_error',
                  optimizer=tf.keras.optimizers.SGD(0.2))
model.fit(features, epochs=5)
""",
)
case(
    "compile-distribute-model-from-elsewhere",
    """\
def fit(model, strategy):
    model.compile(loss="mse", optimizer="sgd", distribute=strategy)
""",
    """\
def fit(model, strategy):
    model.compile(loss="mse", optimizer="sgd", distribute=strategy)
""",
    [(2, "compile(distribute=...) left unchanged")],
)
