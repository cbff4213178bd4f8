import asyncio
import logging

logger = logging.getLogger(__name__)


async def catch_everything_and_restart(func):
    try:
        return await func()  # expect: RES201 "notify_loudly"
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        logger.error("task crashed: %s", exc)
        await asyncio.sleep(5)
        return await catch_everything_and_restart(func)
