# select: RES201
import asyncio
import functools

from api.errors import ApiError, GaveUp, TryAgain


def with_retries(func):
    @functools.wraps(func)
    async def wrapper(*args, **kwargs):
        for attempt in range(5):
            try:
                return await func(*args, **kwargs)
            except TryAgain:
                await asyncio.sleep(2 ** attempt)
        raise GaveUp()
    return wrapper


def with_api_retries(func):
    @functools.wraps(func)
    async def wrapper(*args, **kwargs):
        for attempt in range(5):
            try:
                return await func(*args, **kwargs)
            except ApiError:
                await asyncio.sleep(2 ** attempt)
        raise GaveUp()
    return wrapper

