from __future__ import annotations

import pytest

from resilint.runtime import get_metrics
from resilint.runtime.testing import FakeClock, reset_registries


@pytest.fixture(autouse=True)
def _fresh_runtime_state():
    reset_registries()
    get_metrics().reset()
    yield
    reset_registries()


@pytest.fixture
def clock():
    """A manual clock installed as the default for every runtime component."""
    from resilint.runtime import use_clock

    fake = FakeClock(start=0.0, seed=7)
    with use_clock(fake):
        yield fake
