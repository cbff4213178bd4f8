# select: RES101
import redis

SOCKET_TIMEOUT = 5


class RedisBroker:
    def __init__(self, *, url=None, client=None, **parameters):
        if url:
            parameters["connection_pool"] = redis.ConnectionPool.from_url(url, socket_timeout=SOCKET_TIMEOUT)
        self.client = client or redis.Redis(**parameters)


def make_client():
    return redis.Redis


BROKER = RedisBroker()  # expect: RES101
CACHE = redis.Redis()  # expect: RES101
