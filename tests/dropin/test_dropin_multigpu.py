"""multi_gpu_model, compile(distribute=...) and tf.contrib.distribute under every Keras flavour.

Several replicas are logical CPUs (``device_count={"CPU": 2}``) under ``MirroredStrategy``; the
GPU choice runs TensorFlow's own device configuration over simulated physical GPUs.
"""

from __future__ import annotations

import pytest

from tests._child import run_py
from tfcompat_gpu import GPUConfigError
from tfcompat_gpu.dropin import _multi_gpu

pytestmark = pytest.mark.tf


@pytest.mark.parametrize(
    ("gpus", "fragment"),
    [
        (1, "gpus=1"),
        ([0], "gpus=[0]"),
        ([0, 0], "gpus=[0, 0]"),
        ([0, -1], "gpus=[0, -1]"),
        ("2", "gpus='2'"),
        (True, "gpus=True"),
        (2.0, "gpus=2.0"),
    ],
    ids=["one", "one-id", "duplicate", "negative", "string", "bool", "float"],
)
def test_bad_gpus_argument_is_named(gpus, fragment):
    with pytest.raises(GPUConfigError, match="expected gpus >= 2") as info:
        _multi_gpu._requested_ids(gpus)
    assert fragment in str(info.value)


TEMPLATE_KEEPS_WEIGHTS = """
    import warnings
    import numpy as np
    import tfcompat_gpu
    tfcompat_gpu.install()
    tfcompat_gpu.configure(device_count={"CPU": 2})
    import tensorflow as tf
    from tests._child import emit, flavour
    from tfcompat_gpu.dropin._multi_gpu import parallel_model
    keras = tf.keras
    Callback = keras.callbacks.Callback

    def build():
        return keras.Sequential([keras.layers.Dense(3, input_shape=(4,)), keras.layers.Dense(1)])

    x = np.random.RandomState(0).rand(64, 4).astype("float32")
    y = x.sum(axis=1, keepdims=True)
    out = {"flavour": flavour(), "calls": {}}

    def same(a, b):
        return all(np.allclose(p, q) for p, q in zip(a.get_weights(), b.get_weights()))

    class SeesTemplate(Callback):
        def __init__(self, template, parallel):
            super().__init__()
            self.template, self.parallel, self.seen = template, parallel, []
        def on_epoch_end(self, epoch, logs=None):
            self.seen.append(same(self.template, self.parallel))

    for call in ("fit", "fit_generator", "train_on_batch"):
        template = build()
        initial = [w.copy() for w in template.get_weights()]
        parallel = parallel_model(template, ["/cpu:0", "/cpu:1"])
        if not hasattr(parallel, call):
            continue  # Keras 3 has no fit_generator
        parallel.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
        watcher = SeesTemplate(template, parallel)
        if call == "fit":
            parallel.fit(x, y, epochs=2, batch_size=16, verbose=0, callbacks=[watcher])
        elif call == "fit_generator":
            def batches():
                while True:
                    yield x[:16], y[:16]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                parallel.fit_generator(batches(), steps_per_epoch=2, epochs=2, verbose=0)
        else:
            for _ in range(3):
                parallel.train_on_batch(x[:16], y[:16])
        trained = not all(np.allclose(a, b) for a, b in zip(initial, template.get_weights()))
        out["calls"][call] = {
            "replicas": parallel._tfcompat_replica.strategy.num_replicas_in_sync,
            "template_trained": trained,
            "template_equals_parallel": same(template, parallel),
            "seen_at_epoch_end": watcher.seen,
        }

    # the template's own changes reach the replica before the next call
    template = build()
    parallel = parallel_model(template, ["/cpu:0", "/cpu:1"])
    parallel.compile(optimizer="sgd", loss="mse")
    template.set_weights([np.zeros_like(w) for w in template.get_weights()])
    out["predict_after_template_change"] = float(np.abs(parallel.predict(x, verbose=0)).max())
    emit(out)
"""


def test_template_holds_the_trained_weights_after_every_training_call():
    out = run_py(TEMPLATE_KEEPS_WEIGHTS)
    expected_calls = {"fit", "train_on_batch"}
    if out["flavour"] != "keras3":
        expected_calls.add("fit_generator")
    assert set(out["calls"]) == expected_calls
    for call, result in out["calls"].items():
        assert result["replicas"] == 2, call
        assert result["template_trained"], call
        assert result["template_equals_parallel"], call
    # a user callback saving the template at an epoch end sees the trained weights
    assert out["calls"]["fit"]["seen_at_epoch_end"] == [True, True]
    assert out["predict_after_template_change"] == 0.0


EVERY_PATH = """
    import warnings
    import numpy as np
    import tfcompat_gpu
    tfcompat_gpu.install()
    import tensorflow as tf
    import keras
    from tests._child import emit, flavour
    from keras.utils import multi_gpu_model as from_keras_utils
    from keras.utils.training_utils import multi_gpu_model as from_training_utils
    from keras.utils.multi_gpu_utils import multi_gpu_model as from_multi_gpu_utils
    from tfcompat_gpu.dropin._multi_gpu import multi_gpu_model as ours
    paths = {
        "keras.utils": from_keras_utils,
        "keras.utils.training_utils": from_training_utils,
        "keras.utils.multi_gpu_utils": from_multi_gpu_utils,
        "tf.keras.utils": tf.keras.utils.multi_gpu_model,
        "tf.compat.v1.keras.utils": tf.compat.v1.keras.utils.multi_gpu_model,
    }
    out = {"flavour": flavour(), "ours": sorted(k for k, f in paths.items() if f is ours)}
    template = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parallel = from_keras_utils(template, gpus=2)
        out["none_is_all"] = from_keras_utils(template) is template
    out["warnings"] = [str(w.message) for w in caught
                       if w.category is tfcompat_gpu.GPUConfigWarning]
    out["is_template"] = parallel is template
    parallel.compile(optimizer="sgd", loss="mse")
    parallel.fit(np.ones((8, 2)), np.ones((8, 1)), verbose=0)
    try:
        from_keras_utils(template, gpus=2, cpu_merge="yes")
    except tfcompat_gpu.GPUConfigError as error:
        out["cpu_merge_error"] = str(error)
    tfcompat_gpu.uninstall()
    out["after_uninstall"] = hasattr(keras.utils, "multi_gpu_model")
    emit(out)
"""


def test_multi_gpu_model_from_every_path_runs_the_template_without_a_gpu():
    out = run_py(EVERY_PATH)
    assert out["ours"] == sorted(
        [
            "keras.utils",
            "keras.utils.training_utils",
            "keras.utils.multi_gpu_utils",
            "tf.keras.utils",
            "tf.compat.v1.keras.utils",
        ]
    )
    assert out["is_template"] is True
    assert out["none_is_all"] is True
    # one warning per distinct situation, saying what runs where
    assert out["warnings"] == [
        "multi_gpu_model(gpus=2): no GPU visible; the template model itself runs, on the CPU.",
        "multi_gpu_model(all GPUs): no GPU visible; the template model itself runs, on the CPU.",
    ]
    assert "expected cpu_merge to be True or False" in out["cpu_merge_error"]
    assert out["after_uninstall"] is False


SIMULATED = """
    import tensorflow as tf
    import tfcompat_gpu
    from tests._child import emit
    from simgpu import simulate_gpus
    from tfcompat_gpu.dropin._multi_gpu import replica_devices
    from tfcompat_gpu.tfapi import _tf
    simulate_gpus({count})
    {setup}
    cases = {{}}
    for gpus in (None, 2, 4, [0, 1], [1, 3]):
        cases[repr(gpus)] = replica_devices(gpus)
    emit({{"cases": cases, "started": _tf.runtime_started()}})
"""


@pytest.mark.parametrize(
    ("count", "setup", "expected"),
    [
        (
            2,
            "",
            {
                "None": [["/gpu:0", "/gpu:1"], None],
                "2": [["/gpu:0", "/gpu:1"], None],
                "4": [
                    ["/gpu:0", "/gpu:1"],
                    "multi_gpu_model(gpus=4): 2 GPU(s) visible; the model trains data-parallel "
                    "on /gpu:0, /gpu:1 only.",
                ],
                "[0, 1]": [["/gpu:0", "/gpu:1"], None],
                "[1, 3]": [
                    ["/gpu:1"],
                    "multi_gpu_model(gpus=[1, 3]): 2 GPU(s) visible; the model runs on /gpu:1 alone.",
                ],
            },
        ),
        (
            1,
            "",
            {
                "None": [
                    [],
                    "multi_gpu_model(all GPUs): 1 GPU(s) visible; the template model itself runs, "
                    "on /gpu:0.",
                ],
                "2": [
                    [],
                    "multi_gpu_model(gpus=2): 1 GPU(s) visible; the template model itself runs, "
                    "on /gpu:0.",
                ],
            },
        ),
        (
            # two physical GPUs, the first split in two virtual GPUs: three logical GPUs
            2,
            "tfcompat_gpu.configure(memory_limit_mb={0: [512, 512]})",
            {"None": [["/gpu:0", "/gpu:1", "/gpu:2"], None], "2": [["/gpu:0", "/gpu:1"], None]},
        ),
        (
            4,
            'tfcompat_gpu.configure(visible_device_list="2,3")',
            {"None": [["/gpu:0", "/gpu:1"], None], "[0, 1]": [["/gpu:0", "/gpu:1"], None]},
        ),
    ],
    ids=["two-gpus", "one-gpu", "virtual-gpus", "visible-list"],
)
def test_devices_chosen_over_simulated_gpus_without_starting_the_runtime(count, setup, expected):
    out = run_py(SIMULATED.format(count=count, setup=setup))
    assert out["started"] is False
    for gpus, result in expected.items():
        assert out["cases"][gpus] == result, gpus


COMPILE = """
    import warnings
    import numpy as np
    import tfcompat_gpu
    tfcompat_gpu.install()
    tfcompat_gpu.configure(device_count={"CPU": 2})
    import tensorflow as tf
    from tests._child import emit, flavour
    keras = tf.keras
    x = np.random.RandomState(1).rand(40, 3).astype("float32")
    y = x.sum(axis=1, keepdims=True)
    out = {"flavour": flavour()}

    def model():
        return keras.Sequential([keras.layers.Dense(1, input_shape=(3,))])

    for name, strategy in (
        ("one", tf.distribute.MirroredStrategy(["/cpu:0"])),
        ("two", tf.contrib.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])),
    ):
        m = model()
        initial = [w.copy() for w in m.get_weights()]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            m.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", distribute=strategy)
        m.fit(x, y, epochs=2, batch_size=8, verbose=0)
        replica = getattr(m, "_tfcompat_replica", None)
        out[name] = {
            "warnings": [str(w.message) for w in caught
                         if w.category is tfcompat_gpu.GPUConfigWarning],
            "replicas": replica.strategy.num_replicas_in_sync if replica else 1,
            "trained": not np.allclose(initial[0], m.get_weights()[0]),
            "evaluate": float(np.ravel(m.evaluate(x, y, verbose=0))[0]),
        }
    try:
        model().compile(optimizer="sgd", loss="mse", distribute="mirrored")
    except tfcompat_gpu.GPUConfigError as error:
        out["bad"] = str(error)
    if flavour() == "keras3":
        try:
            model().compile(optimizer=tf.compat.v1.train.GradientDescentOptimizer(0.2),
                            loss="mse")
        except tfcompat_gpu.GPUConfigError as error:
            out["v1_optimizer"] = str(error)
    emit(out)
"""


def test_compile_distribute_same_program_with_one_replica_replicated_with_two():
    out = run_py(COMPILE)
    assert out["one"]["warnings"] == []
    assert out["one"]["replicas"] == 1
    assert out["one"]["trained"]
    two = out["two"]
    assert two["replicas"] == 2
    assert two["trained"]  # the model the script holds got the trained weights
    assert len(two["warnings"]) == 1
    assert "replicated over 2 replica(s)" in two["warnings"][0]
    assert "`with strategy.scope():`" in two["warnings"][0]
    assert "expected a tf.distribute strategy" in out["bad"]
    assert "distribute='mirrored'" in out["bad"]
    if out["flavour"] == "keras3":
        assert out["v1_optimizer"].startswith(
            "compile: Keras 3 does not accept TensorFlow 1 optimizers."
        )
        assert "keras.optimizers.SGD" in out["v1_optimizer"]


CONTRIB = """
    import warnings
    import tfcompat_gpu
    tfcompat_gpu.install()
    import tensorflow as tf
    from tests._child import emit
    import tensorflow.contrib.distribute as imported
    from tensorflow.contrib.distribute import MirroredStrategy
    cd = tf.contrib.distribute
    out = {"same_module": imported is cd, "same_name": MirroredStrategy is cd.MirroredStrategy}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        s = cd.MirroredStrategy(num_gpus=2)
    out["num_gpus"] = [type(s).__name__, s.extended.worker_devices,
                       [str(w.message) for w in caught]]
    out["default"] = isinstance(cd.MirroredStrategy(), tf.distribute.MirroredStrategy)
    out["one_device"] = isinstance(cd.OneDeviceStrategy("/cpu:0"), tf.distribute.OneDeviceStrategy)
    out["ops"] = [type(cd.AllReduceCrossDeviceOps("nccl")).__name__,
                  type(cd.AllReduceCrossDeviceOps("hierarchical_copy", num_packs=2)).__name__,
                  cd.ReductionToOneDevice is tf.distribute.ReductionToOneDevice,
                  cd.CrossDeviceOps is tf.distribute.CrossDeviceOps]
    out["context"] = [cd.get_distribution_strategy() is tf.distribute.get_strategy(),
                      cd.has_distribution_strategy(), cd.in_cross_replica_context()]
    try:
        cd.AllReduceCrossDeviceOps("ring")
    except tfcompat_gpu.GPUConfigError as error:
        out["bad_alg"] = str(error)
    for name in ("bayesflow", "distribute.DistributeConfig"):
        try:
            obj = tf.contrib
            for part in name.split("."):
                obj = getattr(obj, part)
        except AttributeError as error:
            out[name] = str(error)
    out["v1"] = tf.compat.v1.contrib is tf.contrib
    tfcompat_gpu.uninstall()
    out["after_uninstall"] = hasattr(tf, "contrib")
    emit(out)
"""


def test_contrib_distribute_names_build_their_tf2_successors():
    out = run_py(CONTRIB)
    assert out["same_module"]
    assert out["same_name"]
    kind, devices, warned = out["num_gpus"]
    assert kind == "MirroredStrategy"
    assert [d.lower().endswith("cpu:0") for d in devices] == [True]
    assert warned == [
        "tf.contrib.distribute.MirroredStrategy(num_gpus=2): this process has 0 GPU(s); the "
        "strategy mirrors over /cpu:0 instead."
    ]
    assert out["default"]
    assert out["one_device"]
    assert out["ops"] == ["NcclAllReduce", "HierarchicalCopyAllReduce", True, True]
    assert out["context"] == [True, False, False]
    assert "all_reduce_alg='ring'" in out["bad_alg"]
    assert "provides only tf.contrib.distribute, " in out["bayesflow"]
    assert "DistributeConfig has no TF2 successor" in out["distribute.DistributeConfig"]
    assert out["v1"] is True
    assert out["after_uninstall"] is False
