from contextlib import asynccontextmanager

from aiohttp import ClientSession, ClientTimeout, UnixConnector

from .coresys import CoreSysAttributes


class LogsControl(CoreSysAttributes):
    def __init__(self, coresys):
        self.coresys = coresys

    @asynccontextmanager
    async def journald_logs(self, path: str = "/entries", timeout: ClientTimeout | None = None):
        connector = UnixConnector(path="/run/systemd-journal-gatewayd.sock")
        async with ClientSession(base_url="http://localhost/", connector=connector) as session:
            async with session.get(path, timeout=timeout) as resp:
                yield resp

    async def get_identifiers(self):
        # the wrapper given a literal timeout in its own module
        async with self.journald_logs(path="/fields/SYSLOG_IDENTIFIER", timeout=ClientTimeout(total=20)) as resp:  # expect: RES103
            return (await resp.text()).split("\n")
