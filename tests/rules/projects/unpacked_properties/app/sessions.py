from redis import Redis

from app.sdconfig import SecureDropConfig


def get_interface(app_config: dict, sdconfig: SecureDropConfig) -> dict:
    config = app_config.copy()
    config.setdefault("SESSION_REDIS", Redis(**sdconfig.REDIS_KWARGS))  # expect: RES101 "`**SecureDropConfig.REDIS_KWARGS`"
    return config


def bounded(sdconfig: SecureDropConfig) -> Redis:
    return Redis(**sdconfig.BOUNDED_REDIS_KWARGS)
