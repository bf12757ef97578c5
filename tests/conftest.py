"""Fixtures for the whole suite.

Running code in a child interpreter (anything that changes TensorFlow's process-wide state) is
:mod:`tests._child`'s job: ``from tests._child import run_py, ...``.
"""

from __future__ import annotations

import os
import tempfile

import pytest

try:
    from hypothesis import settings
except ImportError:  # the property tests skip themselves
    settings = None
else:
    # CI (noxfile) runs the property tests on the examples a fixed seed draws, so that a stop's
    # result does not depend on the draw; a run without the profile explores new examples.
    settings.register_profile("ci", derandomize=True, database=None)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# `check` and `migrate` keep a cache in the user's cache folder: the suite's runs keep theirs
# apart, one per test (below), so that no test is answered from another's run.  Children keep
# the test's folder (tests/_child.py).
os.environ.setdefault("TFCOMPAT_GPU_CACHE_DIR", tempfile.mkdtemp(prefix="tfcompat-gpu-cache-"))


@pytest.fixture(autouse=True)
def _own_cache(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    monkeypatch.setenv("TFCOMPAT_GPU_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
