import random
import time

import urllib3


class RetryFailedError(Exception):
    pass


class Retry:
    """patroni's shape: an object that retries the function it is called with."""

    def __init__(self, max_tries=1, delay=0.1, retry_exceptions=Exception):
        self.max_tries = max_tries
        self.delay = delay
        self.retry_exceptions = retry_exceptions

    def copy(self):
        return Retry(max_tries=self.max_tries, delay=self.delay, retry_exceptions=self.retry_exceptions)

    def __call__(self, func, *args, **kwargs):
        attempts = 0
        while True:
            try:
                return func(*args, **kwargs)  # expect: RES204 "`func` (`_tag_ec2`) -> `create_tags`"
            except self.retry_exceptions:
                if attempts == self.max_tries:
                    raise RetryFailedError("too many attempts")
                attempts += 1
                time.sleep(self.delay * random.random())


def with_retry(func, *args):
    """A function that retries the function it is handed, with the arguments after it."""
    for attempt in range(4):
        try:
            return func(*args)  # expect: RES204 "`func` (`notify`) -> `request`: a hand-written retry loop 4 attempts"
        except (OSError, urllib3.exceptions.HTTPError):
            if attempt == 3:
                raise
            time.sleep(random.uniform(0, 2 ** attempt))
