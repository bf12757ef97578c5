"""In-place operators on a variable in a v1 graph under ``run`` (:mod:`dropin._tf1_variables`).

Each test runs a child with real TensorFlow: a TF1-era loss built as ``loss = K.variable(0.)``
then ``loss += ...`` gets the new tensor TF 1.x returned; eagerly the error stays.
"""

from __future__ import annotations

import pytest

from tests._child import run_script
from tests._keras import needs_tf_keras

pytestmark = pytest.mark.tf


@needs_tf_keras
def test_loss_summed_into_a_backend_variable_is_a_new_tensor(tmp_path):
    # Keras 2's deep-dream / style-transfer scripts sum their loss into K.variable(0.)
    run = run_script(
        tmp_path,
        """
        import numpy as np
        from keras import backend as K
        from keras.layers import Dense, Input
        from keras.models import Model
        from tests._child import emit

        inputs = Input(shape=(4,))
        model = Model(inputs, Dense(3)(inputs))
        start = K.variable(0.)
        total = start
        for weight in (1.0, 0.5):
            total += weight * K.sum(K.square(model.output))
        total -= 1.0
        total *= 2.0
        total /= 4.0
        gradient = K.gradients(total, model.input)[0]
        fetch = K.function([model.input], [total, gradient])
        value, grad = fetch([np.ones((2, 4))])
        emit({
            "rebound": total is not start,
            "start": float(K.get_value(start)),
            "grad": list(grad.shape),
            "finite": bool(np.isfinite(value)),
        })
        """,
    )
    assert run.rc == 0, run.err
    assert run.result == {"rebound": True, "start": 0.0, "grad": [2, 4], "finite": True}


def test_eager_variable_still_refuses_in_place_add(tmp_path):
    run = run_script(
        tmp_path,
        """
        import tensorflow as tf
        from tests._child import emit

        v = tf.Variable(1.0)
        try:
            v += 1.0
        except RuntimeError as error:
            emit({"error": "assign_add" in str(error), "value": float(v.numpy())})
        """,
    )
    assert run.rc == 0, run.err
    assert run.result == {"error": True, "value": 1.0}
