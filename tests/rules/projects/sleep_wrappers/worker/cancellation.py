import time
from contextvars import ContextVar

_token = ContextVar("token", default=None)


class Token:
    def __init__(self, event):
        self._event = event

    def sleep(self, seconds):
        if self._event.wait(seconds):
            raise RuntimeError("cancelled")


def cancellable_sleep(seconds):
    """A plain sleep outside a cancellable task."""
    token = _token.get()
    if token is not None:
        token.sleep(seconds)
    else:
        time.sleep(seconds)


def log_wait(seconds):
    print(f"waiting {seconds} s")


class Throttled:
    # apprise's ``URLBase.throttle``: a pause given by keyword, slept as it came
    request_rate = 0

    def throttle(self, last_io=None, wait=None):
        if wait is not None:
            time.sleep(wait)
        elif self.request_rate:
            time.sleep(self.request_rate)
