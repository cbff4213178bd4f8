import random
import time

ATTEMPTS = 3


def with_retries(fn, attempts=ATTEMPTS):
    """Retries whatever callable it is given."""
    for attempt in range(attempts):
        try:
            return fn()  # expect: RES201 "`fn` sends a POST (`requests.post`) through `<lambda at 12:25>`"
        except OSError:
            time.sleep(random.uniform(0, 2 ** attempt))
    raise RuntimeError("gave up")


def run_now(fn):
    return fn()
