# select: RES203, RES204
import asyncio
import functools
from concurrent.futures import ThreadPoolExecutor
from getpass import getpass


async def ainput(prompt: str = "", *, hide: bool = False):
    """input() without blocking the event loop"""
    with ThreadPoolExecutor(1) as executor:
        func = functools.partial(getpass if hide else input, prompt)
        return await asyncio.get_event_loop().run_in_executor(executor, func)
