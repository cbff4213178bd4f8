"""A correct user program: mypy --strict must find nothing in it
(tests/runtime/test_runtime_typing.py)."""

from __future__ import annotations

import asyncio
from typing import Optional

import httpx

from resilint.runtime import (
    AsyncResilientClient,
    AsyncResilientTransport,
    CircuitBreaker,
    HttpPolicy,
    ResilientClient,
    ResilientTransport,
    deadline,
    idempotency_key,
    remaining,
    retry,
    retrying,
    timeout,
)


@retry
def plain(x: int) -> str:
    return str(x)


@retry(attempts=3, dependency="rates")
def rates(currency: str, *, precise: bool = False) -> float:
    return 1.0 if precise else 2.0


@retry(attempts=2)
async def fetch(url: str) -> bytes:
    await asyncio.sleep(0)
    return url.encode()


def loop() -> str:
    key = ""
    for attempt in retrying(attempts=3, dependency="x"):
        with attempt:
            attempt.check(None)
            key = idempotency_key()
    return key


async def aloop() -> int:
    n = 0
    async for attempt in retrying(dependency="x"):
        with attempt:
            n += attempt.number
    return n


def main() -> None:
    text: str = plain(1)
    value: float = rates("EUR", precise=True)
    data: bytes = asyncio.run(fetch("http://x"))
    doubled: float = CircuitBreaker("b").call(rates, "EUR", precise=True)
    with deadline(2.0) as current:
        left: Optional[float] = remaining()
        connect: float = timeout(read=1.0).connect
    policy: HttpPolicy = HttpPolicy("search", attempts=2)
    transport: ResilientTransport = ResilientTransport(dependency="search", breaker=True)
    client: httpx.Client = httpx.Client(transport=transport)
    aclient = httpx.AsyncClient(transport=AsyncResilientTransport(policy))
    both: httpx.Client = ResilientClient(dependency="search", verify=True)
    aboth: httpx.AsyncClient = AsyncResilientClient(policy=policy)
    print(text, value, data, doubled, current, left, connect, client, aclient, both, aboth, loop(), aloop)
