# select: RES204
from typing import Any, Awaitable, Callable

import backoff
import httpx
from kiota_abstractions.api_error import APIError

TRANSIENT = (httpx.ReadError, httpx.ConnectError)


async def call_with_retries(func: Callable, *args: Any, exception_types: tuple = TRANSIENT) -> Any:
    # what the callers that pass no ``exception_types`` retry: transport errors only
    @backoff.on_exception(backoff.expo, exception_types, max_tries=3)
    async def _attempt() -> Any:
        # the handed function runs inside this closure: each caller's, not all of them
        return await func(*args)  # expect: RES204 "through `func` (`get_group_owners`) -> `get_paginated`"

    return await _attempt()


async def get_paginated(first_page: Callable[[], Awaitable[Any]]) -> list:
    restarts = 0
    while True:
        try:
            # an SDK method on every path: the loop does not reach itself through ``func``
            page = await call_with_retries(first_page)
            return list(page.value or [])
        except APIError as error:
            # only an expired page token restarts the listing; transport errors leave
            if error.response_status_code == 400 and restarts < 5:
                restarts += 1
                continue
            raise
