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
    # only the test settings turn ENABLE_POSTPONE off
    def decorator(*args, **kwargs):
        if settings.ENABLE_POSTPONE:
            Thread(target=function, args=args, kwargs=kwargs).start()
        else:
            return function(*args, **kwargs)

    return decorator


def postpone_unless_asked(function):
    # the caller chooses: run_now=True runs it in the caller's transaction
    def decorator(*args, run_now=False, **kwargs):
        if not run_now:
            Thread(target=function, args=args, kwargs=kwargs).start()
        else:
            return function(*args, **kwargs)

    return decorator


def logged(function):
    def wrapper(*args, **kwargs):
        print("calling", function.__name__)
        return function(*args, **kwargs)

    return wrapper
