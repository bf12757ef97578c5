"""Keras 2's float counts of steps for its generator methods, as whole numbers.

Keras 2 scripts counted the batches of an epoch by true division
(``steps_per_epoch=train_batches.samples / batch_size``), a float that Keras 2's generator loops
(``while steps_done < steps_per_epoch`` in keras/engine/training_generator.py) ran as its
ceiling.  tf_keras hands the count to its data adapter, which fails ("Cannot convert 3.75 to
EagerTensor of dtype int64").  ``whole_steps`` gives ``fit_generator`` / ``evaluate_generator``
/ ``predict_generator`` the ceiling of a float count, given by name or by Keras 2's position.
"""

from __future__ import annotations

import math

TYPE_CHECKING = False  # (typing stays unloaded: every ``run`` imports this)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["whole_steps"]

# the counts of steps of each method and their Keras 2.2 positions (keras/engine/training.py)
_STEPS: dict[str, tuple[tuple[str, int], ...]] = {
    "fit_generator": (("steps_per_epoch", 1), ("validation_steps", 6)),
    "evaluate_generator": (("steps", 1),),
    "predict_generator": (("steps", 1),),
}


def _whole(value: Any) -> Any:
    return math.ceil(value) if isinstance(value, float) and math.isfinite(value) else value


def whole_steps(method: str, args: Any, kwargs: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """``(args, kwargs)`` with each float count of steps of ``method`` made its ceiling.

    >>> whole_steps("fit_generator", ("gen", 3.75), {"validation_steps": 0.5})
    (['gen', 4], {'validation_steps': 1})
    """
    counts = _STEPS.get(method)
    if counts is None:
        return args, kwargs
    args = list(args)
    kwargs = dict(kwargs)
    for name, position in counts:
        if name in kwargs:
            kwargs[name] = _whole(kwargs[name])
        elif position < len(args):
            args[position] = _whole(args[position])
    return args, kwargs
