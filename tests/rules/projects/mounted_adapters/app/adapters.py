import threading
import time

from requests.adapters import HTTPAdapter


class RateLimitAdapter(HTTPAdapter):
    # beets' adapter: it paces the requests and hands every argument on as it came
    def __init__(self, interval=0.25, **kwargs):
        super().__init__(**kwargs)
        self.interval = interval
        self.lock = threading.Lock()

    def send(self, request, *args, **kwargs):
        with self.lock:
            time.sleep(self.interval)
        return super().send(request, *args, **kwargs)


class TimeoutAdapter(HTTPAdapter):
    def send(self, request, **kwargs):
        kwargs["timeout"] = kwargs.get("timeout") or 10
        return super().send(request, **kwargs)


class StrictTimeoutAdapter(TimeoutAdapter):
    pass
