import asyncio
import random

import aiohttp.client_exceptions
from decorator import decorator


class HttpError(Exception):
    pass


@decorator
async def retry_request(func, retries=6, *args, **kwargs):
    for retry in range(retries):
        try:
            if retry > 0:
                await asyncio.sleep(min(random.random() + 2 ** (retry - 1), 32))
            return await func(*args, **kwargs)
        except (HttpError, aiohttp.client_exceptions.ClientError) as e:
            if retry == retries - 1:
                raise e
            continue
