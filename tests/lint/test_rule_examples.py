"""The documented example of each rule triggers it; its "use instead" does not."""

from __future__ import annotations

import pytest

from tfcompat_gpu.lint.engine import check_bytes
from tfcompat_gpu.lint.registry import RULES_BY_CODE

_IMPORTS = "import keras\nimport tensorflow as tf\nfrom keras import backend as K\n"
CODES = ["TFG026", "TFG027", "TFG028", "TFG029", "TFG030"]


def _codes(code: str) -> set[str]:
    return {f.code for f in check_bytes(code.encode(), "example.py")}


@pytest.mark.parametrize("code", CODES)
def test_example_triggers_the_rule(code: str) -> None:
    rule = RULES_BY_CODE[code]
    assert code in _codes(_IMPORTS + rule.example)


@pytest.mark.parametrize("code", CODES)
def test_use_instead_does_not(code: str) -> None:
    rule = RULES_BY_CODE[code]
    # TFG027's fix sets the session through the same Keras that builds the models.
    extra = "model = keras.models.Sequential()\n" if code == "TFG027" else ""
    assert code not in _codes(_IMPORTS + rule.use_instead + "\n" + extra)
