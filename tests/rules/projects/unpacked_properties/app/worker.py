from redis import Redis
from rq.queue import Queue

from app.sdconfig import SecureDropConfig


def create_queue(name: str, timeout: int = 3600) -> Queue:
    config = SecureDropConfig.get_current()
    return Queue(name=name, connection=Redis(**config.REDIS_KWARGS), default_timeout=timeout)  # expect: RES101
