from .client import AsyncAnthropic
from .runner import Runner


async def main(result) -> None:
    runner = Runner(AsyncAnthropic("https://api.anthropic.com"), "sess_1")
    await runner._run()
    await runner._send_result(result)
