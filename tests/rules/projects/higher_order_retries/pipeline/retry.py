import random
import time

import urllib3

ATTEMPTS = 4


def call_with_retries(fn, *args, **kwargs):
    """Retries whatever function it is given."""
    for attempt in range(ATTEMPTS):
        try:
            return fn(*args, **kwargs)  # expect: RES204 "`fn` (`fetch_page`) -> `request`: a hand-written retry loop 4 attempts"
        except (OSError, urllib3.exceptions.HTTPError):
            if attempt == ATTEMPTS - 1:
                raise
            time.sleep(random.uniform(0, 2 ** attempt))
