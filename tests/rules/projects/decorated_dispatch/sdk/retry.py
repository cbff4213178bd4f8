import functools
import random
import time

import httpx


def retried(attempts=3):
    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            for attempt in range(attempts):
                try:
                    return fn(*args, **kwargs)
                except httpx.TransportError:
                    if attempt == attempts - 1:
                        raise
                    time.sleep(random.uniform(0, 2 ** attempt))
        return wrapper
    return decorate
