"""A wrapper reached through a property (`CoreSys.host`) that also has a setter."""
from aiohttp import ClientTimeout

from .coresys import CoreSysAttributes


class APIHost(CoreSysAttributes):
    async def _get_container_last_epoch(self, identifier: str) -> str:
        async with self.sys_host.logs.journald_logs(
            path="/entries",
            timeout=ClientTimeout(total=10),  # expect: RES103
        ) as resp:
            return await resp.text()
