import contextlib
import time


class MockClock(contextlib.ContextDecorator):
    # named as a double, but it keeps no network double on
    def __enter__(self):
        self.start = time.monotonic()
        return self

    def __exit__(self, *exc):
        return False
