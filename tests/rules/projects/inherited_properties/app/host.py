from .coresys import CoreSys, CoreSysAttributes
from .logs import LogsControl


class HostManager(CoreSysAttributes):
    def __init__(self, coresys: CoreSys):
        self.coresys = coresys
        self._logs = LogsControl(coresys)

    @property
    def logs(self) -> LogsControl:
        return self._logs
