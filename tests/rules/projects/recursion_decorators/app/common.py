import asyncio
import random
import time
from functools import wraps

from app.constants import API_RETRY_COUNT


class TemporaryError(Exception):
    pass


def calculate_backoff(retrycount, max_retries):
    return random.uniform(0, (max_retries - retrycount) ** 2 + 1)


def retrier(_func=None, *, retries=API_RETRY_COUNT):
    def decorator(f):
        @wraps(f)
        def wrapper(*args, **kwargs):
            count = kwargs.pop("count", retries)
            try:
                return f(*args, **kwargs)
            except TemporaryError as ex:
                if count > 0:
                    count -= 1
                    kwargs.update({"count": count})
                    time.sleep(calculate_backoff(count + 1, retries))
                    return wrapper(*args, **kwargs)
                raise ex

        return wrapper

    # both @retrier and @retrier(retries=2)
    if _func is None:
        return decorator
    return decorator(_func)


def retrier_async(f):
    async def wrapper(*args, **kwargs):
        count = kwargs.pop("count", API_RETRY_COUNT)
        try:
            return await f(*args, **kwargs)
        except TemporaryError:
            if count > 0:
                count -= 1
                kwargs["count"] = count
                await asyncio.sleep(random.uniform(0, 2))
                return await wrapper(*args, **kwargs)
            raise

    return wrapper
