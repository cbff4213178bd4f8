from concurrent.futures import ThreadPoolExecutor
from threading import Thread

from django.conf import settings

_POOL = ThreadPoolExecutor(max_workers=4)


def postpone(function):
    def decorator(*args, **kwargs):
        thread = Thread(target=function, args=args, kwargs=kwargs)
        thread.daemon = True
        thread.start()

    return decorator


def in_background(function):
    def wrapper(*args, **kwargs):
        return _POOL.submit(function, *args, **kwargs)

    return wrapper


def postpone_unless_testing(function):
    # in tests the function runs at once, in the caller's transaction
    def decorator(*args, **kwargs):
        if settings.ENABLE_POSTPONE:
            Thread(target=function, args=args, kwargs=kwargs).start()
        else:
            return function(*args, **kwargs)

    return decorator


def logged(function):
    def wrapper(*args, **kwargs):
        print("calling", function.__name__)
        return function(*args, **kwargs)

    return wrapper
