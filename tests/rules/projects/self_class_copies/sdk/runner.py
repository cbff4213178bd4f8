# select: RES204
from __future__ import annotations

import random

import anyio
import httpx

from ._base import APIError
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .client import AsyncAnthropic
    from .events import AsyncEvents

SEND_RETRIES = 3


def _scoped_client(client: AsyncAnthropic) -> AsyncAnthropic:
    return client.with_options()


class Runner:
    def __init__(self, client: AsyncAnthropic, session_id: str) -> None:
        self._scoped = _scoped_client(client)
        self.session_id = session_id

    async def _run(self) -> None:
        self._events: AsyncEvents = self._scoped.sessions.events

    async def _send_result(self, result) -> bool:
        for i in range(SEND_RETRIES):
            try:
                await self._events.send(self.session_id, events=[result])  # expect: RES204 "a hand-written retry loop 3 attempts (sdk/runner.py:32) x a hand-written retry loop (attempts unknown) (sdk/_base.py:21)"
                return True
            except (httpx.HTTPError, APIError):
                if i < SEND_RETRIES - 1:
                    await anyio.sleep(i + 1 + random.random())
        return False
