import functools

from requests.exceptions import RequestException


def reinitialize_on_error(method):
    """Starts the provider again and repeats the call once after an error of requests."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        attempt = 1
        while True:
            try:
                return method(self, *args, **kwargs)
            except RequestException:
                if attempt > 1:
                    raise
                self.initialize()
                attempt += 1

    return wrapper
