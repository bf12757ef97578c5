"""``import pynvml`` in a child process replays the recording named by ``FAKE_NVML_RECORDING``.

Put this folder first on ``PYTHONPATH`` of a child (``tfcompat-gpu run``, a script) to give it a
machine with GPUs; see ``tests/nvmlfake.py``.
"""

import os
import sys

from nvmlfake import FakeNVML, recording

sys.modules[__name__] = FakeNVML(recording(os.environ["FAKE_NVML_RECORDING"]))  # type: ignore[assignment]
