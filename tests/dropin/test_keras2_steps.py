"""Keras 2's float counts of steps (``samples / batch_size``) for its generator methods."""

from __future__ import annotations

import pytest

from tests._child import run_py
from tests._keras import needs_tf_keras
from tfcompat_gpu.dropin._keras2_steps import whole_steps

pytestmark = pytest.mark.tf


@pytest.mark.parametrize(
    ("method", "args", "kwargs", "expected"),
    [
        (
            "fit_generator",
            ("g", 3.75),
            {"validation_steps": 0.75},
            (["g", 4], {"validation_steps": 1}),
        ),
        ("fit_generator", ("g", 2.0, 1, 0, None, "v", 1.5), {}, (["g", 2, 1, 0, None, "v", 2], {})),
        ("evaluate_generator", ("g",), {"steps": 2.2}, (["g"], {"steps": 3})),
        ("predict_generator", ("g", 5), {}, (["g", 5], {})),
        ("predict_generator", ("g", None), {}, (["g", None], {})),
        ("fit", ("x", 2.5), {"steps_per_epoch": 2.5}, (("x", 2.5), {"steps_per_epoch": 2.5})),
    ],
    ids=["keywords", "positions", "evaluate", "int", "none", "not-a-generator-method"],
)
def test_whole_steps(method, args, kwargs, expected):
    assert whole_steps(method, args, kwargs) == expected


def test_float_steps_run_as_keras2_ran_them():
    # an image classifier's epoch counted as samples / batch_size by a directory iterator
    needs_tf_keras()
    out = run_py(
        """
        import numpy as np
        import tfcompat_gpu
        tfcompat_gpu.install(legacy_keras=True)
        from keras.callbacks import Callback
        from keras.models import Sequential
        from keras.layers import Dense

        class Steps(Callback):
            def __init__(self):
                super().__init__()
                self.train, self.test = 0, 0
            def on_train_batch_end(self, batch, logs=None):
                self.train += 1
            def on_test_batch_end(self, batch, logs=None):
                self.test += 1

        def batches():
            while True:
                yield np.ones((4, 3)), np.ones((4, 1))

        model = Sequential([Dense(1, input_shape=(3,))])
        model.compile("sgd", loss="mse")
        samples, batch_size = 15, 4
        fitted, evaluated = Steps(), Steps()
        model.fit_generator(batches(), steps_per_epoch=samples / batch_size, epochs=1, verbose=0,
                            validation_data=batches(), validation_steps=3 / batch_size,
                            callbacks=[fitted])
        model.evaluate_generator(batches(), samples / batch_size, callbacks=[evaluated])
        emit([fitted.train, fitted.test, evaluated.test])
        """
    )
    # 4 training batches (ceil 3.75), 1 validation (ceil 0.75), 4 evaluation
    assert out == [4, 1, 4]
