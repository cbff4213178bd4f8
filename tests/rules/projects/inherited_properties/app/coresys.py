from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .host import HostManager


class CoreSys:
    def __init__(self):
        self._host: HostManager | None = None

    @property
    def host(self) -> HostManager:
        return self._host

    @host.setter
    def host(self, value: HostManager) -> None:
        self._host = value


class CoreSysAttributes:
    coresys: CoreSys

    @property
    def sys_host(self) -> HostManager:
        return self.coresys.host
