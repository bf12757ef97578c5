"""TF1 names imported from TensorFlow's private modules: the GPU configuration built from them,
and the public homes being the same objects on the installed TensorFlow / Keras."""

from __future__ import annotations

import pytest

pytest.importorskip("libcst")

from tests._child import run_py
from tfcompat_gpu.codemod.api import migrate_source
from tfcompat_gpu.codemod.commands.tf_private_imports import (
    _KERAS_MODULES,
    CONFIG_PB2_NAMES,
    SESSION_MODULES,
)
from tfcompat_gpu.tfapi.names import canonical

# modelled on public Keras-on-TF scripts that reach the session through TF's private modules
_GPU = """\
import tensorflow as tf
from tensorflow.core.protobuf import config_pb2
from tensorflow.python.keras import backend as K

config = config_pb2.ConfigProto()
config.gpu_options.allow_growth = True
K.set_session(tf.Session(config=config))
"""


def test_private_names_fold_to_the_public_ones() -> None:
    assert canonical("tensorflow.core.protobuf.config_pb2.ConfigProto") == "tensorflow.ConfigProto"
    assert canonical("tensorflow.python.client.session.Session") == "tensorflow.Session"
    assert canonical("tensorflow.python.Session") == "tensorflow.Session"
    # a private name with no public twin stays itself
    assert canonical("tensorflow.python.ops.array_ops") == "tensorflow.python.ops.array_ops"
    assert canonical("tensorflow.core.protobuf.config_pb2.CallableOptions") == (
        "tensorflow.core.protobuf.config_pb2.CallableOptions"
    )


def test_gpu_config_from_config_pb2_is_migrated_in_one_run() -> None:
    result = migrate_source(_GPU, upgrade=True)
    assert "tfcompat_gpu.configure(allow_growth=True)" in result.code
    assert "tensorflow.core" not in result.code
    assert "tensorflow.python" not in result.code
    assert result.warnings == ()
    assert migrate_source(result.code, upgrade=True).code == result.code


def test_gpu_only_still_migrates_the_config_and_keeps_the_imports() -> None:
    result = migrate_source(_GPU)
    assert "tfcompat_gpu.configure(allow_growth=True)" in result.code
    assert "from tensorflow.core.protobuf import config_pb2" in result.code


@pytest.mark.tf
def test_public_homes_are_the_same_objects() -> None:
    # the moves are exact: the public name is the private object itself
    checked = run_py(
        f"""
        import importlib
        import tensorflow as tf
        import keras
        from tensorflow.core.protobuf import config_pb2
        from tensorflow.python.client import session
        from tensorflow.compat import v1
        same = [getattr(v1, n) is getattr(config_pb2, n) for n in {sorted(CONFIG_PB2_NAMES)!r}]
        same += [getattr(v1, n) is getattr(session, n) for n in ("Session", "InteractiveSession")]
        for name in {sorted(_KERAS_MODULES)!r}:
            importlib.import_module("keras." + name)
            same.append(getattr(tf.keras, name) is not None)
        emit(same)
        """
    )
    assert checked
    assert all(checked)
    assert "tensorflow.python.client.session" in SESSION_MODULES


def test_a_contrib_kmeans_import_names_where_kmeans_went() -> None:
    # a TF1 k-means tutorial: the graph KMeans of tf.contrib.factorization
    code = (
        "import tensorflow as tf\n"
        "from tensorflow.contrib.factorization import KMeans\n"
        "X = tf.placeholder(tf.float32, shape=[None, 784])\n"
        "kmeans = KMeans(inputs=X, num_clusters=25, distance_metric='cosine')\n"
    )
    result = migrate_source(code, upgrade=True)
    assert "from tensorflow.contrib.factorization import KMeans" in result.code
    (warning,) = [w for w in result.warnings if "[tf.contrib removed]" in w]
    assert warning.startswith("2: from tensorflow.contrib.factorization import ... left unchanged")
    assert "scikit-learn's KMeans" in warning
    assert "`tfcompat-gpu run` provides TF1's graph KMeans" in warning
