from dataclasses import dataclass
from typing import Dict, Optional

_current_config: Optional["SecureDropConfig"] = None


@dataclass(frozen=True)
class SecureDropConfig:
    REDIS_PASSWORD: str

    @property
    def REDIS_KWARGS(self) -> Dict[str, str]:
        """Keyword arguments for the `redis.Redis` constructor: no socket timeout among them."""
        return {"password": self.REDIS_PASSWORD}

    @property
    def BOUNDED_REDIS_KWARGS(self) -> Dict[str, object]:
        return {"password": self.REDIS_PASSWORD, "socket_timeout": 5}

    @classmethod
    def get_current(cls) -> "SecureDropConfig":
        global _current_config
        if _current_config is None:
            _current_config = SecureDropConfig(REDIS_PASSWORD="x")
        return _current_config
