# select: RES102
# A project API that waits for its own work, until done unless its caller asks for a deadline.
import asyncio
from typing import Optional

import anyio


class RunWaiter:
    _events: dict = {}

    @classmethod
    async def wait_for_run(cls, run_id: str, timeout: Optional[float] = None) -> None:
        done = cls._events.setdefault(run_id, asyncio.Event())
        with anyio.move_on_after(delay=timeout):
            await done.wait()
