"""Over generated Keras 2 / TF1 programs: the output compiles, a second run changes nothing, and
what is left alone is said with a warning."""

from __future__ import annotations

import ast
import re

import pytest

pytest.importorskip("libcst")
pytest.importorskip("hypothesis")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tfcompat_gpu.codemod.api import migrate_source

OPTIMIZER_IMPORTS = [
    ("from keras.optimizers import {cls}\n", "{cls}"),
    ("import keras\n", "keras.optimizers.{cls}"),
    ("from keras import optimizers\n", "optimizers.{cls}"),
    ("import tensorflow as tf\n", "tf.keras.optimizers.{cls}"),
]
CLASSES = ["SGD", "Adam", "RMSprop", "Adagrad", "Adadelta", "Nadam", "adam", "sgd"]
VALUES = st.sampled_from(["0.01", "1e-3", "args.lr", "base * 2"])
DECAYS = st.sampled_from(["1e-6", "0.0", "0", "args.decay"])
GENERATOR_ARGS = {
    "steps_per_epoch": st.sampled_from(["10", "len(seq)"]),
    "epochs": st.sampled_from(["1", "n"]),
    "verbose": st.sampled_from(["0", "2"]),
    "workers": st.sampled_from(["1", "4"]),
    "use_multiprocessing": st.sampled_from(["True", "False"]),
    "max_queue_size": st.sampled_from(["10", "32"]),
    "nb_epoch": st.sampled_from(["3"]),
    "samples_per_epoch": st.sampled_from(["1000"]),
    "validation_data": st.sampled_from(["val_gen", "(x, y)"]),
}
MODULES = [
    "from keras.layers.core import Dense, Dropout",
    "from keras.layers.convolutional import Conv2D",
    "from keras.layers.merge import concatenate, Merge",
    "from keras.utils import np_utils",
    "from keras.utils.np_utils import to_categorical",
    "from keras.engine.topology import Layer",
    "from keras.engine import Model, Layer",
    "from keras.layers.core import *",
]
TF1_LINES = [
    "x = tf.placeholder(tf.float32, [None, 3])",
    "sess = tf.Session()",
    "init = tf.global_variables_initializer()",
    "opt = tf.train.AdamOptimizer(0.1)",
    "tf.logging.set_verbosity(tf.logging.INFO)",
    "y = tf.layers.dense(x, 2)",
    "z = tf.contrib.layers.flatten(x)",
    "est = tf.estimator.Estimator(model_fn)",
    "w = tf.Variable(tf.zeros([3]))",
    "import keras",
]


def _check(code: str) -> tuple[str, tuple[str, ...]]:
    result = migrate_source(code, upgrade=True)
    compile(result.code, "<migrated>", "exec")
    again = migrate_source(result.code, upgrade=True)
    assert again.code == result.code, result.code
    return result.code, result.warnings


@st.composite
def optimizer_programs(draw: st.DrawFn) -> str:
    header, spelled = draw(st.sampled_from(OPTIMIZER_IMPORTS))
    cls = draw(st.sampled_from(CLASSES))
    if header.startswith("from keras.optimizers") and cls.islower():
        header = header.format(cls=cls)
    else:
        header = header.format(cls=cls)
    args = draw(st.fixed_dictionaries({}, optional={"lr": VALUES, "decay": DECAYS}))
    extra = draw(st.sampled_from(["", "momentum=0.9", "**kw"]))
    parts = [f"{k}={v}" for k, v in args.items()] + ([extra] if extra else [])
    return header + f"opt = {spelled.format(cls=cls)}({', '.join(parts)})\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(optimizer_programs())
def test_optimizer_arguments(code: str) -> None:
    out, warnings = _check(code)
    tree = ast.parse(out)
    left = {k.arg for n in ast.walk(tree) if isinstance(n, ast.Call) for k in n.keywords}
    if "lr" in left or "decay" in left:
        # what the rewrite leaves is said, at its line
        assert any(w.startswith("2: ") for w in warnings), (out, warnings)
    if "decay" in code and "decay" not in left and "decay=0" not in code:
        assert "InverseTimeDecay" in out


@st.composite
def generator_programs(draw: st.DrawFn) -> str:
    method = draw(st.sampled_from(["fit_generator", "evaluate_generator", "predict_generator"]))
    args = draw(st.fixed_dictionaries({}, optional=GENERATOR_ARGS))
    first = draw(st.sampled_from(["gen", "generator=gen"]))
    parts = [first] + [f"{k}={v}" for k, v in args.items()]
    return f"result = model.{method}({', '.join(parts)})\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(generator_programs())
def test_generator_methods(code: str) -> None:
    out, warnings = _check(code)
    # (the samples helper's tf.data.Dataset.from_generator is not a call left alone)
    if re.search(r"\.(?:fit|evaluate|predict)_generator\(", out):
        assert warnings, out  # left alone: said
    else:
        dropped = [a for a in ("workers", "use_multiprocessing", "max_queue_size") if a in code]
        assert all(a not in out for a in dropped)
        assert bool(dropped) == any("dropped" in w for w in warnings), (out, warnings)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(MODULES), min_size=1, max_size=4, unique=True))
def test_module_paths(lines: list[str]) -> None:
    code = "\n".join(lines) + "\n"
    out, warnings = _check(code)
    for number, line in enumerate(out.splitlines(), start=1):
        if any(
            old in line
            for old in ("layers.core", "convolutional", "merge", "engine", "np_utils import")
        ):
            # a removed module still imported: the line says why
            assert any(w.startswith(f"{number}: ") for w in warnings), (out, warnings)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TF1_LINES), min_size=1, max_size=5))
def test_tf1_graph_code(lines: list[str]) -> None:
    code = "import tensorflow as tf\n" + "\n".join(lines) + "\n"
    out, warnings = _check(code)
    graph = any(
        name in code
        for name in ("placeholder", "Session", "initializer", "Optimizer", "layers.dense")
    )
    if "import keras" in code and graph:
        # the graph code stays (tf.contrib.layers.flatten may become tf.compat.v1.layers')
        assert "import tensorflow.compat.v1" not in out
        assert "disable_v2_behavior" not in out
        assert any("graph mode" in w for w in warnings)
    elif graph:
        assert "import tensorflow.compat.v1 as tf" in out
        assert "tf.disable_v2_behavior()" in out
    for name in ("tf.contrib", "tf.estimator"):
        if name in out:  # what is left is said (contrib_layers rewrites some tf.contrib)
            assert any(name in w for w in warnings), warnings


PRIVATE_IMPORTS = [
    "from tensorflow.python.client.session import Session",
    "from tensorflow.python import InteractiveSession",
    "from tensorflow.python.client.session import Session, _REGISTERED_EXPANSIONS",
    "from tensorflow.core.protobuf.config_pb2 import RunOptions, RunMetadata",
    "from tensorflow.core.protobuf import config_pb2",
    "from tensorflow.core.protobuf import config_pb2 as cpb",
    "from tensorflow.python.keras import backend as K",
    "from tensorflow.python.keras.layers import Dense, Conv2D",
    "from tensorflow.python.keras.engine import training",
    "from tensorflow.python.keras.backend import get_session",
]
PRIVATE_USES = [
    "opts = config_pb2.RunOptions()",
    "info = config_pb2.CallableOptions()",
    "v = K.get_value(model.optimizer.lr)",
    "import keras",
]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(PRIVATE_IMPORTS), min_size=1, max_size=4, unique=True),
    st.lists(st.sampled_from(PRIVATE_USES), max_size=3, unique=True),
)
def test_private_imports(imports: list[str], uses: list[str]) -> None:
    code = "\n".join(imports + uses) + "\n"
    out, warnings = _check(code)
    for number, line in enumerate(out.splitlines(), start=1):
        if line.startswith(("from tensorflow.python", "from tensorflow.core")):
            # a private import left in place: the line says why
            assert any(w.startswith(f"{number}: ") for w in warnings), (out, warnings)
