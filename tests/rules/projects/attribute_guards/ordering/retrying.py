import random
import time
from functools import wraps


def retry_on(errors, attempts=5):
    def decorate(function):
        @wraps(function)
        def wrapper(*args, **kwargs):
            for attempt in range(attempts):
                try:
                    return function(*args, **kwargs)
                except errors:
                    if attempt == attempts - 1:
                        raise
                    time.sleep(random.random())

        return wrapper

    return decorate
