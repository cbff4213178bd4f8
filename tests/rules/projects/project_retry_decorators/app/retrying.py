import functools
import random
import time

import requests


def with_retries(attempts=3, base=0.5):
    def decorate(function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            for attempt in range(attempts):
                try:
                    return function(*args, **kwargs)
                except requests.ConnectionError:
                    if attempt == attempts - 1:
                        raise
                    time.sleep(random.uniform(0, base * 2**attempt))

        return wrapper

    return decorate


def retry_forever(function):
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        while True:  # expect: RES203
            try:
                return function(*args, **kwargs)
            except requests.ConnectionError:
                time.sleep(5)  # expect: RES202

    return wrapper


def logged(function):
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        print("calling", function.__name__)
        return function(*args, **kwargs)

    return wrapper
